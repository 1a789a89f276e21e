"""The action being built: cards placed so far this street, before the player confirms.

Placing is forgiving: a card placed again moves to its new place, ``undo`` takes back the
last card (or a named one) and ``clear`` all of them. Each step is checked against the room
left in the rows and the discards due, so a mistake is reported when it is typed; the engine's
``Hand.check`` still has the last word when the street is confirmed.
"""

from __future__ import annotations

from collections.abc import Sequence

from ofc.engine.actions import Action
from ofc.engine.view import HandView
from ofc.rules.cards import Card, format_card, format_cards
from ofc.rules.rows import Row
from ofc.terminal.commands import DISCARD, CommandError, Target


class Placing:
    """Cards ``held`` going into rows with ``rooms`` free places (top first), ``discards`` due."""

    def __init__(self, held: Sequence[Card], rooms: Sequence[int], discards: int) -> None:
        self.held = tuple(held)
        self.rooms = (rooms[0], rooms[1], rooms[2])
        self.discards = discards
        self.moves: list[tuple[Card, Target]] = []

    @staticmethod
    def for_view(view: HandView) -> Placing:
        """The placing of the viewer's cards: rooms from their board, discards from the deal."""
        if view.seat is None:
            raise CommandError("a spectator has no cards to place")
        return Placing(view.cards, view.rooms, view.discards_due)

    @property
    def places(self) -> int:
        """How many cards go into rows."""
        return len(self.held) - self.discards

    def target_of(self, card: Card) -> Target | None:
        """Where ``card`` is placed so far, or None."""
        return next((target for placed, target in self.moves if placed == card), None)

    def cards_in(self, target: Target) -> tuple[Card, ...]:
        """The cards placed so far into ``target``, in the order placed."""
        return tuple(card for card, where in self.moves if where == target)

    @property
    def unplaced(self) -> tuple[Card, ...]:
        """Held cards not placed yet, in the order dealt."""
        done = {card for card, _ in self.moves}
        return tuple(card for card in self.held if card not in done)

    @property
    def complete(self) -> bool:
        """Whether every held card is placed or discarded."""
        return not self.unplaced

    def place(self, card: Card, target: Target) -> None:
        """Put ``card`` into ``target`` (moving it if it was placed already)."""
        if card not in self.held:
            raise CommandError(
                "you do not hold {card}: your cards are {cards}", card=format_card(card), cards=format_cards(self.held)
            )
        if self.target_of(card) == target:
            return
        if target == DISCARD:
            if self.discards == 0:
                raise CommandError("nothing is discarded now: put every card into a row")
            if len(self.cards_in(DISCARD)) >= self.discards:
                if self.discards == 1:
                    raise CommandError("you discard only {count} card now", count=self.discards)
                raise CommandError("you discard only {count} cards now", count=self.discards)
        else:
            room = self.rooms[target] - len(self.cards_in(target))
            if room <= 0:
                raise CommandError("the {row} row is full", row=Row(target).term)
        self._remove(card)
        self.moves.append((card, target))

    def undo(self, card: Card | None = None) -> Card:
        """Take back ``card`` (default: the last card placed) and return it."""
        if not self.moves:
            raise CommandError("nothing to take back: no card is placed yet")
        if card is None:
            return self.moves.pop()[0]
        if self.target_of(card) is None:
            raise CommandError("{card} is not placed, so there is nothing to take back", card=format_card(card))
        self._remove(card)
        return card

    def clear(self) -> None:
        """Take back every card."""
        self.moves.clear()

    def load(self, action: Action) -> None:
        """Replace the cards placed so far with ``action``'s placements and discards."""
        moves: list[tuple[Card, Target]] = [(card, Row(row)) for card, row in action.placements]
        moves.extend((card, DISCARD) for card in action.discards)
        self.moves = moves

    def action(self, seat: int) -> Action:
        """The action placed so far, for ``seat``."""
        placements = tuple((card, target) for card, target in self.moves if isinstance(target, Row))
        return Action(seat, placements, self.cards_in(DISCARD))

    def _remove(self, card: Card) -> None:
        self.moves = [(placed, where) for placed, where in self.moves if placed != card]
