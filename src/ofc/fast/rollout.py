"""Rollout kernels for the bots: a fast board evaluation, greedy placement, Monte Carlo play-outs.

A board is an ``int64[13]`` array laid out as in ``ofc.fast.boards`` (top 3, middle 5, bottom
5) with ``counts[3]`` saying how many cards each row holds; empty slots are ignored.

``evaluate`` prices a partial board in points: each row's expected strength against a
typical opponent row, expected royalties and fantasy entry, all discounted by an estimated
probability of fouling. It only has to rank the placements of one deal sensibly; it is the
heuristic bot's whole policy and the rollout policy of the Monte Carlo bot. In classic, a
board one card short is valued as the mean of its completions (``P_LAST_CARD``) over every
card not on it: an approximation, since cards seen on other boards count as possible too,
but the complete boards' fouls and royalties are exact.

``rollouts`` plays the rest of a hand many times: the unseen cards are shuffled, cards the
viewer cannot see (opponents' discards) are burnt, then every remaining deal of the
``schedule`` is played greedily, and the viewer's points are scored exactly with the kernels
of ``ofc.fast.boards`` plus a fantasy bonus. Every candidate sees the same shuffles (common
random numbers), so differences between candidates carry little sampling noise.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numba as nb
import numpy as np
import numpy.typing as npt

from ofc.fast.boards import five_royalty, top_royalty
from ofc.fast.evaluate import key3, key5
from ofc.fast.settle import earns_fantasy, final_keys, settle_pair

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
searches on 20,000 duplicate deals (classic, then turbo) against the earlier weights (0.1,
0.2, 2.0, 0.12, 0.05, 2.0, 0.0), a fantasy worth 11.6 points; on fresh deals they beat those
weights by about 0.38 points a hand in turbo and foul 4.5% instead of 5.2%. (Turbo's
streets of 5, 4 and 4 cards never leave a board one card short, so ``P_LAST_CARD`` is 0.)"""
WEIGHTS_ONE_A_STREET = (0.08, 0.22, 2.5, 0.02, 0.08, 1.35, 1.0)
"""The weights when every street after the first is a single card (classic): the same search
continued from a random search, keeping the point that fouls least among the equally scoring
ones. In classic they beat the earlier weights by about 0.45 points a hand and foul about 5.5%
instead of 14%, the last choice priced exactly over the cards that can still come
(``P_LAST_CARD``)."""

FLUSH_CHANCE = (0.0, 0.02, 0.08, 0.22, 0.48)
"""Chance a 5-card row holding n suited cards (and room for the rest) ends a flush."""
STRAIGHT_CHANCE = (0.0, 0.01, 0.05, 0.14, 0.32)
"""Chance a 5-card row holding n unpaired cards within a five-rank window ends a straight."""
GAIN_PER_ROOM = (0.22, 0.18, 0.08, 0.12, 0.0, 0.0, 0.0, 0.0, 0.0)
"""Expected strength gained per free place of a 5-card row, by its made category."""
TYPICAL = (0.95, 1.8, 2.8)
"""Strength of a typical finished top, middle and bottom row (category + rank / 14)."""


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
    return (key >> 20) + ((key >> 16) & 15) / 14.0 + ((key >> 12) & 15) / 196.0


@nb.njit(cache=True)
def _strength(category: int, lead: int, second: int) -> float:
    return category + (lead + 1) / 14.0 + (second + 1) / 196.0


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
    spread = 0.1 + params[P_SPREAD] * room_lower
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
    expected = s + (5 - n) * GAIN_PER_ROOM[cat] + flush * max(0.0, 5.6 - s) + straight * max(0.0, 4.6 - s)
    return s, expected, 0, table[cat] + flush * table[5] + straight * table[4]


@nb.njit(cache=True)
def _win_share(edge: float) -> float:
    """Expected rows won minus lost (per row point) for a row ``edge`` above a typical one."""
    return 2.0 / (1.0 + math.exp(-1.5 * edge)) - 1.0


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
def _static(
    board: I64, counts: I64, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32,
) -> float:  # fmt: skip
    """The static estimate behind ``evaluate``."""
    row_points = params[P_ROW_POINTS]
    n_top, n_mid, n_bot = counts[0], counts[1], counts[2]
    # top row
    if n_top == 3:
        key_t = key3(board[0], board[1], board[2], weight, u3)
        cat_t, lead_t = key_t >> 20, ((key_t >> 16) & 15) - 1
        s_t = _strength_of_key(key_t)
    else:
        cat_t, lead_t, second_t = _made(board, 0, n_top)
        key_t = 0
        s_t = _strength(cat_t, lead_t, second_t) if n_top else 0.0
    roy = float(top_royalty((cat_t << 20) | ((lead_t + 1) << 16), top_roy)) if cat_t > 0 else 0.0
    e_t = s_t + (3 - n_top) * (0.12 if cat_t == 0 else 0.04)
    s_m, e_m, key_m, roy_m = _five_row(board, 3, n_mid, weight, bit, u5, f5, mid_roy)
    s_b, e_b, key_b, roy_b = _five_row(board, 8, n_bot, weight, bit, u5, f5, bot_roy)
    roy += roy_m + roy_b
    risk = 1.0 - (1.0 - _pair_risk(s_t, s_m, 3 - n_top, 5 - n_mid, key_t, key_m, params)) * (
        1.0 - _pair_risk(s_m + params[P_DRAW_RISK] * (e_m - s_m), s_b, 5 - n_mid, 5 - n_bot, key_m, key_b, params)
    )
    rows = row_points * (_win_share(e_t - TYPICAL[0]) + _win_share(e_m - TYPICAL[1]) + _win_share(e_b - TYPICAL[2]))
    fantasy = 0.0
    if params[P_FANTASY] > 0.0:
        if cat_t == 3 or (cat_t == 1 and lead_t >= QUEEN):
            fantasy = params[P_FANTASY]
        elif n_top < 3 and cat_t == 0 and lead_t >= QUEEN:
            fantasy = params[P_FANTASY_DRAW] * params[P_FANTASY]
    lost = 3.0 * row_points + params[P_SCOOP] + params[P_FOUL_EXTRA]
    return float((1.0 - risk) * (rows + roy + fantasy) - risk * lost)


@nb.njit(cache=True)
def place_best(
    board: I64, counts: I64, cards: I64, discards: int, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32, codes: I64,
) -> float:  # fmt: skip
    """Place ``cards`` (discarding exactly ``discards``) where ``evaluate`` likes them best.

    Updates ``board`` and ``counts`` in place, writes each card's row (or ``DISCARD``) into
    ``codes`` and returns the chosen value. Ties go to the first assignment in counting
    order (card 0's choice varying slowest).
    """
    m = cards.shape[0]
    base = 4 if discards > 0 else 3
    total = base**m
    scratch = np.empty(13, dtype=np.int64)
    room = np.empty(3, dtype=np.int64)
    fill = np.empty(3, dtype=np.int64)
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
        value = evaluate(scratch, fill, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)
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
def evaluate_many(
    boards: I64, counts: I64, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32, out: F64,
) -> None:  # fmt: skip
    """``evaluate`` each board of an ``(n, 13)`` array (counts ``(n, 3)``) into ``out``."""
    for i in range(boards.shape[0]):
        out[i] = evaluate(boards[i], counts[i], params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)


@nb.njit(cache=True)
def _play_fantasy(
    board: I64, counts: I64, cards: I64, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32,
) -> None:  # fmt: skip
    """A quick stand-in for a hidden fantasy hand: five cards, then threes discarding one, then singles."""
    codes = np.empty(5, dtype=np.int64)
    extra = cards.shape[0] - 13
    place_best(board, counts, cards[:5], 0, params, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy, codes)
    at = 5
    for _ in range(extra):
        place_best(board, counts, cards[at : at + 3], 1, params, weight, bit, u5, f5, u3, top_roy, mid_roy,
                   bot_roy, codes)
        at += 3
    while at < cards.shape[0]:
        place_best(board, counts, cards[at : at + 1], 0, params, weight, bit, u5, f5, u3, top_roy, mid_roy,
                   bot_roy, codes)
        at += 1


@nb.njit(cache=True)
def rollouts(
    me: int, boards: I64, counts: I64, cand_boards: I64, cand_counts: I64,
    pool: I64, burn: int,
    ev_player: I64, ev_cards: I64, ev_discards: I64, ev_fantasy: Any, in_row: I64, fantasy_rules: I64,
    first: int, n: int, seed: int, params: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32,
    sums: F64,
) -> None:  # fmt: skip
    """Add play-outs ``first .. first + n - 1`` of every candidate to ``sums`` (per candidate).

    Play-out ``i`` shuffles the pool afresh from ``seed`` and ``i`` alone, so the result of a
    number of play-outs does not depend on how they were split into calls.

    ``boards``/``counts`` hold every seat now (``me``'s row replaced by each candidate's
    board); the schedule lists the remaining deals in order: seat, cards dealt, discards due,
    and whether it is a hidden fantasy deal. ``in_row`` gives each seat's fantasy hands in a row
    completed by this hand (0 for a normal hand), so a fantasy seat's repeat is priced by the
    stay rules in ``fantasy_rules`` (``ofc.fast.settle``), as the score sheet would. A
    play-out's value is ``me``'s points against every seat, plus the fantasy value if ``me``
    earns a fantasy, minus its share when an opponent does.
    The play-outs skip ``P_LAST_CARD``: it would double their cost for little gain.
    """
    players = boards.shape[0]
    policy = params.copy()
    policy[P_LAST_CARD] = 0.0
    deck = pool.copy()
    work = np.empty_like(boards)
    fill = np.empty_like(counts)
    codes = np.empty(5, dtype=np.int64)
    finals = np.empty((players, 4), dtype=np.int64)
    row_points = params[P_ROW_POINTS]
    scoop = params[P_SCOOP]
    bonus = params[P_FANTASY]
    needed = burn
    for e in range(ev_player.shape[0]):
        needed += ev_cards[e]
    for k in range(first, first + n):
        np.random.seed((seed * 1000003 + k) & 0x7FFFFFFF)
        deck[:] = pool
        for i in range(needed):
            j = i + np.random.randint(0, deck.shape[0] - i)
            deck[i], deck[j] = deck[j], deck[i]
        for c in range(cand_boards.shape[0]):
            work[:, :] = boards
            fill[:, :] = counts
            work[me, :] = cand_boards[c]
            fill[me, :] = cand_counts[c]
            at = burn
            for e in range(ev_player.shape[0]):
                p = ev_player[e]
                dealt = deck[at : at + ev_cards[e]]
                at += ev_cards[e]
                if ev_fantasy[e]:
                    _play_fantasy(work[p], fill[p], dealt, policy, weight, bit, u5, f5, u3, top_roy, mid_roy,
                                  bot_roy)
                else:
                    place_best(work[p], fill[p], dealt, ev_discards[e], policy, weight, bit, u5, f5, u3,
                               top_roy, mid_roy, bot_roy, codes)
            for p in range(players):
                kt, km, kb, roy = final_keys(work[p], weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)
                finals[p, 0] = kt
                finals[p, 1] = km
                finals[p, 2] = kb
                finals[p, 3] = roy
            value = 0.0
            for p in range(players):
                if p == me:
                    continue
                value += settle_pair(finals[me], finals[p], row_points, scoop) + finals[me, 3] - finals[p, 3]
                if earns_fantasy(finals[p], in_row[p], fantasy_rules):
                    value -= bonus / (players - 1)
            if earns_fantasy(finals[me], in_row[me], fantasy_rules):
                value += bonus
            sums[c] += value


class KernelTables(NamedTuple):
    """The evaluation tables (``ofc.fast.tables.EvalTables``) and one royalty table's arrays."""

    weight: I32
    bit: I32
    unsuited5: I32
    flush5: I32
    unsuited3: I32
    top: I32
    middle: I32
    bottom: I32


def place(board: I64, counts: I64, cards: I64, discards: int, params: F64, t: KernelTables) -> I64:
    """``place_best`` from Python: the row (or ``DISCARD``) chosen for each card."""
    codes = np.empty(cards.shape[0], dtype=np.int64)
    place_best(
        board, counts, cards, discards, params,
        t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, t.top, t.middle, t.bottom, codes,
    )  # fmt: skip
    return codes


def evaluate_boards(boards: I64, counts: I64, params: F64, t: KernelTables) -> F64:
    """``evaluate`` of each board of an ``(n, 13)`` array."""
    out = np.empty(boards.shape[0], dtype=np.float64)
    evaluate_many(
        boards, counts, params,
        t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, t.top, t.middle, t.bottom, out,
    )  # fmt: skip
    return out


class Playouts(NamedTuple):
    """The fixed inputs of ``rollouts`` for one decision (see its docstring)."""

    me: int
    boards: I64
    counts: I64
    cand_boards: I64
    cand_counts: I64
    pool: I64
    burn: int
    player: I64
    cards: I64
    discards: I64
    fantasy: npt.NDArray[np.bool_]
    in_row: I64
    fantasy_rules: I64


def play_out(job: Playouts, first: int, n: int, seed: int, params: F64, t: KernelTables, sums: F64) -> None:
    """``rollouts`` from Python: add play-outs ``first .. first + n - 1`` per candidate to ``sums``."""
    rollouts(
        job.me, job.boards, job.counts, job.cand_boards, job.cand_counts, job.pool, job.burn,
        job.player, job.cards, job.discards, job.fantasy, job.in_row, job.fantasy_rules,
        first, n, seed, params,
        t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, t.top, t.middle, t.bottom,
        sums,
    )  # fmt: skip
