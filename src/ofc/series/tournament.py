"""A single-table tournament: chips, rising levels, table stakes, eliminations and prizes.

Every seat buys in for ``buy_in`` and gets ``starting_chips``. A hand's points are paid in
chips at the level's ``chips_per_point`` (level = hands played // ``level_hands``, the last
level lasting for ever). Nobody pays more chips than they have: ``ofc.series.ledger.cap_losses``
with each player's chips as their cap shares a short stack pro rata among its creditors.
Chips are whole, so the exact shares are rounded by largest remainder (ties to the seat
nearest the button's left); a player who could not pay in full ends on exactly zero.

A player left with no chips is out. Players out in the same hand are placed by the chips they
started the hand with (more chips, better place); equal stacks share the places they cover
and split those places' prizes equally. The last player left wins. The button and fantasies
behave as in a match, with no end of circle: the tournament runs until one player is left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal
from fractions import Fraction
from math import floor

from ofc.rules.errors import MatchError, RulesError
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import ScoreSheet
from ofc.series.ledger import Matrix, cap_losses
from ofc.series.rotation import DealPlan, Rotation, read_output

CENT = Decimal("0.01")
"""Prizes are paid in whole cents, rounded down; what rounding leaves goes to the winner."""


@dataclass(frozen=True)
class Finish:
    """A finishing place; ``tied`` players share places ``place .. place + tied - 1``."""

    place: int
    tied: int = 1


@dataclass(frozen=True)
class TournamentHand:
    """One hand of a tournament as settled. Seat-indexed tuples cover every seat."""

    plan: DealPlan
    sheet: ScoreSheet
    level: int
    """Level of the hand, from 0."""
    chips_per_point: int
    exact: Matrix
    """``exact[i][j]``: chips seat ``i`` won from seat ``j`` before rounding to whole chips."""
    capped: frozenset[int]
    """Seats that could not pay in full and lost every chip."""
    won: tuple[int, ...]
    """Net chips won per seat (after rounding)."""
    chips: tuple[int, ...]
    """Chips per seat after the hand."""
    busted: tuple[int, ...]
    """Seats out in this hand, best finish first."""


class Tournament:
    """A tournament of ``rules.players`` entrants at one table, the first button on ``button``."""

    def __init__(self, rules: Rules, *, button: int) -> None:
        if len(rules.payouts) > rules.players:
            raise RulesError(
                "setting payouts: {n_payouts} places paid but {players} players",
                n_payouts=len(rules.payouts),
                players=rules.players,
            )
        self.rules = rules
        self._rotation = Rotation.start(rules, button)
        self._chips = (rules.starting_chips,) * rules.players
        self._finishes: dict[int, Finish] = {}
        self._hands: list[TournamentHand] = []

    # ------------------------------------------------------------------ state

    @property
    def entrants(self) -> int:
        """Number of players who bought in."""
        return self.rules.players

    @property
    def prize_pool(self) -> Decimal:
        """Buy-ins of all entrants."""
        return self.rules.buy_in * self.entrants

    @property
    def level(self) -> int:
        """Level of the next hand, from 0 (the last level lasts for ever)."""
        last = len(self.rules.chips_per_point) - 1
        return min(len(self._hands) // self.rules.level_hands, last)

    @property
    def chips_per_point(self) -> int:
        """Chips paid per point in the next hand."""
        return self.rules.chips_per_point[self.level]

    @property
    def chips(self) -> tuple[int, ...]:
        """Chips per seat."""
        return self._chips

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the tournament."""
        return self._rotation.active

    @property
    def button(self) -> int:
        """The seat holding the button for the next hand."""
        return self._rotation.button

    @property
    def finished(self) -> bool:
        """Whether one player is left."""
        return len(self._rotation.active) < 2

    @property
    def finishes(self) -> Mapping[int, Finish]:
        """Finishing places of the seats that are out (and of the winner once finished)."""
        return dict(self._finishes)

    @property
    def hands(self) -> tuple[TournamentHand, ...]:
        """Every hand recorded so far."""
        return tuple(self._hands)

    # ------------------------------------------------------------------ play

    def next_deal(self) -> DealPlan:
        """The plan of the next hand."""
        if self.finished:
            raise MatchError("the tournament is over after {n_hands} hands", n_hands=len(self._hands))
        return self._rotation.plan()

    def record(self, sheet: ScoreSheet, time_banks: Sequence[Decimal | int] | None = None) -> TournamentHand:
        """Settle the hand of ``next_deal()`` in chips; raise ``MatchError`` changing nothing."""
        plan = self.next_deal()
        output = read_output(plan, sheet, time_banks, self.rules)
        rate = self.chips_per_point
        points = output.widen(plan, self.rules.players)
        owed = [[value * rate for value in row] for row in points]
        caps = [self._chips[seat] if seat in plan.seats else None for seat in range(len(owed))]
        settlement = cap_losses(owed, caps)
        won = round_chips(settlement.points, plan.order, self._chips)
        chips = tuple(before + delta for before, delta in zip(self._chips, won, strict=True))
        busted = tuple(sorted((s for s in plan.seats if chips[s] == 0), key=lambda s: -self._chips[s]))
        finishes = dict(self._finishes)
        finishes.update(bust_finishes(busted, self._chips, len(plan.seats)))
        rotation = self._rotation.after(output.earned, output.time_banks, frozenset(busted), closing=False)
        if len(rotation.active) == 1:
            finishes[rotation.active[0]] = Finish(1)
        hand = TournamentHand(plan, sheet, self.level, rate, settlement.vs, settlement.capped, won, chips, busted)
        self._rotation, self._chips, self._finishes = rotation, chips, finishes
        self._hands.append(hand)
        return hand

    def prizes(self) -> tuple[Decimal, ...]:
        """Prize per seat once the tournament is over (see ``split_prizes``)."""
        if not self.finished:
            raise MatchError("prizes are paid when one player is left; {n_active} are", n_active=len(self.active))
        return split_prizes(self.prize_pool, self.rules.payouts, self._finishes)


def chip_results(
    vs: Sequence[Sequence[int]], rate: int, stacks: Sequence[int], order: Sequence[int]
) -> tuple[int, ...]:
    """Whole chips won per seat of one hand: points ``vs`` at ``rate`` chips a point, table stakes
    with ``stacks`` as caps, rounded by ``round_chips`` (ties in acting ``order``).

    The settlement of ``Tournament.record`` for a hand whose seats all hold chips; a hand
    history of a tournament hand is checked with it.
    """
    settlement = cap_losses([[value * rate for value in row] for row in vs], list(stacks))
    return round_chips(settlement.points, order, stacks)


def round_chips(
    exact: Sequence[Fraction], order: Sequence[int], stacks: Sequence[int] | None = None
) -> tuple[int, ...]:
    """Whole-chip results summing to the same total as ``exact`` (a whole number).

    Everyone gets the floor of their exact share; the chips left over go one each to the
    largest fractional parts, ties to the seat that comes first in ``order``. Given the
    ``stacks`` before the hand, a seat whose exact stack stays above zero is served first, so
    rounding alone never knocks a player out.
    """
    floors = [floor(value) for value in exact]
    spare = sum(exact, Fraction(0)) - sum(floors)
    if spare.denominator != 1:
        raise MatchError("chip results add up to {exact}, not whole chips", exact=sum(exact, Fraction(0)))
    rank = {seat: k for k, seat in enumerate(order)}

    def rounded_out(seat: int) -> bool:
        return stacks is not None and stacks[seat] + floors[seat] <= 0 < stacks[seat] + exact[seat]

    fractional = [seat for seat, value in enumerate(exact) if value != floors[seat]]
    fractional.sort(key=lambda seat: (not rounded_out(seat), floors[seat] - exact[seat], rank.get(seat, len(rank))))
    for seat in fractional[: int(spare)]:
        floors[seat] += 1
    return tuple(floors)


def bust_finishes(busted: Sequence[int], stacks: Sequence[int], remaining: int) -> dict[int, Finish]:
    """Places of the seats out in one hand, ``remaining`` players having started it.

    ``busted`` may come in any order; the seat with the bigger starting stack finishes
    higher, equal stacks share the places they cover (all get the best of them).
    """
    finishes: dict[int, Finish] = {}
    place = remaining - len(busted) + 1
    for stack in sorted({stacks[seat] for seat in busted}, reverse=True):
        group = [seat for seat in busted if stacks[seat] == stack]
        for seat in group:
            finishes[seat] = Finish(place, len(group))
        place += len(group)
    return finishes


def split_prizes(pool: Decimal, payouts: Sequence[Decimal], finishes: Mapping[int, Finish]) -> tuple[Decimal, ...]:
    """Each seat's prize: ``pool`` times its place's share, tied places split equally.

    Amounts are rounded down to the cent; the cents left over go to first place, so the
    prizes add up to ``pool`` exactly.
    """
    seats = len(finishes)
    prizes = [Decimal(0)] * seats
    for seat, finish in finishes.items():
        first = finish.place - 1
        share = sum(payouts[first : first + finish.tied], Decimal(0))
        prizes[seat] = (pool * share / finish.tied).quantize(CENT, rounding=ROUND_DOWN)
    winner = next(seat for seat, finish in finishes.items() if finish.place == 1)
    prizes[winner] += pool - sum(prizes, Decimal(0))
    return tuple(prizes)
