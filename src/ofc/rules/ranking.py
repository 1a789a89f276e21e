"""Hand ranking for 5-card rows and the 3-card top row.

A rank *key* is an ``int``; a larger key is a stronger hand. Keys of 5-card and 3-card hands
live on one ladder so the foul rule can compare a top row with a middle row directly::

    key = category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

where ``r1..r5`` are the deciding ranks in order (``rank index + 1``, so 1 = deuce .. 13 =
ace) and ``0`` pads a 3-card hand. Padding with the lowest value means a top row whose ranks
equal the middle's leading ranks is *not* stronger, as RULES.md requires.

Evaluation is two table look-ups: flushes by their rank bit mask, everything else by the
product of one prime per rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from functools import cache
from itertools import combinations_with_replacement

from ofc.rules.cards import Card
from ofc.rules.errors import BoardError
from ofc.rules.terms import N_, NC_, Phrase, Term


class Category(IntEnum):
    """Hand categories, weakest first; a 3-card row uses HIGH_CARD, PAIR and TRIPS."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8


CATEGORY_NAMES: dict[Category, Term] = {
    Category.HIGH_CARD: NC_("hand", "High card"),
    Category.PAIR: NC_("hand", "Pair"),
    Category.TWO_PAIR: NC_("hand", "Two pair"),
    Category.TRIPS: NC_("hand", "Trips"),
    Category.STRAIGHT: NC_("hand", "Straight"),
    Category.FLUSH: NC_("hand", "Flush"),
    Category.FULL_HOUSE: NC_("hand", "Full house"),
    Category.QUADS: NC_("hand", "Quads"),
    Category.STRAIGHT_FLUSH: NC_("hand", "Straight flush"),
}

RANK_NAMES: tuple[Term, ...] = (
    NC_("rank", "deuce"), NC_("rank", "three"), NC_("rank", "four"), NC_("rank", "five"),
    NC_("rank", "six"), NC_("rank", "seven"), NC_("rank", "eight"), NC_("rank", "nine"),
    NC_("rank", "ten"), NC_("rank", "jack"), NC_("rank", "queen"), NC_("rank", "king"),
    NC_("rank", "ace"),
)  # fmt: skip
RANK_PLURALS: tuple[Term, ...] = (
    NC_("ranks", "deuces"), NC_("ranks", "threes"), NC_("ranks", "fours"), NC_("ranks", "fives"),
    NC_("ranks", "sixes"), NC_("ranks", "sevens"), NC_("ranks", "eights"), NC_("ranks", "nines"),
    NC_("ranks", "tens"), NC_("ranks", "jacks"), NC_("ranks", "queens"), NC_("ranks", "kings"),
    NC_("ranks", "aces"),
)  # fmt: skip

ACE = 12
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_WHEEL = frozenset({12, 0, 1, 2, 3})

# Per-card tables, indexed by the card int.
_CARD_PRIME = tuple(_PRIMES[c >> 2] for c in range(52))
_CARD_BIT = tuple(1 << (c >> 2) for c in range(52))


def make_key(category: Category, ranks: Sequence[int]) -> int:
    """The key of a hand in ``category`` decided by rank indices ``ranks`` (most important first)."""
    key = int(category)
    padded = [r + 1 for r in ranks] + [0] * (5 - len(ranks))
    for value in padded:
        key = key << 4 | value
    return key


def category_of(key: int) -> Category:
    """Category of a rank key."""
    if 0 <= key < _KEY_END:
        return _CATEGORIES[key >> 20]  # the member ``Category(key >> 20)`` names, without the enum's call
    return Category(key >> 20)


_CATEGORIES = tuple(Category)
_KEY_END = len(_CATEGORIES) << 20


def deciding_ranks(key: int) -> tuple[int, ...]:
    """The rank indices (0 = deuce) that decide a key, most important first, padding dropped."""
    values = [(key >> shift) & 15 for shift in (16, 12, 8, 4, 0)]
    return tuple(v - 1 for v in values if v)


def _straight_high(ranks: Sequence[int]) -> int | None:
    """High rank of a 5-card straight made of ``ranks``, or None; the wheel is five-high."""
    distinct = set(ranks)
    if len(distinct) != 5:
        return None
    if max(distinct) - min(distinct) == 4:
        return max(distinct)
    if distinct == _WHEEL:
        return 3
    return None


def classify(ranks: Sequence[int], flush: bool) -> int:
    """Key of a hand given its rank indices and whether all cards share a suit.

    The slow, obviously correct definition the look-up tables are built from.
    """
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    ordered = [rank for rank, _ in groups]
    shape = tuple(count for _, count in groups)
    if len(ranks) == 3:
        if shape == (3,):
            return make_key(Category.TRIPS, ordered)
        if shape == (2, 1):
            return make_key(Category.PAIR, ordered)
        return make_key(Category.HIGH_CARD, ordered)
    if len(ranks) != 5:
        raise BoardError("a hand has 3 or 5 cards, not {n_ranks}", n_ranks=len(ranks))
    high = _straight_high(ranks)
    if high is not None:
        return make_key(Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT, [high])
    if flush:
        return make_key(Category.FLUSH, ordered)
    by_shape = {
        (4, 1): Category.QUADS,
        (3, 2): Category.FULL_HOUSE,
        (3, 1, 1): Category.TRIPS,
        (2, 2, 1): Category.TWO_PAIR,
        (2, 1, 1, 1): Category.PAIR,
        (1, 1, 1, 1, 1): Category.HIGH_CARD,
    }
    if shape not in by_shape:
        raise BoardError("five cards of one rank cannot be dealt from one deck")
    return make_key(by_shape[shape], ordered)


def _prime_product(ranks: Sequence[int]) -> int:
    product = 1
    for rank in ranks:
        product *= _PRIMES[rank]
    return product


def _build_tables() -> tuple[dict[int, int], list[int], dict[int, int]]:
    unsuited5: dict[int, int] = {}
    flush5 = [0] * (1 << 13)
    unsuited3: dict[int, int] = {}
    for combo in combinations_with_replacement(range(13), 5):
        if max(Counter(combo).values()) > 4:
            continue
        unsuited5[_prime_product(combo)] = classify(combo, flush=False)
        if len(set(combo)) == 5:
            mask = sum(1 << r for r in combo)
            flush5[mask] = classify(combo, flush=True)
    for trio in combinations_with_replacement(range(13), 3):
        unsuited3[_prime_product(trio)] = classify(trio, flush=False)
    return unsuited5, flush5, unsuited3


@cache
def _tables() -> tuple[dict[int, int], list[int], dict[int, int]]:
    """The look-up tables, built on first use (so commands that rank nothing skip building them)."""
    return _build_tables()


def rank5(cards: Sequence[Card]) -> int:
    """Key of a 5-card hand."""
    a, b, c, d, e = cards
    unsuited5, flush5, _ = _tables()
    if ((a ^ b) | (a ^ c) | (a ^ d) | (a ^ e)) & 3 == 0:
        return flush5[_CARD_BIT[a] | _CARD_BIT[b] | _CARD_BIT[c] | _CARD_BIT[d] | _CARD_BIT[e]]
    p = _CARD_PRIME
    return unsuited5[p[a] * p[b] * p[c] * p[d] * p[e]]


def rank3(cards: Sequence[Card]) -> int:
    """Key of a 3-card top row (no straights or flushes)."""
    a, b, c = cards
    p = _CARD_PRIME
    return _tables()[2][p[a] * p[b] * p[c]]


def rank_row(cards: Sequence[Card]) -> int:
    """Key of a full row: 3 cards (top) or 5 cards (middle, bottom)."""
    if len(cards) == 5:
        return rank5(cards)
    if len(cards) == 3:
        return rank3(cards)
    raise BoardError("a full row has 3 or 5 cards, not {n_cards}", n_cards=len(cards))


def is_royal_flush(key: int) -> bool:
    """Whether ``key`` is the ace-high straight flush."""
    return key == _ROYAL_FLUSH


_ROYAL_FLUSH = make_key(Category.STRAIGHT_FLUSH, [ACE])


def hand_name(key: int) -> Phrase:
    """A readable name such as ``"Two pair, kings and nines"`` or ``"Trips, queens"``.

    A ``Phrase``: English as a string, and a template the faces render in other languages.

    >>> from ofc.rules.cards import parse_cards
    >>> hand_name(rank5(parse_cards("Ah Ad Kc Ks 2d"))), hand_name(rank3(parse_cards("Qh Qd 2c")))
    ('Two pair, aces and kings', 'Pair, queens')
    """
    category = category_of(key)
    ranks = deciding_ranks(key)
    label = CATEGORY_NAMES[category]
    first = ranks[0]
    if category == Category.STRAIGHT_FLUSH and first == ACE:
        return Phrase(N_("Royal flush"))
    if category in (Category.HIGH_CARD,):
        return Phrase(N_("{category}, {rank}"), category=label, rank=RANK_NAMES[first])
    if category in (Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH):
        return Phrase(N_("{category}, {rank} high"), category=label, rank=RANK_NAMES[first])
    if category == Category.TWO_PAIR:
        return Phrase(
            N_("{category}, {first} and {second}"),
            category=label,
            first=RANK_PLURALS[first],
            second=RANK_PLURALS[ranks[1]],
        )
    if category == Category.FULL_HOUSE:
        return Phrase(
            N_("{category}, {first} over {second}"),
            category=label,
            first=RANK_PLURALS[first],
            second=RANK_PLURALS[ranks[1]],
        )
    return Phrase(N_("{category}, {ranks}"), category=label, ranks=RANK_PLURALS[first])
