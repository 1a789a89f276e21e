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

The search keeps the k best boards found so far, best first (``solve_top_kernel``); a branch is
cut as soon as its bound cannot beat the k-th of them (once k are held). Every (bottom, middle,
top) is met at most once, so the k boards are distinct; ``solve_kernel`` is the search with
k = 1.
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
F64 = npt.NDArray[np.float64]

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
def _prefix_max(values: I64) -> I64:
    out = values.copy()
    for i in range(1, out.shape[0]):
        out[i] = max(out[i], out[i - 1])
    return out


@nb.njit(cache=True)
def _five_rows(
    cards: I64, weight: I32, bit: I32, u5: I32, f5: I32, mid_roy: I32, bot_roy: I32, stay_flags: Any
) -> tuple[I64, I64, I64, I64, I64, I64]:
    """5-subsets sorted by key: masks, keys, bottom and middle royalties, stay flags (0/1)."""
    masks, keys = _subsets5(cards, weight, bit, u5, f5)
    order = np.argsort(keys, kind="mergesort")
    masks = masks[order]
    keys = keys[order]
    count = keys.shape[0]
    broy = np.empty(count, dtype=np.int64)
    mroy = np.empty(count, dtype=np.int64)
    bstay = np.zeros(count, dtype=np.int64)
    mstay = np.zeros(count, dtype=np.int64)
    for i in range(count):
        category = keys[i] >> 20
        broy[i] = five_royalty(keys[i], bot_roy)
        mroy[i] = five_royalty(keys[i], mid_roy)
        if stay_flags[1] and category >= QUADS:
            bstay[i] = 1
        if (stay_flags[2] and category >= QUADS) or (stay_flags[3] and category >= FULL_HOUSE):
            mstay[i] = 1
    return masks, keys, broy, mroy, bstay, mstay


@nb.njit(cache=True)
def _top_bounds(cards: I64, weight: I32, u3: I32, top_roy: I32, stay_flags: Any) -> tuple[I64, I64, I64]:
    """3-subset keys sorted, with the best royalty and stay flag (0/1) of any top up to each."""
    _, keys = _subsets3(cards, weight, u3)
    keys = np.sort(keys)
    royalty = np.empty(keys.shape[0], dtype=np.int64)
    stays = np.zeros(keys.shape[0], dtype=np.int64)
    for j in range(keys.shape[0]):
        royalty[j] = top_royalty(keys[j], top_roy)
        if stay_flags[0] and (keys[j] >> 20) == TRIPS:
            stays[j] = 1
    return keys, _prefix_max(royalty), _prefix_max(stays)


@nb.njit(cache=True)
def rest_positions(rest: int, size: int, positions: I64) -> int:
    """Write the positions (0..``size``-1) whose bit is set in ``rest`` into ``positions``; their count."""
    count = 0
    for p in range(size):
        if (rest >> p) & 1:
            positions[count] = p
            count += 1
    return count


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
                if count == kept.shape[0] and value < kept[count - 1, 0]:
                    continue  # below the k-th board held: it cannot make the cut
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
    boards). The arguments are ``solve_kernel``'s, with ``kept`` for ``best``.
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

    ``cards`` are the deal sorted ascending; the tables are ``EvalTables`` and
    ``RoyaltyArrays``; ``stay_flags`` = (top trips, bottom quads+, middle quads+, middle
    full house+) as booleans; ``stay_value`` is added once when a board meets one of them.
    The search is ``solve_top_kernel`` with k = 1.
    """
    kept = np.zeros((1, 7), dtype=np.float64)
    if solve_top_kernel(
        cards, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy, stay_flags, stay_value, kept
    ) == 0:  # fmt: skip
        best[:] = 0
        return -1.0
    for i in range(6):
        best[i] = int(kept[0, i + 1])
    return float(kept[0, 0])
