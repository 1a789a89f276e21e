"""One hand of OFC as a state machine: deal, legal actions, apply, clocks, views, showdown.

A hand is driven by values: ``apply(action, now)`` for a seat's decision and ``advance(now)``
for the passing of time; ``now`` is always passed in (the hand reads no clock). Typical loop::

    hand = Hand(Rules.preset("pineapple").with_settings({"players": 3}), button=0, seed=7)
    while not hand.is_over:
        hand.advance(now)                    # automatic placement of seats out of time
        seat = hand.to_act[0]
        hand.apply(rng.choice(hand.legal_actions(seat)), now)
    hand.result.sheet.points

Order of play: the seat left of the button acts first and the button last, street by street.
Everyone gets the five-card deal at the start; a seat gets a later street's cards when its
turn comes. Fantasy seats get all their cards at the start, may act at any time (their clocks
run from the start until they set) and are skipped in the street order; their boards stay
face-down until the showdown. ``view(seat)`` is the only way to look at a hand as a player.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from ofc.actions import ROW_INDEXES, ROW_SIZES, Action, ActionRecord, Row
from ofc.autoplace import auto_action
from ofc.cards import DECK_SIZE, Card, Deck, format_card
from ofc.clock import ClockReading, SeatClock, time_text, to_time
from ofc.errors import (
    ActionError,
    CardNotHeld,
    ClockError,
    DuplicateCard,
    HandOver,
    NoSuchSeat,
    NotYourTurn,
    OutOfTime,
    RowFull,
    SetupError,
    UnknownRow,
    WrongDiscardCount,
    WrongPlacementCount,
)
from ofc.legal import LegalActions
from ofc.result import HandResult
from ofc.rules import HAND_CARDS, Rules
from ofc.scoring import Board, score_boards
from ofc.view import HandView, SeatView


def _per_seat(name: str, values: Sequence[object], players: int) -> None:
    if values and len(values) != players:
        raise SetupError(f"{name} needs one entry per seat ({players}), got {len(values)}")


class Hand:
    """A hand of any variant for ``rules.players`` seats (numbered 0..players-1).

    ``fantasy[i]`` is the number of cards seat ``i`` is dealt in fantasy (0 = a normal hand);
    ``fantasy_in_row[i]`` how many fantasy hands in a row this hand completes for seat ``i``
    (default 1 for a fantasy seat, 0 otherwise); ``time_banks[i]`` the match time bank left
    (default ``rules.time_bank_seconds``). The deck is ``deck`` (dealt from its first card), or
    shuffled from ``seed``, or from the operating system's secure randomness.
    """

    __slots__ = (
        "_banks0",
        "_button",
        "_clocks",
        "_discards",
        "_fantasy",
        "_fantasy_in_row",
        "_fantasy_seats",
        "_held",
        "_log",
        "_next",
        "_now",
        "_order",
        "_play_order",
        "_result",
        "_rows",
        "_rules",
        "_seed",
        "_start",
        "_street",
        "_street_seats",
        "_streets",
        "_to_act",
        "_turn",
    )

    def __init__(
        self,
        rules: Rules,
        *,
        button: int,
        deck: Deck | None = None,
        seed: int | None = None,
        fantasy: Sequence[int] = (),
        fantasy_in_row: Sequence[int] = (),
        time_banks: Sequence[Decimal] = (),
        now: Decimal | float = 0,
    ) -> None:
        players = rules.players
        if isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < players:
            raise SetupError(f"button must be a seat from 0 to {players - 1}, not {button!r}")
        self._rules = rules
        self._button = button
        self._fantasy = self._read_fantasy(rules, fantasy)
        self._fantasy_in_row = self._read_streaks(fantasy_in_row)
        self._banks0 = self._read_banks(rules, time_banks)
        if deck is not None and seed is not None:
            raise SetupError("give a deck or a seed, not both")
        if deck is None:
            deck = Deck(seed)
        self._order = deck.order
        self._seed = deck.seed
        self._next = 0
        self._now = self._start = to_time(now)
        self._play_order = tuple((button + 1 + i) % players for i in range(players))
        self._street_seats = tuple(s for s in self._play_order if not self._fantasy[s])
        self._fantasy_seats = tuple(s for s in self._play_order if self._fantasy[s])
        self._streets = rules.spec.streets
        needed = sum(self._fantasy) + sum(s.cards for s in self._streets) * len(self._street_seats)
        if needed > DECK_SIZE:
            raise SetupError(f"this deal needs {needed} cards, more than a deck holds")
        self._rows: list[tuple[list[Card], list[Card], list[Card]]] = [([], [], []) for _ in range(players)]
        self._held: list[tuple[Card, ...]] = [() for _ in range(players)]
        self._discards: list[list[Card]] = [[] for _ in range(players)]
        self._clocks = [SeatClock(rules.hand_seconds, bank) for bank in self._banks0]
        self._log: list[ActionRecord] = []
        self._result: HandResult | None = None
        self._street = 0 if self._street_seats else len(self._streets)
        self._turn = 0
        for seat in self._play_order:
            self._held[seat] = self._deal(self._fantasy[seat] or self._streets[0].cards)
        self._to_act = self._seats_to_act()
        for seat in self._to_act:
            self._clocks[seat].start(self._now)

    # ------------------------------------------------------------------ set-up checks

    @staticmethod
    def _read_fantasy(rules: Rules, fantasy: Sequence[int]) -> tuple[int, ...]:
        _per_seat("fantasy", fantasy, rules.players)
        deals = rules.fantasy_deals
        out = tuple(fantasy) or (0,) * rules.players
        for seat, cards in enumerate(out):
            if cards and cards not in deals:
                allowed = ", ".join(str(n) for n in sorted(deals)) or "none (fantasy is off)"
                raise SetupError(f"seat {seat} cannot be dealt {cards} cards in fantasy: allowed {allowed}")
        return out

    def _read_streaks(self, streaks: Sequence[int]) -> tuple[int, ...]:
        _per_seat("fantasy_in_row", streaks, len(self._fantasy))
        out = tuple(streaks) or tuple(1 if cards else 0 for cards in self._fantasy)
        for seat, (cards, streak) in enumerate(zip(self._fantasy, out, strict=True)):
            if (streak >= 1) != bool(cards) or streak < 0:
                kind = "a fantasy" if cards else "a normal"
                raise SetupError(f"seat {seat} plays {kind} hand, so fantasy_in_row cannot be {streak}")
        return out

    @staticmethod
    def _read_banks(rules: Rules, banks: Sequence[Decimal]) -> tuple[Decimal, ...]:
        _per_seat("time_banks", banks, rules.players)
        out = tuple(to_time(b) for b in banks) or (rules.time_bank_seconds,) * rules.players
        for seat, bank in enumerate(out):
            if bank < 0:
                raise SetupError(f"seat {seat}'s time bank cannot be negative ({bank})")
        return out

    def _deal(self, count: int) -> tuple[Card, ...]:
        start = self._next
        self._next = start + count
        return self._order[start : self._next]

    # ------------------------------------------------------------------ public facts

    @property
    def rules(self) -> Rules:
        """The rules of the hand."""
        return self._rules

    @property
    def button(self) -> int:
        """The button seat (it acts last)."""
        return self._button

    @property
    def play_order(self) -> tuple[int, ...]:
        """Every seat in order of play: left of the button first, the button last."""
        return self._play_order

    @property
    def fantasy(self) -> tuple[int, ...]:
        """Cards dealt in fantasy per seat (0 = a normal hand)."""
        return self._fantasy

    @property
    def fantasy_in_row(self) -> tuple[int, ...]:
        """Fantasy hands in a row this hand completes per seat."""
        return self._fantasy_in_row

    @property
    def start_time(self) -> Decimal:
        """The time the hand was dealt."""
        return self._start

    @property
    def starting_banks(self) -> tuple[Decimal, ...]:
        """The time banks the hand started with."""
        return self._banks0

    @property
    def now(self) -> Decimal:
        """The latest time the hand has been told."""
        return self._now

    @property
    def street(self) -> int:
        """Index into ``rules.spec.streets`` of the street being played (= their number when done)."""
        return self._street

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now: the street's seat, then fantasy seats that have not set."""
        return self._to_act

    def _seats_to_act(self) -> tuple[int, ...]:
        seats = [seat for seat in self._fantasy_seats if self._held[seat]]  # not set yet
        if self._street < len(self._streets):
            seats.insert(0, self._street_seats[self._turn])
        return tuple(seats)

    @property
    def is_over(self) -> bool:
        """Whether every seat has placed its 13 cards (the showdown is done)."""
        return self._result is not None

    @property
    def result(self) -> HandResult | None:
        """The showdown once the hand is over, else None."""
        return self._result

    @property
    def log(self) -> tuple[ActionRecord, ...]:
        """Every applied action with its time, automatic ones included, in order."""
        return tuple(self._log)

    @property
    def time_banks(self) -> tuple[Decimal, ...]:
        """Each seat's time bank left now (carry these into the match)."""
        return tuple(clock.read(self._now).bank for clock in self._clocks)

    # Full-state facts for histories: never show these to a player.

    @property
    def deck_order(self) -> tuple[Card, ...]:
        """The whole deck order (hidden information: for hand histories only)."""
        return self._order

    @property
    def seed(self) -> int | None:
        """The seed the deck was shuffled from, if any."""
        return self._seed

    def clock(self, seat: int) -> ClockReading:
        """Seat's hand clock and time bank left now."""
        self._seat_index(seat)
        return self._clocks[seat].read(self._now)

    # ------------------------------------------------------------------ actions

    def _seat_index(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self._held):
            raise NoSuchSeat(f"there is no seat {seat!r} at this table of {len(self._held)}")

    def _rooms(self, seat: int) -> tuple[int, int, int]:
        top, middle, bottom = self._rows[seat]
        return (ROW_SIZES[0] - len(top), ROW_SIZES[1] - len(middle), ROW_SIZES[2] - len(bottom))

    def _discards_due(self, seat: int) -> int:
        """Cards ``seat`` must discard now; raises if it may not act."""
        if self._result is not None:
            raise HandOver(f"the hand is over: seat {seat} cannot act")
        self._seat_index(seat)
        if self._fantasy[seat]:
            if not self._held[seat]:
                raise NotYourTurn(f"seat {seat} has already set its fantasy hand")
            return len(self._held[seat]) - HAND_CARDS
        if self._street < len(self._streets):
            if self._street_seats[self._turn] == seat:
                return self._streets[self._street].discards
            raise NotYourTurn(f"seat {seat} cannot act now: seat {self._street_seats[self._turn]} is to act")
        raise NotYourTurn(f"seat {seat} has placed all its cards; waiting for fantasy seats")

    def legal_actions(self, seat: int) -> LegalActions:
        """Every legal action of ``seat`` now, as a lazy sequence (empty if it may not act).

        ``len()`` and indexing are cheap, so ``rng.choice(hand.legal_actions(seat))`` draws
        uniformly; a fantasy seat has about 10**6 actions (14 cards) to 10**8 (17): build
        its action yourself and check it with ``check``/``is_legal`` rather than iterating.
        """
        self._seat_index(seat)
        if seat not in self._to_act:
            return LegalActions(seat, (), (0, 0, 0), 0)
        return LegalActions(seat, self._held[seat], self._rooms(seat), self._discards_due(seat))

    def check(self, action: Action) -> None:
        """Raise the ``ActionError`` that applying ``action`` now would raise, if any."""
        seat = action.seat
        due = self._discards_due(seat)
        held = self._held[seat]
        self._check_shape(seat, action)
        if len(action.discards) != due:
            raise WrongDiscardCount(
                f"seat {seat} must discard {due} card{'s' if due != 1 else ''}, not {len(action.discards)}"
            )
        rooms = self._rooms(seat)
        room = list(rooms)
        used: set[Card] = set()
        for card, row in action.placements:
            self._check_card(seat, card, held, used)
            if type(row) is not Row and (type(row) is not int or row not in ROW_INDEXES):
                raise UnknownRow(f"seat {seat}: {row!r} is not a row (top, middle or bottom)")
            room[row] -= 1
            if room[row] < 0:
                wanted = sum(1 for _, where in action.placements if where == row)
                free = rooms[row]
                raise RowFull(
                    f"seat {seat}'s {Row(row).label} row has room for {free} more "
                    f"card{'s' if free != 1 else ''}, not {wanted}"
                )
        for card in action.discards:
            self._check_card(seat, card, held, used)
        if len(used) != len(held):
            missing = format_card(next(card for card in held if card not in used))
            raise WrongPlacementCount(
                f"seat {seat} must place {len(held) - due} cards, not {len(action.placements)}: "
                f"{missing} is neither placed nor discarded"
            )

    @staticmethod
    def _check_shape(seat: int, action: Action) -> None:
        """An action built by hand may hold anything: name what is not (card, row) pairs."""
        placements: object = action.placements
        discards: object = action.discards
        if not isinstance(placements, tuple):
            raise ActionError(f"seat {seat}: placements must be a tuple of (card, row) pairs, not {placements!r}")
        for placement in placements:
            if not isinstance(placement, tuple) or len(placement) != 2:
                raise ActionError(f"seat {seat}: a placement is a (card, row) pair, not {placement!r}")
        if not isinstance(discards, tuple):
            raise ActionError(f"seat {seat}: discards must be a tuple of cards, not {discards!r}")

    @staticmethod
    def _check_card(seat: int, card: Card, held: tuple[Card, ...], used: set[Card]) -> None:
        if type(card) is not int or card not in held:
            text = format_card(card) if type(card) is int and 0 <= card < DECK_SIZE else repr(card)
            raise CardNotHeld(f"seat {seat} does not hold {text}")
        if card in used:
            raise DuplicateCard(f"seat {seat} uses {format_card(card)} twice")
        used.add(card)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` could be applied now (time aside)."""
        try:
            self.check(action)
        except ActionError:
            return False
        return True

    def apply(self, action: Action, now: Decimal | float) -> None:
        """Apply ``action`` at time ``now``; on any error the hand is left exactly as it was.

        ``now`` must not lie before the hand's time, nor after a running clock's deadline:
        call ``advance(now)`` first so that seats out of time are placed automatically.
        """
        self.check(action)
        time = to_time(now)
        self._check_time(time)
        self._commit(action, time, automatic=False)

    def _check_time(self, time: Decimal) -> None:
        self._check_not_before(time)
        due = self._next_deadline()
        if due is not None and due[0] < time:
            when, late = time_text(due[0]), time_text(time)
            raise OutOfTime(f"seat {due[1]} ran out of time at {when}; call advance({late}) before acting at {late}")

    def _check_not_before(self, time: Decimal) -> None:
        if time < self._now:
            raise ClockError(f"time {time_text(time)} is before the hand's time {time_text(self._now)}")

    def _next_deadline(self) -> tuple[Decimal, int] | None:
        best: tuple[Decimal, int] | None = None
        for seat in self._to_act:
            deadline = self._clocks[seat].deadline
            if deadline is not None and (best is None or deadline < best[0]):
                best = (deadline, seat)
        return best

    def advance(self, now: Decimal | float) -> tuple[Action, ...]:
        """Move the hand's time to ``now``, placing automatically for every seat out of time.

        Seats run out one after another at their deadlines (the next seat's clock starts at
        the deadline of the one before); returns the automatic actions applied, in order.
        """
        time = to_time(now)
        self._check_not_before(time)
        done: list[Action] = []
        while self._result is None:
            due = self._next_deadline()
            if due is None or due[0] > time:
                break
            deadline, seat = due
            action = auto_action(seat, self._held[seat], self._rooms(seat), self._discards_due(seat))
            self._commit(action, deadline, automatic=True)
            done.append(action)
        self._now = time
        return tuple(done)

    def _commit(self, action: Action, time: Decimal, automatic: bool) -> None:
        seat = action.seat
        rows = self._rows[seat]
        for card, row in action.placements:
            rows[row].append(card)
        if action.discards:
            self._discards[seat].extend(action.discards)
        self._held[seat] = ()
        self._clocks[seat].stop(time)
        self._log.append(ActionRecord(action, time, automatic))
        self._now = time
        if not self._fantasy[seat]:  # a fantasy seat is set once its held cards are placed
            self._turn += 1
            if self._turn == len(self._street_seats):
                self._turn = 0
                self._street += 1
            if self._street < len(self._streets):
                following = self._street_seats[self._turn]
                if self._street:
                    self._held[following] = self._deal(self._streets[self._street].cards)
                self._clocks[following].start(time)
        self._to_act = self._seats_to_act()
        if not self._to_act:
            self._finish()

    def _finish(self) -> None:
        boards = tuple(Board(tuple(top), tuple(middle), tuple(bottom)) for top, middle, bottom in self._rows)
        sheet = score_boards(boards, self._rules, self._fantasy_in_row)
        self._result = HandResult(boards, sheet, tuple(clock.bank for clock in self._clocks))

    # ------------------------------------------------------------------ the one gate

    def view(self, seat: int | None) -> HandView:
        """Everything ``seat`` may know now; ``None`` for a spectator (public facts only)."""
        if seat is not None:
            self._seat_index(seat)
        over = self._result is not None
        seats = []
        for other, (top, middle, bottom) in enumerate(self._rows):
            shown = over or other == seat or not self._fantasy[other]
            placed = len(top) + len(middle) + len(bottom)
            seats.append(
                SeatView(
                    seat=other,
                    fantasy=self._fantasy[other],
                    fantasy_in_row=self._fantasy_in_row[other],
                    rows=(tuple(top), tuple(middle), tuple(bottom)) if shown else ((), (), ()),
                    hidden=0 if shown else placed,
                    holding=len(self._held[other]),
                    discarded=len(self._discards[other]),
                    done=placed == HAND_CARDS,
                    clock=self._clocks[other].read(self._now),
                )
            )
        return HandView(
            rules=self._rules,
            seat=seat,
            button=self._button,
            street=self._street,
            to_act=self.to_act,
            now=self._now,
            cards=self._held[seat] if seat is not None else (),
            discards=tuple(self._discards[seat]) if seat is not None else (),
            seats=tuple(seats),
            result=self._result,
        )

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"street {self._street}, to act {list(self.to_act)}"
        return f"<Hand {self._rules.variant} {len(self._held)} seats, button {self._button}: {state}>"
