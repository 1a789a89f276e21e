"""The legal actions of one seat as a lazy sequence.

Actions are ordered by the set of discarded cards (combinations of the held cards'
positions, lexicographic), then by the row of each kept card in the order received, top <
middle < bottom; each legal decision appears once. Nothing is built until asked: ``len()``
is arithmetic and ``actions[i]`` builds the i-th action, so ``rng.choice(actions)`` is cheap
even for a fantasy hand, which has about a million legal actions with 14 cards and 171
million with 17. Iterate a fantasy seat's actions only if you mean to.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations, product
from math import comb, factorial
from typing import overload

from ofc.engine.actions import Action
from ofc.rules.cards import Card
from ofc.rules.rows import ROW_INDEXES, ROWS, Row

Pattern = tuple[tuple[tuple[int, Row], ...], tuple[int, ...]]
"""(position kept, row) pairs and discarded positions, positions into the held cards."""

MAX_LISTED = 8
"""Deals of up to this many cards have their patterns listed (and cached) once."""


@cache
def _patterns(held: int, discards: int, rooms: tuple[int, int, int]) -> tuple[Pattern, ...]:
    out: list[Pattern] = []
    for dropped in combinations(range(held), discards):
        kept = [i for i in range(held) if i not in dropped]
        for rows in product(ROWS, repeat=len(kept)):
            if all(rows.count(row) <= rooms[row] for row in ROWS):
                out.append((tuple(zip(kept, rows, strict=True)), dropped))
    return tuple(out)


def _fillings(rooms: Sequence[int]) -> int:
    """Ways to fill rows with exactly ``rooms`` free places from distinct cards in order."""
    total = factorial(sum(rooms))
    for room in rooms:
        total //= factorial(room)
    return total


def _unrank_combination(n: int, k: int, rank: int) -> tuple[int, ...]:
    """The ``rank``-th k-subset of ``range(n)`` in lexicographic order."""
    out: list[int] = []
    x = 0
    while k:
        count = comb(n - x - 1, k - 1)
        if rank < count:
            out.append(x)
            k -= 1
        else:
            rank -= count
        x += 1
    return tuple(out)


def _unrank_rows(rooms: Sequence[int], rank: int) -> list[Row]:
    """The ``rank``-th way (product order) to fill rows with exactly ``rooms`` free places."""
    room = list(rooms)
    rows: list[Row] = []
    for _ in range(sum(rooms)):
        for row in ROWS:
            if not room[row]:
                continue
            room[row] -= 1
            count = _fillings(room)
            if rank < count:
                rows.append(row)
                break
            rank -= count
            room[row] += 1
    return rows


class LegalActions(Sequence[Action]):
    """Every legal action of ``seat`` holding ``held`` with ``rooms`` free places per row."""

    __slots__ = ("_discards", "_held", "_length", "_patterns", "_rooms", "_seat")

    def __init__(self, seat: int, held: tuple[Card, ...], rooms: tuple[int, int, int], discards: int) -> None:
        self._seat = seat
        self._held = held
        self._rooms = rooms
        self._discards = discards
        keep = len(held) - discards
        if not held:
            self._patterns: tuple[Pattern, ...] | None = ()
            self._length = 0
        elif len(held) <= MAX_LISTED or keep != sum(rooms):
            self._patterns = _patterns(len(held), discards, rooms)
            self._length = len(self._patterns)
        else:
            self._patterns = None
            self._length = comb(len(held), discards) * _fillings(rooms)

    @property
    def seat(self) -> int:
        """The seat these actions are for."""
        return self._seat

    @property
    def held(self) -> tuple[Card, ...]:
        """The cards the seat holds, to place or discard (its own cards, as its view shows them)."""
        return self._held

    @property
    def rooms(self) -> tuple[int, int, int]:
        """Free places in the seat's top, middle and bottom rows."""
        return self._rooms

    @property
    def discards(self) -> int:
        """How many of the held cards each action discards."""
        return self._discards

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._length)))
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(f"seat {self._seat} has {self._length} legal actions, no number {index}")
        held = self._held
        if self._patterns is not None:
            places, dropped = self._patterns[index]
            return Action(self._seat, tuple([(held[i], row) for i, row in places]), tuple([held[i] for i in dropped]))
        per_discard = _fillings(self._rooms)
        dropped = _unrank_combination(len(held), self._discards, index // per_discard)
        kept = [card for i, card in enumerate(held) if i not in dropped]
        rows = _unrank_rows(self._rooms, index % per_discard)
        return Action(self._seat, tuple(zip(kept, rows, strict=True)), tuple(held[i] for i in dropped))

    def __iter__(self) -> Iterator[Action]:
        for index in range(self._length):
            yield self[index]

    def __contains__(self, item: object) -> bool:
        """Whether ``item`` is one of these actions: the seat's, using each held card once."""
        if not isinstance(item, Action) or item.seat != self._seat or not self._length:
            return False
        if len(item.discards) != self._discards:
            return False
        cards = [card for card, _ in item.placements] + list(item.discards)
        if len(cards) != len(self._held) or set(cards) != set(self._held):
            return False
        rows = [row for _, row in item.placements]
        if not all(type(row) is Row or (type(row) is int and row in ROW_INDEXES) for row in rows):
            return False  # as ``Hand.check``: a Row, or its index
        return all(rows.count(row) <= self._rooms[row] for row in ROWS)

    def __repr__(self) -> str:
        return f"<LegalActions seat={self._seat} count={self._length}>"
