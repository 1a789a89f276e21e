"""Compile (or load) the cached numba kernels in one process, before the pytest workers start.

``scripts/test`` runs ``python tests/support/warm.py`` with ``NUMBA_CACHE_DIR`` set to the shared
cache (``.numba-cache/warm``); ``tests/conftest.py`` then gives every worker its own copy of it.
The workers load what is warmed here instead of each compiling it again, and a kernel the
warm-up missed is compiled into that worker's copy alone, so no two processes ever write the
same cache (numba's cache is not safe for concurrent writers). Each part runs the library's own
entry points (the bots' decisions, the fantasy solver, the compiled table step, a short
training run), so the kernels get the argument types the tests give them.
"""

from __future__ import annotations

import os
import random
import sys

import numpy as np

from ofc.bots.spec import BOT_NAMES
from ofc.env.table import Table
from ofc.fast.boards import fouls, royalties
from ofc.fast.evaluate import eval3, eval5
from ofc.rules.rulebook import PRESETS
from ofc.sim.simulate import warm_up
from ofc.solver import max_fantasy_cards, solve_fantasy_top
from ofc.solver import warm_up as warm_solver
from ofc.train.run import train


def play_fast_hands(table: Table, rng: random.Random, hands: int) -> None:
    """Play ``hands`` hands of random legal numbers on a compiled table."""
    for seed in range(hands):
        table.reset(seed=seed)
        while table.to_play is not None:
            legal = [int(n) for n in table.observe(table.to_play)["action_mask"].nonzero()[0]]
            table.play(rng.choice(legal))
        table.points()


def main() -> None:
    """Warm every kernel family once per preset."""
    if "NUMBA_CACHE_DIR" not in os.environ:
        sys.exit("warm.py: set NUMBA_CACHE_DIR to the cache the test workers will copy")
    rng = random.Random(0)
    for dtype in (np.int64, np.int32, np.int16, np.uint8):  # the array kernels compile once per card type
        eval5(np.arange(5, dtype=dtype).reshape(1, 5))
        eval3(np.arange(3, dtype=dtype).reshape(1, 3))
        board = np.arange(13, dtype=dtype).reshape(1, 13)
        fouls(board)
        royalties(board, PRESETS["classic"].royalty_table)
    for rules in PRESETS.values():
        warm_up(rules, BOT_NAMES)
        warm_solver(rules)
        solve_fantasy_top(tuple(range(0, 3 * max_fantasy_cards(rules), 3)), rules, 2)
        for players in range(rules.spec.min_players, rules.spec.max_players + 1):
            play_fast_hands(Table(rules.with_settings({"players": players}), fast=True), rng, 2)
    train(["turbo"], hands=60, rounds=1, seed=5, workers=1)


if __name__ == "__main__":
    main()
