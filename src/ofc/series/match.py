"""A match: hands dealt round the button, fantasy carried over, a money ledger, a loss limit.

The match never plays a hand itself: ``next_deal`` says who is dealt in, where the button is,
who plays fantasy and with how many cards, and each seat's time bank; the caller plays the
hand and hands back its ``ScoreSheet`` (seats in plan order) and time banks to ``record``.

- The match ends after the hand that completes the button's circle (every seat still playing
  has had the button once), unless someone then has a fantasy pending: further hands are dealt,
  the button staying where it is, until a hand ends with no fantasy pending. It also ends as
  soon as fewer than two players are left.
- With ``loss_limit``, a player's net loss in the match is capped at exactly that many points
  (see ``ofc.series.ledger.cap_losses``); the player then leaves the match.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ofc.rules.errors import BalanceError, MatchError
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import ScoreSheet
from ofc.series.ledger import Ledger, Matrix, Number, amount_text, cap_losses
from ofc.series.rotation import DealPlan, Rotation, read_output

Balances = Mapping[int, Number] | Sequence[Number]


def join_cost(rules: Rules) -> Decimal | None:
    """The balance a player needs to join a match: ``loss_limit * point_value`` (or none)."""
    if rules.loss_limit is None:
        return None
    return rules.loss_limit * rules.point_value


def can_join(balance: Number, rules: Rules) -> bool:
    """Whether ``balance`` covers the most a player can lose in a match under ``rules``."""
    cost = join_cost(rules)
    return cost is None or Fraction(balance) >= Fraction(cost)


def check_join(seat: int, balance: Number, rules: Rules, held: Number = 0) -> None:
    """Raise ``BalanceError`` naming ``seat`` when its balance cannot cover the loss limit.

    ``held`` is the part of the balance already at stake elsewhere (other matches' limits).
    """
    if can_join(Fraction(balance) - Fraction(held), rules):
        return
    facts = {"seat": seat, "balance": amount_text(balance), "point_value": rules.point_value, "cost": join_cost(rules)}
    if held and rules.loss_limit == 1:
        raise BalanceError(
            "seat {seat}: balance {balance} ({held} of it held at other tables) does not cover the loss limit "
            "of 1 point at {point_value} per point ({cost} needed)",
            held=amount_text(held),
            **facts,
        )
    if held:
        raise BalanceError(
            "seat {seat}: balance {balance} ({held} of it held at other tables) does not cover the loss limit "
            "of {loss_limit} points at {point_value} per point ({cost} needed)",
            held=amount_text(held),
            loss_limit=rules.loss_limit,
            **facts,
        )
    if rules.loss_limit == 1:
        raise BalanceError(
            "seat {seat}: balance {balance} does not cover the loss limit of 1 point at {point_value} per point "
            "({cost} needed)",
            **facts,
        )
    raise BalanceError(
        "seat {seat}: balance {balance} does not cover the loss limit of {loss_limit} "
        "points at {point_value} per point ({cost} needed)",
        loss_limit=rules.loss_limit,
        **facts,
    )


@dataclass(frozen=True)
class HandRecord:
    """One hand of a match as settled. Seat-indexed tuples cover every seat of the table."""

    plan: DealPlan
    sheet: ScoreSheet
    vs: Matrix
    """``vs[i][j]``: points seat ``i`` actually won from seat ``j`` (after the loss limit)."""
    capped: frozenset[int]
    """Seats whose loss was cut to the loss limit in this hand."""
    left: tuple[int, ...]
    """Seats that reached the loss limit and left the match after this hand."""
    point_value: Fraction

    @property
    def points(self) -> tuple[Fraction, ...]:
        """Net points per seat in this hand."""
        return tuple(sum(row, Fraction(0)) for row in self.vs)

    @property
    def money(self) -> tuple[Fraction, ...]:
        """Net money per seat in this hand."""
        return tuple(points * self.point_value for points in self.points)


class Match:
    """One match at a table of ``rules.players`` seats, the first button on ``button``."""

    def __init__(self, rules: Rules, *, button: int, balances: Balances | None = None) -> None:
        self.rules = rules
        self._start_balances = _read_balances(balances, rules)
        self._rotation = Rotation.start(rules, button)
        self._ledger = Ledger.empty(rules.players, rules.point_value)
        self._hands: list[HandRecord] = []

    @staticmethod
    def random_button(rules: Rules, rng: random.Random) -> int:
        """A button seat drawn with ``rng``."""
        return rng.randrange(rules.players)

    # ------------------------------------------------------------------ state

    @property
    def finished(self) -> bool:
        """Whether the match is over (no more hands are dealt)."""
        rotation = self._rotation
        if len(rotation.active) < 2:
            return True
        return rotation.circle_closed and not rotation.fantasy_pending

    @property
    def button(self) -> int:
        """The seat holding the button for the next hand."""
        return self._rotation.button

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the match."""
        return self._rotation.active

    @property
    def hands(self) -> tuple[HandRecord, ...]:
        """Every hand recorded so far."""
        return tuple(self._hands)

    @property
    def ledger(self) -> Ledger:
        """Running totals in points and money."""
        return self._ledger

    @property
    def time_banks(self) -> tuple[Decimal, ...]:
        """Each seat's time bank left, in seconds."""
        return self._rotation.time_banks

    @property
    def balances(self) -> tuple[Fraction, ...] | None:
        """Starting balances plus money won so far, when balances were given."""
        if self._start_balances is None:
            return None
        money = self._ledger.money
        return tuple(b + m for b, m in zip(self._start_balances, money, strict=True))

    # ------------------------------------------------------------------ play

    def next_deal(self) -> DealPlan:
        """The plan of the next hand."""
        if self.finished:
            raise MatchError("the match is over after {n_hands} hands", n_hands=len(self._hands))
        return self._rotation.plan()

    def record(self, sheet: ScoreSheet, time_banks: Sequence[Decimal | int] | None = None) -> HandRecord:
        """Settle the hand of ``next_deal()``: its score sheet and time banks (plan order).

        ``time_banks`` omitted leaves the banks as they were. Raises ``MatchError`` and
        changes nothing when the match is over or the input does not fit the plan.
        """
        plan = self.next_deal()
        output = read_output(plan, sheet, time_banks, self.rules)
        seats = self.rules.players
        settlement = cap_losses(output.widen(plan, seats), self._caps(plan))
        ledger = self._ledger.plus(settlement.vs)
        limit = self.rules.loss_limit
        left = tuple(seat for seat in plan.seats if limit is not None and ledger.points[seat] <= -limit)
        self._rotation = self._rotation.after(output.earned, output.time_banks, frozenset(left), closing=True)
        self._ledger = ledger
        record = HandRecord(plan, sheet, settlement.vs, settlement.capped, left, self._ledger.point_value)
        self._hands.append(record)
        return record

    def _caps(self, plan: DealPlan) -> list[Fraction | None]:
        """What each seat may still lose in the match (none without a loss limit)."""
        limit = self.rules.loss_limit
        if limit is None:
            return [None] * self.rules.players
        points = self._ledger.points
        return [Fraction(limit) + points[seat] if seat in plan.seats else None for seat in range(self.rules.players)]


def _read_balances(balances: Balances | None, rules: Rules) -> tuple[Fraction, ...] | None:
    """Balances per seat, each checked against the loss limit."""
    if balances is None:
        return None
    seats = range(rules.players)
    if isinstance(balances, Mapping):
        extra = [seat for seat in balances if seat not in seats]
        if extra:
            raise MatchError("balance given for seat {extra!r}, not a seat of the table", extra=extra[0])
        missing = [seat for seat in seats if seat not in balances]
        if missing:
            raise MatchError("no balance given for seat {missing}", missing=missing[0])
        values = [balances[seat] for seat in seats]
    else:
        values = list(balances)
        if len(values) != rules.players:
            raise MatchError(
                "{n_values} balances given for {players} seats", n_values=len(values), players=rules.players
            )
    for seat, value in zip(seats, values, strict=True):
        if isinstance(value, bool) or not isinstance(value, int | Fraction | Decimal):
            raise MatchError("seat {seat}: balance {value!r} is not an amount of money", seat=seat, value=value)
        check_join(seat, value, rules)
    return tuple(Fraction(value) for value in values)
