"""Play-outs and self-play under the learned value of ``ofc.fast.pro_value``.

``pro_rollouts`` is ``ofc.fast.rollout.rollouts`` with every seat's street deals placed by
``learned_place`` instead of the static evaluation (hidden fantasy boards keep the quick
static stand-in): the same loop (``play_rollouts``), so the same schedule, the same shuffles
per play-out index (common random numbers across candidates) and the same exact scoring.

``selfplay`` plays whole normal hands between seats that all place greedily (by the static
evaluation, or by the learned value for the seats in the bit mask ``learned_seats``; a share ``explore`` of decisions
is a random legal placement, so the value also sees the boards a greedy policy avoids), and
records, for every decision, the features of the board it left (its live-card outs counted
from every board and the cards dealt) and the hand's outcome for that seat: its points
against the other seats per opponent, plus the fantasy value if the board earns a fantasy.
Those records are what ``ofc.train`` fits the value to.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from ofc.fast.evaluation import P_FANTASY, P_LAST_CARD, P_ROW_POINTS, P_SCOOP
from ofc.fast.placement import commit, fits, place_best
from ofc.fast.pro_value import N_FEATURES, board_mask, features, learned_place, live_counts
from ofc.fast.rollout import board_finals, play_rollouts, public_mask, shuffle_pool
from ofc.fast.settle import earns_fantasy, settle_pair

# numba caches this file's kernels with learned_place compiled in, but keys the cache on this file alone:
# edit this file whenever ofc.fast.pro_value's kernels change, or an old cache keeps the old value.
I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]


@nb.njit(cache=True)
def pro_rollouts(
    me: int, boards: I64, counts: I64, cand_boards: I64, cand_counts: I64,
    pool: I64, burn: int,
    ev_player: I64, ev_cards: I64, ev_discards: I64, ev_fantasy: Any, in_row: I64, fantasy_rules: I64,
    first: int, n: int, seed: int, params: F64, weights: F64, learned: int,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32,
    sums: F64, squares: F64, tallies: F64,
) -> None:  # fmt: skip
    """Add play-outs ``first .. first + n - 1`` of each candidate to ``sums`` (and their squares).

    The arguments are those of ``ofc.fast.rollout.rollouts`` plus the learned ``weights`` the
    seats in the bit mask ``learned`` place by (the others by the static evaluation, as ``mc``'s
    play-outs do);
    ``squares[c]`` accumulates the squared value of each play-out for the candidate's interval,
    ``tallies[c, 0]`` the play-outs in which the viewer's board fouls, ``tallies[c, 1]`` those of
    them whose top is no fantasy top and ``tallies[c, 2]`` the play-outs'
    fantasy balance (``play_rollouts``, ``seat_value``).
    """
    play_rollouts(
        me, boards, counts, cand_boards, cand_counts, pool, burn,
        ev_player, ev_cards, ev_discards, ev_fantasy, in_row, fantasy_rules,
        first, n, seed, params, weights, learned,
        weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy, sums, squares, tallies,
    )  # fmt: skip


@nb.njit(cache=True)
def random_place(board: I64, counts: I64, cards: I64, discards: int, codes: I64) -> None:
    """Place ``cards`` (discarding ``discards``) by a uniformly drawn legal assignment."""
    m = cards.shape[0]
    base = 4 if discards > 0 else 3
    room = np.empty(3, dtype=np.int64)
    while True:
        code = 0
        for _ in range(m):
            code = code * base + np.random.randint(0, base)
        if fits(code, base, m, counts, discards, room):
            break
    commit(board, counts, cards, code, base, codes)


@nb.njit(cache=True)
def selfplay(
    seed: int, hands: int, players: int, street_cards: I64, street_discards: I64,
    params: F64, weights: F64, learned_seats: int, explore: float, fantasy_rules: I64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32,
    x: F64, stage: I64, target: F64,
) -> int:  # fmt: skip
    """Play ``hands`` normal hands and write one record per decision; returns the records written.

    ``x`` (records, ``N_FEATURES``), ``stage`` and ``target`` must hold ``hands * players *
    len(street_cards)`` records. Hand ``h`` is shuffled from ``seed`` and ``h`` alone.
    """
    policy = params.copy()
    policy[P_LAST_CARD] = 0.0
    streets = street_cards.shape[0]
    boards = np.zeros((players, 13), dtype=np.int64)
    counts = np.zeros((players, 3), dtype=np.int64)
    codes = np.empty(5, dtype=np.int64)
    finals = np.empty((players, 4), dtype=np.int64)
    full = np.arange(52, dtype=np.int64)
    deck = full.copy()
    feats = np.empty(N_FEATURES, dtype=np.float64)
    hidden = np.zeros(players, dtype=np.bool_)
    rank_live = np.empty(13, dtype=np.int64)
    suit_live = np.empty(4, dtype=np.int64)
    row_points = params[P_ROW_POINTS]
    scoop = params[P_SCOOP]
    bonus = params[P_FANTASY]
    written = 0
    for h in range(hands):
        shuffle_pool(deck, full, 51, seed, h)
        boards[:, :] = 0
        counts[:, :] = 0
        first = written
        at = 0
        for s in range(streets):
            for p in range(players):
                dealt = deck[at : at + street_cards[s]]
                at += street_cards[s]
                seen = public_mask(boards, counts, hidden)
                for card in dealt:
                    seen |= 1 << card
                if np.random.random() < explore:
                    random_place(boards[p], counts[p], dealt, street_discards[s], codes)
                elif learned_seats >> p & 1:
                    learned_place(boards[p], counts[p], dealt, street_discards[s], seen, policy, weights, weight,
                                  bit, u5, f5, u3, top_roy, mid_roy, bot_roy, codes)  # fmt: skip
                else:
                    place_best(boards[p], counts[p], dealt, street_discards[s], policy, weight, bit, u5, f5, u3,
                               top_roy, mid_roy, bot_roy, codes)  # fmt: skip
                unseen = live_counts(seen | board_mask(boards[p], counts[p]), rank_live, suit_live)
                features(boards[p], counts[p], rank_live, suit_live, unseen, policy, weight, bit, u5, f5, u3,
                         top_roy, mid_roy, bot_roy, feats)  # fmt: skip
                x[written, :] = feats
                stage[written] = counts[p, 0] + counts[p, 1] + counts[p, 2]
                target[written] = p  # the seat, replaced by its outcome below
                written += 1
        board_finals(boards, finals, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)
        outcome = np.zeros(players, dtype=np.float64)
        for p in range(players):
            for q in range(players):
                if q != p:
                    outcome[p] += settle_pair(finals[p], finals[q], row_points, scoop) + finals[p, 3] - finals[q, 3]
            outcome[p] /= players - 1
            if earns_fantasy(finals[p], 0, fantasy_rules):
                outcome[p] += bonus / (players - 1)
        for r in range(first, written):
            target[r] = outcome[int(target[r])]
    return written
