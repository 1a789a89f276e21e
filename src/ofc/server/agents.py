"""Bots and helpers at the table: the bot contract the server relies on, and the solver hook.

Bots come from ``ofc.bots.make_bot(spec, seed=...)``; the server only needs ``act(view)``
for bot seats and ``decide(view)`` (an action and its value) for the hint button. The factory
is injectable so tests can seat stand-ins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ofc.actions import Action
from ofc.bots import make_bot
from ofc.bots.base import fantasy_decision
from ofc.view import HandView


class Decision(Protocol):
    """A bot's choice with its estimated value (expected points for ``mc``)."""

    @property
    def action(self) -> Action:
        """The chosen action."""
        ...

    @property
    def value(self) -> float | None:
        """The value the bot gives the action, if it gives one."""
        ...


class Bot(Protocol):
    """What the server asks of a bot."""

    def act(self, view: HandView) -> Action:
        """A legal action for ``view.seat``."""
        ...

    def decide(self, view: HandView) -> Decision:
        """A legal action for ``view.seat`` with its value."""
        ...


BotFactory = Callable[[str, "int | None"], Bot]
"""``factory(spec, seed)`` -> a bot; raises an ``OfcError`` (``BotError``) for a bad spec."""

HINT_BOT = "mc:seconds=0.2"


def default_bot_factory(spec: str, seed: int | None) -> Bot:
    """``ofc.bots.make_bot(spec, seed=seed)``."""
    return make_bot(spec, seed=seed)


def fantasy_action(view: HandView) -> Action:
    """The exact fantasy solver's arrangement of the viewer's fantasy deal, as an action."""
    return fantasy_decision(view).action
