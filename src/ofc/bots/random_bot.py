"""The random bot: a uniformly drawn legal action (fantasy hands through the solver)."""

from __future__ import annotations

import random

from ofc.bots.base import Decision, check_can_act, fantasy_decision, legal_actions
from ofc.engine.actions import Action
from ofc.engine.view import HandView


class RandomBot:
    """Plays a uniformly random legal action; a baseline that fouls most hands."""

    def __init__(self, *, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def decide(self, view: HandView) -> Decision:
        """A random legal action, or the solver's board for a fantasy deal."""
        check_can_act(view)
        if view.in_fantasy:
            return fantasy_decision(view)
        actions = legal_actions(view)
        return Decision(actions[self._rng.randrange(len(actions))])

    def act(self, view: HandView) -> Action:
        """``decide(view).action``."""
        return self.decide(view).action
