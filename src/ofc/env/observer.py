"""``to_array`` kept up to date as a hand is played: one seat's vector without rebuilding its view.

``Observer(hand, seat).array()`` equals ``to_array(hand.view(seat))`` at every moment (a
property test holds them equal at every step of random hands), but reads the hand only
through ``Hand.view_update(seat, since)``, the gate's incremental form: the actions the seat
saw since its last look, in the form the seat sees them, and the counts play changes. Each
look writes those actions' cards into the vector and rewrites the few per-seat numbers, so
it costs a few microseconds instead of a view and a vector built from nothing. At the
showdown a face-down fantasy board is turned up; an observer that saw it face-down then
starts again from the first action (as it does after an ``undo``).

It also keeps what the environments' masks and decoding need: the seat's held cards, the
free places of its rows and the discards due (``street_deal``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple, Protocol, cast

import numpy as np

from ofc.engine.hand import Hand
from ofc.engine.view import ViewUpdate
from ofc.env.observation import F32, MOST_IN_ROW, SEAT_SCALARS, layout_of
from ofc.rules.cards import DECK_SIZE, Card
from ofc.rules.errors import NoSuchSeat
from ofc.rules.rows import ROW_SIZES
from ofc.rules.rulebook import HAND_CARDS, Rules
from ofc.rules.variants import MOST_DISCARDS, MOST_FANTASY_CARDS


class Floats(Protocol):
    """A flat float32 buffer written item by item (a ``memoryview`` of the vector, format ``f``)."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


StreetDeal = tuple[int, int, tuple[int, int, int]]
"""Cards held, discards due and free places per row (top, middle, bottom): ``ofc.env.encoding``'s."""


_HOLDING = tuple([count / MOST_FANTASY_CARDS for count in range(DECK_SIZE + 1)])
"""A seat's held-card number per count (``ofc.env.observation``: cards held / 17)."""
_DISCARDED = tuple([min(count, MOST_DISCARDS) / MOST_DISCARDS for count in range(DECK_SIZE + 1)])
"""A discard number per count (``ofc.env.observation``: min(discards, 4) / 4)."""


class Frame(NamedTuple):
    """Where each absolute seat's numbers lie in one viewer's vector (seats relative to the viewer)."""

    rows: tuple[int, ...]
    """Per seat, the offset of its top-row plane (middle and bottom follow)."""
    blocks: tuple[int, ...]
    """Per seat, the offset of its eight per-seat numbers."""
    held: int
    discards: int
    street: int
    due: int
    planes: tuple[tuple[int, int, int], ...]
    """Per seat, the offsets of its top, middle and bottom planes (``rows`` + 0, 52, 104)."""
    holding: tuple[int, ...]
    """Per seat, the offset of its cards-held number (``blocks`` + 4)."""


@lru_cache(maxsize=1024)
def seat_frame(players: int, streets: int, seat: int) -> Frame:
    """Where every seat's numbers lie in ``seat``'s vector (kept)."""
    where = layout_of(players, streets)
    rows, blocks = [], []
    for other in range(players):
        rel = (other - seat) % players
        rows.append(where.own if rel == 0 else where.opponents + (rel - 1) * 3 * DECK_SIZE)
        blocks.append(where.seats + rel * SEAT_SCALARS)
    held = where.own + 3 * DECK_SIZE
    planes = tuple([(row, row + DECK_SIZE, row + 2 * DECK_SIZE) for row in rows])
    holding = tuple([block + 4 for block in blocks])
    return Frame(tuple(rows), tuple(blocks), held, held + DECK_SIZE, where.street, where.due, planes, holding)


@lru_cache(maxsize=4096)
def blank_vector(
    players: int, streets: int, seat: int, button: int, fantasy: tuple[int, ...], streaks: tuple[int, ...]
) -> F32:
    """The vector before any action: the button, the street and the fantasy facts (no fantasy: empty tuples).

    Shared and read-only: each hand an observer follows starts from a copy.
    """
    where = layout_of(players, streets)
    out = np.zeros(where.size, dtype=np.float32)
    out[where.button + (button - seat) % players] = 1.0
    out[where.street] = 1.0
    blocks = seat_frame(players, streets, seat).blocks
    for block, cards, streak in zip(blocks[: len(fantasy)], fantasy, streaks, strict=True):
        out[block + 1] = cards > 0
        out[block + 2] = cards / MOST_FANTASY_CARDS
        out[block + 3] = min(streak, MOST_IN_ROW) / MOST_IN_ROW
    out.flags.writeable = False
    return out


class Observer:
    """``seat``'s ``to_array`` vector of ``hand``, brought up to date on each look."""

    __slots__ = (
        "_blank",
        "_cards",
        "_deal",
        "_discarded",
        "_discards_due",
        "_due",
        "_face_down",
        "_frame",
        "_hand",
        "_hidden",
        "_in_fantasy",
        "_out",
        "_placed",
        "_rooms",
        "_rules",
        "_since",
        "_street",
        "_to_act",
        "_vector",
        "seat",
    )

    def __init__(self, hand: Hand, seat: int) -> None:
        self.seat = seat
        self._rules: Rules | None = None
        self.follow(hand)

    def follow(self, hand: Hand) -> None:
        """Observe ``hand`` from its first action on (a table's next deal: the set-up is kept if the rules are)."""
        seat = self.seat
        rules = hand.rules
        if rules is not self._rules:
            players = rules.players
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
                raise NoSuchSeat("there is no seat {seat!r} at this table of {count}", seat=seat, count=players)
            self._rules = rules
            self._discards_due = tuple([street.discards for street in rules.spec.streets])
            self._frame = seat_frame(players, len(self._discards_due), seat)
        self._hand = hand
        fantasy = hand.fantasy
        self._in_fantasy = fantasy[seat] > 0
        streaks = hand.fantasy_in_row if any(fantasy) else ()
        players, streets = len(self._frame.rows), len(self._discards_due)
        self._blank = blank_vector(players, streets, seat, hand.button, fantasy if streaks else (), streaks)
        self._start()

    def _start(self) -> None:
        """Forget every action seen: the next look reads them all."""
        players = len(self._frame.rows)
        self._vector: F32 = self._blank.copy()
        self._out = cast(Floats, self._vector.data)  # stores through its memoryview: quicker than numpy's
        self._since = -1  # nothing read yet, not even the deal
        self._placed = [0] * players
        self._hidden = [0] * players
        self._discarded = [0] * players
        self._rooms = list(ROW_SIZES)
        self._cards: tuple[Card, ...] = ()
        self._to_act: tuple[int, ...] = ()
        self._street = 0
        self._due = 0
        self._deal: StreetDeal | None = None
        self._face_down = False

    def array(self) -> F32:
        """The seat's vector now, a fresh copy (``to_array(hand.view(seat))``)."""
        self.sync()
        return self._vector.copy()

    def look(self) -> tuple[F32, StreetDeal | None]:
        """``array()`` and ``street_deal()`` from one look: what an environment's observation needs."""
        self.sync()
        return self._vector.copy(), self._deal

    def sync(self) -> None:
        """Read what happened since the last look (nothing to read if no action was applied)."""
        taken = self._hand.actions_taken
        if taken == self._since:
            return
        if taken < self._since:  # undone: read again from the deal
            self._start()
        update = self._hand.view_update(self.seat, max(self._since, 0))
        if update.over and self._face_down:  # a face-down board was turned up: read it shown
            self._start()
            update = self._hand.view_update(self.seat, 0)
        self._read(update)

    def _read(self, update: ViewUpdate) -> None:
        """Write the actions seen and the numbers that changed (the layout is ``ofc.env.observation``'s).

        Written for CPython's speed: no builtin calls or keyword arguments in the loops, the
        per-seat numbers from tables (``_HOLDING``, ``_DISCARDED``), every store a float.
        """
        out = self._out
        frame = self._frame
        seat = self.seat
        blocks = frame.blocks
        history = update.history
        if history:
            planes_at = frame.planes
            placed_by, discarded_by = self._placed, self._discarded
            rooms = self._rooms
            for seen in history:
                actor = seen.seat
                planes = planes_at[actor]
                placements = seen.placements
                if actor == seat:
                    for card, row in placements:
                        out[planes[row] + card] = 1.0
                        rooms[row] -= 1
                    for card in seen.discards:
                        out[frame.discards + card] = 1.0
                else:
                    for card, row in placements:
                        out[planes[row] + card] = 1.0
                count = len(placements)
                hidden = seen.hidden
                if hidden:
                    self._face_down = True
                    count += hidden
                    hidden = self._hidden[actor] = self._hidden[actor] + hidden
                    out[blocks[actor] + 5] = hidden / HAND_CARDS
                placed = placed_by[actor] = placed_by[actor] + count
                if placed == HAND_CARDS:
                    out[blocks[actor] + 7] = 1.0
                discarded = seen.discarded
                if discarded:
                    discarded = discarded_by[actor] = discarded_by[actor] + discarded
                    out[blocks[actor] + 6] = _DISCARDED[discarded]
        cards = update.cards
        if cards != self._cards:
            held = frame.held
            for card in self._cards:
                out[held + card] = 0.0
            for card in cards:
                out[held + card] = 1.0
            self._cards = cards
        street = update.street
        if street != self._street:
            out[frame.street + self._street] = 0.0
            out[frame.street + street] = 1.0
            self._street = street
        to_act = update.to_act
        if to_act != self._to_act:
            for other in self._to_act:
                out[blocks[other]] = 0.0
            for other in to_act:
                out[blocks[other]] = 1.0
            self._to_act = to_act
        for at, count in zip(frame.holding, update.holding, strict=True):
            out[at] = _HOLDING[count]
        due = 0
        self._deal = None
        if cards and seat in to_act:
            if self._in_fantasy:
                due = len(cards) - HAND_CARDS
            else:
                due = self._discards_due[street]
                rooms = self._rooms
                self._deal = len(cards), due, (rooms[0], rooms[1], rooms[2])
        if due != self._due:
            out[frame.due] = _DISCARDED[due]
            self._due = due
        self._since = update.seen

    @property
    def cards(self) -> tuple[Card, ...]:
        """The seat's held cards (as of the last look: call ``sync`` first)."""
        return self._cards

    def street_deal(self) -> StreetDeal | None:
        """``ofc.env.encoding.street_deal`` of the seat's view now: None unless it is to place street cards."""
        self.sync()
        return self._deal


__all__ = ["Frame", "Observer", "StreetDeal", "blank_vector", "seat_frame"]
