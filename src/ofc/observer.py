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

from array import array
from functools import lru_cache

import numpy as np

from ofc.actions import ROW_SIZES
from ofc.cards import DECK_SIZE, Card
from ofc.errors import NoSuchSeat
from ofc.hand import Hand
from ofc.observation import F32, MOST_DISCARDS, MOST_FANTASY_CARDS, MOST_IN_ROW, SEAT_SCALARS, Layout, layout
from ofc.rules import HAND_CARDS
from ofc.view import ViewUpdate

StreetDeal = tuple[int, int, tuple[int, int, int]]
"""Cards held, discards due and free places per row (top, middle, bottom): ``ofc.env.encoding``'s."""


@lru_cache(maxsize=4096)
def _blank(where: Layout, button: int, fantasy: tuple[int, ...], streaks: tuple[int, ...]) -> array[float]:
    """The vector before any action: the button and the fantasy facts (seats relative to the viewer)."""
    out = array("f", bytes(4 * where.size))
    out[where.button + button] = 1.0
    block = where.seats
    for cards, streak in zip(fantasy, streaks, strict=True):
        out[block + 1] = cards > 0
        out[block + 2] = cards / MOST_FANTASY_CARDS
        out[block + 3] = min(streak, MOST_IN_ROW) / MOST_IN_ROW
        block += SEAT_SCALARS
    return out


class Observer:
    """``seat``'s ``to_array`` vector of ``hand``, brought up to date on each look."""

    __slots__ = (
        "_blank",
        "_cards",
        "_discarded",
        "_due",
        "_face_down",
        "_hand",
        "_hidden",
        "_out",
        "_placed",
        "_rooms",
        "_rows_at",
        "_since",
        "_street",
        "_streets",
        "_vector",
        "_where",
        "seat",
    )

    def __init__(self, hand: Hand, seat: int) -> None:
        players = hand.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise NoSuchSeat("there is no seat {seat!r} at this table of {count}", seat=seat, count=players)
        self._hand = hand
        self.seat = seat
        rules = hand.rules
        self._streets = rules.spec.streets
        where = self._where = layout(rules)
        turned = (*range(seat, players), *range(seat))  # seats relative to the viewer
        fantasy = tuple([hand.fantasy[other] for other in turned])
        streaks = tuple([hand.fantasy_in_row[other] for other in turned])
        self._blank = _blank(where, (hand.button - seat) % players, fantasy, streaks)
        opponents = [where.opponents + (rel - 1) * 3 * DECK_SIZE for rel in range(1, players)]
        self._rows_at = (where.own, *opponents)
        self._start()

    def _start(self) -> None:
        """Forget every action seen: the next look reads them all."""
        players = len(self._rows_at)
        self._out = self._blank[:]
        self._vector: F32 = np.frombuffer(self._out, dtype=np.float32)
        self._since = -1  # nothing read yet, not even the deal
        self._placed = [0] * players
        self._hidden = [0] * players
        self._discarded = [0] * players
        self._rooms = list(ROW_SIZES)
        self._cards: tuple[Card, ...] = ()
        self._street = 0
        self._due = 0
        self._face_down = False

    def array(self) -> F32:
        """The seat's vector now, a fresh copy (``to_array(hand.view(seat))``)."""
        self.sync()
        return self._vector.copy()

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
        out = self._out
        rows_at = self._rows_at
        players = len(rows_at)
        seat = self.seat
        held_at = rows_at[0] + 3 * DECK_SIZE
        discards_at = held_at + DECK_SIZE
        rooms = self._rooms
        for seen in update.history:
            rel = (seen.seat - seat) % players
            base = rows_at[rel]
            for card, row in seen.placements:
                out[base + row * DECK_SIZE + card] = 1.0
                if not rel:
                    rooms[row] -= 1
            for card in seen.discards:
                out[discards_at + card] = 1.0
            if seen.hidden:
                self._face_down = True
                self._hidden[rel] += seen.hidden
            self._placed[rel] += len(seen.placements) + seen.hidden
            self._discarded[rel] += seen.discarded
        for card in self._cards:
            out[held_at + card] = 0.0
        cards = self._cards = update.cards
        for card in cards:
            out[held_at + card] = 1.0
        where = self._where
        out[where.street + self._street] = 0.0
        self._street = update.street
        out[where.street + update.street] = 1.0
        to_act = update.to_act
        holding = update.holding
        block = where.seats
        for rel in range(players):
            other = (seat + rel) % players
            out[block] = other in to_act
            out[block + 4] = holding[other] / MOST_FANTASY_CARDS
            out[block + 5] = self._hidden[rel] / HAND_CARDS
            out[block + 6] = min(self._discarded[rel], MOST_DISCARDS) / MOST_DISCARDS
            out[block + 7] = self._placed[rel] == HAND_CARDS
            block += SEAT_SCALARS
        due = 0
        if cards and seat in to_act:
            due = len(cards) - HAND_CARDS if self._hand.fantasy[seat] else self._streets[update.street].discards
        self._due = due
        out[where.due] = min(due, MOST_DISCARDS) / MOST_DISCARDS
        self._since = update.seen

    @property
    def cards(self) -> tuple[Card, ...]:
        """The seat's held cards (as of the last look: call ``sync`` first)."""
        return self._cards

    def street_deal(self) -> StreetDeal | None:
        """``ofc.env.encoding.street_deal`` of the seat's view now: None unless it is to place street cards."""
        self.sync()
        seat = self.seat
        hand = self._hand
        if not self._cards or seat not in hand.to_act or hand.fantasy[seat]:
            return None
        rooms = self._rooms
        return len(self._cards), self._due, (rooms[0], rooms[1], rooms[2])


__all__ = ["Observer", "StreetDeal"]
