"""The Monte Carlo bot: try the most promising actions, play each out many times, keep the best.

For each decision the bot lists the seat's legal actions, keeps the ``candidates`` best by
the heuristic board evaluation, and plays the rest of the hand out from each of them with
``ofc.fast.rollout.rollouts``: unseen cards are sampled from what the view leaves unknown,
every seat then plays the heuristic policy, and the boards are scored exactly (rows, scoop,
royalties, fouls) plus ``fantasy_value`` points for entering fantasy (less the opponents'
share of theirs). Play-outs run in batches, all candidates on the same shuffles, until
``rollouts`` play-outs per candidate are done or ``seconds`` have passed; the candidate with
the best mean wins and that mean is the decision's value.
"""

from __future__ import annotations

import random
import time

import numpy as np

from ofc.bots.arrays import after_action, kernel_rules, playouts
from ofc.bots.base import TUNED_FANTASY_VALUE, Decision, check_can_act, fantasy_decision, legal_actions
from ofc.bots.budget import run_within_budget
from ofc.engine.actions import Action
from ofc.engine.view import HandView
from ofc.fast.evaluation import evaluate_boards
from ofc.fast.rollout import play_out
from ofc.rules.errors import BotError


class MonteCarloBot:
    """Chooses by simulation; ``seconds`` and/or ``rollouts`` bound the work of one decision."""

    DEFAULT_SECONDS = 0.5
    DEFAULT_CANDIDATES = 12
    DEFAULT_FANTASY = TUNED_FANTASY_VALUE

    def __init__(
        self,
        *,
        seconds: float | None = DEFAULT_SECONDS,
        rollouts: int | None = None,
        candidates: int = DEFAULT_CANDIDATES,
        fantasy_value: float = DEFAULT_FANTASY,
        seed: int | None = None,
        name: str = "mc",
    ) -> None:
        if seconds is None and rollouts is None:
            raise BotError("mc needs a time budget (seconds) or a number of rollouts, or both")
        self.name = name
        self.seconds = seconds
        self.rollouts = rollouts
        self.candidates = candidates
        self.fantasy_value = fantasy_value
        self._rng = random.Random(seed)
        self.last_rollouts = 0
        """Play-outs per candidate run for the last decision (for tests and tuning)."""

    def decide(self, view: HandView) -> Decision:
        """The action with the best mean play-out value, and that value."""
        start = time.perf_counter()
        seat = check_can_act(view)
        if view.in_fantasy:
            return fantasy_decision(view)
        kernel = kernel_rules(view.rules, self.fantasy_value)
        actions = list(legal_actions(view))
        rows = view.seats[seat].rows
        built = [after_action(rows, action) for action in actions]
        boards = np.array([b for b, _ in built], dtype=np.int64)
        counts = np.array([c for _, c in built], dtype=np.int64)
        prior = evaluate_boards(boards, counts, kernel.params, kernel.tables)
        keep = np.argsort(-prior, kind="stable")[: self.candidates]
        job = playouts(view, boards[keep], counts[keep])
        sums = np.zeros(len(keep), dtype=np.float64)
        seed = self._rng.getrandbits(31)
        done = run_within_budget(
            lambda first, count: play_out(job, first, count, seed, kernel.params, kernel.tables, sums),
            self.seconds,
            self.rollouts,
            start,
        )
        self.last_rollouts = done
        means = sums / done
        best = int(np.argmax(means))
        action: Action = actions[int(keep[best])]
        return Decision(action, float(means[best]))

    def act(self, view: HandView) -> Action:
        """``decide(view).action``."""
        return self.decide(view).action
