"""The ``pro`` bot: a value learned from self-play ranks the candidates and plays the play-outs.

For a street decision the bot values every legal placement by the learned board value
(``ofc.fast.pro_value``, weights shipped in ``ofc/bots/weights/pro.npz``), keeps the
``candidates`` best (``DEFAULT_CANDIDATES``) and plays the rest of the hand out from each
(``ofc.fast.pro_rollout``), all candidates on the same shuffles, until the time
(``DEFAULT_SECONDS`` a decision) or play-out budget is spent. In the play-outs the bot's own
seat places by the learned value and the other seats as the variant's style says (by default
the static evaluation in pineapple and classic, the learned value in turbo). The best mean,
less the style's charges on fouls, wins. The last street needs no policy for the viewer: its
board is final and the play-outs draw only the cards still unseen for the others.
``last_choices`` keeps every candidate's mean and 95% half-width, best first (the hints show
the first three). Fantasy hands are set by the exact solver, like every bot.

The seat's **last decision** is priced exactly (``rank_last``): every legal placement is a
candidate, each finished board's foul, royalties and fantasy are exact, and when at most one
other seat still has a normal deal to place (and its possible deals number at most
``EXACT_DEALS``) every deal it can receive is counted once (``ofc.fast.pro_last``), so the
values carry no sampling error. Otherwise (two seats still to act, a hidden fantasy board) the
other boards are completed by the play-outs, all candidates on the same shuffles. Either way a
fouling placement is never chosen while a placement that does not foul exists.

The ranking follows the variant's **style** (``ofc.bots.pro_style``): in pineapple, charges on
the candidates' shares of fouled play-outs (from street 3) and of plain fouls (from street 2),
per opponent, a fantasy priced at 18 in the play-outs and the opponents played out by the
static evaluation (``playouts="own"``); in classic a charge of 7 on fouled play-outs from
street 2, the opponents played out statically too; in turbo the mean alone, every seat learned. The
values reported (``last_choices``, the hints) are the means never charged, repriced with a
fantasy at the bot's own ``fantasy_value`` (the weights' 12 unless given): a play-out's value
is linear in the fantasy price, and the kernels sum its slope, the fantasy balance (``ofc.fast.rollout.seat_value``).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from math import comb

import numpy as np

from ofc.bots.arrays import KernelRules, after_action, kernel_rules, playouts
from ofc.bots.base import Decision, check_can_act, fantasy_decision, legal_actions
from ofc.bots.budget import run_within_budget
from ofc.bots.pro_style import Style, style_for
from ofc.bots.pro_weights import shipped_weights
from ofc.engine.actions import Action
from ofc.engine.view import HandView
from ofc.fast.evaluation import P_FANTASY
from ofc.fast.pro_last import finished_fouls, last_street_values
from ofc.fast.pro_rollout import pro_rollouts
from ofc.fast.pro_value import learned_values
from ofc.fast.rollout import Playouts
from ofc.rules.errors import BotError
from ofc.rules.rulebook import Rules

EVERY_SEAT = -1
"""The bit mask with every seat in it (``learned_seats``)."""
Z95 = 1.959963984540054
"""The standard normal quantile of 0.975: a mean plus or minus Z95 standard errors covers 95%."""
EXACT_DEALS = 5_000
"""The most deals left to one other seat that the last street counts one by one: heads-up pineapple's
three cards from 24 unseen make 2,024, classic's one card a few dozen; turbo's four cards from
about thirty (27,405 deals) are sampled instead."""


@dataclass(frozen=True)
class Choice:
    """A candidate action, its mean play-out value (points, a fantasy at the bot's ``fantasy_value``),
    the 95% half-width of that mean, the share of its play-outs in which the seat's board fouled
    (0 or 1 for a board priced exactly on the last street, ``None`` for a choice neither played
    out nor priced), and the score it was ranked by: the mean with the style's fantasy price less
    the style's charges on fouls (``ofc.bots.pro_style``)."""

    action: Action
    value: float
    ci95: float
    foul: float | None
    score: float


def street_index(rules: Rules, placed: int) -> int:
    """The index of the street whose deal a seat with ``placed`` cards on its board places (the
    last street's if no street starts there)."""
    streets = rules.spec.streets
    total = 0
    for i, street in enumerate(streets):
        if total == placed:
            return i
        total += street.place
    return len(streets) - 1


def run_playouts(
    job: Playouts, kernel: KernelRules, weights: np.ndarray, first: int, n: int, seed: int,
    sums: np.ndarray, squares: np.ndarray, tallies: np.ndarray | None = None, learned: int = EVERY_SEAT,
) -> None:  # fmt: skip
    """``pro_rollouts`` from Python (``tallies``, if given, shape ``(candidates, 3)``, counts each
    candidate's fouled play-outs, of them the plain fouls (whose top is no fantasy top), and sums
    the play-outs' fantasy balance, ``ofc.fast.rollout.seat_value``; the seats in the bit mask
    ``learned`` place by ``weights``, the others by the static evaluation)."""
    t = kernel.tables
    if tallies is None:
        tallies = np.zeros((len(sums), 3), dtype=np.float64)
    pro_rollouts(
        job.me, job.boards, job.counts, job.cand_boards, job.cand_counts, job.pool, job.burn,
        job.player, job.cards, job.discards, job.fantasy, job.in_row, job.fantasy_rules,
        first, n, seed, kernel.params, weights, learned,
        t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, t.top, t.middle, t.bottom,
        sums, squares, tallies,
    )  # fmt: skip


def learned_seats(policy: str, me: int) -> int:
    """The bit mask of the seats whose play-outs place by the learned value under ``policy``
    (``ofc.bots.pro_style.PLAYOUTS``): every seat, ``me`` alone (``own``) or none (``static``)."""
    if policy == "static":
        return 0
    return 1 << me if policy == "own" else EVERY_SEAT


def pro_kernel(view: HandView, fantasy_value: float) -> KernelRules:
    """Kernel arguments pricing a fantasy entry at ``fantasy_value`` points per opponent."""
    return kernel_rules(view.rules, fantasy_value * (len(view.seats) - 1))


_warm = False


def warm_last_street(weights: np.ndarray) -> None:
    """Compile (or load) the last-street kernels once per process, on a made-up finished board.

    The first decision of a process is the one callers warm up untimed (``ofc.sim.simulate.warm_up``,
    the server's workers); without this the first last street would compile them on the clock.
    """
    global _warm
    if _warm:
        return
    _warm = True
    kernel = kernel_rules(Rules(), 12.0)
    t = kernel.tables
    cands = np.arange(13, dtype=np.int64).reshape(1, 13)
    boards = np.zeros((2, 13), dtype=np.int64)
    counts = np.zeros((2, 3), dtype=np.int64)
    pool = np.arange(13, 52, dtype=np.int64)
    streaks = np.zeros(2, dtype=np.int64)
    fantasy = np.zeros(3, dtype=np.int64)
    out = np.zeros(1, dtype=np.float64)
    balance = np.zeros(1, dtype=np.float64)
    fouled = np.zeros(1, dtype=np.bool_)
    finished_fouls(cands, t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, fouled)
    last_street_values(
        0, boards, counts, cands, pool, -1, 0, 0, streaks, fantasy, kernel.params, weights,
        t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, t.top, t.middle, t.bottom, out, balance,
    )  # fmt: skip


def charge(style: Style, street: int, fouls: np.ndarray, opponents: int = 1) -> np.ndarray:
    """Points taken off each candidate's mean when ranking on ``street`` (from 1), given its foul
    shares ``fouls`` (every foul, plain fouls) per row, against ``opponents`` other seats.

    The charges are per opponent, like the fantasy price (``pro_kernel``) and the points a
    foul costs: against two opponents a candidate's mean spans twice the points, so an
    unscaled charge would weigh half as much against it.
    """
    out = np.zeros(len(fouls), dtype=np.float64)
    if street >= style.safety_from:
        out += style.safety * fouls[:, 0]
    if street >= style.plain_from:
        out += style.plain_safety * fouls[:, 1]
    return out * opponents


def finished_fouled(boards: np.ndarray, kernel: KernelRules) -> np.ndarray:
    """Whether each finished board of ``boards`` fouls."""
    t = kernel.tables
    fouled = np.zeros(len(boards), dtype=np.bool_)
    finished_fouls(boards, t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, fouled)
    return fouled


def exact_last(
    job: Playouts, boards: np.ndarray, kernel: KernelRules, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, int] | None:
    """The exact mean value and fantasy balance of each finished board of ``boards`` and the deals
    counted, when at most one other seat has a normal deal to place (of at most ``EXACT_DEALS``
    deals); None when the other boards must be played out instead."""
    seat = -1 if len(job.player) == 0 else int(job.player[0])
    exact = len(job.player) == 0 or (
        len(job.player) == 1 and not job.fantasy[0] and comb(len(job.pool), int(job.cards[0])) <= EXACT_DEALS
    )
    if not exact:
        return None
    t = kernel.tables
    means = np.zeros(len(boards), dtype=np.float64)
    balance = np.zeros(len(boards), dtype=np.float64)
    deals = last_street_values(
        job.me, job.boards, job.counts, boards, job.pool, seat,
        int(job.cards[0]) if seat >= 0 else 0, int(job.discards[0]) if seat >= 0 else 0,
        job.in_row, job.fantasy_rules, kernel.params, weights,
        t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, t.top, t.middle, t.bottom, means, balance,
    )  # fmt: skip
    return means, balance, int(deals)


class ProBot:
    """Learned value plus play-outs under it; ``seconds`` and/or ``rollouts`` bound a decision."""

    DEFAULT_SECONDS = 0.19
    DEFAULT_CANDIDATES = 10

    def __init__(
        self,
        *,
        seconds: float | None = DEFAULT_SECONDS,
        rollouts: int | None = None,
        candidates: int = DEFAULT_CANDIDATES,
        fantasy_value: float | None = None,
        seed: int | None = None,
        name: str = "pro",
        safety: float | None = None,
        safety_from: int | None = None,
        plain_safety: float | None = None,
        plain_from: int | None = None,
        playouts: str | None = None,
    ) -> None:
        if seconds is None and rollouts is None:
            raise BotError("pro needs a time budget (seconds) or a number of rollouts, or both")
        self.name = name
        self.seconds = seconds
        self.rollouts = rollouts
        self.candidates = candidates
        given = {
            "safety": safety, "safety_from": safety_from, "plain_safety": plain_safety,
            "plain_from": plain_from, "fantasy_value": fantasy_value, "playouts": playouts,
        }  # fmt: skip
        self.given = frozenset(name for name, value in given.items() if value is not None)
        """The style fields set by the caller; the others come from the variant's default (``style``)."""
        self.overrides = Style(
            safety=safety or 0.0,
            safety_from=safety_from or 1,
            plain_safety=plain_safety or 0.0,
            plain_from=plain_from or 1,
            fantasy_value=fantasy_value,
            playouts=playouts or "learned",
        )
        weights = shipped_weights()
        self.fantasy_value = weights.fantasy_value if fantasy_value is None else fantasy_value
        """The fantasy price given, else the weights' own (what ``ofc.bots.analysis`` prices by); the bot ranks
        by its variant's style (``style``)."""
        self.weights = weights
        self._rng = random.Random(seed)
        self.last_choices: tuple[Choice, ...] = ()
        self.last_rollouts = 0
        self.last_exact = False
        """Whether the last decision's values were exact (the last street, every deal counted)."""

    def decide(self, view: HandView) -> Decision:
        """The candidate with the best mean play-out value, and that value."""
        check_can_act(view)
        warm_last_street(self.weights.for_variant(view.rules.variant.value))
        if view.in_fantasy:
            decision = fantasy_decision(view)
            value = decision.value or 0.0
            self.last_choices = (Choice(decision.action, value, 0.0, None, value),)
            return decision
        actions = list(legal_actions(view))
        self.last_choices = self.rank(view, actions, self.candidates, self.seconds, self.rollouts)
        best = self.last_choices[0]
        return Decision(best.action, best.value)

    def rank(
        self, view: HandView, actions: list[Action], keep: int, seconds: float | None, rollouts: int | None
    ) -> tuple[Choice, ...]:
        """The ``keep`` best of ``actions`` by the learned value, played out, best first."""
        start = time.perf_counter()
        style = self.style(view.rules.variant.value)
        kernel = self.ranking_kernel(view)
        weights = self.weights.for_variant(view.rules.variant.value)
        rows = view.seats[check_can_act(view)].rows
        built = [after_action(rows, action) for action in actions]
        boards = np.array([b for b, _ in built], dtype=np.int64)
        counts = np.array([c for _, c in built], dtype=np.int64)
        if int(counts.sum(axis=1).min()) == 13:
            return self.rank_last(view, actions, boards, counts, kernel, weights, seconds, rollouts, start)
        self.last_exact = False
        prior = self.prior(view, actions, kernel, weights)
        chosen = [int(i) for i in np.argsort(-prior, kind="stable")[:keep]]
        if len(chosen) == 1 and rollouts is None:
            value = float(prior[chosen[0]])
            return (Choice(actions[chosen[0]], value, math.inf, None, value),)
        job = playouts(view, boards[chosen], counts[chosen])
        placed = int(sum(len(row) for row in rows))
        learned = learned_seats(style.playouts, job.me)
        means, spread, fouls, balance = self.sample(job, kernel, weights, seconds, rollouts, start, learned)
        ranked = means - charge(style, street_index(view.rules, placed) + 1, fouls, len(view.seats) - 1)
        values = self.repriced(view, kernel, means, balance)
        order = sorted(range(len(chosen)), key=lambda i: -float(ranked[i]))
        return tuple(
            Choice(actions[chosen[i]], float(values[i]), float(spread[i]), float(fouls[i, 0]), float(ranked[i]))
            for i in order
        )

    def repriced(self, view: HandView, kernel: KernelRules, means: np.ndarray, balance: np.ndarray) -> np.ndarray:
        """``means`` played out with a fantasy priced by ``kernel``, repriced at the bot's own
        ``fantasy_value``: a play-out's value is linear in the price, with slope its mean
        fantasy balance (``balance``, ``ofc.fast.rollout.seat_value``)."""
        shift = kernel.params[P_FANTASY] - pro_kernel(view, self.fantasy_value).params[P_FANTASY]
        return means - shift * balance if shift else means

    def ranking_kernel(self, view: HandView) -> KernelRules:
        """The kernel arguments this bot plays out ``view`` with: a fantasy priced by its style."""
        price = self.style(view.rules.variant.value).fantasy_value
        return pro_kernel(view, self.fantasy_value if price is None else price)

    def style(self, variant: str) -> Style:
        """The charges and fantasy price this bot ranks by in ``variant``: the variant's default
        style (``ofc.bots.pro_style``) with the options given to the bot."""
        return style_for(variant, self.overrides, self.given)

    def sample(
        self, job: Playouts, kernel: KernelRules, weights: np.ndarray, seconds: float | None, rollouts: int | None,
        start: float, learned: int = EVERY_SEAT,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
        """Each candidate's mean play-out value, its 95% half-width, the shares of its play-outs
        that fouled and that fouled plainly (one row of two per candidate) and its mean fantasy
        balance (the mean's slope in the fantasy bonus). The seats in the bit mask ``learned``
        play out by the learned value, the others by the static evaluation (``learned_seats``)."""
        n = len(job.cand_boards)
        sums = np.zeros(n, dtype=np.float64)
        squares = np.zeros(n, dtype=np.float64)
        tallies = np.zeros((n, 3), dtype=np.float64)
        seed = self._rng.getrandbits(31)
        done = run_within_budget(
            lambda first, count: run_playouts(
                job, kernel, weights, first, count, seed, sums, squares, tallies, learned
            ),
            seconds,
            rollouts,
            start,
        )
        self.last_rollouts = done
        means = sums / done
        spread = Z95 * np.sqrt(np.maximum(squares / done - means**2, 0.0) / max(done - 1, 1))
        shares = tallies / done
        return means, spread, shares[:, :2], shares[:, 2]

    def rank_last(
        self, view: HandView, actions: list[Action], boards: np.ndarray, counts: np.ndarray, kernel: KernelRules,
        weights: np.ndarray, seconds: float | None, rollouts: int | None, start: float,
    ) -> tuple[Choice, ...]:  # fmt: skip
        """Every one of ``actions`` (each finishing the board) by its exact value, best first.

        Fouling boards go last whatever their value (a foul never beats a board that stands on
        the same deals, but it can tie one that is scooped everywhere).
        """
        job = playouts(view, boards, counts)
        fouled = finished_fouled(boards, kernel)
        counted = exact_last(job, boards, kernel, weights)
        exact = counted is not None
        if counted is not None:
            means, balance, deals = counted
            spread = np.zeros(len(actions), dtype=np.float64)
            self.last_rollouts = deals
        else:
            learned = learned_seats(self.style(view.rules.variant.value).playouts, job.me)
            means, spread, _, balance = self.sample(job, kernel, weights, seconds, rollouts, start, learned)
        self.last_exact = exact
        values = self.repriced(view, kernel, means, balance)
        order = sorted(range(len(actions)), key=lambda i: (bool(fouled[i]), -float(means[i])))
        return tuple(
            Choice(actions[i], float(values[i]), float(spread[i]), float(fouled[i]), float(means[i])) for i in order
        )

    def prior(self, view: HandView, actions: list[Action], kernel: KernelRules, weights: np.ndarray) -> np.ndarray:
        """The learned value of the board each of ``actions`` leaves."""
        rows = view.seats[check_can_act(view)].rows
        built = [after_action(rows, action) for action in actions]
        boards = np.array([b for b, _ in built], dtype=np.int64)
        counts = np.array([c for _, c in built], dtype=np.int64)
        out = np.empty(len(actions), dtype=np.float64)
        seen = 0
        for card in [*view.cards, *(c for seat in view.seats for row in seat.rows for c in row)]:
            seen |= 1 << card
        t = kernel.tables
        learned_values(
            boards, counts, seen, kernel.params, weights,
            t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, t.top, t.middle, t.bottom, out,
        )  # fmt: skip
        return out

    def act(self, view: HandView) -> Action:
        """``decide(view).action``."""
        return self.decide(view).action
