"""Whether an action fits what its seat holds and the room in its rows: the engine's validation.

``check_action`` raises the specific ``ActionError`` that names the card, row or count at
fault; it reads only the values it is given, so the hand calls it before changing anything.
"""

from __future__ import annotations

from ofc.engine.actions import Action
from ofc.rules.cards import DECK_SIZE, Card, format_card
from ofc.rules.errors import (
    ActionError,
    CardNotHeld,
    DuplicateCard,
    RowFull,
    UnknownRow,
    WrongDiscardCount,
    WrongPlacementCount,
)
from ofc.rules.rows import ROW_INDEXES, Row


def check_action(action: Action, held: tuple[Card, ...], rooms: tuple[int, int, int], due: int) -> None:
    """Raise unless ``action`` places or discards exactly ``held``, ``due`` of them discarded, within ``rooms``."""
    seat = action.seat
    check_shape(action)
    if len(action.discards) != due:
        if due == 1:
            raise WrongDiscardCount(
                "seat {seat} must discard {due} card, not {given}", seat=seat, due=due, given=len(action.discards)
            )
        raise WrongDiscardCount(
            "seat {seat} must discard {due} cards, not {given}", seat=seat, due=due, given=len(action.discards)
        )
    room = list(rooms)
    used: set[Card] = set()
    for card, row in action.placements:
        _check_card(seat, card, held, used)
        if type(row) is not Row and (type(row) is not int or row not in ROW_INDEXES):
            raise UnknownRow("seat {seat}: {row!r} is not a row (top, middle or bottom)", seat=seat, row=row)
        room[row] -= 1
        if room[row] < 0:
            wanted = sum(1 for _, where in action.placements if where == row)
            free = rooms[row]
            term = Row(row).term
            if free == 1:
                raise RowFull(
                    "seat {seat}'s {row} row has room for {free} more card, not {wanted}",
                    seat=seat,
                    row=term,
                    free=free,
                    wanted=wanted,
                )
            raise RowFull(
                "seat {seat}'s {row} row has room for {free} more cards, not {wanted}",
                seat=seat,
                row=term,
                free=free,
                wanted=wanted,
            )
    for card in action.discards:
        _check_card(seat, card, held, used)
    if len(used) != len(held):
        missing = format_card(next(card for card in held if card not in used))
        raise WrongPlacementCount(
            "seat {seat} must place {count} cards, not {given}: {missing} is neither placed nor discarded",
            seat=seat,
            count=len(held) - due,
            given=len(action.placements),
            missing=missing,
        )


def check_shape(action: Action) -> None:
    """An action built by hand may hold anything: name what is not (card, row) pairs."""
    seat = action.seat
    placements: object = action.placements
    discards: object = action.discards
    if not isinstance(placements, tuple):
        raise ActionError(
            "seat {seat}: placements must be a tuple of (card, row) pairs, not {placements!r}",
            seat=seat,
            placements=placements,
        )
    for placement in placements:
        if not isinstance(placement, tuple) or len(placement) != 2:
            raise ActionError(
                "seat {seat}: a placement is a (card, row) pair, not {placement!r}", seat=seat, placement=placement
            )
    if not isinstance(discards, tuple):
        raise ActionError(
            "seat {seat}: discards must be a tuple of cards, not {discards!r}", seat=seat, discards=discards
        )


def _check_card(seat: int, card: Card, held: tuple[Card, ...], used: set[Card]) -> None:
    if type(card) is not int or card not in held:
        text = format_card(card) if type(card) is int and 0 <= card < DECK_SIZE else repr(card)
        raise CardNotHeld("seat {seat} does not hold {text}", seat=seat, text=text)
    if card in used:
        raise DuplicateCard("seat {seat} uses {card} twice", seat=seat, card=format_card(card))
    used.add(card)


__all__ = ["check_action", "check_shape"]
