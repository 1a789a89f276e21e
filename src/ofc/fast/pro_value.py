"""The ``pro`` bot's learned board value: features of a partial board and a linear model per stage.

A board's **features** (``N_FEATURES`` numbers, ``features``) are the parts of the hand-tuned
evaluation of ``ofc.fast.rollout`` taken apart: the static value itself, the estimated foul
chance, each row's expected strength against a typical row, expected royalties, fantasy made
or drawn (and each discounted by the foul chance), the margins between rows, an exact foul
flag for a finished board. The **value** of a board is ``weights[stage] @ features`` where the
stage is the number of cards on the board (0..13): one linear model per stage, fitted by
``ofc.train`` to self-play outcomes (points against one opponent plus the fantasy value when
the board earns one). ``learned_place`` places a deal where that value is highest; it is the
``pro`` bot's play-out policy (``ofc.fast.pro_rollout``).
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from ofc.fast.boards import top_royalty
from ofc.fast.evaluate import key3
from ofc.fast.evaluation import (
    DISCARD,
    P_DRAW_RISK,
    P_FANTASY,
    P_ROW_POINTS,
    QUEEN,
    ROW_SIZE,
    ROW_START,
    TOP_GAIN_PAIRED,
    TOP_GAIN_UNPAIRED,
    TYPICAL,
    _five_row,
    _made,
    _pair_risk,
    _static,
    _strength,
    _strength_of_key,
    _win_share,
)

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


@nb.njit(cache=True)
def features(
    board: I64, counts: I64, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32, out: F64,
) -> None:  # fmt: skip
    """Write the ``N_FEATURES`` features of a (partial) board into ``out``."""
    n_top, n_mid, n_bot = counts[0], counts[1], counts[2]
    if n_top == 3:
        key_t = key3(board[0], board[1], board[2], weight, u3)
        cat_t, lead_t = key_t >> 20, ((key_t >> 16) & 15) - 1
        s_t = _strength_of_key(key_t)
    else:
        cat_t, lead_t, second_t = _made(board, 0, n_top)
        key_t = 0
        s_t = _strength(cat_t, lead_t, second_t) if n_top else 0.0
    roy = float(top_royalty((cat_t << 20) | ((lead_t + 1) << 16), top_roy)) if cat_t > 0 else 0.0
    e_t = s_t + (3 - n_top) * (TOP_GAIN_UNPAIRED if cat_t == 0 else TOP_GAIN_PAIRED)
    s_m, e_m, key_m, roy_m = _five_row(board, 3, n_mid, weight, bit, u5, f5, mid_roy)
    s_b, e_b, key_b, roy_b = _five_row(board, 8, n_bot, weight, bit, u5, f5, bot_roy)
    roy += roy_m + roy_b
    risk = 1.0 - (1.0 - _pair_risk(s_t, s_m, 3 - n_top, 5 - n_mid, key_t, key_m, params)) * (
        1.0 - _pair_risk(s_m + params[P_DRAW_RISK] * (e_m - s_m), s_b, 5 - n_mid, 5 - n_bot, key_m, key_b, params)
    )
    rows = _win_share(e_t - TYPICAL[0]) + _win_share(e_m - TYPICAL[1]) + _win_share(e_b - TYPICAL[2])
    made = 1.0 if (cat_t == 3 or (cat_t == 1 and lead_t >= QUEEN)) else 0.0
    draw = 1.0 if (n_top < 3 and cat_t == 0 and lead_t >= QUEEN) else 0.0
    fouled = 0.0
    if n_top == 3 and n_mid == 5 and n_bot == 5 and (key_b < key_m or key_m < key_t):
        fouled = 1.0
    out[0] = 1.0
    out[1] = _static(board, counts, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy) / 10.0
    out[2] = risk
    out[3] = rows * params[P_ROW_POINTS]
    out[4] = roy / 10.0
    out[5] = made
    out[6] = draw
    out[7] = e_t - TYPICAL[0]
    out[8] = e_m - TYPICAL[1]
    out[9] = e_b - TYPICAL[2]
    out[10] = (1.0 - risk) * roy / 10.0
    out[11] = (1.0 - risk) * made
    out[12] = (lead_t + 1) / 13.0 if cat_t == 1 else 0.0
    out[13] = min(max(s_m - s_t, -3.0), 3.0)
    out[14] = min(max(s_b - s_m, -3.0), 3.0)
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
    """``weights[stage] @ features(board)``, the stage being the number of cards on the board."""
    features(board, counts, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy, scratch)
    stage = counts[0] + counts[1] + counts[2]
    total = 0.0
    for f in range(N_FEATURES):
        total += weights[stage, f] * scratch[f]
    return total


@nb.njit(cache=True)
def learned_place(
    board: I64, counts: I64, cards: I64, discards: int, params: F64, weights: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32, codes: I64,
) -> float:  # fmt: skip
    """Place ``cards`` (discarding ``discards``) where ``learned_value`` is highest.

    Updates ``board``/``counts`` in place, writes each card's row or ``DISCARD`` into ``codes``
    and returns the value. Ties go to the first assignment in counting order.
    """
    m = cards.shape[0]
    base = 4 if discards > 0 else 3
    total = base**m
    scratch = np.empty(13, dtype=np.int64)
    room = np.empty(3, dtype=np.int64)
    fill = np.empty(3, dtype=np.int64)
    feats = np.empty(N_FEATURES, dtype=np.float64)
    best_value = -1e18
    best_code = -1
    for code in range(total):
        for r in range(3):
            room[r] = ROW_SIZE[r] - counts[r]
        dropped = 0
        ok = True
        rest = code
        for _ in range(m):
            choice = rest % base
            rest //= base
            if choice == DISCARD:
                dropped += 1
            else:
                room[choice] -= 1
                if room[choice] < 0:
                    ok = False
                    break
        if not ok or dropped != discards:
            continue
        for j in range(13):
            scratch[j] = board[j]
        for r in range(3):
            fill[r] = counts[r]
        rest = code
        for i in range(m - 1, -1, -1):
            choice = rest % base
            rest //= base
            if choice != DISCARD:
                scratch[ROW_START[choice] + fill[choice]] = cards[i]
                fill[choice] += 1
        value = learned_value(scratch, fill, params, weights, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy,
                              feats)  # fmt: skip
        if value > best_value:
            best_value = value
            best_code = code
    rest = best_code
    for i in range(m - 1, -1, -1):
        choice = rest % base
        rest //= base
        codes[i] = choice
    for i in range(m):
        choice = codes[i]
        if choice != DISCARD:
            board[ROW_START[choice] + counts[choice]] = cards[i]
            counts[choice] += 1
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


__all__ = ["FEATURE_NAMES", "N_FEATURES", "STAGES", "features", "learned_place", "learned_value", "learned_values"]
