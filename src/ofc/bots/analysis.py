"""Hand analysis: each decision of a saved hand priced as the ``pro`` bot's hint ranks it.

For every street decision of the analysed seats, the hand is replayed up to it and the seat's
view is taken (nothing it could not see). The analysis uses the hint's own evaluation
(``ofc.bots.hint``): the ``candidates`` best placements by the learned value, plus the one
played, are each played out ``rollouts`` times as the ``pro`` bot plays out (its variant's
style: the fantasy price, who places by the learned value), all on the same shuffles, and each
play-out is scored as the bot ranks: the points less the style's charge on a foul in it. A last
street the bot counts exactly is counted exactly here too. The **loss** of the decision is the
best mean score minus the played move's; its 95% interval comes from the per-play-out
differences between the two (paired), so the shared luck cancels. Its **noise** margin widens
that interval by the noise of a choice made on ``HINT_FLOOR`` play-outs (the fewest a hint shows
numbers for): a loss within it is **within noise**, what a hint's first choice may show by
chance. A decision whose loss is at least ``flag`` points and beyond that margin is flagged (a
mistake). When the played move is itself the best, its loss is exactly 0.

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
from ofc.bots.arrays import KernelRules, after_action, playouts
from ofc.bots.base import legal_actions
from ofc.bots.hint import HINT_FLOOR
from ofc.bots.pro import (
    Z95,
    ProBot,
    charge,
    exact_last,
    finished_fouled,
    learned_seats,
    run_playouts,
    street_index,
)
from ofc.engine.actions import Action
from ofc.engine.deals import derive_seed
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.fast.rollout import SEED_MASK, Playouts
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
    noise: float | None = None
    """The loss a move chosen on ``HINT_FLOOR`` play-outs may show by chance (95%)."""

    @property
    def within_noise(self) -> bool:
        """Whether the move lost something, but no more than a hint's own play-outs could explain."""
        return self.loss is not None and self.noise is not None and 0 < self.loss <= self.noise

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
            "noise": self.noise,
            "within_noise": self.within_noise,
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
        choices, loss, half, _ = self.judge(view, index, played)
        return choices, loss, half

    def judge(
        self, view: HandView, index: int, played: Action | None = None
    ) -> tuple[list[Priced], float, float, float]:
        """``price`` and the played move's noise margin: the half-width of its loss had the move been
        chosen on ``HINT_FLOOR`` play-outs of its own (0 where the values are exact)."""
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
        variant = view.rules.variant.value
        kernel = bot.ranking_kernel(view)
        weights = bot.weights.for_variant(variant)
        rows = view.seats[view.seat or 0].rows
        built = [after_action(rows, action) for action in actions]
        counts = np.array([c for _, c in built], dtype=np.int64)
        if int(counts.sum(axis=1).min()) == 13:
            boards = np.array([b for b, _ in built], dtype=np.int64)
            counted = exact_last(playouts(view, boards, counts), boards, kernel, weights)
            if counted is not None:
                return self._exact(actions, counted[0], finished_fouled(boards, kernel), played_at)
        prior = bot.prior(view, actions, kernel, weights)
        chosen = [int(i) for i in np.argsort(-prior, kind="stable")[: self.candidates]]
        if played_at is not None and played_at not in chosen:
            chosen.append(played_at)
        job = playouts(
            view,
            np.array([built[i][0] for i in chosen], dtype=np.int64),
            np.array([built[i][1] for i in chosen], dtype=np.int64),
        )
        values = self._scores(view, job, kernel, weights, derive_seed(self.seed, index) & SEED_MASK)
        means = values.mean(axis=1)
        order = np.argsort(-means, kind="stable")
        choices = [Priced(actions[chosen[i]], float(means[i])) for i in order]
        if played_at is None:
            return choices, 0.0, 0.0, 0.0
        mine = chosen.index(played_at)
        best = int(order[0])
        if means[best] <= means[mine]:
            return choices, 0.0, 0.0, 0.0
        spread = float((values[best] - values[mine]).std(ddof=1))
        half = Z95 * spread / math.sqrt(self.rollouts)
        noise = Z95 * spread * math.sqrt(1 / self.rollouts + 1 / HINT_FLOOR)
        return choices, float(means[best] - means[mine]), half, noise

    def _scores(self, view: HandView, job: Playouts, kernel: KernelRules, weights: np.ndarray, seed: int) -> np.ndarray:
        """Each candidate's score in each play-out (one row per candidate): its points less the
        style's charge on a foul in that play-out, as the ``pro`` bot ranks (``ofc.bots.pro.charge``)."""
        bot = self._bot
        style = bot.style(view.rules.variant.value)
        placed = int(sum(len(row) for row in view.seats[view.seat or 0].rows))
        street = street_index(view.rules, placed) + 1
        learned = learned_seats(style.playouts, job.me)
        n = len(job.cand_boards)
        values = np.zeros((n, self.rollouts), dtype=np.float64)
        sums = np.zeros(n, dtype=np.float64)
        squares = np.zeros(n, dtype=np.float64)
        tallies = np.zeros((n, 3), dtype=np.float64)
        for k in range(self.rollouts):
            sums[:] = 0.0
            tallies[:] = 0.0
            run_playouts(job, kernel, weights, k, 1, seed, sums, squares, tallies, learned)
            values[:, k] = sums - charge(style, street, tallies[:, :2], len(view.seats) - 1)
        return values

    @staticmethod
    def _exact(
        actions: list[Action], means: np.ndarray, fouled: np.ndarray, played_at: int | None
    ) -> tuple[list[Priced], float, float, float]:
        """A last street counted exactly: every choice by its exact value, fouls last (as the bot
        ranks, ``ProBot.rank_last``); the loss carries no sampling error."""
        order = sorted(range(len(actions)), key=lambda i: (bool(fouled[i]), -float(means[i])))
        choices = [Priced(actions[i], float(means[i])) for i in order]
        if played_at is None:
            return choices, 0.0, 0.0, 0.0
        return choices, max(0.0, float(means[order[0]] - means[played_at])), 0.0, 0.0

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
        choices, loss, half, noise = self.judge(view, index, action)
        key = action_key(action)
        played_value = next(c.value for c in choices if action_key(c.action) == key)
        flagged = loss >= self.flag and loss - noise > 0
        return DecisionReport(
            index, action.seat, view.street, action, "street", played_value, tuple(choices), loss, half, flagged, noise
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
            "noise": r.noise,
            "within_noise": r.within_noise,
            "flagged": r.flagged,
        }
        for r in reports
    ]
    return {"seat": seat, "decisions": decisions, "total_loss": total_loss(reports)}
