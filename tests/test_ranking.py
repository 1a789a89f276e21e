"""Hand ranking: exhaustive over all 5-card and 3-card hands, names, the top-vs-middle ladder."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest

from ofc.rules.cards import parse_cards
from ofc.rules.errors import BoardError
from ofc.rules.ranking import Category, category_of, hand_name, rank3, rank5, rank_row

FIVE_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 40,
    Category.QUADS: 624,
    Category.FULL_HOUSE: 3744,
    Category.FLUSH: 5108,
    Category.STRAIGHT: 10200,
    Category.TRIPS: 54912,
    Category.TWO_PAIR: 123552,
    Category.PAIR: 1098240,
    Category.HIGH_CARD: 1302540,
}
FIVE_CARD_CLASSES = {
    Category.STRAIGHT_FLUSH: 10,
    Category.QUADS: 156,
    Category.FULL_HOUSE: 156,
    Category.FLUSH: 1277,
    Category.STRAIGHT: 10,
    Category.TRIPS: 858,
    Category.TWO_PAIR: 858,
    Category.PAIR: 2860,
    Category.HIGH_CARD: 1277,
}


def naive_strength(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """An independent, textbook evaluator: (category, tie-break ranks) compared as tuples."""
    ranks = sorted((c // 4 for c in cards), reverse=True)
    by_count = sorted(set(ranks), key=lambda r: (ranks.count(r), r), reverse=True)
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    if len(cards) == 3:
        return ({1: 0, 2: 1, 3: 3}[counts[0]], tuple(by_count))
    flush = len({c % 4 for c in cards}) == 1
    straight_high = -1
    if len(set(ranks)) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_high = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            straight_high = 3
    if straight_high >= 0:
        return (8 if flush else 4, (straight_high,))
    if flush:
        return (5, tuple(ranks))
    category = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(tuple(counts), 0)
    return (category, tuple(by_count))


@pytest.mark.slow
def test_every_five_card_hand() -> None:
    """All 2,598,960 hands: category counts, 7,462 classes, and agreement with a textbook evaluator.

    Every hand's key maps to exactly one textbook strength, and sorting keys sorts strengths.
    """
    per_category: Counter[Category] = Counter()
    strength_of_key: dict[int, tuple[int, tuple[int, ...]]] = {}
    for hand in combinations(range(52), 5):
        key = rank5(hand)
        per_category[category_of(key)] += 1
        strength = naive_strength(hand)
        assert strength_of_key.setdefault(key, strength) == strength
    assert per_category == FIVE_CARD_COUNTS
    assert sum(per_category.values()) == 2_598_960
    assert len(strength_of_key) == 7462
    assert Counter(category_of(k) for k in strength_of_key) == FIVE_CARD_CLASSES
    ordered = [strength_of_key[k] for k in sorted(strength_of_key)]
    assert ordered == sorted(ordered)
    assert len(set(ordered)) == 7462


def test_every_three_card_hand() -> None:
    per_category: Counter[Category] = Counter()
    strength_of_key: dict[int, tuple[int, tuple[int, ...]]] = {}
    for hand in combinations(range(52), 3):
        key = rank3(hand)
        per_category[category_of(key)] += 1
        strength = naive_strength(hand)
        assert strength_of_key.setdefault(key, strength) == strength
    assert per_category == {Category.TRIPS: 52, Category.PAIR: 3744, Category.HIGH_CARD: 18304}
    assert len(strength_of_key) == 455
    assert Counter(category_of(k) for k in strength_of_key) == {
        Category.TRIPS: 13,
        Category.PAIR: 156,
        Category.HIGH_CARD: 286,
    }
    ordered = [strength_of_key[k] for k in sorted(strength_of_key)]
    assert ordered == sorted(ordered)


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("Kh Kd 9c 9s 2h", "Two pair, kings and nines"),
        ("Qh Qd Qc", "Trips, queens"),
        ("Qh Qd 2c", "Pair, queens"),
        ("Ah Kd 2c", "High card, ace"),
        ("Ah 2d 3c 4s 5h", "Straight, five high"),
        ("Ah Kh Qh Jh Th", "Royal flush"),
        ("9h 8h 7h 6h 5h", "Straight flush, nine high"),
        ("Ah 9h 7h 4h 2h", "Flush, ace high"),
        ("Kh Kd Kc 9s 9h", "Full house, kings over nines"),
        ("6h 6d 6c 6s 2h", "Quads, sixes"),
        ("Jh Jd Jc 9s 2h", "Trips, jacks"),
        ("Th Td 9c 3s 2h", "Pair, tens"),
        ("Ah Kd 9c 3s 2h", "High card, ace"),
    ],
)
def test_hand_names(cards: str, name: str) -> None:
    assert hand_name(rank_row(parse_cards(cards))) == name


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        ("Ah 2d 3c 4s 5h", "Ah Ad Kc Ks Qh"),  # the wheel beats two pair
        ("2h 3d 4c 5s 6h", "Ah 2d 3c 4s 5d"),  # six-high straight beats the wheel
        ("Ah Kd Qc Js Th", "Kh Qd Jc Ts 9h"),
        ("Ah Ad 5c 4s 3h", "Ah Kd Qc Js 9h"),
        ("2h 2d 3c 3s 4h", "Ah Ad Kc Qs Jh"),
        ("Ah Ad Kc Ks 3h", "Ah Ad Kc Ks 2h"),
        ("Ah 9h 7h 4h 3h", "Ah 9h 7h 4h 2h"),
        ("2h 2d 2c 3s 3h", "Ah Kh Qh Jh 9h"),
        ("Qh Qd Ac", "Qs Qc Kd 3h 2h"),  # top against middle: QQA beats QQK32
        ("Qs Qc Kd 3h 2h", "Qh Qd Kc"),  # QQK32 beats QQK: the top is not stronger
        ("2h 2d 2c", "Ah Ad Kc Ks Qh"),  # trips on top beat two pair
    ],
)
def test_order(stronger: str, weaker: str) -> None:
    assert rank_row(parse_cards(stronger)) > rank_row(parse_cards(weaker))


def test_exact_tie_between_suits() -> None:
    assert rank5(parse_cards("Ah Kd 9c 3s 2h")) == rank5(parse_cards("Ac Kh 9d 3h 2s"))


def test_no_wrap_around_straight() -> None:
    assert category_of(rank5(parse_cards("Qh Kd Ac 2s 3h"))) == Category.HIGH_CARD


def test_top_row_has_no_straights_or_flushes() -> None:
    assert category_of(rank3(parse_cards("Ah Kh Qh"))) == Category.HIGH_CARD


def test_row_of_wrong_size() -> None:
    with pytest.raises(BoardError, match="3 or 5 cards, not 4"):
        rank_row(parse_cards("Ah Kh Qh Jh"))
