"""Batch kernels over finished boards: row keys, fouls and royalties.

A board array has shape ``(n, 13)``: the top row's 3 cards, then the middle's 5, then the
bottom's 5 (the order of ``Board.cards``). Results equal ``ofc.rules.scoring.row_keys``,
``RowKeys.fouled`` and ``royalties_of`` board by board.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from ofc.fast.evaluate import check_cards
from ofc.fast.tables import EVAL_TABLES, ROYAL_SLOT, royalty_arrays
from ofc.rules.errors import BoardError
from ofc.rules.rulebook import RoyaltyTable

I32 = npt.NDArray[np.int32]
ROYAL_KEY = 8 << 20 | 13 << 16
"""Key of the royal flush (straight flush, ace high)."""


@nb.njit(cache=True)
def top_royalty(key: int, top: I32) -> int:
    """Royalty of a top-row key from ``RoyaltyArrays.top`` (numba helper)."""
    category = key >> 20
    if category > 3:
        return 0
    return top[category, ((key >> 16) & 15) - 1]  # type: ignore[no-any-return]


@nb.njit(cache=True)
def five_royalty(key: int, by_slot: I32) -> int:
    """Royalty of a middle or bottom key from its ``RoyaltyArrays`` slot array (numba helper)."""
    if key == ROYAL_KEY:
        return by_slot[ROYAL_SLOT]  # type: ignore[no-any-return]
    return by_slot[key >> 20]  # type: ignore[no-any-return]


@nb.njit(cache=True)
def _keys_kernel(boards: Any, weight: I32, bit: I32, u5: I32, f5: I32, u3: I32, out: I32) -> None:
    # key3/key5 written out: as calls they run several times slower in this loop.
    for i in range(boards.shape[0]):
        x = boards[i]
        out[i, 0] = u3[weight[x[0]] + weight[x[1]] + weight[x[2]]]
        for row in range(1, 3):
            first = 5 * row - 2
            a, b, c, d, e = x[first], x[first + 1], x[first + 2], x[first + 3], x[first + 4]
            if ((a ^ b) | (a ^ c) | (a ^ d) | (a ^ e)) & 3 == 0:
                out[i, row] = f5[bit[a] | bit[b] | bit[c] | bit[d] | bit[e]]
            else:
                out[i, row] = u5[weight[a] + weight[b] + weight[c] + weight[d] + weight[e]]


@nb.njit(cache=True)
def _royalties_kernel(keys: I32, top: I32, middle: I32, bottom: I32, out: I32) -> None:
    for i in range(keys.shape[0]):
        kt, km, kb = keys[i, 0], keys[i, 1], keys[i, 2]
        if kb < km or km < kt:
            out[i, 0] = out[i, 1] = out[i, 2] = 0
        else:
            out[i, 0] = top_royalty(kt, top)
            out[i, 1] = five_royalty(km, middle)
            out[i, 2] = five_royalty(kb, bottom)


def board_keys(boards: npt.ArrayLike) -> I32:
    """Rank keys ``(top, middle, bottom)`` of each board, shape ``(n, 3)``."""
    array = np.ascontiguousarray(boards)
    if array.ndim != 2 or array.shape[1] != 13 or array.dtype.kind not in "iu":
        raise BoardError(
            "expected an integer array of shape (n, 13), got {shape} {dtype}", shape=array.shape, dtype=array.dtype
        )
    check_cards(array)
    out = np.empty((array.shape[0], 3), dtype=np.int32)
    t = EVAL_TABLES
    _keys_kernel(array, t.card_weight, t.card_bit, t.unsuited5, t.flush5, t.unsuited3, out)
    return out


def fouls_of_keys(keys: I32) -> npt.NDArray[np.bool_]:
    """Which rows of ``(top, middle, bottom)`` keys foul (rows fail to rise)."""
    return (keys[:, 2] < keys[:, 1]) | (keys[:, 1] < keys[:, 0])


def fouls(boards: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Which boards are fouled."""
    return fouls_of_keys(board_keys(boards))


def _valid_keys(table: I32) -> I32:
    return np.unique(table[table > 0])


VALID_TOP_KEYS = _valid_keys(EVAL_TABLES.unsuited3)
"""Every 3-card rank key, sorted."""
VALID_FIVE_KEYS = np.union1d(_valid_keys(EVAL_TABLES.unsuited5), _valid_keys(EVAL_TABLES.flush5))
"""Every 5-card rank key, sorted."""


def check_keys(keys: npt.NDArray[Any]) -> None:
    """Raise ``BoardError`` unless ``keys`` holds rank keys ``(top, middle, bottom)`` per board.

    The royalty kernel indexes its tables by key without bounds checks, so a made-up key
    would read past a table.
    """
    if keys.ndim != 2 or keys.shape[1] != 3 or keys.dtype.kind not in "iu":
        raise BoardError(
            "expected an integer array of shape (n, 3), got {shape} {dtype}", shape=keys.shape, dtype=keys.dtype
        )
    checks = ((0, VALID_TOP_KEYS, "top"), (1, VALID_FIVE_KEYS, "middle"), (2, VALID_FIVE_KEYS, "bottom"))
    for column, valid, row in checks:
        bad = ~np.isin(keys[:, column], valid)
        if bad.any():
            index = int(np.argmax(bad))
            raise BoardError(
                "board {index}: {key} is not a {row}-row rank key", index=index, key=int(keys[index, column]), row=row
            )


def _royalties_of_valid_keys(keys: I32, table: RoyaltyTable) -> I32:
    arrays = royalty_arrays(table)
    out = np.empty((keys.shape[0], 3), dtype=np.int32)
    _royalties_kernel(np.ascontiguousarray(keys, dtype=np.int32), arrays.top, arrays.middle, arrays.bottom, out)
    return out


def royalties_of_keys(keys: npt.ArrayLike, table: RoyaltyTable) -> I32:
    """Royalties ``(top, middle, bottom)`` of ranked boards, zero for a fouled one.

    Raises ``BoardError`` for anything but the rank keys ``board_keys`` returns.
    """
    array = np.asarray(keys)
    check_keys(array)
    return _royalties_of_valid_keys(array.astype(np.int32, copy=False), table)


def royalties(boards: npt.ArrayLike, table: RoyaltyTable) -> I32:
    """Royalties ``(top, middle, bottom)`` of each board under ``table``; zero when fouled."""
    return _royalties_of_valid_keys(board_keys(boards), table)
