"""Compile the game's numba kernels once into numba's cache: ``python -m ofc.cli.warm``.

``scripts/setup`` runs it after installing, so a fresh checkout's first bot move and first hint
load compiled kernels instead of compiling them while a player's clock runs. Each preset's bots
decide once, the fantasy solver solves once, and the server's hint bot decides once.
"""

from __future__ import annotations

import time

from ofc.bots import BOT_NAMES
from ofc.rules.rulebook import PRESETS
from ofc.server.tables.agents import HINT_BOT
from ofc.sim.simulate import warm_up
from ofc.solver import warm_up as warm_solver


def main() -> None:
    """Warm every preset's bots, the solver and the hint bot, printing each step's seconds."""
    for name, rules in PRESETS.items():
        started = time.perf_counter()
        warm_up(rules, [*BOT_NAMES, HINT_BOT])
        warm_solver(rules)
        print(f"setup:   {name}: kernels ready ({time.perf_counter() - started:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
