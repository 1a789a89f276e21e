"""The ``pro`` bot's learned board value: features of a partial board and a linear model per stage.

A board's **features** (``N_FEATURES`` numbers, ``features``) are the parts of the hand-tuned
evaluation of ``ofc.fast.rollout`` taken apart: the static value itself, the estimated foul
chance, each row's expected strength against a typical row, expected royalties, fantasy made
or drawn (and each discounted by the foul chance), the margins between rows, an exact foul
flag for a finished board. The **value** of a board is ``weights[stage] @ features`` where the
stage is the number of cards on the board (0..13), plus optionally a few ReLU units on the same
features (``HIDDEN_BLOCK``): one model per stage, fitted by
``ofc.train`` to self-play outcomes (points against one opponent plus the fantasy value when
the board earns one). ``learned_place`` places a deal where that value is highest; it is the
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
    TYPICAL,
    board_parts,
    static_of_parts,
)
from ofc.fast.placement import NO_VALUE, build, commit, fits

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]

N_FEATURES = 18
STAGES = 14
FEATURE_NAMES = (
    "bias", "static", "risk", "rows", "royalties", "fantasy_made", "fantasy_draw", "top_edge",
    "middle_edge", "bottom_edge", "safe_royalties", "safe_fantasy", "top_pair_rank", "gap_top_middle",
    "gap_middle_bottom", "fouled", "safe_rows", "risk_squared",
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


def hidden_units(columns: int) -> int:
    """The hidden units a stage row of ``columns`` weights holds, or -1 if no whole number fits."""
    extra = columns - N_FEATURES
    return extra // HIDDEN_BLOCK if extra >= 0 and extra % HIDDEN_BLOCK == 0 else -1


@nb.njit(cache=True)
def features(
    board: I64, counts: I64, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32, out: F64,
) -> None:  # fmt: skip
    """Write the ``N_FEATURES`` features of a (partial) board into ``out``."""
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
    if params[P_FANTASY] <= 0.0:
        out[5] = 0.0
        out[6] = 0.0
        out[11] = 0.0


@nb.njit(cache=True)
def learned_value(
    board: I64, counts: I64, params: F64, weights: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32, scratch: F64,
) -> float:  # fmt: skip
    """The stage's linear part ``weights[stage, :N_FEATURES] @ features(board)`` plus its hidden units.

    The stage is the number of cards on the board. A ``(STAGES, N_FEATURES)`` array is the
    linear model alone; each further ``HIDDEN_BLOCK`` columns are one ReLU unit (``hidden_units``).
    """
    features(board, counts, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy, scratch)
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
    board: I64, counts: I64, cards: I64, discards: int, params: F64, weights: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32, codes: I64,
) -> float:  # fmt: skip
    """Place ``cards`` (discarding ``discards``) where ``learned_value`` is highest.

    Updates ``board``/``counts`` in place, writes each card's row or ``DISCARD`` into ``codes``
    and returns the value. A placement that finishes the board fouled is taken only when every
    one does (whatever the weights say). Ties go to the first assignment in counting order.
    """
    m = cards.shape[0]
    base = 4 if discards > 0 else 3
    scratch = np.empty(13, dtype=np.int64)
    room = np.empty(3, dtype=np.int64)
    fill = np.empty(3, dtype=np.int64)
    feats = np.empty(N_FEATURES, dtype=np.float64)
    best_value = NO_VALUE
    best_dead = True
    best_code = -1
    for code in range(base**m):
        if not fits(code, base, m, counts, discards, room):
            continue
        build(board, counts, cards, code, base, scratch, fill)
        value = learned_value(scratch, fill, params, weights, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy,
                              feats)  # fmt: skip
        dead = feats[FOULED] > 0.0
        if (best_dead and not dead) or (dead == best_dead and value > best_value):
            best_value = value
            best_dead = dead
            best_code = code
    commit(board, counts, cards, best_code, base, codes)
    return best_value


@nb.njit(cache=True)
def learned_values(
    boards: I64, counts: I64, params: F64, weights: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32, out: F64,
) -> None:  # fmt: skip
    """``learned_value`` of each board of an ``(n, 13)`` array into ``out``."""
    feats = np.empty(N_FEATURES, dtype=np.float64)
    for i in range(boards.shape[0]):
        out[i] = learned_value(boards[i], counts[i], params, weights, weight, bit, u5, f5, u3, top_roy, mid_roy,
                               bot_roy, feats)  # fmt: skip


__all__ = [
    "FEATURE_NAMES", "HIDDEN_BLOCK", "N_FEATURES", "STAGES",
    "features", "hidden_units", "learned_place", "learned_value", "learned_values",
]  # fmt: skip
