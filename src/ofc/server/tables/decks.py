"""Where a table's decks come from, its refusals, and small helpers of the table game."""

from __future__ import annotations

from collections.abc import Callable

from ofc.engine.actions import ActionRecord
from ofc.engine.clock import time_text
from ofc.engine.view import HandView
from ofc.rules.cards import Deck
from ofc.rules.errors import OfcError
from ofc.server.db.storage import ActionRow

DeckSource = Callable[[int, int], Deck]
"""``source(table_id, hand_number)`` -> the deck of a new hand."""


def secure_deck(_table: int, _hand: int) -> Deck:
    """A deck shuffled from the operating system's secure randomness."""
    return Deck()


def seeded_decks(seed: int) -> DeckSource:
    """Reproducible decks: the deck of (table, hand) depends on ``seed``, the table and the hand only."""

    def source(table: int, hand: int) -> Deck:
        return Deck(seed * 1_000_003 + table * 1000 + hand)

    return source


class PlayError(OfcError):
    """A request the table refuses; ``code`` names the kind for the protocol."""

    def __init__(self, template: str, /, *, code: str, **params: object) -> None:
        super().__init__(template, **params)
        self.code = code


def action_row(record: ActionRecord) -> ActionRow:
    """The stored form of an action record."""
    data = record.action.to_dict()
    place = data["place"]
    discard = data["discard"]
    assert isinstance(place, list)
    assert isinstance(discard, list)
    return ActionRow(record.action.seat, place, discard, time_text(record.time), record.automatic)


def discard_due(view: HandView | None) -> int | None:
    """How many cards the viewer must discard in its action now (None if it may not act)."""
    if view is None or view.seat is None or view.seat not in view.to_act:
        return None
    return view.discards_due
