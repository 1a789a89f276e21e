"""One hand of OFC as a state machine: deal, legal actions, apply, clocks, views, showdown.

A hand is driven by values: ``apply(action, now)`` for a seat's decision and ``advance(now)``
for the passing of time; ``now`` is always passed in (the hand reads no clock). A hand played
to its end by random legal actions, all at time 0 (no clock runs out):

>>> import random
>>> rng = random.Random(7)
>>> hand = Hand(Rules.preset("pineapple").with_settings({"players": 3}), button=0, seed=7)
>>> while not hand.is_over:
...     seat = hand.to_act[0]
...     hand.apply(rng.choice(hand.legal_actions(seat)), 0)
>>> first = hand.private_record().actions[0].action
>>> len(hand.private_record().actions), sum(hand.result.sheet.points)
(15, 0)
>>> hand.apply(first, 0)
Traceback (most recent call last):
...
ofc.rules.errors.HandOver: the hand is over: seat 1 cannot act

Play goes from the button's left to the button, street by street (deal order: ``ofc.engine.deals``).
Fantasy seats get all their cards at once and set first, face-down until the showdown; street
seats wait meanwhile, clocks stopped. ``view(seat)`` is the one way to look at a hand as a
player; ``private_record()`` the one door to the deck and every action. Search code uses
``clone()``, ``undo()`` (like python-chess's ``pop``) and ``ofc.engine.determinize``.

The chance step: a hand made with ``caller_deals=True`` deals nothing itself. Whenever a deal
is due (``deal_due``, in ``ofc.engine.deals`` order) nobody may act until the caller deals it
with ``deal(cards)``, checked like any action:

>>> from ofc.rules.cards import parse_cards
>>> hand = Hand(Rules.preset("classic"), button=0, caller_deals=True)
>>> hand.deal_due, hand.to_act
(Deal(seat=1, street=0, cards=5, discards=0, fantasy=False), ())
>>> hand.deal(parse_cards("Ah Kh Qh Jh Th"))
Deal(seat=1, street=0, cards=5, discards=0, fantasy=False)
>>> hand.deal(parse_cards("2c 3c 4c 5c Ah"))
Traceback (most recent call last):
...
ofc.rules.errors.CardAlreadyDealt: Ah has been dealt already in this hand
>>> hand.deal(parse_cards("2c 3c 4c 5c 6c")).seat, hand.to_act
(0, (1,))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import NamedTuple

from ofc.engine.actions import Action, ActionRecord, action_record
from ofc.engine.autoplace import auto_action
from ofc.engine.clock import ClockReading, SeatClock, check_in_time, check_not_before, first_deadline, to_time
from ofc.engine.deals import Deal, deal_sequence, play_order
from ofc.engine.legal import LegalActions
from ofc.engine.result import HandResult, hand_result
from ofc.engine.view import HandView, SeenForms, ViewUpdate, build_update, build_view, seen_forms
from ofc.rules.cards import ALL_CARDS, DECK_SIZE, Card, Deck, format_card
from ofc.rules.errors import (
    ActionError,
    CardAlreadyDealt,
    CardNotHeld,
    DealError,
    DuplicateCard,
    HandOver,
    NoDealDue,
    NoSuchSeat,
    NothingToUndo,
    NotYourTurn,
    RowFull,
    SetupError,
    UnknownRow,
    WrongDealSize,
    WrongDiscardCount,
    WrongPlacementCount,
)
from ofc.rules.rows import ROW_INDEXES, ROW_SIZES, Row
from ofc.rules.rulebook import HAND_CARDS, Rules
from ofc.rules.scoring import dealt_board, settle_boards

# ---------------------------------------------------------------- set-up checks


def read_button(rules: Rules, button: int) -> int:
    """The button, checked to be a seat at the table."""
    if isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < rules.players:
        raise SetupError(
            "button must be a seat from 0 to {last}, not {button!r}", last=rules.players - 1, button=button
        )
    return button


def read_deck(deck: Deck | None, seed: int | None) -> Deck:
    """The deck given, or one shuffled from ``seed`` (or secure randomness); not both."""
    if deck is not None and seed is not None:
        raise SetupError("give a deck or a seed, not both")
    return Deck(seed) if deck is None else deck


def check_deal_size(deals: tuple[Deal, ...]) -> tuple[Deal, ...]:
    """The deal sequence, checked to fit in one deck."""
    needed = sum(deal.cards for deal in deals)
    if needed > DECK_SIZE:
        raise SetupError("this deal needs {needed} cards, more than a deck holds", needed=needed)
    return deals


@lru_cache(maxsize=1024)
def deal_plan(rules: Rules, button: int, fantasy: tuple[int, ...]) -> tuple[Deal, ...]:
    """``deal_sequence`` checked to fit in one deck; kept, since every hand of a table deals alike."""
    return check_deal_size(deal_sequence(rules, button, fantasy))


def per_seat(name: str, values: Sequence[object], players: int) -> None:
    """Raise unless ``values`` is empty (the default) or has one entry per seat."""
    if values and len(values) != players:
        raise SetupError(
            "{name} needs one entry per seat ({players}), got {count}",
            name=name,
            players=players,
            count=len(values),
        )


def read_fantasy(rules: Rules, fantasy: Sequence[int]) -> tuple[int, ...]:
    """Per seat, the cards of its fantasy deal (0 = a normal hand), checked against ``rules``."""
    if not fantasy and isinstance(fantasy, tuple | list):  # the default: no seat in fantasy
        return (0,) * rules.players
    per_seat("fantasy", fantasy, rules.players)
    deals = rules.fantasy_deals
    out = tuple(fantasy) or (0,) * rules.players
    for seat, cards in enumerate(out):
        if cards and cards not in deals:
            if not deals:
                raise SetupError(
                    "seat {seat} cannot be dealt {cards} cards in fantasy: allowed none (fantasy is off)",
                    seat=seat,
                    cards=cards,
                )
            allowed = ", ".join(str(n) for n in sorted(deals))
            raise SetupError(
                "seat {seat} cannot be dealt {cards} cards in fantasy: allowed {allowed}",
                seat=seat,
                cards=cards,
                allowed=allowed,
            )
    return out


def read_streaks(fantasy: tuple[int, ...], streaks: Sequence[int]) -> tuple[int, ...]:
    """Per seat, the fantasy hands in a row this hand completes (default 1 for a fantasy seat)."""
    if not streaks and isinstance(streaks, tuple | list) and not any(fantasy):  # the default without fantasy
        return (0,) * len(fantasy)
    per_seat("fantasy_in_row", streaks, len(fantasy))
    out = tuple(streaks) or tuple(1 if cards else 0 for cards in fantasy)
    for seat, (cards, streak) in enumerate(zip(fantasy, out, strict=True)):
        if (streak >= 1) != bool(cards) or streak < 0:
            if cards:
                raise SetupError(
                    "seat {seat} plays a fantasy hand, so fantasy_in_row cannot be {streak}", seat=seat, streak=streak
                )
            raise SetupError(
                "seat {seat} plays a normal hand, so fantasy_in_row cannot be {streak}", seat=seat, streak=streak
            )
    return out


def read_banks(rules: Rules, banks: Sequence[Decimal]) -> tuple[Decimal, ...]:
    """Per seat, the match time bank left (default ``rules.time_bank_seconds``)."""
    if not banks and isinstance(banks, tuple | list):  # the default: the rules' bank (never negative)
        return (rules.time_bank_seconds,) * rules.players
    per_seat("time_banks", banks, rules.players)
    out = tuple(to_time(b) for b in banks) or (rules.time_bank_seconds,) * rules.players
    for seat, bank in enumerate(out):
        if bank < 0:
            raise SetupError("seat {seat}'s time bank cannot be negative ({bank})", seat=seat, bank=bank)
    return out


# ---------------------------------------------------------------- action checks


def check_action(action: Action, held: tuple[Card, ...], rooms: tuple[int, int, int], due: int) -> None:
    """Raise unless ``action`` places or discards exactly ``held``, ``due`` of them discarded, within ``rooms``."""
    seat = action.seat
    check_shape(action)
    if len(action.discards) != due:
        if due == 1:
            raise WrongDiscardCount(
                "seat {seat} must discard {due} card, not {given}", seat=seat, due=due, given=len(action.discards)
            )
        raise WrongDiscardCount(
            "seat {seat} must discard {due} cards, not {given}", seat=seat, due=due, given=len(action.discards)
        )
    room = list(rooms)
    used: set[Card] = set()
    for card, row in action.placements:
        _check_card(seat, card, held, used)
        if type(row) is not Row and (type(row) is not int or row not in ROW_INDEXES):
            raise UnknownRow("seat {seat}: {row!r} is not a row (top, middle or bottom)", seat=seat, row=row)
        room[row] -= 1
        if room[row] < 0:
            wanted = sum(1 for _, where in action.placements if where == row)
            free = rooms[row]
            term = Row(row).term
            if free == 1:
                raise RowFull(
                    "seat {seat}'s {row} row has room for {free} more card, not {wanted}",
                    seat=seat,
                    row=term,
                    free=free,
                    wanted=wanted,
                )
            raise RowFull(
                "seat {seat}'s {row} row has room for {free} more cards, not {wanted}",
                seat=seat,
                row=term,
                free=free,
                wanted=wanted,
            )
    for card in action.discards:
        _check_card(seat, card, held, used)
    if len(used) != len(held):
        missing = format_card(next(card for card in held if card not in used))
        raise WrongPlacementCount(
            "seat {seat} must place {count} cards, not {given}: {missing} is neither placed nor discarded",
            seat=seat,
            count=len(held) - due,
            given=len(action.placements),
            missing=missing,
        )


def check_shape(action: Action) -> None:
    """An action built by hand may hold anything: name what is not (card, row) pairs."""
    seat = action.seat
    placements: object = action.placements
    discards: object = action.discards
    if not isinstance(placements, tuple):
        raise ActionError(
            "seat {seat}: placements must be a tuple of (card, row) pairs, not {placements!r}",
            seat=seat,
            placements=placements,
        )
    for placement in placements:
        if not isinstance(placement, tuple) or len(placement) != 2:
            raise ActionError(
                "seat {seat}: a placement is a (card, row) pair, not {placement!r}", seat=seat, placement=placement
            )
    if not isinstance(discards, tuple):
        raise ActionError(
            "seat {seat}: discards must be a tuple of cards, not {discards!r}", seat=seat, discards=discards
        )


def _check_card(seat: int, card: Card, held: tuple[Card, ...], used: set[Card]) -> None:
    if type(card) is not int or card not in held:
        text = format_card(card) if type(card) is int and 0 <= card < DECK_SIZE else repr(card)
        raise CardNotHeld("seat {seat} does not hold {text}", seat=seat, text=text)
    if card in used:
        raise DuplicateCard("seat {seat} uses {card} twice", seat=seat, card=format_card(card))
    used.add(card)


# ---------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class PrivateRecord:
    """The hidden record of a hand: the deck order, its seed, and every action with its time.

    For hand histories and storage only; never show it to a player (``view`` is their gate).
    """

    deck: tuple[Card, ...]
    seed: int | None
    actions: tuple[ActionRecord, ...]


class Before(NamedTuple):
    """What ``undo`` puts back: the hand's counters, held cards and clocks before an action (a tuple:
    one is made per action applied, so it is kept cheap)."""

    now: Decimal
    next: int
    dealt: int
    due: int
    street: int
    turn: int
    to_act: tuple[int, ...]
    held: tuple[tuple[Card, ...], ...]
    clocks: tuple[tuple[Decimal, Decimal, Decimal | None], ...]


# ---------------------------------------------------------------- the hand

_tuple_new = tuple.__new__


class Hand:
    """A hand of any variant for ``rules.players`` seats (numbered 0..players-1).

    ``fantasy[i]``: cards seat ``i`` is dealt in fantasy (0 = a normal hand); ``fantasy_in_row[i]``:
    fantasy hands in a row this one completes (default 1 for a fantasy seat); ``time_banks[i]``:
    the match time bank left (default ``rules.time_bank_seconds``). The deck is ``deck`` (dealt
    from its first card), or shuffled from ``seed``, or from secure randomness; with
    ``caller_deals`` there is none: the caller deals every card (``deal_due``, ``deal``).
    """

    __slots__ = (
        "_banks0",
        "_before",
        "_button",
        "_caller_deals",
        "_clocks",
        "_deals",
        "_dealt",
        "_discards",
        "_due",
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
        "_seen",
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
        caller_deals: bool = False,
    ) -> None:
        players = rules.players
        self._rules = rules
        self._button = read_button(rules, button)
        self._fantasy = read_fantasy(rules, fantasy)
        self._fantasy_in_row = read_streaks(self._fantasy, fantasy_in_row)
        self._banks0 = read_banks(rules, time_banks)
        self._deals = deal_plan(rules, button, self._fantasy)
        self._caller_deals = caller_deals is True
        if self._caller_deals:
            if deck is not None or seed is not None:
                raise SetupError("a hand whose caller deals the cards takes no deck and no seed")
            self._order: tuple[Card, ...] = ()
            self._seed: int | None = None
        else:
            dealt = read_deck(deck, seed)
            self._order, self._seed = dealt.order, dealt.seed
        self._next = 0
        self._dealt = 0
        self._due = players
        self._now = self._start = to_time(now)
        seats = self._play_order = play_order(button, players)
        fantasy_seats = self._fantasy_seats = tuple([s for s in seats if self._fantasy[s]])
        self._street_seats = tuple([s for s in seats if not self._fantasy[s]]) if fantasy_seats else seats
        self._streets = rules.spec.streets
        self._rows: list[tuple[list[Card], list[Card], list[Card]]] = [([], [], []) for _ in range(players)]
        self._held: list[tuple[Card, ...]] = [() for _ in range(players)]
        self._discards: list[list[Card]] = [[] for _ in range(players)]
        self._clocks = [SeatClock(rules.hand_seconds, bank) for bank in self._banks0]
        self._log: list[ActionRecord] = []
        self._seen: list[SeenForms] = []
        self._before: list[Before] = []
        self._result: HandResult | None = None
        self._street = 0 if self._street_seats else len(self._streets)
        self._turn = 0
        if not self._caller_deals:
            for _ in range(players):
                self._deal_next()
        self._to_act = self._seats_to_act()
        self._start_clocks(self._now)

    def _deal_next(self) -> Deal:
        """Deal the next chunk of ``deal_sequence`` to its seat."""
        deal = self._deals[self._dealt]
        start = self._next
        self._next = start + deal.cards
        self._dealt += 1
        self._held[deal.seat] = self._order[start : self._next]
        return deal

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
        """Seats that may act now: the fantasy seats that have not set, else the street's seat."""
        return self._to_act

    def _waiting_fantasy(self) -> tuple[int, ...]:
        return tuple(seat for seat in self._fantasy_seats if self._held[seat])

    def _seats_to_act(self) -> tuple[int, ...]:
        if self._dealt < self._due:  # the caller has a deal to make first
            return ()
        waiting = self._waiting_fantasy() if self._fantasy_seats else ()
        if waiting:
            return waiting
        if self._street < len(self._streets):
            return (self._street_seats[self._turn],)
        return ()

    @property
    def is_over(self) -> bool:
        """Whether every seat has placed its 13 cards (the showdown is done)."""
        return self._result is not None

    @property
    def result(self) -> HandResult | None:
        """The showdown once the hand is over, else None."""
        return self._result

    @property
    def actions_taken(self) -> int:
        """How many actions have been applied (automatic ones included)."""
        return len(self._log)

    @property
    def time_banks(self) -> tuple[Decimal, ...]:
        """Each seat's time bank left now (carry these into the match)."""
        return tuple(clock.read(self._now).bank for clock in self._clocks)

    def private_record(self) -> PrivateRecord:
        """The deck, its seed and every action: hidden information, for histories and storage only.

        With ``caller_deals`` the deck is the cards dealt so far, in order, then the others in
        ascending order: a hand dealt from it plays as this one did.
        """
        order = self._order
        if self._caller_deals:
            dealt = set(order)
            order = order + tuple([card for card in ALL_CARDS if card not in dealt])
        return PrivateRecord(order, self._seed, tuple(self._log))

    # ------------------------------------------------------------------ the chance step

    @property
    def caller_deals(self) -> bool:
        """Whether the caller deals every card (``deal``) instead of the hand's own deck."""
        return self._caller_deals

    @property
    def deal_due(self) -> Deal | None:
        """The deal the caller must make before anyone may act, or None (never due without ``caller_deals``)."""
        return self._deals[self._dealt] if self._dealt < self._due else None

    def check_deal(self, cards: Sequence[Card]) -> Deal:
        """Raise the ``DealError`` that ``deal(cards)`` would raise, if any; else return the deal due."""
        if self._dealt == self._due:
            if not self._caller_deals:
                raise NoDealDue("this hand deals its own cards: the caller cannot deal")
            if self._result is not None:
                raise NoDealDue("the hand is over: no card is to be dealt")
            names = ", ".join(str(seat) for seat in self._to_act)
            raise NoDealDue("no deal is due now: seat {names} is to act", names=names)
        deal = self._deals[self._dealt]
        if not isinstance(cards, tuple | list):
            raise DealError("a deal is a list of cards, not {cards!r}", cards=cards)
        if len(cards) != deal.cards:
            if deal.cards == 1:
                raise WrongDealSize(
                    "seat {seat} is due {due} card, not {given}", seat=deal.seat, due=deal.cards, given=len(cards)
                )
            raise WrongDealSize(
                "seat {seat} is due {due} cards, not {given}", seat=deal.seat, due=deal.cards, given=len(cards)
            )
        dealt = set(self._order)
        fresh: set[Card] = set()
        for card in cards:
            if type(card) is not int or not 0 <= card < DECK_SIZE:
                raise DealError("{card!r} is not a card (a card is a number from 0 to 51)", card=card)
            if card in dealt:
                raise CardAlreadyDealt("{card} has been dealt already in this hand", card=format_card(card))
            if card in fresh:
                raise CardAlreadyDealt("the deal holds {card} twice", card=format_card(card))
            fresh.add(card)
        return deal

    def deal(self, cards: Sequence[Card]) -> Deal:
        """Deal ``cards`` to the seat whose deal is due (``deal_due``) at the hand's time; returns that deal.

        Refused with a ``DealError`` (the hand left exactly as it was) without ``caller_deals``,
        when no deal is due, for the wrong number of cards, or for a card dealt before.
        Seats whose cards are all dealt may act, their clocks running from ``now``.
        """
        deal = self.check_deal(cards)
        given = tuple(cards)
        self._order += given
        self._next += len(given)
        self._dealt += 1
        self._held[deal.seat] = given
        self._to_act = self._seats_to_act()
        self._start_clocks(self._now)
        return deal

    def clock(self, seat: int) -> ClockReading:
        """Seat's hand clock and time bank left now."""
        self._seat_index(seat)
        return self._clocks[seat].read(self._now)

    # ------------------------------------------------------------------ actions

    def _seat_index(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self._held):
            raise NoSuchSeat("there is no seat {seat!r} at this table of {count}", seat=seat, count=len(self._held))

    def _rooms(self, seat: int) -> tuple[int, int, int]:
        top, middle, bottom = self._rows[seat]
        return (ROW_SIZES[0] - len(top), ROW_SIZES[1] - len(middle), ROW_SIZES[2] - len(bottom))

    def _discards_due(self, seat: int) -> int:
        """Cards ``seat`` must discard now; raises if it may not act."""
        if self._result is not None:
            raise HandOver("the hand is over: seat {seat} cannot act", seat=seat)
        self._seat_index(seat)
        if self._dealt < self._due:
            raise NotYourTurn(
                "seat {seat} cannot act yet: seat {dealee}'s cards are to be dealt first",
                seat=seat,
                dealee=self._deals[self._dealt].seat,
            )
        if self._fantasy[seat]:
            if not self._held[seat]:
                raise NotYourTurn("seat {seat} has already set its fantasy hand", seat=seat)
            return len(self._held[seat]) - HAND_CARDS
        waiting = self._waiting_fantasy()
        if waiting:
            names = ", ".join(str(other) for other in waiting)
            raise NotYourTurn("seat {seat} cannot act yet: fantasy seat {names} must set first", seat=seat, names=names)
        current = self._street_seats[self._turn]  # the hand is not over, so a street is being played
        if current != seat:
            raise NotYourTurn("seat {seat} cannot act now: seat {current} is to act", seat=seat, current=current)
        return self._streets[self._street].discards

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
        check_action(action, self._held[seat], self._rooms(seat), due)

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
        check_in_time(time, self._now, self._clocks, self._to_act)
        self._commit(action, time, automatic=False)

    def apply_unchecked(self, action: Action) -> None:
        """``apply(action, hand.now)`` without its checks, for trusted callers only.

        The caller vouches that ``action`` is legal for the seat to act: built from that seat's
        own legal set (``ofc.env`` decodes only numbers its masks allow) or replayed from a record
        this engine checked before. An action that is not legal corrupts the hand, so faces that
        take input from people or the network always use ``apply``. Acting at the hand's own
        time is always in time (``advance`` has placed every seat out of time).
        """
        self._commit(action, self._now, automatic=False)

    def advance(self, now: Decimal | float) -> tuple[Action, ...]:
        """Move the hand's time to ``now``, placing automatically for every seat out of time.

        Seats run out one after another at their deadlines (the next seat's clock starts at
        the deadline of the one before); returns the automatic actions applied, in order.
        """
        time = to_time(now)
        check_not_before(time, self._now)
        done: list[Action] = []
        while self._result is None:
            due = first_deadline(self._clocks, self._to_act)
            if due is None or due[0] > time:
                break
            deadline, seat = due
            action = auto_action(seat, self._held[seat], self._rooms(seat), self._discards_due(seat))
            self._commit(action, deadline, automatic=True)
            done.append(action)
        self._now = time
        return tuple(done)

    def _commit(self, action: Action, time: Decimal, automatic: bool) -> None:
        self._before.append(self._snapshot())
        seat = action.seat
        rows = self._rows[seat]
        for card, row in action.placements:
            rows[row].append(card)
        if action.discards:
            self._discards[seat].extend(action.discards)
        self._held[seat] = ()
        self._clocks[seat].stop(time)
        record = action_record(action, time, automatic)
        self._log.append(record)
        in_fantasy = self._fantasy[seat] > 0
        self._seen.append(seen_forms(record, in_fantasy))
        self._now = time
        if not in_fantasy:  # a fantasy seat is set once its held cards are placed
            turn = self._turn + 1
            if turn == len(self._street_seats):
                turn = 0
                self._street += 1
            self._turn = turn
            if 0 < self._street < len(self._streets):
                self._due += 1
                if not self._caller_deals:
                    self._deal_next()
        to_act = self._to_act = self._seats_to_act()
        self._start_clocks(time)
        if not to_act and self._dealt == self._due:
            self._finish()

    def _start_clocks(self, time: Decimal) -> None:
        """Every seat to act has its clock running (a street seat's starts once fantasy seats set)."""
        for seat in self._to_act:
            if self._clocks[seat].since is None:
                self._clocks[seat].start(time)

    def _finish(self) -> None:
        boards = tuple([dealt_board(tuple(top), tuple(middle), tuple(bottom)) for top, middle, bottom in self._rows])
        sheet = settle_boards(boards, self._rules, self._fantasy_in_row)
        self._result = hand_result(boards, sheet, tuple([clock.bank for clock in self._clocks]))

    # ------------------------------------------------------------------ search: undo and clone

    def _snapshot(self) -> Before:
        clocks = tuple([(clock.hand, clock.bank, clock.since) for clock in self._clocks])
        held = tuple(self._held)
        state = (self._now, self._next, self._dealt, self._due, self._street, self._turn, self._to_act, held, clocks)
        return _tuple_new(Before, state)  # Before(*state) without the named tuple's Python __new__

    def undo(self) -> Action:
        """Take back the last action (cards, clocks, turn and time as before it); returns it.

        With ``caller_deals``, the deals made since that action are taken back too.

        Raises ``NothingToUndo`` when no action has been applied.
        """
        if not self._log:
            raise NothingToUndo("there is no action to undo: none has been applied to this hand")
        action = self._log.pop().action
        self._seen.pop()
        before = self._before.pop()
        rows = self._rows[action.seat]
        for _, row in reversed(action.placements):
            rows[row].pop()
        if action.discards:
            del self._discards[action.seat][-len(action.discards) :]
        self._now, self._next, self._dealt, self._due = before.now, before.next, before.dealt, before.due
        if self._caller_deals:
            self._order = self._order[: before.next]
        self._street, self._turn, self._to_act = before.street, before.turn, before.to_act
        self._held = list(before.held)
        for clock, (hand, bank, since) in zip(self._clocks, before.clocks, strict=True):
            clock.hand, clock.bank, clock.since = hand, bank, since
        self._result = None
        return action

    def clone(self) -> Hand:
        """An independent copy: applying, advancing or undoing one never changes the other."""
        copy = Hand.__new__(Hand)
        copy._rules, copy._button, copy._fantasy = self._rules, self._button, self._fantasy
        copy._fantasy_in_row, copy._banks0, copy._deals = self._fantasy_in_row, self._banks0, self._deals
        copy._order, copy._seed, copy._next, copy._dealt = self._order, self._seed, self._next, self._dealt
        copy._due, copy._caller_deals = self._due, self._caller_deals
        copy._now, copy._start, copy._play_order = self._now, self._start, self._play_order
        copy._street_seats, copy._fantasy_seats, copy._streets = self._street_seats, self._fantasy_seats, self._streets
        copy._result, copy._street, copy._turn, copy._to_act = self._result, self._street, self._turn, self._to_act
        copy._rows = [(top[:], middle[:], bottom[:]) for top, middle, bottom in self._rows]
        copy._held = self._held[:]
        copy._discards = [cards[:] for cards in self._discards]
        copy._clocks = [clock.copy() for clock in self._clocks]
        copy._log = self._log[:]
        copy._seen = self._seen[:]
        copy._before = self._before[:]
        return copy

    # ------------------------------------------------------------------ the one gate

    def view(self, seat: int | None) -> HandView:
        """Everything ``seat`` may know now; ``None`` for a spectator (public facts only)."""
        if seat is not None:
            self._seat_index(seat)
        return build_view(
            rules=self._rules,
            seat=seat,
            button=self._button,
            street=self._street,
            to_act=self._to_act,
            now=self._now,
            fantasy=self._fantasy,
            fantasy_in_row=self._fantasy_in_row,
            rows=self._rows,
            held=self._held,
            discards=self._discards,
            clocks=tuple(clock.read(self._now) for clock in self._clocks),
            seen=self._seen,
            result=self._result,
            start=self._start,
            starting_banks=self._banks0,
        )

    def view_update(self, seat: int, since: int = 0) -> ViewUpdate:
        """What of ``seat``'s view play changes, with the actions from number ``since`` on (``ViewUpdate``)."""
        if type(seat) is not int or not 0 <= seat < len(self._held):
            self._seat_index(seat)
        seen = self._seen
        if type(since) is not int or not 0 <= since <= len(seen):
            raise ActionError(
                "there are {count} actions to read, so none from number {since!r}", count=len(seen), since=since
            )
        over = self._result is not None
        return build_update(seat, self._street, self._to_act, self._fantasy, self._held, seen, since, over)

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"street {self._street}, to act {list(self.to_act)}"
        return f"<Hand {self._rules.variant} {len(self._held)} seats, button {self._button}: {state}>"
