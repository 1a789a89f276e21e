"""The heuristic board evaluation: a fast price, in points, of a partial board.

A board is an ``int64[13]`` array laid out as in ``ofc.fast.boards`` (top 3, middle 5, bottom
5) with ``counts[3]`` saying how many cards each row holds; empty slots are ignored.

``evaluate`` prices a partial board in points: each row's expected strength against a
typical opponent row, expected royalties and fantasy entry, all discounted by an estimated
probability of fouling. It only has to rank the placements of one deal sensibly; it is the
heuristic bot's whole policy and the rollout policy of the Monte Carlo bot (through
``ofc.fast.placement``). In classic, a board one card short is valued as the mean of its
completions (``P_LAST_CARD``) over every card not on it: an approximation, since cards seen
on other boards count as possible too, but the complete boards' fouls and royalties are exact.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np
import numpy.typing as npt

from ofc.fast.boards import five_royalty, top_royalty
from ofc.fast.evaluate import key3, key5
from ofc.fast.kernel_tables import KernelTables

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]

ROW_START = (0, 3, 8)
ROW_SIZE = (3, 5, 5)
QUEEN = 10
DISCARD = 3
"""The placement code of a discarded card (rows are 0 top, 1 middle, 2 bottom)."""

# Indexes into the ``params`` array: the rules, then the evaluation's weights.
P_ROW_POINTS = 0
P_SCOOP = 1
P_FANTASY = 2
P_MOBILITY = 3
"""Strength a lower row is expected to gain per free place when judging a foul."""
P_SPREAD = 4
"""Uncertainty of that gain per free place."""
P_FOUL_EXTRA = 5
"""Points a foul costs beyond the rows and scoop (royalties lost, roughly)."""
P_FANTASY_DRAW = 6
"""Share of the fantasy value credited to an unpaired queen or better on an open top row."""
P_UPPER_RISK = 7
"""Chance per free place that a row already below the one beneath it still overtakes it."""
P_DRAW_RISK = 8
"""Share of the middle row's expected gain counted against the bottom when judging a foul."""
P_LAST_CARD = 9
"""Above 0: a board one card short is valued as the mean, over every card not on this board
(cards seen elsewhere included), of the complete board (its foul, royalties and fantasy
exact) instead of by the static estimate. Only classic's single-card streets ever leave a
board one card short."""
PARAMS = 10
WEIGHTS_DISCARDING = (0.1, 0.2, 2.0, 0.12, 0.0, 0.0, 0.0)
"""The evaluation's weights, ``P_MOBILITY`` onwards, when streets carry a discard (pineapple).

A discard lets a player dump the card that would wreck a row, so rows are rarely forced.
Tuned on duplicate heuristic-against-heuristic matches."""
WEIGHTS_PLACING_ALL = (0.1, 0.2, 1.0, 0.02, 0.03, 1.5, 0.0)
"""The weights when every card dealt must be placed (turbo): late cards are forced into
whatever room is left, so the lower rows need a wider margin than with a discard, and a flat
risk for an open upper row (``P_UPPER_RISK``) only pushes cards up early. Tuned by coordinate
searches on duplicate deals (classic, then turbo; docs/bots.md). Turbo's streets of 5, 4 and 4
cards never leave a board one card short, so ``P_LAST_CARD`` is 0."""
WEIGHTS_ONE_A_STREET = (0.08, 0.22, 2.5, 0.02, 0.08, 1.35, 1.0)
"""The weights when every street after the first is a single card (classic): the same search
continued from a random search, keeping the point that fouls least among the equally scoring
ones, the last choice priced exactly over the cards that can still come (``P_LAST_CARD``)."""

FLUSH_CHANCE = (0.0, 0.02, 0.08, 0.22, 0.48)
"""Chance a 5-card row holding n suited cards (and room for the rest) ends a flush."""
STRAIGHT_CHANCE = (0.0, 0.01, 0.05, 0.14, 0.32)
"""Chance a 5-card row holding n unpaired cards within a five-rank window ends a straight."""
GAIN_PER_ROOM = (0.22, 0.18, 0.08, 0.12, 0.0, 0.0, 0.0, 0.0, 0.0)
"""Expected strength gained per free place of a 5-card row, by its made category."""
TYPICAL = (0.95, 1.8, 2.8)
"""Strength of a typical finished top, middle and bottom row (category + rank / 14)."""
FLUSH_STRENGTH = 5.6
"""Strength (category + rank / 14) an unfinished row reaches when its flush draw comes in."""
STRAIGHT_STRENGTH = 4.6
"""Strength an unfinished row reaches when its straight draw comes in."""
TOP_GAIN_UNPAIRED = 0.12
"""Strength an unpaired top row is expected to gain per free place."""
TOP_GAIN_PAIRED = 0.04
"""Strength a paired top row is expected to gain per free place."""
RANK_STEP = 14.0
"""A row's strength is category + (rank + 1) / RANK_STEP + (second rank + 1) / RANK_STEP**2."""
SECOND_RANK_STEP = RANK_STEP * RANK_STEP
"""The divisor of the second rank in a row's strength (see ``RANK_STEP``)."""
WIN_SLOPE = 1.5
"""Slope of the logistic share of rows won against a typical row, per unit of strength edge."""
SPREAD_FLOOR = 0.1
"""Least uncertainty of a row's final strength when judging a foul (``P_SPREAD`` adds to it)."""


@nb.njit(cache=True)
def _made(board: I64, start: int, n: int) -> tuple[int, int, int]:
    """(category, leading rank, second rank) of a partial row from its rank multiplicities."""
    best_count = 0
    lead = -1
    pairs_high = -1
    pairs_low = -1
    trips = -1
    high = -1
    high2 = -1
    for i in range(n):
        r = board[start + i] >> 2
        count = 0
        first = True
        for j in range(n):
            if board[start + j] >> 2 == r:
                count += 1
                if j < i:
                    first = False
        if not first:
            continue
        best_count = max(best_count, count)
        if count == 4:
            lead = r
        elif count == 3:
            trips = r
        elif count == 2:
            if r > pairs_high:
                pairs_low = pairs_high
                pairs_high = r
            elif r > pairs_low:
                pairs_low = r
        else:
            if r > high:
                high2 = high
                high = r
            elif r > high2:
                high2 = r
    if best_count == 4:
        return 7, lead, high
    if trips >= 0 and pairs_high >= 0:
        return 6, trips, pairs_high
    if trips >= 0:
        return 3, trips, high
    if pairs_low >= 0:
        return 2, pairs_high, pairs_low
    if pairs_high >= 0:
        return 1, pairs_high, high
    return 0, high, high2


@nb.njit(cache=True)
def _strength_of_key(key: int) -> float:
    return (key >> 20) + ((key >> 16) & 15) / RANK_STEP + ((key >> 12) & 15) / SECOND_RANK_STEP


@nb.njit(cache=True)
def _strength(category: int, lead: int, second: int) -> float:
    return category + (lead + 1) / RANK_STEP + (second + 1) / SECOND_RANK_STEP


@nb.njit(cache=True)
def _draws(board: I64, start: int, n: int) -> tuple[float, float]:
    """Chances (flush, straight) that a partial 5-card row of ``n`` cards completes a draw."""
    if n == 0 or n >= 5:
        return 0.0, 0.0
    suit = board[start] & 3
    suited = True
    low = 99
    high = -1
    bits = 0
    paired = False
    for i in range(n):
        card = board[start + i]
        if card & 3 != suit:
            suited = False
        r = card >> 2
        if bits >> r & 1:
            paired = True
        bits |= 1 << r
        low = min(low, r)
        high = max(high, r)
    flush = FLUSH_CHANCE[n] if suited else 0.0
    straight = 0.0
    if not paired:
        fits = high - low <= 4
        if not fits and bits >> 12 & 1:
            # the ace may play low: the other cards must lie within 2..5
            rest = bits & ~(1 << 12)
            fits = rest < (1 << 4)
        if fits:
            straight = STRAIGHT_CHANCE[n]
    return flush, straight


@nb.njit(cache=True)
def _pair_risk(
    s_upper: float, s_lower: float, room_upper: int, room_lower: int, upper_exact: int, lower_exact: int,
    params: F64,
) -> float:  # fmt: skip
    """Estimated chance that a row ends stronger than the row below it (a foul)."""
    if room_upper == 0 and room_lower == 0:
        return 1.0 if upper_exact > lower_exact else 0.0
    gap = s_upper - s_lower
    if gap <= 0.0:
        return float(params[P_UPPER_RISK] * room_upper)
    if room_lower == 0:
        return 1.0
    spread = SPREAD_FLOOR + params[P_SPREAD] * room_lower
    return float(1.0 / (1.0 + math.exp(-(gap - params[P_MOBILITY] * room_lower) / spread)))


@nb.njit(cache=True)
def _five_row(
    board: I64, start: int, n: int, weight: I32, bit: I32, u5: I32, f5: I32, table: I32
) -> tuple[float, float, int, float]:
    """(made strength, expected strength, exact key or 0, expected royalty) of a 5-card row."""
    if n == 5:
        key = key5(board[start], board[start + 1], board[start + 2], board[start + 3], board[start + 4],
                   weight, bit, u5, f5)  # fmt: skip
        s = _strength_of_key(key)
        return s, s, key, float(five_royalty(key, table))
    cat, lead, second = _made(board, start, n)
    s = _strength(cat, lead, second) if n else 0.0
    flush, straight = _draws(board, start, n)
    draws = flush * max(0.0, FLUSH_STRENGTH - s) + straight * max(0.0, STRAIGHT_STRENGTH - s)
    expected = s + (5 - n) * GAIN_PER_ROOM[cat] + draws
    return s, expected, 0, table[cat] + flush * table[5] + straight * table[4]


@nb.njit(cache=True)
def _win_share(edge: float) -> float:
    """Expected rows won minus lost (per row point) for a row ``edge`` above a typical one."""
    return 2.0 / (1.0 + math.exp(-WIN_SLOPE * edge)) - 1.0


@nb.njit(cache=True)
def evaluate(
    board: I64, counts: I64, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32,
) -> float:  # fmt: skip
    """Heuristic value of a (partial) board in points; see the module docstring."""
    if params[P_LAST_CARD] > 0.0 and counts[0] + counts[1] + counts[2] == 12:
        return _last_card(board, counts, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)
    return _static(board, counts, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)


@nb.njit(cache=True)
def _last_card(
    board: I64, counts: I64, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32,
) -> float:  # fmt: skip
    """Mean ``_static`` value of a board one card short over every card not on it filling the gap."""
    scratch = board.copy()
    fill = counts.copy()
    used = 0
    slot = 0
    for r in range(3):
        for i in range(counts[r]):
            used |= 1 << board[ROW_START[r] + i]
        if counts[r] < ROW_SIZE[r]:
            slot = ROW_START[r] + counts[r]
            fill[r] += 1
    total = 0.0
    n = 0
    for card in range(52):
        if not used >> card & 1:
            scratch[slot] = card
            total += _static(scratch, fill, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)
            n += 1
    return total / n


@nb.njit(cache=True)
def board_parts(
    board: I64, counts: I64, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32,
) -> tuple[int, int, float, float, float, float, float, float, int, int, int, float, float, float]:  # fmt: skip
    """The pieces of the static estimate (shared with the ``pro`` bot's features).

    (top category, top leading rank, top made and expected strength, middle made and expected,
    bottom made and expected, the top, middle and bottom keys of finished rows (else 0),
    expected royalties, foul chance, rows won minus lost against typical rows per row point).
    """
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
    share = _win_share(e_t - TYPICAL[0]) + _win_share(e_m - TYPICAL[1]) + _win_share(e_b - TYPICAL[2])
    return cat_t, lead_t, s_t, e_t, s_m, e_m, s_b, e_b, key_t, key_m, key_b, roy, risk, share


@nb.njit(cache=True)
def _static(
    board: I64, counts: I64, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32,
) -> float:  # fmt: skip
    """The static estimate behind ``evaluate``."""
    cat_t, lead_t, _, _, _, _, _, _, _, _, _, roy, risk, share = board_parts(
        board, counts, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy
    )
    return static_of_parts(cat_t, lead_t, counts[0], roy, risk, share, params)


@nb.njit(cache=True)
def static_of_parts(cat_t: int, lead_t: int, n_top: int, roy: float, risk: float, share: float, params: F64) -> float:
    """The static estimate from ``board_parts``' top category and rank, royalties, risk and row share."""
    row_points = params[P_ROW_POINTS]
    rows = row_points * share
    fantasy = 0.0
    if params[P_FANTASY] > 0.0:
        if cat_t == 3 or (cat_t == 1 and lead_t >= QUEEN):
            fantasy = params[P_FANTASY]
        elif n_top < 3 and cat_t == 0 and lead_t >= QUEEN:
            fantasy = params[P_FANTASY_DRAW] * params[P_FANTASY]
    lost = 3.0 * row_points + params[P_SCOOP] + params[P_FOUL_EXTRA]
    return float((1.0 - risk) * (rows + roy + fantasy) - risk * lost)


@nb.njit(cache=True)
def evaluate_many(
    boards: I64, counts: I64, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32, out: F64,
) -> None:  # fmt: skip
    """``evaluate`` each board of an ``(n, 13)`` array (counts ``(n, 3)``) into ``out``."""
    for i in range(boards.shape[0]):
        out[i] = evaluate(boards[i], counts[i], params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)


def evaluate_boards(boards: I64, counts: I64, params: F64, t: KernelTables) -> F64:
    """``evaluate`` of each board of an ``(n, 13)`` array."""
    out = np.empty(boards.shape[0], dtype=np.float64)
    evaluate_many(
        boards, counts, params,
        t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, t.top, t.middle, t.bottom, out,
    )  # fmt: skip
    return out
