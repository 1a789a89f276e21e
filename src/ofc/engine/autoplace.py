"""Automatic placement, used when a seat's hand clock and time bank have both run out.

RULES.md: the pending cards are placed in the order they were received, each into the lowest
row with room (bottom, then middle, then top); the last cards of the deal are the discards
(pineapple's third street card, a fantasy hand's extra cards).
"""

from __future__ import annotations

from collections.abc import Sequence

from ofc.engine.actions import Action, Placement
from ofc.rules.cards import Card
from ofc.rules.rows import Row

_LOWEST_FIRST = (Row.BOTTOM, Row.MIDDLE, Row.TOP)


def auto_action(seat: int, held: Sequence[Card], rooms: Sequence[int], discards: int) -> Action:
    """The automatic action of ``seat`` holding ``held`` with ``rooms`` free per row (top first)."""
    keep = len(held) - discards
    room = list(rooms)
    placements: list[Placement] = []
    for card in held[:keep]:
        for row in _LOWEST_FIRST:
            if room[row] > 0:
                room[row] -= 1
                placements.append((card, row))
                break
    return Action(seat, tuple(placements), tuple(held[keep:]))
