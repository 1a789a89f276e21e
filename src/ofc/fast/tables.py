"""Look-up tables for the batch kernels, built once from the pure-Python ranking core.

Each rank gets a small integer (``RANK_WEIGHTS``) chosen so that the sum over any five
cards (no rank more than four times) names the rank multiset uniquely; the sum of three
weights does the same for a top row. Unsuited hands are then one look-up by that sum, and
flushes one look-up by the 13-bit mask of their ranks. Every key in every table comes from
``ofc.rules.ranking.classify``, so the kernels cannot disagree with the core on the rules.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ofc.rules.errors import OfcError
from ofc.rules.ranking import Category, classify
from ofc.rules.rulebook import RoyaltyTable

RANK_WEIGHTS: tuple[int, ...] = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
"""Per-rank weights (deuce first) with unique 3- and 5-card sums, found by a greedy search."""

ROYAL_SLOT = len(Category)
"""Index of the royal flush in the 5-card royalty arrays (after the nine categories)."""

I32 = npt.NDArray[np.int32]


class EvalTables(NamedTuple):
    """Arrays the evaluation kernels read (a named tuple, so numba can take it whole).

    ``card_weight[c]`` and ``card_bit[c]`` are per card; ``unsuited5`` and ``unsuited3`` are
    indexed by the weight sum, ``flush5`` by the rank bit mask (0 where no flush exists).
    """

    card_weight: I32
    card_bit: I32
    unsuited5: I32
    flush5: I32
    unsuited3: I32


class RoyaltyArrays(NamedTuple):
    """A royalty table as arrays: ``top[category, rank]``, ``middle`` and ``bottom`` by slot.

    The slot of a 5-card key is its category, or ``ROYAL_SLOT`` for the royal flush.
    """

    top: I32
    middle: I32
    bottom: I32


def _weight_sum(ranks: tuple[int, ...]) -> int:
    return sum(RANK_WEIGHTS[r] for r in ranks)


def build_eval_tables() -> EvalTables:
    """Build the evaluation tables from ``classify``; checks the weights are collision-free."""
    card_weight = np.array([RANK_WEIGHTS[c >> 2] for c in range(52)], dtype=np.int32)
    card_bit = np.array([1 << (c >> 2) for c in range(52)], dtype=np.int32)
    unsuited5 = np.full(4 * RANK_WEIGHTS[12] + RANK_WEIGHTS[11] + 1, -1, dtype=np.int32)
    flush5 = np.zeros(1 << 13, dtype=np.int32)
    for combo in combinations_with_replacement(range(13), 5):
        if max(Counter(combo).values()) > 4:
            continue
        index = _weight_sum(combo)
        if unsuited5[index] != -1:
            raise OfcError("rank weights collide on {combo}", combo=combo)
        unsuited5[index] = classify(combo, flush=False)
    for ranks in combinations(range(13), 5):
        flush5[sum(1 << r for r in ranks)] = classify(ranks, flush=True)
    unsuited3 = np.full(3 * RANK_WEIGHTS[12] + 1, -1, dtype=np.int32)
    for trio in combinations_with_replacement(range(13), 3):
        index = _weight_sum(trio)
        if unsuited3[index] != -1:
            raise OfcError("rank weights collide on {trio}", trio=trio)
        unsuited3[index] = classify(trio, flush=False)
    return EvalTables(card_weight, card_bit, unsuited5, flush5, unsuited3)


@lru_cache(maxsize=8)
def royalty_arrays(table: RoyaltyTable) -> RoyaltyArrays:
    """The arrays of ``table`` (see ``RoyaltyArrays``), cached: shared, so read them only."""
    top = np.zeros((4, 13), dtype=np.int32)
    top[Category.PAIR] = table.top_pair
    top[Category.TRIPS] = table.top_trips
    middle = np.array([*table.middle, table.middle_royal], dtype=np.int32)
    bottom = np.array([*table.bottom, table.bottom_royal], dtype=np.int32)
    return RoyaltyArrays(top, middle, bottom)


EVAL_TABLES = build_eval_tables()
"""The tables every kernel uses, built at import (a few tens of milliseconds)."""
