"""The exact fantasyland solver: the best way to set a fantasy deal of 13 to 17 cards.

The objective is ``royalties + stay_value`` for an arrangement that earns a repeat fantasy,
else ``royalties``, over every live arrangement of 13 of the cards (the rest discarded).
Ties go to the stronger bottom, then middle, then top row, then to the lexicographically
smallest bottom, middle and top cards (each row's cards in ascending card order), so the
answer is a function of the deal and the settings alone.

``solve_fantasy_top`` lists the k best arrangements in that same order (the first is
``solve_fantasy``'s answer), for callers that weigh the boards against something the solver
does not see, such as the other seats' boards.

The search itself is ``ofc.fast.fantasy.solve_top_kernel`` (``solve_kernel`` is its k = 1);
this module checks the input, and reads answers back through the pure-Python core (keys,
royalties, stay), so what it reports is the core's own verdict on the chosen board.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ofc.fast.fantasy import solve_kernel, solve_top_kernel
from ofc.fast.tables import EVAL_TABLES, royalty_arrays
from ofc.rules.cards import Card, check_distinct, format_cards
from ofc.rules.errors import CardError, RulesError
from ofc.rules.rulebook import (
    HAND_CARDS,
    Rules,
    StayCondition,
)
from ofc.rules.scoring import Board, RowKeys, Royalties, meets_stay, row_keys, royalties_of
from ofc.solver import DEFAULT_STAY_VALUE

_STAY_ORDER = (
    StayCondition.TOP_TRIPS,
    StayCondition.BOTTOM_QUADS_PLUS,
    StayCondition.MIDDLE_QUADS_PLUS,
    StayCondition.MIDDLE_FULL_HOUSE_PLUS,
)


@dataclass(frozen=True)
class FantasySolution:
    """The chosen board, the discarded cards and what the board earns.

    ``stays`` says whether the board earns a repeat fantasy (always false when staying is
    not allowed); ``value`` is ``royalties.total`` plus the stay value when it stays.
    """

    board: Board
    discards: tuple[Card, ...]
    keys: RowKeys
    royalties: Royalties
    stays: bool
    value: float


def max_fantasy_cards(rules: Rules) -> int:
    """The largest fantasy deal under ``rules``: 17 for progressive, else the variant's deal."""
    return max(rules.fantasy_deal_sizes)


def check_deal(cards: Sequence[Card], rules: Rules) -> tuple[Card, ...]:
    """The deal as a tuple, after checking the cards and their number against ``rules``."""
    deal = tuple(cards)
    for card in deal:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 52:
            raise CardError("a fantasy deal holds something that is not a card: {card!r}", card=card)
    check_distinct(deal)
    most = max_fantasy_cards(rules)
    if not HAND_CARDS <= len(deal) <= most:
        raise CardError(
            "a fantasy deal has {least} to {most} cards under these rules ({variant}, "
            "fantasy_cards={fantasy_cards}), got {count}",
            least=HAND_CARDS,
            most=most,
            variant=rules.variant,
            fantasy_cards=rules.fantasy_cards,
            count=len(deal),
        )
    return deal


def check_stay_value(stay_value: float) -> float:
    """``stay_value`` as a float, which must be finite and not negative."""
    value = float(stay_value)
    if not math.isfinite(value) or value < 0:
        raise RulesError("stay value must be a finite number of points >= 0, got {stay_value!r}", stay_value=stay_value)
    return value


def staying_possible(rules: Rules, can_stay: bool) -> bool:
    """Whether a repeat fantasy can be earned at all: fantasy on, a condition, and allowed."""
    return can_stay and rules.fantasy and bool(rules.fantasy_stay)


def solve_fantasy(
    cards: Sequence[Card],
    rules: Rules,
    *,
    stay_value: float = DEFAULT_STAY_VALUE,
    can_stay: bool = True,
) -> FantasySolution:
    """The best arrangement of a fantasy deal under ``rules`` (see the module docstring).

    ``can_stay=False`` says a repeat is not allowed now (``fantasy_max_in_row`` reached, or
    the caller prices it elsewhere): the value is then plain royalties.
    """
    search = _Search(cards, rules, stay_value, can_stay)
    best = np.zeros(6, dtype=np.int64)
    t = EVAL_TABLES
    value = solve_kernel(
        search.deal_array,
        t.card_weight, t.card_bit, t.unsuited5, t.flush5, t.unsuited3,
        search.arrays.top, search.arrays.middle, search.arrays.bottom,
        search.flags, search.kernel_worth, best,
    )  # fmt: skip
    return search.read(int(best[3]), int(best[4]), int(best[5]), value)


def solve_fantasy_top(
    cards: Sequence[Card],
    rules: Rules,
    k: int,
    *,
    stay_value: float = DEFAULT_STAY_VALUE,
    can_stay: bool = True,
) -> tuple[FantasySolution, ...]:
    """The ``k`` best distinct arrangements, best first, in ``solve_fantasy``'s order.

    The first is ``solve_fantasy``'s answer; the others follow by value, then by the same tie
    rules (stronger bottom, middle, top, then lexicographically smaller rows). Fewer than
    ``k`` come back only when the deal has fewer live boards.
    """
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MOST_CHOICES:
        raise RulesError(
            "k (how many arrangements) must be a whole number from 1 to {most}, not {value}",
            most=MOST_CHOICES,
            value=repr(k),
        )
    search = _Search(cards, rules, stay_value, can_stay)
    kept = np.zeros((k, 7), dtype=np.float64)
    t = EVAL_TABLES
    count = solve_top_kernel(
        search.deal_array,
        t.card_weight, t.card_bit, t.unsuited5, t.flush5, t.unsuited3,
        search.arrays.top, search.arrays.middle, search.arrays.bottom,
        search.flags, search.kernel_worth, kept,
    )  # fmt: skip
    return tuple(search.read(int(row[4]), int(row[5]), int(row[6]), float(row[0])) for row in kept[:count])


MOST_CHOICES = 1000
"""The most arrangements ``solve_fantasy_top`` returns at once."""


class _Search:
    """A checked deal and settings, ready for the kernels, and the core's reading of an answer."""

    def __init__(self, cards: Sequence[Card], rules: Rules, stay_value: float, can_stay: bool) -> None:
        self.deal = tuple(sorted(check_deal(cards, rules)))
        self.rules = rules
        self.worth = check_stay_value(stay_value)
        self.may_stay = staying_possible(rules, can_stay)
        self.flags = tuple(self.may_stay and condition in rules.fantasy_stay for condition in _STAY_ORDER)
        self.kernel_worth = self.worth if self.may_stay else 0.0
        self.arrays = royalty_arrays(rules.royalty_table)
        self.deal_array = np.array(self.deal, dtype=np.int64)

    def read(self, bottom: int, middle: int, top: int, value: float) -> FantasySolution:
        """The board of the position masks, valued by the core (which must agree with ``value``)."""
        deal = self.deal
        rows = [tuple(card for i, card in enumerate(deal) if mask >> i & 1) for mask in (top, middle, bottom)]
        board = Board(top=rows[0], middle=rows[1], bottom=rows[2])
        used = top | middle | bottom
        discards = tuple(card for i, card in enumerate(deal) if not used >> i & 1)
        keys = row_keys(board)
        pay = royalties_of(keys, self.rules)
        stays = self.may_stay and meets_stay(keys, self.rules)
        total = float(pay.total) + (self.worth if stays else 0.0)
        if keys.fouled or total != value:
            shown = format_cards(deal)
            raise AssertionError(f"solver and core disagree on {shown}: {value} vs {total}")
        return FantasySolution(board, discards, keys, pay, stays, total)


def warm_up(rules: Rules | None = None) -> None:
    """Load (or compile) the kernels and touch their tables, so later calls time the search alone.

    Solves one fixed deal of the largest size ``rules`` allow (classic rules by default).
    """
    game = rules if rules is not None else Rules()
    solve_fantasy(tuple(range(0, 3 * max_fantasy_cards(game), 3)), game)
