"""Whether an action fits what its seat holds and the room in its rows: the engine's validation.

``check_action`` raises the specific ``ActionError`` that names the card, row or count at
fault; it reads only the values it is given, so the hand calls it before changing anything.
"""

from __future__ import annotations

from ofc.actions import ROW_INDEXES, Action, Row
from ofc.cards import DECK_SIZE, Card, format_card
from ofc.errors import (
    ActionError,
    CardNotHeld,
    DuplicateCard,
    RowFull,
    UnknownRow,
    WrongDiscardCount,
    WrongPlacementCount,
)


def _plural(count: int) -> str:
    return "" if count == 1 else "s"


def check_action(action: Action, held: tuple[Card, ...], rooms: tuple[int, int, int], due: int) -> None:
    """Raise unless ``action`` places or discards exactly ``held``, ``due`` of them discarded, within ``rooms``."""
    seat = action.seat
    check_shape(action)
    if len(action.discards) != due:
        raise WrongDiscardCount(f"seat {seat} must discard {due} card{_plural(due)}, not {len(action.discards)}")
    room = list(rooms)
    used: set[Card] = set()
    for card, row in action.placements:
        _check_card(seat, card, held, used)
        if type(row) is not Row and (type(row) is not int or row not in ROW_INDEXES):
            raise UnknownRow(f"seat {seat}: {row!r} is not a row (top, middle or bottom)")
        room[row] -= 1
        if room[row] < 0:
            wanted = sum(1 for _, where in action.placements if where == row)
            free = rooms[row]
            label = Row(row).label
            raise RowFull(f"seat {seat}'s {label} row has room for {free} more card{_plural(free)}, not {wanted}")
    for card in action.discards:
        _check_card(seat, card, held, used)
    if len(used) != len(held):
        missing = format_card(next(card for card in held if card not in used))
        raise WrongPlacementCount(
            f"seat {seat} must place {len(held) - due} cards, not {len(action.placements)}: "
            f"{missing} is neither placed nor discarded"
        )


def check_shape(action: Action) -> None:
    """An action built by hand may hold anything: name what is not (card, row) pairs."""
    seat = action.seat
    placements: object = action.placements
    discards: object = action.discards
    if not isinstance(placements, tuple):
        raise ActionError(f"seat {seat}: placements must be a tuple of (card, row) pairs, not {placements!r}")
    for placement in placements:
        if not isinstance(placement, tuple) or len(placement) != 2:
            raise ActionError(f"seat {seat}: a placement is a (card, row) pair, not {placement!r}")
    if not isinstance(discards, tuple):
        raise ActionError(f"seat {seat}: discards must be a tuple of cards, not {discards!r}")


def _check_card(seat: int, card: Card, held: tuple[Card, ...], used: set[Card]) -> None:
    if type(card) is not int or card not in held:
        text = format_card(card) if type(card) is int and 0 <= card < DECK_SIZE else repr(card)
        raise CardNotHeld(f"seat {seat} does not hold {text}")
    if card in used:
        raise DuplicateCard(f"seat {seat} uses {format_card(card)} twice")
    used.add(card)


__all__ = ["check_action", "check_shape"]
