"""The heuristic bot: place each deal where the board evaluation of ``ofc.fast.evaluation`` likes it.

The evaluation prices a partial board in points (expected row strength, royalties, fantasy
entry, discounted by an estimated chance of fouling); the bot tries every legal placement of
its deal and keeps the best, in microseconds. It is also the Monte Carlo bot's rollout policy.
"""

from __future__ import annotations

import numpy as np

from ofc.bots.arrays import KernelRules, board_array, kernel_rules
from ofc.bots.base import TUNED_FANTASY_VALUE, Decision, check_can_act, fantasy_decision
from ofc.engine.actions import Action, Placement
from ofc.engine.view import HandView
from ofc.fast.placement import DISCARD, place
from ofc.rules.rows import Row


def greedy_action(view: HandView, kernel: KernelRules) -> Action:
    """The placement of the viewer's deal that the board evaluation values most."""
    seat = check_can_act(view)
    board, counts = board_array(view.seats[seat].rows)
    cards = np.array(view.cards, dtype=np.int64)
    codes = place(board, counts, cards, view.discards_due, kernel.params, kernel.tables)
    placements: list[Placement] = []
    discards: list[int] = []
    for card, code in zip(view.cards, codes.tolist(), strict=True):
        if code == DISCARD:
            discards.append(card)
        else:
            placements.append((card, Row(code)))
    return Action(seat, tuple(placements), tuple(discards))


class HeuristicBot:
    """Fast rule-based play: the best placement of each deal by a static board evaluation."""

    DEFAULT_FANTASY = TUNED_FANTASY_VALUE

    def __init__(self, *, fantasy_value: float = DEFAULT_FANTASY, name: str = "heuristic") -> None:
        self.name = name
        self.fantasy_value = fantasy_value

    def decide(self, view: HandView) -> Decision:
        """The greedy placement, or the solver's board for a fantasy deal."""
        check_can_act(view)
        if view.in_fantasy:
            return fantasy_decision(view)
        return Decision(greedy_action(view, kernel_rules(view.rules, self.fantasy_value)))

    def act(self, view: HandView) -> Action:
        """``decide(view).action``."""
        return self.decide(view).action
