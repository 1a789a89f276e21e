"""The button, fantasy carry-over and time banks from one hand to the next.

Seats are numbered ``0 .. players - 1`` clockwise; "left of" a seat is the next seat
clockwise. ``Rotation`` is an immutable value: ``after`` returns the rotation for the next
hand, so a match or tournament can validate a whole hand before changing anything.

The button moves one seat clockwise, to the next seat still playing, after every hand except
into a hand in which someone plays fantasy (when ``button_on_fantasy`` is ``stays``): that
hand keeps the button, and so the order of play, of the hand before it ("the order of play
stays as in the previous deal", seed 003); the hand after it moves on as usual. The button
always moves off a seat that has left. With ``closing`` (a match), a move that would bring the
button back to a seat it has already visited instead closes the circle: the button then stays
put for any further hands (see ``docs/match.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from ofc.rules.errors import MatchError
from ofc.rules.rulebook import ButtonOnFantasy, Rules
from ofc.rules.scoring import ScoreSheet


@dataclass(frozen=True)
class DealPlan:
    """What a hand needs from its match: who plays, the button, fantasies and time banks.

    The per-seat tuples are aligned with ``seats`` (ascending seat numbers), which is also
    the order of the score sheet the hand returns.
    """

    hand: int
    """Number of the hand in its match or tournament, from 0."""
    seats: tuple[int, ...]
    """The seats dealt in, in seat order."""
    button: int
    fantasy: tuple[int, ...]
    """Cards of each seat's fantasy deal this hand; 0 for a normal hand."""
    fantasy_in_row: tuple[int, ...]
    """How many fantasy hands in a row this hand completes for each seat (0: normal hand)."""
    time_banks: tuple[Decimal, ...]
    """Each seat's time bank left, in seconds."""

    @property
    def order(self) -> tuple[int, ...]:
        """The seats in acting order: first the one left of the button, the button last."""
        start = self.button_index + 1
        return self.seats[start:] + self.seats[:start]

    @property
    def button_index(self) -> int:
        """The button's position in ``seats``: its seat number within the hand."""
        return self.seats.index(self.button)

    @property
    def any_fantasy(self) -> bool:
        """Whether anyone plays this hand in fantasy."""
        return any(self.fantasy)

    def index(self, seat: int) -> int:
        """Position of ``seat`` in the per-seat tuples (and in the score sheet)."""
        if seat not in self.seats:
            raise MatchError("seat {seat} is not dealt in hand {hand}", seat=seat, hand=self.hand)
        return self.seats.index(seat)


@dataclass(frozen=True)
class Rotation:
    """Button, seats still playing, fantasies pending and time banks between hands."""

    rules: Rules
    active: tuple[int, ...]
    button: int
    fantasy: tuple[int, ...]
    """Per seat: cards of the fantasy deal pending for the next hand (0 if none)."""
    streak: tuple[int, ...]
    """Per seat: fantasy hands in a row completed by the seat's last hand (0 if normal)."""
    time_banks: tuple[Decimal, ...]
    visited: frozenset[int]
    circle_closed: bool = False
    hands: int = 0

    @staticmethod
    def start(rules: Rules, button: int) -> Rotation:
        """The rotation before the first hand, the button on ``button``."""
        seats = rules.players
        if isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < seats:
            raise MatchError(
                "button seat {button!r} is not a seat of a {seats}-player table", button=button, seats=seats
            )
        return Rotation(
            rules=rules,
            active=tuple(range(seats)),
            button=button,
            fantasy=(0,) * seats,
            streak=(0,) * seats,
            time_banks=(rules.time_bank_seconds,) * seats,
            visited=frozenset({button}),
        )

    @property
    def fantasy_pending(self) -> bool:
        """Whether a seat still playing has a fantasy to play next hand."""
        return any(self.fantasy[seat] for seat in self.active)

    def plan(self) -> DealPlan:
        """The deal plan of the next hand."""
        return DealPlan(
            hand=self.hands,
            seats=self.active,
            button=self.button,
            fantasy=tuple(self.fantasy[seat] for seat in self.active),
            fantasy_in_row=tuple(self.streak[seat] + 1 if self.fantasy[seat] else 0 for seat in self.active),
            time_banks=tuple(self.time_banks[seat] for seat in self.active),
        )

    def after(
        self,
        earned: Mapping[int, int],
        time_banks: Mapping[int, Decimal],
        leaving: frozenset[int],
        *,
        closing: bool,
    ) -> Rotation:
        """The rotation for the next hand.

        ``earned[seat]`` is the fantasy deal each seat earned (from the score sheet),
        ``time_banks`` the banks left, ``leaving`` the seats that leave after this hand.
        """
        plan = self.plan()
        fantasy = list(self.fantasy)
        streak = list(self.streak)
        banks = list(self.time_banks)
        for seat, in_row in zip(plan.seats, plan.fantasy_in_row, strict=True):
            streak[seat] = in_row
            fantasy[seat] = self._allowed(earned[seat], in_row) if seat not in leaving else 0
            banks[seat] = time_banks[seat]
        active = tuple(seat for seat in self.active if seat not in leaving)
        fantasy_next = any(fantasy[seat] for seat in active)
        button, visited, closed = self._next_button(active, fantasy_next, closing)
        return replace(
            self,
            active=active,
            button=button,
            fantasy=tuple(fantasy),
            streak=tuple(streak),
            time_banks=tuple(banks),
            visited=visited,
            circle_closed=closed,
            hands=self.hands + 1,
        )

    def _allowed(self, cards: int, in_row: int) -> int:
        """The fantasy actually granted: none when fantasy is off or the streak is at its limit."""
        limit = self.rules.fantasy_max_in_row
        if not self.rules.fantasy or (limit is not None and in_row >= limit):
            return 0
        return cards

    def _next_button(
        self, active: tuple[int, ...], fantasy_next: bool, closing: bool
    ) -> tuple[int, frozenset[int], bool]:
        """Button, seats visited and whether the circle is closed, for the next hand.

        ``fantasy_next``: someone still playing plays the next hand in fantasy.
        """
        if not active:
            return self.button, self.visited, self.circle_closed
        stays = fantasy_next and self.rules.button_on_fantasy is ButtonOnFantasy.STAYS
        if self.button in active:
            full_circle = closing and self.visited.issuperset(active)
            if stays or self.circle_closed or full_circle:
                return self.button, self.visited, self.circle_closed or full_circle
        button = next_seat(self.button, active, self.rules.players)
        closed = self.circle_closed or (closing and self.visited.issuperset(active))
        return button, self.visited | {button}, closed


def next_seat(seat: int, active: tuple[int, ...], seats: int) -> int:
    """The first seat of ``active`` clockwise after ``seat`` (``seat`` itself need not play)."""
    for step in range(1, seats + 1):
        candidate = (seat + step) % seats
        if candidate in active:
            return candidate
    raise MatchError("no seat is left at the table")


@dataclass(frozen=True)
class HandOutput:
    """A hand's output, checked against its plan: the result matrix, fantasies, banks."""

    vs: tuple[tuple[int, ...], ...]
    """``vs[a][b]``: what the ``a``-th dealt seat wins from the ``b``-th (plan order)."""
    earned: Mapping[int, int]
    """Per dealt seat: cards of the fantasy deal the sheet says it earned."""
    time_banks: Mapping[int, Decimal]
    """Per dealt seat: time bank left after the hand."""

    def widen(self, plan: DealPlan, seats: int) -> tuple[tuple[int, ...], ...]:
        """The result as a seat-indexed ``seats`` x ``seats`` matrix (zeros for the others)."""
        where = {seat: k for k, seat in enumerate(plan.seats)}
        return tuple(
            tuple(self.vs[where[i]][where[j]] if i in where and j in where else 0 for j in range(seats))
            for i in range(seats)
        )


def read_output(plan: DealPlan, sheet: ScoreSheet, time_banks: Sequence[object] | None, rules: Rules) -> HandOutput:
    """Check a hand's score sheet and time banks against its plan and ``rules``; raise ``MatchError``."""
    if not isinstance(sheet, ScoreSheet):
        raise MatchError("expected a ScoreSheet, got {kind}", kind=type(sheet).__name__)
    seats = plan.seats
    if len(sheet.players) != len(seats):
        raise MatchError(
            "hand {hand} dealt {n_seats} seats {seats} but the score sheet has {n_players} players",
            hand=plan.hand,
            n_seats=len(seats),
            seats=list(seats),
            n_players=len(sheet.players),
        )
    vs = tuple(tuple(player.vs) for player in sheet.players)
    for a, seat in enumerate(seats):
        if len(vs[a]) != len(seats):
            raise MatchError("score sheet line of seat {seat} has {count} results", seat=seat, count=len(vs[a]))
    for a, seat in enumerate(seats):
        for b, other in enumerate(seats):
            value = vs[a][b]
            if isinstance(value, bool) or not isinstance(value, int) or value != -vs[b][a]:
                raise MatchError(
                    "score sheet is not zero-sum: seat {seat} wins {value!r} from seat {other}, seat {other} "
                    "wins {back!r} from seat {seat}",
                    seat=seat,
                    value=value,
                    other=other,
                    back=vs[b][a],
                )
    earned: dict[int, int] = {}
    sizes = rules.fantasy_deal_sizes
    for seat, player, played in zip(seats, sheet.players, plan.fantasy, strict=True):
        cards = player.fantasy
        if isinstance(cards, bool) or not isinstance(cards, int) or cards < 0:
            raise MatchError("seat {seat}: fantasy deal {cards!r} is not a card count", seat=seat, cards=cards)
        if cards and cards not in sizes:
            allowed = ", ".join(str(size) for size in sorted(sizes))
            raise MatchError(
                "seat {seat}: no fantasy deal has {cards} cards under these rules ({allowed})",
                seat=seat,
                cards=cards,
                allowed=allowed,
            )
        if cards and played and cards != rules.repeat_fantasy_cards:
            raise MatchError(
                "seat {seat}: a repeat fantasy deals {repeat_fantasy_cards} cards under these rules, not {cards}",
                seat=seat,
                repeat_fantasy_cards=rules.repeat_fantasy_cards,
                cards=cards,
            )
        earned[seat] = cards
    return HandOutput(vs, earned, _read_banks(plan, time_banks))


def _read_banks(plan: DealPlan, time_banks: Sequence[object] | None) -> dict[int, Decimal]:
    if time_banks is None:
        return dict(zip(plan.seats, plan.time_banks, strict=True))
    if isinstance(time_banks, str | bytes) or len(time_banks) != len(plan.seats):
        raise MatchError(
            "hand {hand} needs {n_seats} time banks, one per seat dealt", hand=plan.hand, n_seats=len(plan.seats)
        )
    banks: dict[int, Decimal] = {}
    for seat, before, value in zip(plan.seats, plan.time_banks, time_banks, strict=True):
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            raise MatchError("seat {seat}: time bank {value!r} is not a number of seconds", seat=seat, value=value)
        left = Decimal(value)
        if not 0 <= left <= before:
            raise MatchError(
                "seat {seat}: time bank left {left} is outside 0..{before} seconds", seat=seat, left=left, before=before
            )
        banks[seat] = left
    return banks
