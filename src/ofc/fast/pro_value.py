"""The ``pro`` bot's learned board value: features of a partial board and a linear model per stage.

A board's **features** (``N_FEATURES`` numbers, ``features``) are, first, the parts of the
hand-tuned evaluation of ``ofc.fast.evaluation`` taken apart (the first ``BOARD_FEATURES``): the
static value itself, the estimated foul chance, each row's expected strength against a typical
row, expected royalties, fantasy made or drawn (and each discounted by the foul chance), the
margins between rows, an exact foul flag for a finished board; then the **outs** of the open
rows among the cards the seat has not seen (``live_counts``; seen are every board on the table
but hidden fantasy boards, and the cards it was dealt): the live cards that pair a queen or
better on the top, that pair the middle or the bottom, and that match a one-suited middle or
bottom, each times the row's free places over the unseen cards. The **value** of a board is
``weights[stage] @ features`` where the stage is the number of cards on the board (0..13), plus
optionally a few ReLU units on the same features (``HIDDEN_BLOCK``): one model per stage,
fitted by ``ofc.train`` to self-play outcomes (points against one opponent plus the fantasy
value when the board earns one). ``learned_place`` places a deal where that value is highest; it is the
``pro`` bot's play-out policy (``ofc.fast.pro_rollout``).
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from ofc.fast.evaluation import (
    P_FANTASY,
    P_ROW_POINTS,
    QUEEN,
    ROW_START,
    TYPICAL,
    board_parts,
    static_of_parts,
)
from ofc.fast.placement import NO_VALUE, build, commit, fits

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]

N_FEATURES = 23
BOARD_FEATURES = 18
"""The features of the board alone (the first ones); weights of that width are widened on reading."""
STAGES = 14
FEATURE_NAMES = (
    "bias", "static", "risk", "rows", "royalties", "fantasy_made", "fantasy_draw", "top_edge",
    "middle_edge", "bottom_edge", "safe_royalties", "safe_fantasy", "top_pair_rank", "gap_top_middle",
    "gap_middle_bottom", "fouled", "safe_rows", "risk_squared",
    "top_outs", "middle_pair_outs", "bottom_pair_outs", "middle_flush_outs", "bottom_flush_outs",
)  # fmt: skip
FOULED = FEATURE_NAMES.index("fouled")
STATIC = FEATURE_NAMES.index("static")
POINT_SCALE = 10.0
"""Points (the static value, royalties) enter the features divided by this, near the others' size."""
MARGIN_CAP = 3.0
"""Strength margins between rows are clipped to plus or minus this (three categories)."""
HIDDEN_BLOCK = N_FEATURES + 1
"""Columns of one hidden unit in a stage's weights: its input weight per feature (the ``bias``
feature, always 1, carries the unit's bias), then its output weight. The unit adds
``output * max(0, inputs @ features)`` to the stage's linear value."""


def hidden_units(columns: int, inputs: int = N_FEATURES) -> int:
    """The hidden units of a stage row of ``columns`` weights over ``inputs`` features, or -1 if none fits."""
    extra = columns - inputs
    return extra // (inputs + 1) if extra >= 0 and extra % (inputs + 1) == 0 else -1


def widen(weights: F64) -> F64:
    """Weights over the ``BOARD_FEATURES`` board features as weights over all ``N_FEATURES`` (zeros for the rest)."""
    units = hidden_units(weights.shape[1], BOARD_FEATURES)
    out = np.zeros((weights.shape[0], N_FEATURES + units * HIDDEN_BLOCK), dtype=np.float64)
    out[:, :BOARD_FEATURES] = weights[:, :BOARD_FEATURES]
    for unit in range(units):
        old = BOARD_FEATURES + unit * (BOARD_FEATURES + 1)
        new = N_FEATURES + unit * HIDDEN_BLOCK
        out[:, new : new + BOARD_FEATURES] = weights[:, old : old + BOARD_FEATURES]
        out[:, new + N_FEATURES] = weights[:, old + BOARD_FEATURES]
    return out


@nb.njit(cache=True)
def board_mask(board: I64, counts: I64) -> int:
    """The cards on a board as a 52-bit mask."""
    mask = 0
    for r in range(3):
        for i in range(counts[r]):
            mask |= 1 << board[ROW_START[r] + i]
    return mask


@nb.njit(cache=True)
def live_counts(known: int, rank_live: I64, suit_live: I64) -> int:
    """Per rank and per suit, the cards not in the mask ``known``; returns how many there are."""
    rank_live[:] = 0
    suit_live[:] = 0
    unseen = 0
    for card in range(52):
        if not known >> card & 1:
            rank_live[card >> 2] += 1
            suit_live[card & 3] += 1
            unseen += 1
    return unseen


@nb.njit(cache=True)
def _row_outs(
    board: I64, start: int, n: int, size: int, lowest: int, rank_live: I64, suit_live: I64, unseen: int
) -> tuple[float, float]:
    """(pairing, flush) outs of an open row: free places times the share of unseen cards that pair
    one of its ranks at or above ``lowest`` (or, all cards one suit, that match it)."""
    if n == 0 or n >= size or unseen == 0:
        return 0.0, 0.0
    ranks = 0
    outs = 0
    suit = board[start] & 3
    suited = True
    for i in range(n):
        card = board[start + i]
        r = card >> 2
        if r >= lowest and not ranks >> r & 1:
            ranks |= 1 << r
            outs += rank_live[r]
        if card & 3 != suit:
            suited = False
    room = size - n
    flush = room * suit_live[suit] / unseen if suited else 0.0
    return room * outs / unseen, flush


@nb.njit(cache=True)
def features(
    board: I64, counts: I64, rank_live: I64, suit_live: I64, unseen: int, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32, out: F64,
) -> None:  # fmt: skip
    """Write the ``N_FEATURES`` features of a (partial) board into ``out``.

    ``rank_live``/``suit_live``/``unseen`` (``live_counts``) count the cards the seat has not
    seen: the last features are the outs of the open rows among them."""
    n_top = counts[0]
    cat_t, lead_t, s_t, e_t, s_m, e_m, s_b, e_b, key_t, key_m, key_b, roy, risk, rows = board_parts(
        board, counts, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy
    )
    made = 1.0 if (cat_t == 3 or (cat_t == 1 and lead_t >= QUEEN)) else 0.0
    draw = 1.0 if (n_top < 3 and cat_t == 0 and lead_t >= QUEEN) else 0.0
    fouled = 0.0
    if counts[0] + counts[1] + counts[2] == 13 and (key_b < key_m or key_m < key_t):
        fouled = 1.0
    out[0] = 1.0
    out[1] = static_of_parts(cat_t, lead_t, n_top, roy, risk, rows, params) / POINT_SCALE
    out[2] = risk
    out[3] = rows * params[P_ROW_POINTS]
    out[4] = roy / POINT_SCALE
    out[5] = made
    out[6] = draw
    out[7] = e_t - TYPICAL[0]
    out[8] = e_m - TYPICAL[1]
    out[9] = e_b - TYPICAL[2]
    out[10] = (1.0 - risk) * roy / POINT_SCALE
    out[11] = (1.0 - risk) * made
    out[12] = (lead_t + 1) / 13.0 if cat_t == 1 else 0.0
    out[13] = min(max(s_m - s_t, -MARGIN_CAP), MARGIN_CAP)
    out[14] = min(max(s_b - s_m, -MARGIN_CAP), MARGIN_CAP)
    out[15] = fouled
    out[16] = (1.0 - risk) * rows * params[P_ROW_POINTS]
    out[17] = risk * risk
    out[18], _ = _row_outs(board, 0, n_top, 3, QUEEN, rank_live, suit_live, unseen)
    out[19], out[21] = _row_outs(board, 3, counts[1], 5, 0, rank_live, suit_live, unseen)
    out[20], out[22] = _row_outs(board, 8, counts[2], 5, 0, rank_live, suit_live, unseen)
    if params[P_FANTASY] <= 0.0:
        out[5] = 0.0
        out[6] = 0.0
        out[11] = 0.0
        out[18] = 0.0


@nb.njit(cache=True)
def learned_value(
    board: I64, counts: I64, rank_live: I64, suit_live: I64, unseen: int, params: F64, weights: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32, scratch: F64,
) -> float:  # fmt: skip
    """The stage's linear part ``weights[stage, :N_FEATURES] @ features(board)`` plus its hidden units.

    The stage is the number of cards on the board. A ``(STAGES, N_FEATURES)`` array is the
    linear model alone; each further ``HIDDEN_BLOCK`` columns are one ReLU unit (``hidden_units``).
    """
    features(board, counts, rank_live, suit_live, unseen, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy,
             scratch)  # fmt: skip
    stage = counts[0] + counts[1] + counts[2]
    total = 0.0
    for f in range(N_FEATURES):
        total += weights[stage, f] * scratch[f]
    for unit in range((weights.shape[1] - N_FEATURES) // HIDDEN_BLOCK):
        at = N_FEATURES + unit * HIDDEN_BLOCK
        out_weight = weights[stage, at + N_FEATURES]
        if out_weight == 0.0:
            continue
        pre = 0.0
        for f in range(N_FEATURES):
            pre += weights[stage, at + f] * scratch[f]
        if pre > 0.0:
            total += out_weight * pre
    return total


@nb.njit(cache=True)
def learned_place(
    board: I64, counts: I64, cards: I64, discards: int, seen: int, params: F64, weights: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32, codes: I64,
) -> float:  # fmt: skip
    """Place ``cards`` (discarding ``discards``) where ``learned_value`` is highest.

    Updates ``board``/``counts`` in place, writes each card's row or ``DISCARD`` into ``codes``
    and returns the value. ``seen`` masks the other cards the seat has seen (``board_mask``).
    A placement that finishes the board fouled is taken only when every one does (whatever the
    weights say). Ties go to the first assignment in counting order.
    """
    m = cards.shape[0]
    base = 4 if discards > 0 else 3
    scratch = np.empty(13, dtype=np.int64)
    room = np.empty(3, dtype=np.int64)
    fill = np.empty(3, dtype=np.int64)
    feats = np.empty(N_FEATURES, dtype=np.float64)
    known = seen | board_mask(board, counts)
    for i in range(m):
        known |= 1 << cards[i]
    rank_live = np.empty(13, dtype=np.int64)
    suit_live = np.empty(4, dtype=np.int64)
    unseen = live_counts(known, rank_live, suit_live)
    best_value = NO_VALUE
    best_dead = True
    best_code = -1
    for code in range(base**m):
        if not fits(code, base, m, counts, discards, room):
            continue
        build(board, counts, cards, code, base, scratch, fill)
        value = learned_value(scratch, fill, rank_live, suit_live, unseen, params, weights, weight, bit, u5, f5, u3,
                              top_roy, mid_roy, bot_roy, feats)  # fmt: skip
        dead = feats[FOULED] > 0.0
        if (best_dead and not dead) or (dead == best_dead and value > best_value):
            best_value = value
            best_dead = dead
            best_code = code
    commit(board, counts, cards, best_code, base, codes)
    return best_value


@nb.njit(cache=True)
def learned_values(
    boards: I64, counts: I64, seen: int, params: F64, weights: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32, out: F64,
) -> None:  # fmt: skip
    """``learned_value`` of each board of an ``(n, 13)`` array into ``out`` (``seen``: the other cards seen)."""
    feats = np.empty(N_FEATURES, dtype=np.float64)
    rank_live = np.empty(13, dtype=np.int64)
    suit_live = np.empty(4, dtype=np.int64)
    for i in range(boards.shape[0]):
        unseen = live_counts(seen | board_mask(boards[i], counts[i]), rank_live, suit_live)
        out[i] = learned_value(boards[i], counts[i], rank_live, suit_live, unseen, params, weights, weight, bit, u5,
                               f5, u3, top_roy, mid_roy, bot_roy, feats)  # fmt: skip


__all__ = [
    "BOARD_FEATURES", "FEATURE_NAMES", "HIDDEN_BLOCK", "N_FEATURES", "STAGES",
    "board_mask", "features", "hidden_units", "learned_place", "learned_value", "learned_values", "live_counts",
    "widen",
]  # fmt: skip
