"""Monte Carlo play-outs for the bots: the rest of a hand played many times, scored exactly.

``rollouts`` plays the rest of a hand many times: the unseen cards are shuffled, cards the
viewer cannot see (opponents' discards) are burnt, then every remaining deal of the
``schedule`` is placed greedily (``ofc.fast.placement``), and the viewer's points are scored
exactly with the settlement kernels (``ofc.fast.settle``) plus a fantasy bonus. Every
candidate sees the same shuffles (common random numbers), so differences between candidates
carry little sampling noise. ``play_rollouts`` is the one loop behind it and behind the ``pro``
bot's play-outs (``ofc.fast.pro_rollout``), which place by the learned value instead.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba as nb
import numpy as np
import numpy.typing as npt

from ofc.fast.evaluation import P_FANTASY, P_LAST_CARD, P_ROW_POINTS, P_SCOOP
from ofc.fast.kernel_tables import KernelTables
from ofc.fast.placement import place_best, play_fantasy
from ofc.fast.pro_value import board_mask, learned_place
from ofc.fast.settle import earns_fantasy, fantasy_top, final_keys, settle_pair

# numba caches this file's kernels with learned_place compiled in, but keys the cache on this file alone:
# edit this file whenever ofc.fast.pro_value's kernels change, or an old cache keeps the old value.
I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]

SEED_STRIDE = 1_000_003
"""Play-out ``k`` of a decision seeded ``s`` shuffles from ``s * SEED_STRIDE + k`` (a prime, so
the seeds of different decisions' play-outs do not collide for any realistic count)."""
SEED_MASK = 0x7FFFFFFF
"""The bits of a play-out's seed kept for ``np.random.seed`` (31, so it is never negative)."""


@nb.njit(cache=True)
def shuffle_pool(deck: I64, pool: I64, needed: int, seed: int, k: int) -> None:
    """``deck``: ``pool`` with its first ``needed`` places drawn for play-out ``k`` of ``seed``."""
    np.random.seed((seed * SEED_STRIDE + k) & SEED_MASK)
    deck[:] = pool
    for i in range(needed):
        j = i + np.random.randint(0, deck.shape[0] - i)
        deck[i], deck[j] = deck[j], deck[i]


@nb.njit(cache=True)
def board_finals(
    boards: I64, finals: I64, weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32,
) -> None:  # fmt: skip
    """``finals[p]``: (top, middle, bottom key, royalties) of each finished board ``boards[p]``."""
    for p in range(boards.shape[0]):
        kt, km, kb, roy = final_keys(boards[p], weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)
        finals[p, 0] = kt
        finals[p, 1] = km
        finals[p, 2] = kb
        finals[p, 3] = roy


@nb.njit(cache=True)
def seat_value(
    me: int, mine: Any, finals: I64, in_row: I64, fantasy_rules: I64, row_points: float, scoop: float, bonus: float
) -> tuple[float, float]:
    """Points of the finished board ``mine`` (seat ``me``) against the other seats' ``finals``,
    and the fantasy balance: how much those points grow per point of ``bonus``.

    The points include ``bonus`` if ``mine`` earns a fantasy, less ``bonus / (players - 1)`` for
    each other seat that earns one; the balance counts the same entries (1 for ``mine``, less
    ``1 / (players - 1)`` each), so a value priced at one bonus can be repriced at another.
    """
    players = finals.shape[0]
    value = 0.0
    balance = 0.0
    for p in range(players):
        if p == me:
            continue
        value += settle_pair(mine, finals[p], row_points, scoop) + mine[3] - finals[p, 3]
        if earns_fantasy(finals[p], in_row[p], fantasy_rules):
            value -= bonus / (players - 1)
            balance -= 1.0 / (players - 1)
    if earns_fantasy(mine, in_row[me], fantasy_rules):
        value += bonus
        balance += 1.0
    return value, balance


@nb.njit(cache=True)
def public_mask(boards: I64, counts: I64, hidden: Any) -> int:
    """The cards on every board but the ``hidden`` ones (fantasy boards not yet shown), as a mask."""
    mask = 0
    for p in range(boards.shape[0]):
        if not hidden[p]:
            mask |= board_mask(boards[p], counts[p])
    return mask


@nb.njit(cache=True)
def play_rollouts(
    me: int, boards: I64, counts: I64, cand_boards: I64, cand_counts: I64,
    pool: I64, burn: int,
    ev_player: I64, ev_cards: I64, ev_discards: I64, ev_fantasy: Any, in_row: I64, fantasy_rules: I64,
    first: int, n: int, seed: int, params: F64, weights: F64, learned: int,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32,
    sums: F64, squares: F64, tallies: F64,
) -> None:  # fmt: skip
    """``rollouts``, the seats placing by the static evaluation, or by ``learned_place`` under
    ``weights`` those in the bit mask ``learned``; each play-out's squared value is added to ``squares``, 1 to
    ``tallies[c, 0]`` when ``me``'s board fouls, to ``tallies[c, 1]`` too when its top is no
    fantasy top (QQ+ or trips): a *plain* foul, not a failed fantasy try; and its
    fantasy balance to ``tallies[c, 2]`` (the value's slope in the fantasy bonus, ``seat_value``)."""
    players = boards.shape[0]
    policy = params.copy()
    policy[P_LAST_CARD] = 0.0
    deck = pool.copy()
    work = np.empty_like(boards)
    fill = np.empty_like(counts)
    codes = np.empty(5, dtype=np.int64)
    finals = np.empty((players, 4), dtype=np.int64)
    needed = burn
    hidden = np.zeros(players, dtype=np.bool_)
    for e in range(ev_player.shape[0]):
        needed += ev_cards[e]
        if ev_fantasy[e]:
            hidden[ev_player[e]] = True
    for k in range(first, first + n):
        shuffle_pool(deck, pool, needed, seed, k)
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
                    play_fantasy(work[p], fill[p], dealt, policy, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)
                elif learned >> p & 1:
                    learned_place(work[p], fill[p], dealt, ev_discards[e], public_mask(work, fill, hidden), policy,
                                  weights, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy, codes)  # fmt: skip
                else:
                    place_best(work[p], fill[p], dealt, ev_discards[e], policy, weight, bit, u5, f5, u3, top_roy,
                               mid_roy, bot_roy, codes)  # fmt: skip
            board_finals(work, finals, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)
            value, balance = seat_value(me, finals[me], finals, in_row, fantasy_rules, params[P_ROW_POINTS],
                                        params[P_SCOOP], params[P_FANTASY])  # fmt: skip
            sums[c] += value
            squares[c] += value * value
            tallies[c, 2] += balance
            if finals[me, 2] < finals[me, 1] or finals[me, 1] < finals[me, 0]:
                tallies[c, 0] += 1.0
                if not fantasy_top(finals[me, 0]):
                    tallies[c, 1] += 1.0


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
    earns a fantasy, minus its share when an opponent does (``seat_value``).
    The play-outs skip ``P_LAST_CARD``: it would double their cost for little gain.
    """
    unused = np.zeros((1, 1), dtype=np.float64)
    squares = np.zeros(sums.shape[0], dtype=np.float64)
    tallies = np.zeros((sums.shape[0], 3), dtype=np.float64)
    play_rollouts(
        me, boards, counts, cand_boards, cand_counts, pool, burn,
        ev_player, ev_cards, ev_discards, ev_fantasy, in_row, fantasy_rules,
        first, n, seed, params, unused, 0,
        weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy, sums, squares, tallies,
    )  # fmt: skip


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
