"""The k best arrangements of a fantasy deal: ``ofc.fast.fantasy``'s search with k incumbents.

The walk is the same (bottoms strongest first, then middles no stronger, then every top no
stronger than the middle), and so is the order of candidates: value, then bottom, middle and
top keys, then the lexicographically smallest bottom, middle and top cards. Instead of one
incumbent the search keeps the k best boards found so far, best first; a branch is cut as
soon as its bound cannot beat the k-th of them (once k are held), which is the same cut as
the single-answer search when k is 1. Every (bottom, middle, top) is met at most once, so
the k boards are distinct.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from ofc.fast.boards import top_royalty
from ofc.fast.evaluate import key3
from ofc.fast.fantasy import TRIPS, _five_rows, _lex_smaller, _prefix_max, _top_bounds, rest_positions

F64 = npt.NDArray[np.float64]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]


@nb.njit(cache=True)
def _beats(candidate: F64, kept: F64, i: int) -> bool:
    """Whether ``candidate`` (value, kb, km, kt, b, m, t) comes before row ``i`` of ``kept``."""
    for j in range(4):
        if candidate[j] != kept[i, j]:
            return bool(candidate[j] > kept[i, j])
    for j in range(4, 7):
        if candidate[j] != kept[i, j]:
            return _lex_smaller(int(candidate[j]), int(kept[i, j]))
    return False


@nb.njit(cache=True)
def _cut(bound: float, kb: int, km: int, kept: F64, last: int) -> bool:
    """Whether no board bounded by ``bound`` (bottom ``kb``, middle at most ``km``) beats row ``last``."""
    if bound != kept[last, 0]:
        return bool(bound < kept[last, 0])
    if kb != kept[last, 1]:
        return bool(kb < kept[last, 1])
    return bool(km < kept[last, 2])


@nb.njit(cache=True)
def _keep(candidate: F64, kept: F64, count: int) -> int:
    """Insert ``candidate`` into the sorted ``kept`` (``count`` rows used) if it makes the cut."""
    k = kept.shape[0]
    if count == k and not _beats(candidate, kept, k - 1):
        return count
    i = count if count < k else k - 1
    while i > 0 and _beats(candidate, kept, i - 1):
        kept[i, :] = kept[i - 1, :]
        i -= 1
    kept[i, :] = candidate
    return count + 1 if count < k else k


@nb.njit(cache=True)
def _tops(
    cards: I64,
    rest: int,
    cap: int,
    base: int,
    rows_stay: bool,
    trips_stay: bool,
    stay_value: float,
    weight: I32,
    u3: I32,
    top_roy: I32,
    positions: I64,
    candidate: F64,
    kept: F64,
    count: int,
) -> int:
    """Offer every top from ``rest`` with a key at most ``cap`` (``candidate[1:3]``, ``[4:6]`` set)."""
    n = rest_positions(rest, cards.shape[0], positions)
    for x in range(n):
        for y in range(x + 1, n):
            for z in range(y + 1, n):
                key = key3(cards[positions[x]], cards[positions[y]], cards[positions[z]], weight, u3)
                if key > cap:
                    continue
                value = float(base + top_royalty(key, top_roy))
                if rows_stay or (trips_stay and (key >> 20) == TRIPS):
                    value += stay_value
                candidate[0] = value
                candidate[3] = key
                candidate[6] = (1 << positions[x]) | (1 << positions[y]) | (1 << positions[z])
                count = _keep(candidate, kept, count)
    return count


@nb.njit(cache=True)
def solve_top_kernel(
    cards: I64,
    weight: I32,
    bit: I32,
    u5: I32,
    f5: I32,
    u3: I32,
    top_roy: I32,
    mid_roy: I32,
    bot_roy: I32,
    stay_flags: Any,
    stay_value: float,
    kept: F64,
) -> int:
    """Fill ``kept`` (shape (k, 7)) with the k best ``[value, kb, km, kt, b, m, t]``, best first.

    Returns how many rows were filled (fewer than k only when the deal has fewer live
    boards). The arguments are ``solve_kernel``'s.
    """
    k = kept.shape[0]
    n = cards.shape[0]
    full = (1 << n) - 1
    sm, sk, broy, mroy, bstay, mstay = _five_rows(cards, weight, bit, u5, f5, mid_roy, bot_roy, stay_flags)
    broy_max, mroy_max = _prefix_max(broy), _prefix_max(mroy)
    bstay_any, mstay_any = _prefix_max(bstay), _prefix_max(mstay)
    tk, troy_max, tstay_any = _top_bounds(cards, weight, u3, top_roy, stay_flags)
    top_cap = np.searchsorted(tk, sk, side="right") - 1
    mid_cap = np.searchsorted(sk, sk, side="right") - 1
    positions = np.empty(n, dtype=np.int64)
    candidate = np.zeros(7, dtype=np.float64)
    count = 0
    for ib in range(sk.shape[0] - 1, -1, -1):
        b_mask, kb = sm[ib], sk[ib]
        tc = top_cap[ib]
        if count == k:
            bound = float(broy_max[ib] + mroy_max[ib] + troy_max[tc])
            if bstay_any[ib] or mstay_any[ib] or tstay_any[tc]:
                bound += stay_value
            if _cut(bound, kb, kb, kept, k - 1):
                break
        for im in range(mid_cap[ib], -1, -1):
            m_mask, km = sm[im], sk[im]
            if m_mask & b_mask:
                continue
            tc = top_cap[im]
            if count == k:
                bound = float(broy[ib] + mroy_max[im] + troy_max[tc])
                if bstay[ib] or mstay_any[im] or tstay_any[tc]:
                    bound += stay_value
                if _cut(bound, kb, km, kept, k - 1):
                    break
            rows_stay = bstay[ib] == 1 or mstay[im] == 1
            candidate[1] = kb
            candidate[2] = km
            candidate[4] = b_mask
            candidate[5] = m_mask
            count = _tops(
                cards, full ^ b_mask ^ m_mask, km, broy[ib] + mroy[im], rows_stay, stay_flags[0],
                stay_value, weight, u3, top_roy, positions, candidate, kept, count,
            )  # fmt: skip
    return count
