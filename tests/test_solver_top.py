"""``solve_fantasy_top``: the k best boards, worked by hand and against a brute-force ranking."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc.rules.cards import Card, format_cards, parse_cards
from ofc.rules.errors import RulesError
from ofc.rules.ranking import rank3, rank5
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import bottom_royalty, middle_royalty, top_royalty
from ofc.solver import FantasySolution, solve_fantasy, solve_fantasy_top
from test_solver_exact import SETTINGS, deals
from test_solver_reference import stay_table

PINEAPPLE = Rules.preset("pineapple")
ROYAL_AND_3C = "Kc Kd Kh Ts Js Qs Ks As 2h 4h 6h 8h Th 3c"

Ranked = tuple[float, int, int, int, int, int, int]
"""(value, bottom, middle and top keys, bottom, middle and top combination indices)."""
Rows = tuple[float, tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
"""(value, bottom, middle, top) with each row's cards ascending."""


def rows(solution: FantasySolution) -> tuple[str, str, str, str, float]:
    board = solution.board
    texts = (format_cards(cards) for cards in (board.top, board.middle, board.bottom, solution.discards))
    return (*texts, solution.value)  # type: ignore[return-value]


def test_the_five_best_boards_worked_by_hand() -> None:
    # 14 cards: Kc Kd, six hearts 2h 4h 6h 8h Th Kh, five spades Ts-As (a royal), and 3c.
    # A royal bottom pays 25 and stays (bottom quads or better), so every board on it earns
    # the default stay value 12 as well. Without the royal the bottom pays at most 4 (a
    # flush), and 4 + 8 (flush middle) + 21 (KKK) + 12 = 45: every board below keeps it.
    # 1. KKK top (21) over the other five hearts (flush 2 x 4 = 8), 3c discarded: 66.
    # Then a pair of kings on top (8), a heart flush middle (8), royal: 53, whose ties go to
    # the stronger middle first, then the stronger top (card order: 2 < 3 < 4, clubs first):
    # 2. middle Kh Th 8h 6h 4h (2h left over), top KK3, 2h discarded;
    # 3. the same middle, top KK2, 3c discarded;
    # 4. middle Kh Th 8h 6h 2h (4h left over), top KK4, 3c discarded;
    # 5. the same middle, top KK3, 4h discarded.
    boards = solve_fantasy_top(parse_cards(ROYAL_AND_3C), PINEAPPLE, 5)
    royal = "Ts Js Qs Ks As"
    assert [rows(b) for b in boards] == [
        ("Kc Kd Kh", "2h 4h 6h 8h Th", royal, "3c", 66.0),
        ("3c Kc Kd", "4h 6h 8h Th Kh", royal, "2h", 53.0),
        ("2h Kc Kd", "4h 6h 8h Th Kh", royal, "3c", 53.0),
        ("4h Kc Kd", "2h 6h 8h Th Kh", royal, "3c", 53.0),
        ("3c Kc Kd", "2h 6h 8h Th Kh", royal, "4h", 53.0),
    ]
    assert boards[0] == solve_fantasy(parse_cards(ROYAL_AND_3C), PINEAPPLE)
    assert [(b.royalties.total, b.stays) for b in boards] == [(54, True)] + [(41, True)] * 4


def reference_top(deal: list[Card], rules: Rules, stay_value: float, can_stay: bool, k: int) -> list[Ranked]:
    """Every live board of the deal ranked by brute force in the solver's order; the first ``k``."""
    cards = sorted(deal)
    n = len(cards)
    pay = rules.royalty_table
    fives = list(combinations(range(n), 5))
    threes = list(combinations(range(n), 3))
    k5 = np.array([rank5([cards[i] for i in c]) for c in fives], dtype=np.int64)
    k3 = np.array([rank3([cards[i] for i in c]) for c in threes], dtype=np.int64)
    bottom_pay = np.array([bottom_royalty(int(key), pay) for key in k5], dtype=np.float64)
    middle_pay = np.array([middle_royalty(int(key), pay) for key in k5], dtype=np.float64)
    top_pay = np.array([top_royalty(int(key), pay) for key in k3], dtype=np.float64)
    m5 = np.array([sum(1 << i for i in c) for c in fives], dtype=np.int64)
    m3 = np.array([sum(1 << i for i in c) for c in threes], dtype=np.int64)
    stays_by_category = stay_table(rules, can_stay and rules.fantasy)
    bi, mi = np.nonzero((m5[:, None] & m5[None, :]) == 0)
    rest = ((1 << n) - 1) ^ m5[bi] ^ m5[mi]
    unique_rest, rest_index = np.unique(rest, return_inverse=True)
    tops_of_rest = np.array([np.nonzero((m3 & ~r) == 0)[0] for r in unique_rest])
    per_pair = tops_of_rest.shape[1]
    b, m = np.repeat(bi, per_pair), np.repeat(mi, per_pair)
    t = tops_of_rest[rest_index].ravel()
    kb, km, kt = k5[b], k5[m], k3[t]
    live = (kb >= km) & (km >= kt)
    b, m, t, kb, km, kt = b[live], m[live], t[live], kb[live], km[live], kt[live]
    total = bottom_pay[b] + middle_pay[m] + top_pay[t]
    value = np.where(stays_by_category[kt >> 20, km >> 20, kb >> 20], total + stay_value, total)
    # combination indices run in lexicographic order of the row's cards (cards sorted)
    order = np.lexsort((t, m, b, -kt, -km, -kb, -value))[:k]
    return [(float(value[i]), int(kb[i]), int(km[i]), int(kt[i]), int(b[i]), int(m[i]), int(t[i])) for i in order]


def ranked(solution: FantasySolution) -> Rows:
    board = solution.board
    return (solution.value, tuple(sorted(board.bottom)), tuple(sorted(board.middle)), tuple(sorted(board.top)))


def as_boards(rows_: list[Ranked], deal: list[Card]) -> list[Rows]:
    cards = sorted(deal)
    fives = list(combinations(range(len(cards)), 5))
    threes = list(combinations(range(len(cards)), 3))
    return [
        (
            value,
            tuple(cards[i] for i in fives[b]),
            tuple(cards[i] for i in fives[m]),
            tuple(cards[i] for i in threes[t]),
        )
        for value, _, _, _, b, m, t in rows_
    ]


@pytest.mark.parametrize("setting", range(len(SETTINGS)))
def test_thirteen_cards_equal_the_brute_force_ranking(setting: int) -> None:
    rules, stay_value, can_stay = SETTINGS[setting]
    for number, deal in enumerate(deals(300 + setting, 13, 4)):
        k = (1, 7, 40, 200)[number]
        found = solve_fantasy_top(deal, rules, k, stay_value=stay_value, can_stay=can_stay)
        assert [ranked(s) for s in found] == as_boards(reference_top(deal, rules, stay_value, can_stay, k), deal)


@pytest.mark.parametrize("setting", [1, 3, 6, 9])
def test_fourteen_cards_equal_the_brute_force_ranking(setting: int) -> None:
    rules, stay_value, can_stay = SETTINGS[setting]
    for deal in deals(400 + setting, 14, 2):
        found = solve_fantasy_top(deal, rules, 25, stay_value=stay_value, can_stay=can_stay)
        assert [ranked(s) for s in found] == as_boards(reference_top(deal, rules, stay_value, can_stay, 25), deal)


@pytest.mark.parametrize("seed", range(6))
def test_first_is_the_solver_and_the_boards_are_distinct_and_ordered(seed: int) -> None:
    rng = random.Random(seed)
    rules = Rules.preset("pineapple-progressive") if seed % 2 else PINEAPPLE
    deal = rng.sample(range(52), 13 + seed % 4 if seed % 2 else 14)
    found = solve_fantasy_top(deal, rules, 12)
    assert len(found) == 12
    assert found[0] == solve_fantasy(deal, rules)
    assert len({(s.board, s.discards) for s in found}) == 12
    values = [s.value for s in found]
    assert values == sorted(values, reverse=True)
    for solution in found:
        assert sorted(solution.board.cards + solution.discards) == sorted(deal)
        assert not solution.keys.fouled


def test_the_most_boards_at_once_equal_the_brute_force_ranking() -> None:
    deal = random.Random(3).sample(range(52), 13)  # 22,904 live boards
    found = solve_fantasy_top(deal, PINEAPPLE, 1000)
    assert [ranked(s) for s in found] == as_boards(reference_top(deal, PINEAPPLE, 12.0, True, 1000), deal)


@settings(max_examples=60, deadline=None)
@given(
    deal=st.lists(st.integers(0, 51), min_size=13, max_size=17, unique=True),
    k=st.integers(1, 30),
    worth=st.sampled_from([0.0, 10.0, 40.0]),
    can_stay=st.booleans(),
)
def test_fewer_boards_are_a_prefix_of_more_and_the_first_is_the_solvers(
    deal: list[int], k: int, worth: float, can_stay: bool
) -> None:
    rules = Rules.preset("pineapple-progressive")
    more = solve_fantasy_top(deal, rules, k + 5, stay_value=worth, can_stay=can_stay)
    assert solve_fantasy_top(deal, rules, k, stay_value=worth, can_stay=can_stay) == more[:k]
    assert more[0] == solve_fantasy(deal, rules, stay_value=worth, can_stay=can_stay)
    assert len({(b.board, b.discards) for b in more}) == len(more) == k + 5


@pytest.mark.parametrize("k", [0, -1, 1001, True, 2.0, "3"])
def test_bad_k_is_named(k: object) -> None:
    with pytest.raises(RulesError, match=r"k \(how many arrangements\) must be a whole number from 1 to 1000"):
        solve_fantasy_top(parse_cards(ROYAL_AND_3C), PINEAPPLE, k)  # type: ignore[arg-type]
