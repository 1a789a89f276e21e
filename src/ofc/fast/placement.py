"""Greedy placement: put a deal's cards (and its discards) where the evaluation likes them best.

``place_best`` tries every assignment of the cards to rows (or the discard) and keeps the
best by ``ofc.fast.evaluation.evaluate``; ``play_fantasy`` is its quick stand-in for setting a
hidden fantasy hand in a play-out.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from ofc.fast.evaluation import DISCARD, ROW_SIZE, ROW_START, evaluate
from ofc.fast.kernel_tables import KernelTables

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]

NO_VALUE = -1e18
"""Below any board's value: where a search for the best placement starts."""


@nb.njit(cache=True)
def fits(code: int, base: int, m: int, counts: I64, discards: int, room: I64) -> bool:
    """Whether assignment ``code`` (``m`` digits in ``base``) fits the rooms and drops exactly ``discards``."""
    for r in range(3):
        room[r] = ROW_SIZE[r] - counts[r]
    dropped = 0
    rest = code
    for _ in range(m):
        choice = rest % base
        rest //= base
        if choice == DISCARD:
            dropped += 1
        else:
            room[choice] -= 1
            if room[choice] < 0:
                return False
    return dropped == discards


@nb.njit(cache=True)
def build(board: I64, counts: I64, cards: I64, code: int, base: int, scratch: I64, fill: I64) -> None:
    """``scratch``/``fill``: ``board``/``counts`` with ``cards`` added as assignment ``code`` says."""
    for j in range(13):
        scratch[j] = board[j]
    for r in range(3):
        fill[r] = counts[r]
    rest = code
    for i in range(cards.shape[0] - 1, -1, -1):
        choice = rest % base
        rest //= base
        if choice != DISCARD:
            scratch[ROW_START[choice] + fill[choice]] = cards[i]
            fill[choice] += 1


@nb.njit(cache=True)
def commit(board: I64, counts: I64, cards: I64, code: int, base: int, codes: I64) -> None:
    """Add ``cards`` to ``board``/``counts`` as ``code`` says; each card's row (or ``DISCARD``) into ``codes``."""
    rest = code
    for i in range(cards.shape[0] - 1, -1, -1):
        choice = rest % base
        rest //= base
        codes[i] = choice
    for i in range(cards.shape[0]):
        choice = codes[i]
        if choice != DISCARD:
            board[ROW_START[choice] + counts[choice]] = cards[i]
            counts[choice] += 1


@nb.njit(cache=True)
def place_best(
    board: I64, counts: I64, cards: I64, discards: int, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32, codes: I64,
) -> float:  # fmt: skip
    """Place ``cards`` (discarding exactly ``discards``) where ``evaluate`` likes them best.

    Updates ``board`` and ``counts`` in place, writes each card's row (or ``DISCARD``) into
    ``codes`` and returns the chosen value. Ties go to the first assignment in counting
    order (card 0's choice varying slowest). Assignment ``code`` gives card ``i`` the digit
    ``m - 1 - i`` of ``code`` in base 4 (with a discard) or 3: ``fits``, ``build``, ``commit``.
    """
    m = cards.shape[0]
    base = 4 if discards > 0 else 3
    scratch = np.empty(13, dtype=np.int64)
    room = np.empty(3, dtype=np.int64)
    fill = np.empty(3, dtype=np.int64)
    best_value = NO_VALUE
    best_code = -1
    for code in range(base**m):
        if not fits(code, base, m, counts, discards, room):
            continue
        build(board, counts, cards, code, base, scratch, fill)
        value = evaluate(scratch, fill, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)
        if value > best_value:
            best_value = value
            best_code = code
    commit(board, counts, cards, best_code, base, codes)
    return best_value


@nb.njit(cache=True)
def play_fantasy(
    board: I64, counts: I64, cards: I64, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32,
) -> None:  # fmt: skip
    """A quick stand-in for a hidden fantasy hand: five cards, then threes discarding one, then singles."""
    codes = np.empty(5, dtype=np.int64)
    extra = cards.shape[0] - 13
    place_best(board, counts, cards[:5], 0, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy, codes)
    at = 5
    for _ in range(extra):
        place_best(
            board, counts, cards[at : at + 3], 1, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy, codes
        )
        at += 3
    while at < cards.shape[0]:
        place_best(
            board, counts, cards[at : at + 1], 0, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy, codes
        )
        at += 1


def place(board: I64, counts: I64, cards: I64, discards: int, params: F64, t: KernelTables) -> I64:
    """``place_best`` from Python: the row (or ``DISCARD``) chosen for each card."""
    codes = np.empty(cards.shape[0], dtype=np.int64)
    place_best(
        board, counts, cards, discards, params,
        t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, t.top, t.middle, t.bottom, codes,
    )  # fmt: skip
    return codes


__all__ = ["DISCARD", "build", "commit", "fits", "place", "place_best", "play_fantasy"]
