"""The discrete action space: one number per way to place a street's cards.

A seat's cards are taken in ascending card order (``ofc.rules.cards``: rank * 4 + suit). An action
number is ``choice * 3**kept + rows``: ``choice`` ranks the set of discarded cards among the
combinations of the card positions (lexicographic: with three cards, 0 discards the lowest,
1 the middle one, 2 the highest), and ``rows`` writes the row of each kept card in base 3
(0 top, 1 middle, 2 bottom), the lowest kept card as the leading digit. So:

- the five-card deal: 3^5 = 243 numbers (``rows`` alone);
- a pineapple street: 3 x 3^2 = 27 (which card is discarded x the rows of the other two);
- a classic street: 3; a turbo street: 3^4 = 81.

The space of a rule set is the largest of its streets (243 for every variant), and a mask
marks the numbers that are legal now: the right street and room in each row. Fantasy deals
are not placed through these numbers: the exact solver sets them, or, with the environments'
``fantasy_choices=k``, number ``i`` picks the solver's ``i``-th best board (``ofc.env.table``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from ofc.engine.actions import Action, sorted_action
from ofc.engine.view import HandView
from ofc.env.observer import StreetDeal
from ofc.rules.cards import Card
from ofc.rules.errors import ActionError
from ofc.rules.rows import ROW_SIZES, ROWS, Row
from ofc.rules.rulebook import VARIANTS, Rules, Variant

I8 = npt.NDArray[np.int8]


@dataclass(frozen=True)
class StreetCodes:
    """Every number of one deal shape: the discarded positions, the rows, the row counts."""

    dropped: tuple[tuple[int, ...], ...]
    rows: tuple[tuple[int, ...], ...]
    counts: npt.NDArray[np.int64]
    """Cards each number puts into top, middle and bottom: shape (numbers, 3)."""
    places: tuple[tuple[tuple[int, Row], ...], ...]
    """Per number, ``(position, Row)`` of each kept card: placements once positions are cards."""
    count_tuples: tuple[tuple[int, int, int], ...]
    """``counts`` as plain tuples (quicker to compare one at a time)."""
    places_down: tuple[tuple[tuple[int, Row], ...], ...]
    """``places`` from the highest position down: an ``Action``'s order once positions are sorted cards."""
    dropped_down: tuple[tuple[int, ...], ...]
    """``dropped`` from the highest position down."""

    @property
    def size(self) -> int:
        """How many numbers this deal shape has."""
        return len(self.rows)


@cache
def street_codes(cards: int, discards: int) -> StreetCodes:
    """The numbers of a deal of ``cards`` cards of which ``discards`` are discarded."""
    kept = cards - discards
    dropped: list[tuple[int, ...]] = []
    rows: list[tuple[int, ...]] = []
    for choice in combinations(range(cards), discards):
        for number in range(3**kept):
            digits = [(number // 3 ** (kept - 1 - i)) % 3 for i in range(kept)]
            dropped.append(choice)
            rows.append(tuple(digits))
    counts = np.array([[r.count(row) for row in range(3)] for r in rows], dtype=np.int64).reshape(-1, 3)
    places = tuple(
        tuple(zip([p for p in range(cards) if p not in choice], [ROWS[r] for r in digits], strict=True))
        for choice, digits in zip(dropped, rows, strict=True)
    )
    count_tuples = tuple((r.count(0), r.count(1), r.count(2)) for r in rows)
    places_down = tuple(tuple(reversed(pairs)) for pairs in places)
    dropped_down = tuple(tuple(reversed(choice)) for choice in dropped)
    return StreetCodes(tuple(dropped), tuple(rows), counts, places, count_tuples, places_down, dropped_down)


def action_space_size(rules: Rules) -> int:
    """The number of discrete actions under ``rules``: the largest street's (243)."""
    return _space_size(rules.variant)


@cache
def _space_size(variant: Variant) -> int:
    return max(street_codes(street.cards, street.discards).size for street in VARIANTS[variant].streets)


@cache
def _mask(cards: int, discards: int, rooms: tuple[int, int, int], size: int) -> I8:
    codes = street_codes(cards, discards)
    mask = np.zeros(size, dtype=np.int8)
    mask[: codes.size] = (codes.counts <= np.array(rooms)).all(axis=1)
    mask.flags.writeable = False
    return mask


@cache
def _nothing(size: int) -> I8:
    mask = np.zeros(size, dtype=np.int8)
    mask.flags.writeable = False
    return mask


def street_deal(view: HandView) -> StreetDeal | None:
    """The viewer's street deal to place now, or None (not to act, nothing held, or in fantasy)."""
    seat = view.seat
    cards = view.cards
    if seat is None or not cards or seat not in view.to_act:
        return None
    mine = view.seats[seat]
    if mine.fantasy:
        return None
    top, middle, bottom = mine.rows
    rooms = (ROW_SIZES[0] - len(top), ROW_SIZES[1] - len(middle), ROW_SIZES[2] - len(bottom))
    return len(cards), view.rules.spec.streets[view.street].discards, rooms


def action_mask(view: HandView) -> I8:
    """1 for every number the viewer may play now, else 0 (all 0 when it may not act or is in fantasy).

    The array is shared and read-only: copy it before changing it.
    """
    return deal_mask(street_deal(view), action_space_size(view.rules))


def deal_mask(deal: StreetDeal | None, size: int) -> I8:
    """``action_mask`` of a view whose ``street_deal`` is ``deal`` (shared and read-only)."""
    return _nothing(size) if deal is None else _mask(*deal, size)


def decode(view: HandView, number: int) -> Action:
    """The action ``number`` stands for in ``view``; ``ActionError`` names why it cannot be played."""
    return decode_deal(view, street_deal(view), number)


def decode_deal(view: HandView, deal: StreetDeal | None, number: int) -> Action:
    """``decode`` for a view whose ``street_deal`` is ``deal`` (for callers that keep it)."""
    return decode_held(view.seat, view.cards, deal, number)


def decode_held(seat: int | None, cards: tuple[Card, ...], deal: StreetDeal | None, number: object) -> Action:
    """``decode`` for ``seat`` holding ``cards`` whose ``street_deal`` is ``deal`` (``ActionError`` if not legal).

    The action returned is legal whenever ``cards`` and ``deal`` are the seat's now: the number
    is checked against the row rooms, and every card held is placed or discarded once.
    """
    if seat is None or deal is None:
        raise ActionError(
            "seat {seat} has no street cards to place now, so action {number} means nothing", seat=seat, number=number
        )
    codes = street_codes(deal[0], deal[1])
    counts = codes.count_tuples
    if type(number) is int and 0 <= number < len(counts):  # the usual case, checked here without a call
        top, middle, bottom = counts[number]
        rooms = deal[2]
        fits = top <= rooms[0] and middle <= rooms[1] and bottom <= rooms[2]
        index = number if fits else _check_number(seat, codes, rooms, number)
    else:
        index = _check_number(seat, codes, deal[2], number)
    ordered = sorted(cards)  # positions from the top down give the cards highest first, as Action keeps them
    placements = tuple([(ordered[p], row) for p, row in codes.places_down[index]])
    return sorted_action(seat, placements, tuple([ordered[p] for p in codes.dropped_down[index]]))


def _check_number(seat: int, codes: StreetCodes, rooms: tuple[int, int, int], number: object) -> int:
    """``number`` as an index into ``codes``, after checking it is one and fits ``rooms``."""
    if type(number) is not int and (isinstance(number, bool) or not isinstance(number, np.integer)):
        raise ActionError(
            "seat {seat}: action {number!r} is not one of the {size} numbers of this street (0-{last})",
            seat=seat,
            number=number,
            size=codes.size,
            last=codes.size - 1,
        )
    index = int(number)
    if not 0 <= index < codes.size:
        raise ActionError(
            "seat {seat}: action {number!r} is not one of the {size} numbers of this street (0-{last})",
            seat=seat,
            number=index,
            size=codes.size,
            last=codes.size - 1,
        )
    counts = codes.count_tuples[index]
    if counts[0] > rooms[0] or counts[1] > rooms[1] or counts[2] > rooms[2]:
        row = next(row for row in ROWS if counts[row] > rooms[row])
        if counts[row] == 1:
            raise ActionError(
                "seat {seat}: action {index} puts {count} card in the {row} row, which has room for {room}",
                seat=seat,
                index=index,
                count=counts[row],
                row=row.term,
                room=rooms[row],
            )
        raise ActionError(
            "seat {seat}: action {index} puts {count} cards in the {row} row, which has room for {room}",
            seat=seat,
            index=index,
            count=counts[row],
            row=row.term,
            room=rooms[row],
        )
    return index


def encode(view: HandView, action: Action) -> int:
    """The number of ``action`` in ``view`` (the inverse of ``decode``)."""
    cards = tuple(sorted(view.cards))
    discarded = set(action.discards)
    rows = dict(action.placements)
    if set(rows) | discarded != set(cards) or len(rows) + len(discarded) != len(cards):
        raise ActionError("seat {seat}: {action} does not use exactly the cards held", seat=action.seat, action=action)
    choice = tuple(i for i, card in enumerate(cards) if card in discarded)
    kept = [card for card in cards if card not in discarded]
    digits = 0
    for card in kept:
        digits = digits * 3 + int(rows[card])
    rank = list(combinations(range(len(cards)), len(choice))).index(choice)
    return int(rank * 3 ** len(kept) + digits)


__all__ = [
    "StreetCodes",
    "StreetDeal",
    "action_mask",
    "action_space_size",
    "deal_mask",
    "decode",
    "decode_deal",
    "decode_held",
    "encode",
    "street_codes",
    "street_deal",
]
