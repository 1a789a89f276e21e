"""The one contract for anything that acts in a hand: a bot, a person at a face, a test stand-in.

An ``Agent`` decides a seat's action from that seat's view alone (``Hand.view``), never from
the hand, so it cannot see what its seat may not. ``ofc.bots.base.Bot`` extends it with a
name and ``decide`` (the action with its estimated value); sessions, the terminal, the server
and simulations all drive agents through this one protocol.
"""

from __future__ import annotations

from typing import Protocol

from ofc.engine.actions import Action
from ofc.engine.view import HandView


class Agent(Protocol):
    """Decides a seat's action from what that seat may see."""

    def act(self, view: HandView) -> Action:
        """A legal action for ``view.seat`` (which is in ``view.to_act``)."""
        ...


__all__ = ["Agent"]
