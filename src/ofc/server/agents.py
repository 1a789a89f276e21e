"""Bots and helpers at the table: the bot contract the server relies on, and the solver hook.

Bots come from ``ofc.bots.make_bot(spec, seed=...)``; the server only needs ``act(view)``
for bot seats and ``decide(view)`` (an action and its value) for the hint button. The factory
is injectable so tests can seat stand-ins; the default imports ``ofc.bots`` when first used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Protocol

from ofc.actions import Action, Row
from ofc.errors import OfcError
from ofc.view import HandView


class Decision(Protocol):
    """A bot's choice with its estimated value (expected points for ``mc``)."""

    @property
    def action(self) -> Action:
        """The chosen action."""
        ...

    @property
    def value(self) -> float:
        """The value the bot gives the action."""
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
"""``factory(spec, seed)`` -> a bot; raises an ``OfcError`` for a bad spec."""

HINT_BOT = "mc:seconds=0.2"


def default_bot_factory(spec: str, seed: int | None) -> Bot:
    """``ofc.bots.make_bot(spec, seed=seed)``."""
    try:
        bots = importlib.import_module("ofc.bots")
    except ImportError:
        raise OfcError("bots are not available in this installation") from None
    bot: Bot = bots.make_bot(spec, seed=seed)
    return bot


def fantasy_action(view: HandView) -> Action:
    """The fantasy solver's arrangement of the viewer's fantasy deal, as an action."""
    from ofc.solver.fantasy import solve_fantasy

    if view.seat is None or not view.cards:
        raise OfcError("there is no fantasy deal to solve")
    solution = solve_fantasy(view.cards, view.rules)
    board = solution.board
    rows = ((Row.TOP, board.top), (Row.MIDDLE, board.middle), (Row.BOTTOM, board.bottom))
    placements = tuple((card, row) for row, cards in rows for card in cards)
    return Action(view.seat, placements, tuple(solution.discards))
