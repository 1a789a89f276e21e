"""Settlement kernels: finished boards to row keys, royalties, pairwise points and fantasy earned.

They mirror ``ofc.rules.scoring`` (``score_boards`` and ``next_fantasy_cards``) for the play-outs of
the Monte Carlo bot and for batch scoring; ``tests/test_fast_settle.py`` holds them equal to
the core on random tables under both scoring systems and every fantasy setting.

A board is an ``int64[13]`` array: top 3, middle 5, bottom 5 cards. The fantasy rules travel as
``int64[3]``: the enabled stay conditions as a bit mask (``STAY_BITS``), the most fantasy hands
in a row (0 for no limit), and whether fantasy is on.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba as nb
import numpy as np
import numpy.typing as npt

from ofc.fast.boards import five_royalty, top_royalty
from ofc.fast.evaluate import key3, key5
from ofc.fast.tables import EVAL_TABLES, royalty_arrays
from ofc.rules.errors import BoardError
from ofc.rules.rulebook import Rules, StayCondition

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]
B8 = npt.NDArray[np.bool_]

QUEEN = 10
"""Rank index of a queen (2 = 0 .. A = 12): QQ or better on top enters fantasy."""
PAIR, TRIPS, FULL_HOUSE, QUADS = 1, 3, 6, 7
"""Category numbers of ``ofc.rules.ranking.Category`` (a key's category is ``key >> 20``)."""
STAY_BITS = {
    StayCondition.TOP_TRIPS: 1,
    StayCondition.BOTTOM_QUADS_PLUS: 2,
    StayCondition.MIDDLE_QUADS_PLUS: 4,
    StayCondition.MIDDLE_FULL_HOUSE_PLUS: 8,
}
F_STAY, F_MAX_IN_ROW, F_ON = 0, 1, 2
"""Places in the fantasy-rules array."""


def fantasy_rules_array(rules: Rules) -> I64:
    """``rules``' fantasy settings as the kernels read them."""
    mask = sum(STAY_BITS[condition] for condition in rules.fantasy_stay)
    limit = rules.fantasy_max_in_row or 0
    return np.array([mask, limit, int(rules.fantasy)], dtype=np.int64)


@nb.njit(cache=True)
def final_keys(
    board: I64, weight: I32, bit: I32, u5: I32, f5: I32, u3: I32, top_roy: I32, mid_roy: I32, bot_roy: I32
) -> tuple[int, int, int, int]:
    """(top key, middle key, bottom key, royalties) of a finished board; royalties 0 if fouled."""  # fmt: skip
    kt = key3(board[0], board[1], board[2], weight, u3)
    km = key5(board[3], board[4], board[5], board[6], board[7], weight, bit, u5, f5)
    kb = key5(board[8], board[9], board[10], board[11], board[12], weight, bit, u5, f5)
    if kb < km or km < kt:
        return kt, km, kb, 0
    return kt, km, kb, top_royalty(kt, top_roy) + five_royalty(km, mid_roy) + five_royalty(kb, bot_roy)


@nb.njit(cache=True)
def settle_pair(a: Any, b: Any, row_points: float, scoop: float) -> float:
    """Row points ``a`` wins from ``b``, royalties aside; each is (top, middle, bottom key, ...)."""
    a_foul = a[2] < a[1] or a[1] < a[0]
    b_foul = b[2] < b[1] or b[1] < b[0]
    if a_foul and b_foul:
        return 0.0
    if a_foul:
        return -3.0 * row_points - scoop
    if b_foul:
        return 3.0 * row_points + scoop
    wins = 0
    losses = 0
    for r in range(3):
        if a[r] > b[r]:
            wins += 1
        elif a[r] < b[r]:
            losses += 1
    points = row_points * (wins - losses)
    if wins == 3:
        points += scoop
    elif losses == 3:
        points -= scoop
    return points


@nb.njit(cache=True)
def fantasy_top(top_key: int) -> bool:
    """Whether a top row of key ``top_key`` is one that enters fantasy: a pair of queens or better, or trips."""
    top = top_key >> 20
    return bool(top == TRIPS or (top == PAIR and ((top_key >> 16) & 15) - 1 >= QUEEN))


@nb.njit(cache=True)
def earns_fantasy(final: Any, in_row: int, fantasy_rules: I64) -> bool:
    """Whether a finished board earns a fantasy next hand (``next_fantasy_cards > 0``).

    ``in_row`` is how many fantasy hands in a row this hand completes (0: a normal hand).
    """
    kt, km, kb = final[0], final[1], final[2]
    if fantasy_rules[F_ON] == 0 or kb < km or km < kt:
        return False
    top = kt >> 20
    if in_row == 0:
        return fantasy_top(kt)
    limit = fantasy_rules[F_MAX_IN_ROW]
    if limit > 0 and in_row >= limit:
        return False
    stay = fantasy_rules[F_STAY]
    middle = km >> 20
    return bool(
        (stay & 1 and top == TRIPS)
        or (stay & 2 and kb >> 20 >= QUADS)
        or (stay & 4 and middle >= QUADS)
        or (stay & 8 and middle >= FULL_HOUSE)
    )


@nb.njit(cache=True)
def _settle_many(
    boards: Any, in_row: I64, fantasy_rules: I64, row_points: float, scoop: float,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32, top_roy: I32, mid_roy: I32, bot_roy: I32,
    points: F64, royalties: I64, earns: Any,
) -> None:  # fmt: skip
    tables, players = boards.shape[0], boards.shape[1]
    finals = np.empty((players, 4), dtype=np.int64)
    for t in range(tables):
        for p in range(players):
            kt, km, kb, roy = final_keys(boards[t, p], weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)
            finals[p, 0], finals[p, 1], finals[p, 2], finals[p, 3] = kt, km, kb, roy
            royalties[t, p] = roy
            earns[t, p] = earns_fantasy(finals[p], in_row[t, p], fantasy_rules)
        for p in range(players):
            total = 0.0
            for q in range(players):
                if q != p:
                    total += settle_pair(finals[p], finals[q], row_points, scoop) + finals[p, 3] - finals[q, 3]
            points[t, p] = total


class SettledTables(NamedTuple):
    """Per table and seat: points against every other seat, royalties, and whether fantasy is earned."""

    points: F64
    royalties: I64
    earns: B8


def settle_tables(boards: npt.ArrayLike, in_row: npt.ArrayLike, rules: Rules) -> SettledTables:
    """Settle ``boards`` (tables x seats x 13 cards) under ``rules``; ``in_row`` per table and seat."""
    cards = np.ascontiguousarray(boards, dtype=np.int64)
    streaks = np.ascontiguousarray(in_row, dtype=np.int64)
    if cards.ndim != 3 or cards.shape[2] != 13 or streaks.shape != cards.shape[:2]:
        raise BoardError("boards must be tables x seats x 13 cards and in_row tables x seats")
    t = EVAL_TABLES
    pays = royalty_arrays(rules.royalty_table)
    out = SettledTables(
        np.zeros(cards.shape[:2], dtype=np.float64),
        np.zeros(cards.shape[:2], dtype=np.int64),
        np.zeros(cards.shape[:2], dtype=np.bool_),
    )
    _settle_many(
        cards, streaks, fantasy_rules_array(rules), float(rules.row_points), float(rules.scoop_bonus),
        t.card_weight, t.card_bit, t.unsuited5, t.flush5, t.unsuited3, pays.top, pays.middle, pays.bottom,
        out.points, out.royalties, out.earns,
    )  # fmt: skip
    return out


__all__ = [
    "STAY_BITS",
    "SettledTables",
    "earns_fantasy",
    "fantasy_rules_array",
    "final_keys",
    "settle_pair",
    "settle_tables",
]
