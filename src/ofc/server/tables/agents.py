"""Bots at the table: the factory that seats them, the hint bot, and the solver hook.

Bots are ``ofc.bots.base.Bot`` (an ``ofc.engine.agent.Agent`` with ``decide``, for the hint button)
and come from ``ofc.bots.make_bot(spec, seed=...)``. The factory is injectable so tests can
seat stand-ins.
"""

from __future__ import annotations

from collections.abc import Callable

from ofc.bots import make_bot
from ofc.bots.base import Bot, fantasy_decision
from ofc.engine.actions import Action
from ofc.engine.view import HandView

BotFactory = Callable[[str, "int | None"], Bot]
"""``factory(spec, seed)`` -> a bot; raises an ``OfcError`` (``BotError``) for a bad spec."""

HINT_BOT = "pro:seconds=0.2"


def default_bot_factory(spec: str, seed: int | None) -> Bot:
    """``ofc.bots.make_bot(spec, seed=seed)``."""
    return make_bot(spec, seed=seed)


def fantasy_action(view: HandView) -> Action:
    """The exact fantasy solver's arrangement of the viewer's fantasy deal, as an action."""
    return fantasy_decision(view).action
