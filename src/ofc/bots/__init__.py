"""Bots: the ``Bot`` protocol and the random, heuristic and Monte Carlo players.

Every bot decides from its seat's ``HandView`` only and plays fantasy hands with the exact
solver. Make one by name: ``make_bot("mc:seconds=0.2")``; ``make_bot("mc").decide(view)``
gives a hint (the action and its expected points).
"""

from __future__ import annotations

from ofc.bots.base import Bot, Decision, legal_actions
from ofc.bots.heuristic import HeuristicBot
from ofc.bots.mc import MonteCarloBot
from ofc.bots.random_bot import RandomBot
from ofc.bots.spec import BOT_NAMES, make_bot, parse_spec, split_specs
from ofc.errors import BotError

__all__ = [
    "BOT_NAMES",
    "Bot",
    "BotError",
    "Decision",
    "HeuristicBot",
    "MonteCarloBot",
    "RandomBot",
    "legal_actions",
    "make_bot",
    "parse_spec",
    "split_specs",
]
