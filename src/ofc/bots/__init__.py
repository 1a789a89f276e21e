"""Bots: the ``Bot`` protocol and the random, heuristic, Monte Carlo and ``pro`` players.

Every bot decides from its seat's ``HandView`` only and plays fantasy hands with the exact
solver. Make one by name: ``make_bot("mc:seconds=0.2")``; ``make_bot("mc").decide(view)``
gives a hint (the action and its expected points). The names below load on first use (PEP 562),
so the constants here can be read without loading numpy or numba.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from ofc.bots.base import Bot, Decision, legal_actions
    from ofc.bots.heuristic import HeuristicBot
    from ofc.bots.mc import MonteCarloBot
    from ofc.bots.random_bot import RandomBot
    from ofc.bots.spec import BOT_NAMES, make_bot, parse_spec, split_specs

PRO_WEIGHTS_FILE: Final = Path(__file__).parent / "weights" / "pro.npz"
"""The ``pro`` bot's shipped weights (written by ``ofc train``)."""
PRO_VARIANTS: Final = ("classic", "turbo", "pineapple")
"""The variants the ``pro`` bot is trained for."""
ANALYSIS_ROLLOUTS: Final = 600
"""Play-outs per choice priced by ``ofc analyze``."""
ANALYSIS_CANDIDATES: Final = 8
"""Choices priced per decision by ``ofc analyze``."""
ANALYSIS_FLAG: Final = 2.0
"""Losses of at least this many points are flagged by ``ofc analyze``."""

_LAZY: Final = {
    "Bot": "ofc.bots.base",
    "Decision": "ofc.bots.base",
    "legal_actions": "ofc.bots.base",
    "HeuristicBot": "ofc.bots.heuristic",
    "MonteCarloBot": "ofc.bots.mc",
    "RandomBot": "ofc.bots.random_bot",
    "BOT_NAMES": "ofc.bots.spec",
    "make_bot": "ofc.bots.spec",
    "parse_spec": "ofc.bots.spec",
    "split_specs": "ofc.bots.spec",
}

__all__ = [
    "ANALYSIS_CANDIDATES",
    "ANALYSIS_FLAG",
    "ANALYSIS_ROLLOUTS",
    "BOT_NAMES",
    "PRO_VARIANTS",
    "PRO_WEIGHTS_FILE",
    "Bot",
    "Decision",
    "HeuristicBot",
    "MonteCarloBot",
    "RandomBot",
    "legal_actions",
    "make_bot",
    "parse_spec",
    "split_specs",
]


def __getattr__(name: str) -> Any:
    """Load a bot name's module on first use."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'ofc.bots' has no attribute {name!r}")
