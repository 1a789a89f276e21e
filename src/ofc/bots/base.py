"""The Bot protocol, the decision it returns, and what every bot shares.

A bot sees exactly what its seat may see: the ``HandView`` from ``Hand.view(seat)`` (which
carries the rules). It never receives the hand itself. ``legal_actions(view)`` rebuilds the
seat's legal actions from the view alone, and ``fantasy_decision`` sets a fantasy deal with
the exact solver, which every bot uses for its fantasy hands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ofc.engine.actions import Action, Placement
from ofc.engine.agent import Agent
from ofc.engine.legal import LegalActions
from ofc.engine.view import HandView
from ofc.rules.errors import BotError
from ofc.rules.rows import ROWS
from ofc.solver import FantasySolution, solve_fantasy

TUNED_FANTASY_VALUE = 10.0
"""Points the heuristic and mc evaluations give a fantasy entry: the weight their other
weights were tuned with on duplicate matches (docs/bots.md). The solver's own stay value
(``ofc.solver.DEFAULT_STAY_VALUE``) is the worth of a fantasy hand estimated by simulation instead."""


@dataclass(frozen=True)
class Decision:
    """A bot's action and, when the bot estimates it, the expected points of that action."""

    action: Action
    value: float | None = None


@runtime_checkable
class Bot(Agent, Protocol):
    """An ``ofc.engine.agent.Agent`` with a name that also says how much it expects its action to win."""

    name: str

    def decide(self, view: HandView) -> Decision:
        """The action for ``view.seat`` (which must be able to act) and its estimated value."""
        ...

    def act(self, view: HandView) -> Action:
        """``decide(view).action``."""
        ...


def seat_of(view: HandView) -> int:
    """The viewing seat; a spectator's view cannot be decided on."""
    if view.seat is None:
        raise BotError("a bot needs a seat's view, not a spectator's")
    return view.seat


def legal_actions(view: HandView) -> LegalActions:
    """The legal actions of ``view.seat``, built from the view alone (empty if it may not act)."""
    seat = seat_of(view)
    if not view.may_act:
        return LegalActions(seat, (), (0, 0, 0), 0)
    return LegalActions(seat, view.cards, view.rooms, view.discards_due)


def check_can_act(view: HandView) -> int:
    """The viewing seat, after checking it has cards to place now."""
    seat = seat_of(view)
    if not view.may_act:
        raise BotError("seat {seat} has nothing to decide now", seat=seat)
    return seat


def fantasy_solution(view: HandView) -> FantasySolution:
    """The exact solver's arrangement of the viewer's fantasy deal.

    A repeat fantasy is priced only while the seat's streak (``fantasy_in_row``, public in the
    view) is below ``fantasy_max_in_row``.
    """
    seat = check_can_act(view)
    limit = view.rules.fantasy_max_in_row
    can_stay = limit is None or view.seats[seat].fantasy_in_row < limit
    return solve_fantasy(view.cards, view.rules, can_stay=can_stay)


def solution_action(seat: int, solution: FantasySolution) -> Action:
    """``solution``'s board and discards as ``seat``'s action."""
    board = solution.board
    placements: list[Placement] = []
    for row, cards in zip(ROWS, (board.top, board.middle, board.bottom), strict=True):
        placements.extend((card, row) for card in cards)
    return Action(seat, tuple(placements), solution.discards)


def fantasy_decision(view: HandView) -> Decision:
    """``fantasy_solution(view)`` as one action, valued by the solver."""
    solution = fantasy_solution(view)
    return Decision(solution_action(seat_of(view), solution), solution.value)
