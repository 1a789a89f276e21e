"""Replaying a stored match: each stored deck dealt again and its stored actions re-applied."""

from __future__ import annotations

import logging
from decimal import Decimal

from ofc.engine.actions import Action
from ofc.rules.cards import Deck, parse_cards
from ofc.server.db.storage import DAMAGED, FINISHED, PLAYING, Storage, TableRow
from ofc.server.tables.game import DeckSource, TableGame

log = logging.getLogger("ofc.server")


def restore_or_keep(row: TableRow, store: Storage, pause: Decimal, decks: DeckSource, now: Decimal) -> TableGame:
    """The stored table; one that cannot be replayed is kept as ``damaged`` (listed, its stakes still held)."""
    try:
        return TableGame.restore(row, store, pause=pause, decks=decks, now=now)
    except Exception:
        log.exception("table %s cannot be restored from the database: it is kept as damaged", row.id)
    game = TableGame.from_row(row, store, pause, decks)
    game.status = DAMAGED
    return game


def replay_match(game: TableGame, row: TableRow, now: Decimal | None) -> None:
    """Bring a freshly built started table to its stored state (see ``TableGame.restore``)."""
    store = game.store
    game.status = PLAYING
    assert row.button is not None
    session = game._begin(row.button)
    for stored in store.load_hands(row.id):
        hand = session.deal(deck=Deck(order=parse_cards(stored.deck)), now=Decimal(stored.start))
        game.hand_number = stored.number
        game.next_deal = None
        for index, action in enumerate(stored.actions):
            if hand.actions_taken > index:
                continue
            time = Decimal(action.time)
            if action.automatic:
                hand.advance(time)
            else:
                data = {"seat": action.seat, "place": action.place, "discard": action.discard}
                hand.apply(Action.from_dict(data), time)
        game._stored = len(stored.actions)
        if hand.actions_taken > game._stored:
            game._persist()
        if hand.is_over:
            game._finish_hand(record=stored.history is None)
    if row.status == FINISHED:
        game.status = FINISHED
    last = game.hand
    if now is not None and game.status == PLAYING and last is not None:
        game.offset = max(Decimal(0), now - last.now)
