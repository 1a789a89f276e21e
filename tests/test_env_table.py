"""``ofc.env.table``: the decks the environments deal (``shuffled``)."""

from __future__ import annotations

import math
import random
from collections import Counter

from ofc.env.table import shuffled
from ofc.rules.cards import ALL_CARDS


class Fixed(random.Random):
    """A generator whose every draw is one number (to work Fisher-Yates through by hand)."""

    def __init__(self, value: int) -> None:
        super().__init__(0)
        self.value = value

    def getrandbits(self, k: int, /) -> int:
        return self.value


def test_shuffles_worked_by_hand() -> None:
    # Draw 0: every swap index is 0, so position 51 takes card 0, then each later step moves
    # the card at 0 out to the top of what is left: for 3 cards [0,1,2] -> [2,1,0] -> [1,2,0],
    # for 52 the cards come out rotated by one: 1, 2, ..., 51, 0.
    assert shuffled(Fixed(0)) == [*range(1, 52), 0]
    # Draw 52! - 1: every mixed-radix digit is its largest, each card swaps with itself.
    assert shuffled(Fixed(math.factorial(52) - 1)) == list(ALL_CARDS)
    # Draw 1: the first digit (mod 52) is 1, the rest 0. Step one swaps places 51 and 1:
    # [0, 51, 2, ..., 50, 1]; the zero digits then rotate places 0-50 by one as above:
    # [51, 2, ..., 50, 0], and card 1 stays on top at place 51.
    assert shuffled(Fixed(1)) == [51, *range(2, 51), 0, 1]


def test_every_card_is_dealt_once_and_every_place_gets_every_card() -> None:
    rng = random.Random(7)
    first: Counter[int] = Counter()
    for _ in range(5200):
        order = shuffled(rng)
        assert sorted(order) == list(ALL_CARDS)
        first[order[0]] += 1
    # 100 expected per card; a fair shuffle leaves [40, 160] with chance below 1e-8 per card
    assert set(first) == set(ALL_CARDS)
    assert all(40 <= count <= 160 for count in first.values())


def test_a_seed_replays_the_same_deck() -> None:
    assert shuffled(random.Random(3)) == shuffled(random.Random(3))
    assert shuffled(random.Random(3)) != shuffled(random.Random(4))
