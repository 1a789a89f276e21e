"""A brute-force fantasy solver built on the pure-Python core, and its own check.

``reference_solve`` tries every (bottom, middle, top) of the deal, vectorised with numpy over
tables the core fills (``rank5``, ``rank3``, the royalty functions, ``meets_stay``). It is
checked here against a plainer loop over real ``Board`` values on a few deals, and used by
``test_solver_exact.py`` to check the fast solver.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pytest

from ofc.rules.cards import Card
from ofc.rules.ranking import Category, make_key, rank3, rank5
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import (
    Board,
    RowKeys,
    bottom_royalty,
    meets_stay,
    middle_royalty,
    row_keys,
    royalties,
    top_royalty,
)

CHUNK = 60_000
"""(bottom, middle) pairs handled at once."""


@dataclass(frozen=True)
class Answer:
    """A solver's answer in plain terms."""

    top: tuple[Card, ...]
    middle: tuple[Card, ...]
    bottom: tuple[Card, ...]
    value: float
    stays: bool


def stay_table(rules: Rules, may_stay: bool) -> np.ndarray:
    """``meets_stay`` for every (top, middle, bottom) category, from the core."""
    table = np.zeros((9, 9, 9), dtype=bool)
    if not may_stay:
        return table
    for t in range(4):
        for m in range(9):
            for b in range(9):
                keys = RowKeys(make_key(Category(t), [0]), make_key(Category(m), [0]), make_key(Category(b), [0]))
                table[t, m, b] = meets_stay(keys, rules)
    return table


def reference_solve(deal: list[Card], rules: Rules, stay_value: float, can_stay: bool) -> Answer:
    """The best live arrangement, ties broken by keys then lexicographic cards, by brute force."""
    cards = sorted(deal)
    n = len(cards)
    pay = rules.royalty_table
    may_stay = can_stay and rules.fantasy
    fives = list(combinations(range(n), 5))
    threes = list(combinations(range(n), 3))
    k5 = np.array([rank5([cards[i] for i in c]) for c in fives], dtype=np.int64)
    k3 = np.array([rank3([cards[i] for i in c]) for c in threes], dtype=np.int64)
    bottom_pay = np.array([bottom_royalty(int(k), pay) for k in k5], dtype=np.int64)
    middle_pay = np.array([middle_royalty(int(k), pay) for k in k5], dtype=np.int64)
    top_pay = np.array([top_royalty(int(k), pay) for k in k3], dtype=np.int64)
    m5 = np.array([sum(1 << i for i in c) for c in fives], dtype=np.int64)
    m3 = np.array([sum(1 << i for i in c) for c in threes], dtype=np.int64)
    stays_by_category = stay_table(rules, may_stay)
    bi, mi = np.nonzero((m5[:, None] & m5[None, :]) == 0)
    rest = ((1 << n) - 1) ^ m5[bi] ^ m5[mi]
    unique_rest, rest_index = np.unique(rest, return_inverse=True)
    tops_of_rest = np.array([np.nonzero((m3 & ~r) == 0)[0] for r in unique_rest])
    best: tuple[float, int, int, int, int, int, int] | None = None
    for start in range(0, len(bi), CHUNK):
        b = np.repeat(bi[start : start + CHUNK], tops_of_rest.shape[1])
        m = np.repeat(mi[start : start + CHUNK], tops_of_rest.shape[1])
        t = tops_of_rest[rest_index[start : start + CHUNK]].ravel()
        kb, km, kt = k5[b], k5[m], k3[t]
        live = (kb >= km) & (km >= kt)
        if not live.any():
            continue
        b, m, t, kb, km, kt = b[live], m[live], t[live], kb[live], km[live], kt[live]
        total = (bottom_pay[b] + middle_pay[m] + top_pay[t]).astype(np.float64)
        stays = stays_by_category[kt >> 20, km >> 20, kb >> 20]
        value = np.where(stays, total + stay_value, total)
        top = value == value.max()
        # lexicographic order of row cards = index order of ``combinations`` (cards sorted)
        order = np.lexsort((t[top], m[top], b[top], -kt[top], -km[top], -kb[top]))
        first = np.flatnonzero(top)[order[0]]
        row = (
            float(value[first]),
            int(kb[first]),
            int(km[first]),
            int(kt[first]),
            int(b[first]),
            int(m[first]),
            int(t[first]),
        )
        if best is None or better(row, best):
            best = row
    assert best is not None, "every arrangement fouls"
    value, _, _, _, b_index, m_index, t_index = best
    board = Board(
        tuple(cards[i] for i in threes[t_index]),
        tuple(cards[i] for i in fives[m_index]),
        tuple(cards[i] for i in fives[b_index]),
    )
    keys = row_keys(board)
    return Answer(board.top, board.middle, board.bottom, value, may_stay and meets_stay(keys, rules))


def better(row: tuple[float, int, int, int, int, int, int], best: tuple[float, int, int, int, int, int, int]) -> bool:
    """Higher value and keys first, then lower combination indices (lexicographic cards)."""
    return (-row[0], -row[1], -row[2], -row[3], row[4], row[5], row[6]) < (
        -best[0], -best[1], -best[2], -best[3], best[4], best[5], best[6],
    )  # fmt: skip


def plain_solve(deal: list[Card], rules: Rules, stay_value: float, can_stay: bool) -> Answer:
    """The same search as plainly as it can be written: every Board, scored by the core."""
    cards = sorted(deal)
    ranked = []
    for bottom in combinations(cards, 5):
        left = [c for c in cards if c not in bottom]
        for middle in combinations(left, 5):
            for top in combinations([c for c in left if c not in middle], 3):
                board = Board(top, middle, bottom)
                keys = row_keys(board)
                if keys.fouled:
                    continue
                stays = can_stay and rules.fantasy and meets_stay(keys, rules)
                value = float(royalties(board, rules).total) + (stay_value if stays else 0.0)
                order = (-value, -keys.bottom, -keys.middle, -keys.top, bottom, middle, top)
                ranked.append((order, Answer(top, middle, bottom, value, stays)))
    return min(ranked, key=lambda item: item[0])[1]


def biased_deal(rng: random.Random, size: int) -> list[Card]:
    """A deal from a few ranks or suits, rich in trips, quads, flushes and ties."""
    ranks = rng.sample(range(13), rng.randint(5, 9))
    suits = rng.sample(range(4), rng.randint(2, 4))
    deck = [r * 4 + s for r in ranks for s in suits]
    if len(deck) < size:
        deck += rng.sample([c for c in range(52) if c not in deck], size - len(deck))
    return rng.sample(deck, size)


@pytest.mark.parametrize("seed", range(4))
def test_reference_equals_plain_search(seed: int) -> None:
    rng = random.Random(seed)
    deal = biased_deal(rng, 13) if seed % 2 else rng.sample(range(52), 13)
    rules = Rules.preset("pineapple" if seed < 2 else "classic")
    stay_value = (10.0, 0.0, 3.5, 25.0)[seed]
    assert reference_solve(deal, rules, stay_value, True) == plain_solve(deal, rules, stay_value, True)
