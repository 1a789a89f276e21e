"""Batch evaluation of 5-card and 3-card hands: numba kernels over arrays of cards.

A hand array has one hand per row, cards as in ``ofc.rules.cards`` (any integer dtype); the result
is one ``int32`` rank key per hand, equal to ``ofc.rules.ranking.rank5`` / ``rank3``. Compiled code
is cached on disk (``cache=True``), so a second process starts warm.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from ofc.fast.tables import EVAL_TABLES
from ofc.rules.cards import DECK_SIZE
from ofc.rules.errors import BoardError, CardError

I32 = npt.NDArray[np.int32]


@nb.njit(cache=True)
def key5(a: int, b: int, c: int, d: int, e: int, weight: I32, bit: I32, unsuited: I32, flush: I32) -> int:
    """Key of one 5-card hand, for other kernels (tables as in ``EvalTables``)."""
    if ((a ^ b) | (a ^ c) | (a ^ d) | (a ^ e)) & 3 == 0:
        return flush[bit[a] | bit[b] | bit[c] | bit[d] | bit[e]]  # type: ignore[no-any-return]
    return unsuited[weight[a] + weight[b] + weight[c] + weight[d] + weight[e]]  # type: ignore[no-any-return]


@nb.njit(cache=True)
def key3(a: int, b: int, c: int, weight: I32, unsuited3: I32) -> int:
    """Key of one 3-card top row, for other kernels."""
    return unsuited3[weight[a] + weight[b] + weight[c]]  # type: ignore[no-any-return]


@nb.njit(cache=True)
def _eval5_kernel(hands: Any, weight: I32, bit: I32, unsuited: I32, flush: I32, out: I32) -> None:
    # key5 written out: as a call it runs several times slower in this loop.
    for i in range(hands.shape[0]):
        a, b, c, d, e = hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4]
        if ((a ^ b) | (a ^ c) | (a ^ d) | (a ^ e)) & 3 == 0:
            out[i] = flush[bit[a] | bit[b] | bit[c] | bit[d] | bit[e]]
        else:
            out[i] = unsuited[weight[a] + weight[b] + weight[c] + weight[d] + weight[e]]


@nb.njit(cache=True)
def _eval3_kernel(hands: Any, weight: I32, unsuited3: I32, out: I32) -> None:
    for i in range(hands.shape[0]):
        out[i] = key3(hands[i, 0], hands[i, 1], hands[i, 2], weight, unsuited3)


def check_cards(array: npt.NDArray[Any]) -> None:
    """Raise ``CardError`` unless every entry of the integer ``array`` is a card (0..51).

    The kernels index their tables by card without bounds checks (numba does not check), so
    a card outside the deck would read past a table: a made-up key, or a crash.
    """
    if array.size:
        low, high = int(array.min()), int(array.max())
        if low < 0 or high >= DECK_SIZE:
            raise CardError("cards are 0 to {last}, got {card}", last=DECK_SIZE - 1, card=low if low < 0 else high)


def _as_hands(hands: npt.ArrayLike, width: int) -> npt.NDArray[Any]:
    array = np.ascontiguousarray(hands)
    if array.ndim != 2 or array.shape[1] != width:
        raise BoardError("expected an array of shape (n, {width}), got {shape}", width=width, shape=array.shape)
    if array.dtype.kind not in "iu":
        raise BoardError("cards must be integers, got dtype {dtype}", dtype=array.dtype)
    check_cards(array)
    return array


def eval5(hands: npt.ArrayLike) -> I32:
    """Rank keys of an ``(n, 5)`` array of 5-card hands."""
    array = _as_hands(hands, 5)
    out = np.empty(array.shape[0], dtype=np.int32)
    t = EVAL_TABLES
    _eval5_kernel(array, t.card_weight, t.card_bit, t.unsuited5, t.flush5, out)
    return out


def eval3(hands: npt.ArrayLike) -> I32:
    """Rank keys of an ``(n, 3)`` array of 3-card top rows."""
    array = _as_hands(hands, 3)
    out = np.empty(array.shape[0], dtype=np.int32)
    _eval3_kernel(array, EVAL_TABLES.card_weight, EVAL_TABLES.unsuited3, out)
    return out
