"""The ``pro`` bot's last street, exact: every candidate's final board against every deal left.

On a seat's last decision each candidate leaves a finished board, so its own part of the score
(foul, royalties, fantasy entry) is known exactly. What remains uncertain is the other seats'
boards. ``last_street_values`` settles every candidate against each of them:

* a seat whose board is finished is settled as it stands;
* at most one seat still to place a normal deal of ``k`` cards: every ``k``-card subset of the
  unseen cards is dealt to it in turn (each equally likely: the cards burnt unseen, such as its
  discards, are a uniformly random part of the same pool, so they do not change the chances of
  any subset), it places them by the play-out policy (``learned_place``), and the values are the
  exact means over all those subsets.

Positions beyond that (two seats still to act, or a hidden fantasy board) are left to the sampled
play-outs of ``ofc.fast.pro_rollout``, which are exact for the seat's own board and sample the rest.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from ofc.fast.evaluate import key3, key5
from ofc.fast.evaluation import P_FANTASY, P_LAST_CARD, P_ROW_POINTS, P_SCOOP
from ofc.fast.pro_value import board_mask, learned_place
from ofc.fast.rollout import board_finals, seat_value
from ofc.fast.settle import final_keys

# numba caches this file's kernels with learned_place compiled in, but keys the cache on this file alone:
# edit this file whenever ofc.fast.pro_value's kernels change, or an old cache keeps the old value.
I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]


@nb.njit(cache=True)
def _settle_candidates(
    me: int, finals: I64, cand_finals: I64, in_row: I64, fantasy_rules: I64, params: F64, out: F64, balance: F64
) -> None:
    """Add each candidate's ``seat_value`` against the other seats' ``finals`` to ``out``, and its
    fantasy balance to ``balance``."""
    for c in range(cand_finals.shape[0]):
        value, slope = seat_value(me, cand_finals[c], finals, in_row, fantasy_rules, params[P_ROW_POINTS],
                                  params[P_SCOOP], params[P_FANTASY])  # fmt: skip
        out[c] += value
        balance[c] += slope


@nb.njit(cache=True)
def last_street_values(
    me: int, boards: I64, counts: I64, cand_boards: I64,
    pool: I64, seat: int, cards: int, discards: int, in_row: I64, fantasy_rules: I64,
    params: F64, weights: F64,
    weight: I32, bit: I32, u5: I32, f5: I32, u3: I32,
    top_roy: I32, mid_roy: I32, bot_roy: I32,
    out: F64, balance: F64,
) -> int:  # fmt: skip
    """Write each finished candidate board's exact mean value into ``out`` and its mean
    fantasy balance (the value's slope in the fantasy bonus, ``seat_value``) into ``balance``; returns the
    deals counted.

    ``boards``/``counts`` hold every seat (``me``'s row is ignored); every seat but ``me`` and
    ``seat`` must be finished. ``seat`` (or -1 for none) still places ``cards`` cards,
    discarding ``discards``, drawn from ``pool``; every subset is counted once.
    """
    players = boards.shape[0]
    policy = params.copy()
    policy[P_LAST_CARD] = 0.0
    n_cand = cand_boards.shape[0]
    cand_finals = np.empty((n_cand, 4), dtype=np.int64)
    board_finals(cand_boards, cand_finals, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)
    finals = np.zeros((players, 4), dtype=np.int64)
    for p in range(players):
        if p != me and p != seat:
            kt, km, kb, roy = final_keys(boards[p], weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)
            finals[p, 0], finals[p, 1], finals[p, 2], finals[p, 3] = kt, km, kb, roy
    out[:] = 0.0
    balance[:] = 0.0
    if seat < 0:
        _settle_candidates(me, finals, cand_finals, in_row, fantasy_rules, params, out, balance)
        return 1
    n = pool.shape[0]
    pick = np.arange(cards)
    dealt = np.empty(cards, dtype=np.int64)
    work = np.empty(13, dtype=np.int64)
    fill = np.empty(3, dtype=np.int64)
    codes = np.empty(cards, dtype=np.int64)
    deals = 0
    seen = 0
    for p in range(players):
        if p != seat:
            seen |= board_mask(boards[p], counts[p])
    while True:
        for i in range(cards):
            dealt[i] = pool[pick[i]]
        work[:] = boards[seat]
        fill[:] = counts[seat]
        learned_place(work, fill, dealt, discards, seen, policy, weights, weight, bit, u5, f5, u3, top_roy,
                      mid_roy, bot_roy, codes)  # fmt: skip
        kt, km, kb, roy = final_keys(work, weight, bit, u5, f5, u3, top_roy, mid_roy, bot_roy)
        finals[seat, 0], finals[seat, 1], finals[seat, 2], finals[seat, 3] = kt, km, kb, roy
        _settle_candidates(me, finals, cand_finals, in_row, fantasy_rules, params, out, balance)
        deals += 1
        # the next subset in lexicographic order, or stop
        i = cards - 1
        while i >= 0 and pick[i] == n - cards + i:
            i -= 1
        if i < 0:
            break
        pick[i] += 1
        for j in range(i + 1, cards):
            pick[j] = pick[j - 1] + 1
    for c in range(n_cand):
        out[c] /= deals
        balance[c] /= deals
    return deals


@nb.njit(cache=True)
def finished_fouls(cand_boards: I64, weight: I32, bit: I32, u5: I32, f5: I32, u3: I32, out: Any) -> None:
    """``out[c]``: whether finished board ``cand_boards[c]`` fouls (rows fail to rise)."""
    for c in range(cand_boards.shape[0]):
        b = cand_boards[c]
        kt = key3(b[0], b[1], b[2], weight, u3)
        km = key5(b[3], b[4], b[5], b[6], b[7], weight, bit, u5, f5)
        kb = key5(b[8], b[9], b[10], b[11], b[12], weight, bit, u5, f5)
        out[c] = kb < km or km < kt


__all__ = ["finished_fouls", "last_street_values"]
