"""The live score book: hands entered by a person, everything else derived through the engine.

A book is the rules, the players, the first button and the hands entered so far (each
player's finished board, or "dead"). ``replay`` plays the book through ``ofc.series.match.Match``
and ``ofc.rules.scoring.score_boards``: points, fouls, fantasies, buttons, totals with the loss
limit, and the settlement at the end. Nothing here does I/O.
"""

from __future__ import annotations

from ofc.keep.book import Book
from ofc.keep.entries import BookError, Entry, parse_entry
from ofc.keep.replay import Keeping, PlayedHand, replay
from ofc.keep.settle import Transfer, fewest_transfers

__all__ = [
    "Book",
    "BookError",
    "Entry",
    "Keeping",
    "PlayedHand",
    "Transfer",
    "fewest_transfers",
    "parse_entry",
    "replay",
]
