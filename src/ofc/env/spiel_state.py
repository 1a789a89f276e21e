"""The state of the OpenSpiel game ``python_ofc``: explicit chance nodes over the engine's hand.

Every card is dealt by a chance node, one card at a time, when the engine deals it: the
first deal of every seat (in order of play) at the start, then each street's cards when the
seat's turn comes. The engine hand is rebuilt from the cards dealt so far (followed by the
rest of the deck as placeholders) and the actions applied, whenever a deal is complete; while
a deal is incomplete the views given out are cut back to the cards actually dealt, so a
placeholder card never reaches an observation. Fantasy seats are set by the exact solver as
soon as their cards are dealt, or, with ``fantasy_choices`` k, act first: action i sets the
solver's i-th best board of k. Observations come from ``Hand.view(player)`` only.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import pyspiel

from ofc.bots.base import fantasy_decision, solution_action
from ofc.engine.actions import Action
from ofc.engine.deals import deal_sequence
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.env.encoding import action_mask, decode, encode
from ofc.env.table import board_action, fantasy_boards
from ofc.rules.cards import DECK_SIZE, Deck, format_card, format_cards
from ofc.rules.errors import ActionError
from ofc.solver import FantasySolution

if TYPE_CHECKING:
    from ofc.env.spiel import OfcGame

Step = tuple[str, int | Action]
"""One move of the history: ``("card", card)`` for a chance deal, ``("act", action)`` for a seat's,
``("board", i)`` for a fantasy seat's choice of the solver's i-th board."""

T = TypeVar("T")


class Moves(list[T]):
    """A list of immutable moves: a state's copy shares the moves and copies only the list."""

    def __deepcopy__(self, memo: dict[int, object]) -> Moves[T]:
        return Moves(self)


class Engine:
    """The engine hand of a state: a state's copy gets ``Hand.clone()``, not a deep copy."""

    __slots__ = ("hand",)

    def __init__(self, hand: Hand) -> None:
        self.hand = hand

    def __deepcopy__(self, memo: dict[int, object]) -> Engine:
        return Engine(self.hand.clone())


class OfcState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types
    """One hand of ``python_ofc``."""

    def __init__(self, game: OfcGame) -> None:
        super().__init__(game)
        self._ofc = game.settings
        self._cards: Moves[int] = Moves()
        self._steps: Moves[Step] = Moves()
        self._actions: Moves[Action] = Moves()
        deals = deal_sequence(self._ofc.rules, self._ofc.button, self._ofc.fantasy)
        starts = [sum(deal.cards for deal in deals[:i]) for i in range(len(deals))]
        self._deals = Moves((deal.seat, start, deal.cards) for deal, start in zip(deals, starts, strict=True))
        self._pending: Moves[tuple[int, int, int]] = Moves()
        self._boards: Moves[FantasySolution] | None = None
        self._engine = Engine(self._build())
        self._note_deals()

    # ------------------------------------------------------------------ the engine hand

    def _build(self) -> Hand:
        settings = self._ofc
        dealt = set(self._cards)
        deck = Deck(order=[*self._cards, *(card for card in range(DECK_SIZE) if card not in dealt)])
        hand = Hand(settings.rules, button=settings.button, deck=deck, fantasy=settings.fantasy)
        for action in self._actions:
            hand.apply(action, 0)
        return hand

    @staticmethod
    def _dealt(hand: Hand) -> int:
        seen = hand.view(None)
        return sum(sum(map(len, s.rows)) + s.hidden + s.holding + s.discarded for s in seen.seats)

    def _settle(self) -> None:
        """Set fantasy seats by the solver (unless they choose), then note any deal made from placeholders."""
        hand = self._hand
        self._boards = None
        while not hand.is_over and not self._ofc.fantasy_choices:
            seats = [seat for seat in hand.to_act if hand.fantasy[seat]]
            if not seats:
                break
            action = fantasy_decision(hand.view(seats[0])).action
            hand.apply(action, 0)
            self._actions.append(action)
        self._note_deals()

    def _note_deals(self) -> None:
        """The deals (``ofc.engine.deals`` order) the engine has made beyond the cards chance has drawn."""
        dealt, real = self._dealt(self._hand), len(self._cards)
        self._pending = Moves(deal for deal in self._deals if real <= deal[1] < dealt)

    def view(self, player: int | None) -> HandView:
        """``player``'s view (None: a spectator's), cut back to the cards dealt so far."""
        view = self._hand.view(player)
        if not self._pending:
            return view
        seats = list(view.seats)
        cards = view.cards
        for seat, start, count in self._pending:
            real = tuple(self._cards[start : start + count])
            seats[seat] = dataclasses.replace(seats[seat], holding=len(real))
            if seat == player:
                cards = real
        return dataclasses.replace(view, seats=tuple(seats), cards=cards)

    @property
    def _hand(self) -> Hand:
        return self._engine.hand

    @property
    def hand(self) -> Hand:
        """The engine hand (full state: for tests and the game's own bookkeeping)."""
        return self._engine.hand

    # ------------------------------------------------------------------ OpenSpiel API

    def current_player(self) -> int:
        """The seat to act, or the chance or terminal marker."""
        if self._hand.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._pending:
            return int(pyspiel.PlayerId.CHANCE)
        return self._hand.to_act[0]

    def _choosing(self, player: int) -> bool:
        """Whether ``player`` is a fantasy seat to pick one of the solver's boards now."""
        hand = self._hand
        if not self._ofc.fantasy_choices or self._pending or hand.is_over:
            return False
        return hand.fantasy[player] > 0 and hand.to_act[0] == player

    def fantasy_boards(self, player: int) -> tuple[FantasySolution, ...]:
        """The solver's boards a choosing fantasy ``player`` picks from, best first (else empty)."""
        if not self._choosing(player):
            return ()
        if self._boards is None:
            self._boards = Moves(fantasy_boards(self.view(player), self._ofc.fantasy_choices))
        return tuple(self._boards)

    def _legal_actions(self, player: int) -> list[int]:
        if self._choosing(player):
            return list(range(len(self.fantasy_boards(player))))
        return [int(n) for n in np.flatnonzero(action_mask(self.view(player)))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every card not dealt yet, equally likely."""
        dealt = set(self._cards)
        left = [card for card in range(DECK_SIZE) if card not in dealt]
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        if self._pending:
            self._deal(int(action))
            return
        seat = self._hand.to_act[0]
        if self._choosing(seat):
            self._choose(seat, int(action))
        else:
            self._play(decode(self.view(seat), int(action)))

    def _choose(self, seat: int, number: int) -> None:
        self._play(board_action(seat, self.fantasy_boards(seat), number), ("board", number))

    def _deal(self, card: int) -> None:
        if card in self._cards or not 0 <= card < DECK_SIZE:
            raise ActionError("card {card} cannot be dealt: it is dealt already or not a card", card=card)
        self._cards.append(card)
        self._steps.append(("card", card))
        _, start, count = self._pending[-1]
        if len(self._cards) == start + count:
            self._pending = Moves()
            self._engine = Engine(self._build())
            self._settle()

    def _play(self, action: Action, step: Step | None = None) -> None:
        self._hand.apply(action, 0)
        self._actions.append(action)
        self._steps.append(step or ("act", action))
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {format_card(action)}"
        if self._choosing(player):
            boards = self.fantasy_boards(player)
            if 0 <= action < len(boards):
                return f"{solution_action(player, boards[action])} (board {action}, worth {boards[action].value:g})"
        view = self.view(player)
        if view.may_act:
            try:
                return str(decode(view, action))
            except ActionError:
                pass
        return f"seat {player}: action {action}"

    def is_terminal(self) -> bool:
        """Whether the showdown is done."""
        return self._hand.is_over

    def returns(self) -> list[float]:
        """Each seat's points at the showdown (zeros before)."""
        result = self._hand.result
        return [float(p) for p in result.points] if result is not None else [0.0] * self._ofc.rules.players

    def __str__(self) -> str:
        """The whole state (every card dealt and every action), for debugging."""
        moves = [format_card(v) if isinstance(v, int) else str(v) for _, v in self._steps]
        return f"button {self._ofc.button}; dealt {format_cards(self._cards)}; " + "; ".join(moves)

    # ------------------------------------------------------------------ determinization

    def resample_from_infostate(self, player: int, sampler: Callable[[], float] | Any) -> OfcState:
        """A state ``player`` cannot tell from this one, the cards it cannot see drawn afresh.

        Cards hidden from ``player`` (others' held cards and discards, face-down fantasy
        boards) are replaced by a random draw from every card it has not seen; the other
        seats' discards follow their cards, and fantasy boards are set again by the solver
        (a chosen board as the same choice among the solver's boards of the new deal).
        """
        view = self.view(player)
        seen = set(view.cards) | set(view.discards)
        for seat in view.seats:
            for row in seat.rows:
                seen.update(row)
        hidden = [card for card in self._cards if card not in seen]
        pool = [card for card in range(DECK_SIZE) if card not in seen]
        rng = random.Random(int(sampler() * 2**52) if callable(sampler) else None)
        drawn = rng.sample(pool, len(hidden))
        swap = dict(zip(hidden, drawn, strict=True))
        state: OfcState = self.get_game().new_initial_state()
        for kind, value in self._steps:
            if kind == "card":
                assert isinstance(value, int)
                state.apply_action(swap.get(value, value))
            elif kind == "board":
                assert isinstance(value, int)
                state.apply_action(value)
            else:
                assert isinstance(value, Action)
                moved = Action(value.seat, value.placements, tuple(swap.get(c, c) for c in value.discards))
                state.apply_action(encode(state.view(value.seat), moved))
        return state


__all__ = ["OfcState", "Step"]
