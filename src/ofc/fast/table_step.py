"""A normal hand's step in compiled code: deal, decode an action number, place, and every seat's vector.

The research environments play most hands with no seat in fantasy; for those,
``ofc.env.fast_hand`` keeps the hand as a few arrays and each step is one call of
``table_step``. It does what the engine (``ofc.engine.hand.Hand``) and each seat's
``ofc.env.observer.Observer`` would do together: decode the number as ``ofc.env.encoding`` does
(positions of the held cards in ascending order), place the cards, deal the next seat its
street cards as ``ofc.engine.deals.deal_sequence`` orders them, and write into every seat's
``to_array`` vector (the environments' observation layout) what that seat may see: every placement (a
normal hand is played face-up), its own discards and held cards, and everyone's counts.
``tests/test_env_fast_hand.py`` holds it equal to the engine and the observers at every step
of random hands in every variant and table size.

The state is one ``int64`` array: the fields ``S_*`` and, per seat from ``S_SEATS``, the
fields ``F_*`` (``SEAT_FIELDS`` each). ``frame[viewer, seat]`` holds the offsets of ``seat``'s
top-row plane and of its per-seat numbers in ``viewer``'s vector; ``where`` the offsets shared
by every vector (``W_*``).
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from ofc.rules.cards import DECK_SIZE
from ofc.rules.rows import ROW_SIZES
from ofc.rules.variants import MOST_DISCARDS, MOST_FANTASY_CARDS

I64 = npt.NDArray[np.int64]

S_NEXT, S_DEALT, S_STREET, S_TURN, S_SEATS = 0, 1, 2, 3, 8
"""The next card of the deck, deals made, the street, the turn in the play order, the first seat's fields."""
F_START, F_COUNT, F_ROOMS, F_PLACED, F_DISCARDED = 0, 1, 2, 5, 6
"""Per seat: where its held cards start in the deck order, how many it holds, the free places of
its three rows (2, 3, 4), cards placed and cards discarded."""
SEAT_FIELDS = 8
W_HELD, W_DISCARDS, W_STREET, W_DUE = 0, 1, 2, 3
"""Offsets in every vector: the viewer's held cards, its discards, the street, the discards due."""
OVER, BAD = -1, -2
"""``table_step``'s answers besides a mask key: the hand is over; the number cannot be played now."""
ROW_START = (0, ROW_SIZES[0], ROW_SIZES[0] + ROW_SIZES[1])
"""Where each row's cards start in a board of 13 (top 3, middle 5, bottom 5)."""
PLANE = DECK_SIZE
"""Cards per plane: a row's plane follows the row before it."""
SCALE_HELD = float(MOST_FANTASY_CARDS)
SCALE_DISCARDS = MOST_DISCARDS


@nb.njit(cache=True)
def mask_key(count: int, due: int, top: int, middle: int, bottom: int) -> int:
    """One number for a seat's street deal (cards held, discards due, free places per row)."""
    return (((count * 5 + due) * 4 + top) * 6 + middle) * 6 + bottom


@nb.njit(cache=True)
def _deal_next(state: I64, vectors: Any, order: I64, frame: I64, where: I64, deals: I64) -> None:
    """Deal the next chunk of the deal sequence to its seat: its held plane and everyone's count."""
    dealt = state[S_DEALT]
    seat, count = deals[dealt, 0], deals[dealt, 1]
    start = state[S_NEXT]
    state[S_NEXT] = start + count
    state[S_DEALT] = dealt + 1
    fields = S_SEATS + seat * SEAT_FIELDS
    state[fields + F_START] = start
    state[fields + F_COUNT] = count
    held = where[W_HELD]
    for i in range(start, start + count):
        vectors[seat, held + order[i]] = 1.0
    holding = count / SCALE_HELD
    for viewer in range(vectors.shape[0]):
        vectors[viewer, frame[viewer, seat, 1] + 4] = holding


@nb.njit(cache=True)
def _to_act(state: I64, vectors: Any, frame: I64, where: I64, play_order: I64, dues: I64) -> int:
    """Mark the seat to act in every vector and its discards due in its own; its mask key."""
    street = state[S_STREET]
    if street >= dues.shape[0]:
        return OVER
    seat = play_order[state[S_TURN]]
    for viewer in range(vectors.shape[0]):
        vectors[viewer, frame[viewer, seat, 1]] = 1.0
    due = dues[street]
    vectors[seat, where[W_DUE]] = min(due, SCALE_DISCARDS) / SCALE_DISCARDS
    fields = S_SEATS + seat * SEAT_FIELDS
    rooms = fields + F_ROOMS
    return mask_key(state[fields + F_COUNT], due, state[rooms], state[rooms + 1], state[rooms + 2])


@nb.njit(cache=True)
def table_start(
    state: I64, vectors: Any, order: I64, frame: I64, where: I64, deals: I64, play_order: I64, dues: I64
) -> int:
    """Deal every seat its first street (``vectors`` start blank: button and street set); the mask key."""
    state[:] = 0
    for seat in range(vectors.shape[0]):
        fields = S_SEATS + seat * SEAT_FIELDS
        for row in range(3):
            state[fields + F_ROOMS + row] = ROW_SIZES[row]
    for _ in range(vectors.shape[0]):
        _deal_next(state, vectors, order, frame, where, deals)
    return _to_act(state, vectors, frame, where, play_order, dues)


@nb.njit(cache=True)
def table_step(
    number: int, state: I64, boards: I64, vectors: Any, order: I64, frame: I64, where: I64, deals: I64,
    play_order: I64, dues: I64, codes: Any, sizes: I64,
) -> int:  # fmt: skip
    """Play action ``number`` for the seat to act; the next seat's mask key, ``OVER`` or ``BAD``.

    ``codes[street, number, position]`` is the row (0 top, 1 middle, 2 bottom) of the held
    card at ``position`` in ascending order, or -1 if it is discarded; ``sizes[street]`` how
    many numbers the street has. ``BAD`` (a number out of range or too many cards for a row)
    changes nothing.
    """
    street = state[S_STREET]
    if street >= dues.shape[0]:
        return BAD
    players = vectors.shape[0]
    seat = play_order[state[S_TURN]]
    fields = S_SEATS + seat * SEAT_FIELDS
    start, count, rooms = state[fields + F_START], state[fields + F_COUNT], fields + F_ROOMS
    if number < 0 or number >= sizes[street]:
        return BAD
    need = np.zeros(3, dtype=np.int64)
    for position in range(count):
        row = codes[street, number, position]
        if row >= 0:
            need[row] += 1
    for row in range(3):
        if need[row] > state[rooms + row]:
            return BAD
    held = np.sort(order[start : start + count])
    discarded = 0
    for position in range(count):
        card = held[position]
        vectors[seat, where[W_HELD] + card] = 0.0
        row = codes[street, number, position]
        if row < 0:
            vectors[seat, where[W_DISCARDS] + card] = 1.0
            discarded += 1
            continue
        room = state[rooms + row]
        boards[seat, ROW_START[row] + ROW_SIZES[row] - room] = card
        state[rooms + row] = room - 1
        for viewer in range(players):
            vectors[viewer, frame[viewer, seat, 0] + row * PLANE + card] = 1.0
    placed = state[fields + F_PLACED] + count - discarded
    state[fields + F_PLACED] = placed
    state[fields + F_COUNT] = 0
    total = state[fields + F_DISCARDED] + discarded
    state[fields + F_DISCARDED] = total
    for viewer in range(players):
        block = frame[viewer, seat, 1]
        vectors[viewer, block] = 0.0
        vectors[viewer, block + 4] = 0.0
        if discarded:
            vectors[viewer, block + 6] = min(total, SCALE_DISCARDS) / SCALE_DISCARDS
        if placed == 13:
            vectors[viewer, block + 7] = 1.0
    vectors[seat, where[W_DUE]] = 0.0
    turn = state[S_TURN] + 1
    if turn == players:
        turn = 0
        state[S_STREET] = street + 1
        for viewer in range(players):
            vectors[viewer, where[W_STREET] + street] = 0.0
            vectors[viewer, where[W_STREET] + street + 1] = 1.0
    state[S_TURN] = turn
    if 0 < state[S_STREET] < dues.shape[0]:
        _deal_next(state, vectors, order, frame, where, deals)
    return _to_act(state, vectors, frame, where, play_order, dues)


__all__ = ["BAD", "OVER", "SEAT_FIELDS", "S_SEATS", "S_TURN", "mask_key", "table_start", "table_step"]
