"""The fantasy search kernel: the best arrangement of 13 to 17 cards, by branch and bound.

Positions ``0..n-1`` index the deal's cards sorted ascending, and a row is a bit mask over
positions, so "lexicographically smallest cards" is a bit test. The search:

1. ranks every 5-subset (key, bottom and middle royalty, stay flags) and every 3-subset;
2. walks bottoms from the strongest key down, and for each the middles with a key no higher
   than the bottom's, strongest first, disjoint from the bottom;
3. for each (bottom, middle) pair takes the best top among the remaining cards whose key
   does not beat the middle's.

An upper bound (best royalties any middle and top could add, from prefix maxima over keys,
plus the stay value when some row could still earn it) ends a loop as soon as it cannot
reach the incumbent; since later candidates have lower keys, they would lose every tie too.
Candidates compare by value, then bottom, middle and top keys, then the lexicographically
smallest bottom, middle and top cards.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from ofc.fast.boards import five_royalty, top_royalty
from ofc.fast.evaluate import key3, key5

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
UniTuple7 = tuple[float, float, float, float, float, float, float]
"""An incumbent: value, bottom, middle and top keys, bottom, middle and top masks."""

QUADS = 7
FULL_HOUSE = 6
TRIPS = 3


@nb.njit(cache=True)
def _subsets5(cards: I64, weight: I32, bit: I32, u5: I32, f5: I32) -> tuple[I64, I64]:
    n = cards.shape[0]
    count = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) // 120
    masks = np.empty(count, dtype=np.int64)
    keys = np.empty(count, dtype=np.int64)
    k = 0
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                for d in range(c + 1, n):
                    for e in range(d + 1, n):
                        masks[k] = (1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e)
                        keys[k] = key5(cards[a], cards[b], cards[c], cards[d], cards[e], weight, bit, u5, f5)
                        k += 1
    return masks, keys


@nb.njit(cache=True)
def _subsets3(cards: I64, weight: I32, u3: I32) -> tuple[I64, I64]:
    n = cards.shape[0]
    count = n * (n - 1) * (n - 2) // 6
    masks = np.empty(count, dtype=np.int64)
    keys = np.empty(count, dtype=np.int64)
    k = 0
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                masks[k] = (1 << a) | (1 << b) | (1 << c)
                keys[k] = key3(cards[a], cards[b], cards[c], weight, u3)
                k += 1
    return masks, keys


@nb.njit(cache=True)
def _lex_smaller(a: int, b: int) -> bool:
    """Whether position set ``a`` is lexicographically smaller than ``b`` (same size)."""
    d = a ^ b
    return (a & (d & -d)) != 0


@nb.njit(cache=True)
def _better(candidate: UniTuple7, best: UniTuple7) -> bool:
    """Whether ``(value, kb, km, kt, b, m, t)`` beats the incumbent of the same shape."""
    for i in range(4):
        if candidate[i] != best[i]:
            return candidate[i] > best[i]
    for i in range(4, 7):
        if candidate[i] != best[i]:
            return _lex_smaller(int(candidate[i]), int(best[i]))
    return False


@nb.njit(cache=True)
def _cannot_win(bound: float, kb: int, km: int, best: UniTuple7) -> bool:
    """Whether a branch bounded by ``bound`` (bottom ``kb``, middle at most ``km``) loses."""
    if bound != best[0]:
        return bound < best[0]
    if kb != best[1]:
        return kb < best[1]
    return km < best[2]


@nb.njit(cache=True)
def solve_kernel(
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
    best: I64,
) -> float:
    """Fill ``best`` with the keys and position masks ``[kb, km, kt, b, m, t]``; return the value.

    ``stay_flags`` = (top trips, bottom quads+, middle quads+, middle full house+) as booleans;
    ``stay_value`` is added once when the arrangement meets an enabled condition.
    """
    n = cards.shape[0]
    full = (1 << n) - 1
    masks5, keys5 = _subsets5(cards, weight, bit, u5, f5)
    order5 = np.argsort(keys5, kind="mergesort")
    sm = masks5[order5]
    sk = keys5[order5]
    count5 = sk.shape[0]
    broy = np.empty(count5, dtype=np.int64)
    mroy = np.empty(count5, dtype=np.int64)
    bstay = np.empty(count5, dtype=np.bool_)
    mstay = np.empty(count5, dtype=np.bool_)
    for i in range(count5):
        key = sk[i]
        category = key >> 20
        broy[i] = five_royalty(key, bot_roy)
        mroy[i] = five_royalty(key, mid_roy)
        bstay[i] = stay_flags[1] and category >= QUADS
        mstay[i] = (stay_flags[2] and category >= QUADS) or (stay_flags[3] and category >= FULL_HOUSE)
    # prefix maxima (bounds for "any row with a key at most this one")
    broy_max = broy.copy()
    mroy_max = mroy.copy()
    bstay_any = bstay.copy()
    mstay_any = mstay.copy()
    for i in range(1, count5):
        broy_max[i] = max(broy_max[i], broy_max[i - 1])
        bstay_any[i] = bstay_any[i] or bstay_any[i - 1]
        mroy_max[i] = max(mroy_max[i], mroy_max[i - 1])
        mstay_any[i] = mstay_any[i] or mstay_any[i - 1]
    _, keys3 = _subsets3(cards, weight, u3)
    tk = np.sort(keys3)
    count3 = tk.shape[0]
    troy_max = np.empty(count3, dtype=np.int64)
    tstay_any = np.empty(count3, dtype=np.bool_)
    for j in range(count3):
        troy_max[j] = top_royalty(tk[j], top_roy)
        tstay_any[j] = stay_flags[0] and (tk[j] >> 20) == TRIPS
        if j > 0:
            troy_max[j] = max(troy_max[j], troy_max[j - 1])
            tstay_any[j] = tstay_any[j] or tstay_any[j - 1]
    # for each 5-subset: last top index with key <= its key, and last 5-subset index likewise
    top_cap = np.searchsorted(tk, sk, side="right") - 1
    mid_cap = np.searchsorted(sk, sk, side="right") - 1
    positions = np.empty(n, dtype=np.int64)
    found = False
    inc = (-1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    for ib in range(count5 - 1, -1, -1):
        b_mask = sm[ib]
        kb = sk[ib]
        if found:
            tc = top_cap[ib]
            stay_possible = bstay_any[ib] or mstay_any[ib] or (tc >= 0 and tstay_any[tc])
            bound = float(broy_max[ib] + mroy_max[ib] + (troy_max[tc] if tc >= 0 else 0))
            if stay_possible:
                bound += stay_value
            if _cannot_win(bound, kb, kb, inc):
                break
        for im in range(mid_cap[ib], -1, -1):
            m_mask = sm[im]
            if m_mask & b_mask:
                continue
            km = sk[im]
            tc = top_cap[im]
            if tc < 0:
                break
            rows_stay = bstay[ib] or mstay[im]
            base = broy[ib] + mroy[im]
            if found:
                bound = float(broy[ib] + mroy_max[im] + troy_max[tc])
                if bstay[ib] or mstay_any[im] or tstay_any[tc]:
                    bound += stay_value
                if _cannot_win(bound, kb, km, inc):
                    break
            rest = full ^ b_mask ^ m_mask
            count = 0
            for p in range(n):
                if (rest >> p) & 1:
                    positions[count] = p
                    count += 1
            t_mask = -1
            t_key = -1
            total = -1.0
            for x in range(count):
                cx = cards[positions[x]]
                for y in range(x + 1, count):
                    cy = cards[positions[y]]
                    for z in range(y + 1, count):
                        key = key3(cx, cy, cards[positions[z]], weight, u3)
                        if key > km:
                            continue
                        value = float(base + top_royalty(key, top_roy))
                        if rows_stay or (stay_flags[0] and (key >> 20) == TRIPS):
                            value += stay_value
                        if value > total or (value == total and key > t_key):
                            total = value
                            t_key = key
                            t_mask = (1 << positions[x]) | (1 << positions[y]) | (1 << positions[z])
            if t_mask < 0:
                continue
            candidate = (total, float(kb), float(km), float(t_key), float(b_mask), float(m_mask), float(t_mask))
            if not found or _better(candidate, inc):
                found = True
                inc = candidate
    for i in range(6):
        best[i] = int(inc[i + 1])
    return inc[0]
