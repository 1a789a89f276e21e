"""Hand analysis: each decision of a saved hand priced against the best choice the ``pro`` bot finds.

For every street decision of the analysed seats, the hand is replayed up to it and the seat's
view is taken (nothing it could not see). The ``candidates`` best placements by the learned
value, plus the one played, are each played out ``rollouts`` times under the learned policy,
all on the same shuffles (``ofc.fast.pro_rollout``). The **loss** of the decision is the best
mean minus the played move's mean; its 95% interval comes from the per-play-out differences
between the two (paired), so the shared luck cancels. A decision whose loss is at least
``flag`` points and whose interval lies above zero is flagged. When the played move is itself
the best, its loss is exactly 0 (the interval is 0 too). The best of several noisy means is
biased upwards a little, so small losses are within the noise; that is what the interval says.

Each decision's play-outs are seeded from the analysis seed and the action's index, so an
analysis is reproducible. Automatic placements and fantasy sets (the exact solver's job) are
listed but not priced.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from ofc.bots import ANALYSIS_CANDIDATES, ANALYSIS_FLAG, ANALYSIS_ROLLOUTS
from ofc.bots.arrays import after_action, playouts
from ofc.bots.base import legal_actions
from ofc.bots.pro import Z95, ProBot, pro_kernel, run_playouts
from ofc.engine.actions import Action
from ofc.engine.deals import derive_seed
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.fast.rollout import SEED_MASK
from ofc.formats.history import HandHistory, read
from ofc.rules.errors import HistoryError, OfcError

DEFAULT_ROLLOUTS = ANALYSIS_ROLLOUTS
DEFAULT_CANDIDATES = ANALYSIS_CANDIDATES
DEFAULT_FLAG = ANALYSIS_FLAG


def action_key(action: Action) -> tuple[frozenset[tuple[int, int]], frozenset[int]]:
    """An action's placements and discards regardless of order."""
    return frozenset((card, int(row)) for card, row in action.placements), frozenset(action.discards)


@dataclass(frozen=True)
class Priced:
    """One choice of a decision: the action and its mean play-out value."""

    action: Action
    value: float


@dataclass(frozen=True)
class DecisionReport:
    """One decision of the hand: what was played, the best choice, the loss and its interval."""

    index: int
    seat: int
    street: int
    played: Action
    kind: str
    """``street`` (priced), ``fantasy`` or ``automatic`` (not priced)."""
    played_value: float | None = None
    choices: tuple[Priced, ...] = ()
    loss: float | None = None
    ci95: float | None = None
    flagged: bool = False

    def to_dict(self) -> dict[str, object]:
        """The ``--json`` entry of this decision."""
        return {
            "index": self.index,
            "seat": self.seat,
            "street": self.street,
            "kind": self.kind,
            "played": str(self.played),
            "played_value": self.played_value,
            "best": str(self.choices[0].action) if self.choices else None,
            "best_value": self.choices[0].value if self.choices else None,
            "top": [{"action": str(c.action), "value": c.value} for c in self.choices[:3]],
            "loss": self.loss,
            "ci95": self.ci95,
            "flagged": self.flagged,
        }


class Analyzer:
    """Prices decisions from views; the same seed prices the same view the same way."""

    def __init__(
        self,
        *,
        rollouts: int = DEFAULT_ROLLOUTS,
        candidates: int = DEFAULT_CANDIDATES,
        flag: float = DEFAULT_FLAG,
        seed: int = 0,
    ) -> None:
        if rollouts < 2:
            raise OfcError("analysis needs at least 2 play-outs per choice, not {rollouts}", rollouts=rollouts)
        if candidates < 1:
            raise OfcError("analysis needs at least 1 candidate, not {candidates}", candidates=candidates)
        self.rollouts = rollouts
        self.candidates = candidates
        self.flag = flag
        self.seed = seed
        self._bot = ProBot(rollouts=rollouts, seconds=None, seed=seed)

    def price(self, view: HandView, index: int, played: Action | None = None) -> tuple[list[Priced], float, float]:
        """The choices best first, and the played move's loss and 95% half-width (0, 0 if none played)."""
        actions = list(legal_actions(view))
        keys = [action_key(a) for a in actions]
        played_at = None
        if played is not None:
            key = action_key(played)
            if key not in keys:
                raise HistoryError(
                    "action {number} ({played}) is not a legal action of its view", number=index + 1, played=played
                )
            played_at = keys.index(key)
        bot = self._bot
        kernel = pro_kernel(view, bot.fantasy_value)
        weights = bot.weights.for_variant(view.rules.variant.value)
        prior = bot.prior(view, actions, kernel, weights)
        chosen = [int(i) for i in np.argsort(-prior, kind="stable")[: self.candidates]]
        if played_at is not None and played_at not in chosen:
            chosen.append(played_at)
        rows = view.seats[view.seat or 0].rows
        built = [after_action(rows, actions[i]) for i in chosen]
        job = playouts(
            view, np.array([b for b, _ in built], dtype=np.int64), np.array([c for _, c in built], dtype=np.int64)
        )
        seed = derive_seed(self.seed, index) & SEED_MASK
        values = np.zeros((len(chosen), self.rollouts), dtype=np.float64)
        sums = np.zeros(len(chosen), dtype=np.float64)
        squares = np.zeros(len(chosen), dtype=np.float64)
        for k in range(self.rollouts):
            sums[:] = 0.0
            run_playouts(job, kernel, weights, k, 1, seed, sums, squares)
            values[:, k] = sums
        means = values.mean(axis=1)
        order = np.argsort(-means, kind="stable")
        choices = [Priced(actions[chosen[i]], float(means[i])) for i in order]
        if played_at is None:
            return choices, 0.0, 0.0
        mine = chosen.index(played_at)
        best = int(order[0])
        if means[best] <= means[mine]:
            return choices, 0.0, 0.0
        diff = values[best] - values[mine]
        half = Z95 * float(diff.std(ddof=1)) / math.sqrt(self.rollouts)
        return choices, float(means[best] - means[mine]), half

    def analyse(self, history: HandHistory, seats: Iterable[int] | None = None) -> list[DecisionReport]:
        """Every decision of ``seats`` (default: all) in the hand, in order of play."""
        if history.is_copy:
            raise HistoryError(
                "a seat's copy holds no deck, so it cannot be replayed for analysis: use the full history"
            )
        wanted = set(range(history.rules.players) if seats is None else seats)
        for seat in wanted:
            if not 0 <= seat < history.rules.players:
                raise HistoryError("no seat {seat} at a {players}-seat table", seat=seat, players=history.rules.players)
        hand = history.deal()
        reports: list[DecisionReport] = []
        for index, record in enumerate(history.records):
            seat = record.action.seat
            if hand.actions_taken <= index:
                if seat in wanted:
                    reports.append(self._report(hand, index, record.action, record.automatic))
                _apply(hand, index, record.action, record.time, record.automatic)
        return reports

    def _report(self, hand: Hand, index: int, action: Action, automatic: bool) -> DecisionReport:
        view = hand.view(action.seat)
        if automatic:
            return DecisionReport(index, action.seat, view.street, action, "automatic")
        if view.in_fantasy:
            return DecisionReport(index, action.seat, view.street, action, "fantasy")
        choices, loss, half = self.price(view, index, action)
        key = action_key(action)
        played_value = next(c.value for c in choices if action_key(c.action) == key)
        flagged = loss >= self.flag and loss - half > 0
        return DecisionReport(
            index, action.seat, view.street, action, "street", played_value, tuple(choices), loss, half, flagged
        )


def _apply(hand: Hand, index: int, action: Action, time: Decimal, automatic: bool) -> None:
    try:
        if automatic:
            hand.advance(time)
        else:
            hand.apply(action, time)
    except OfcError as error:
        raise HistoryError("action {number}: {error}", number=index + 1, error=error) from None


def total_loss(reports: Sequence[DecisionReport]) -> float:
    """The summed loss of the priced decisions."""
    return sum(r.loss or 0.0 for r in reports)


def analyse_seat(document: Mapping[str, object], seat: int, seed: int = 0) -> dict[str, object]:
    """The server's analysis of one seat of a full (finished) hand history: its decisions with
    actions as protocol dicts (language-neutral), losses, intervals and flags, and the total."""
    reports = Analyzer(seed=seed).analyse(read(document), [seat])
    decisions = [
        {
            "index": r.index,
            "street": r.street,
            "kind": r.kind,
            "played": r.played.to_dict(),
            "played_value": r.played_value,
            "best": r.choices[0].action.to_dict() if r.choices else None,
            "best_value": r.choices[0].value if r.choices else None,
            "loss": r.loss,
            "ci95": r.ci95,
            "flagged": r.flagged,
        }
        for r in reports
    ]
    return {"seat": seat, "decisions": decisions, "total_loss": total_loss(reports)}
