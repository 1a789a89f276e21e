"""A seat's view as learning code reads it: a fixed-shape vector and an information-state text.

Both are functions of a ``HandView`` alone, so nothing the seat cannot see can reach them.
The vector's length depends only on the rules' variant and table size (``layout(rules)``);
seats are taken relative to the viewer (the viewer first, then the seat on its left, and so
on), so one policy serves every seat. A spectator's view is laid out from seat 0, with empty
held-card and discard planes. The layout, block by block, is in docs/environments.md.

``information_state(view)`` is equal for two hands exactly when the viewer cannot tell them
apart: it holds everything the view holds except the clocks (the rules, the seat, button,
street, the seats to act, fantasy status, the viewer's sorted held cards and its discards,
every action in the order the viewer saw it, and the boards; times and whether an action was
automatic are clock facts and left out). ``history_array(view)`` is the
same knowledge as a vector (``to_array`` plus one plane per seat, street and row).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from ofc.engine.view import HandView, SeenAction
from ofc.rules.cards import DECK_SIZE, format_card
from ofc.rules.rulebook import HAND_CARDS, PRESETS, Rules
from ofc.rules.variants import MOST_DISCARDS, MOST_FANTASY_CARDS

F32 = npt.NDArray[np.float32]

OWN_PLANES = 5
"""The viewer's top, middle and bottom rows, its held cards, its discards."""
SEAT_SCALARS = 8
"""Per seat: to act, in fantasy, fantasy deal size, fantasy hands in a row, cards held,
cards face-down, cards discarded, board complete."""
MOST_IN_ROW = 4


@dataclass(frozen=True)
class Layout:
    """Offsets of the blocks of ``to_array`` for one rule set (see docs/environments.md)."""

    players: int
    streets: int
    own: int
    opponents: int
    street: int
    button: int
    seats: int
    due: int
    size: int
    history: int
    history_size: int

    def blocks(self) -> list[tuple[str, int, int]]:
        """``(name, offset, length)`` of every block of ``history_array`` in order."""
        return [
            ("own rows, held, discards", self.own, OWN_PLANES * DECK_SIZE),
            ("opponents' rows", self.opponents, (self.players - 1) * 3 * DECK_SIZE),
            ("street", self.street, self.streets + 1),
            ("button", self.button, self.players),
            ("seats", self.seats, self.players * SEAT_SCALARS),
            ("discards due", self.due, 1),
            ("history", self.history, self.history_size - self.history),
        ]


def layout(rules: Rules) -> Layout:
    """The block offsets for ``rules`` (only the table size and the streets matter)."""
    return layout_of(rules.players, len(rules.spec.streets))


@cache
def layout_of(players: int, streets: int) -> Layout:
    """The block offsets for ``players`` seats and ``streets`` streets (kept)."""
    own = 0
    opponents = own + OWN_PLANES * DECK_SIZE
    street = opponents + (players - 1) * 3 * DECK_SIZE
    button = street + streets + 1
    seats = button + players
    due = seats + players * SEAT_SCALARS
    size = due + 1
    history = size
    history_size = history + players * streets * 4 * DECK_SIZE
    return Layout(players, streets, own, opponents, street, button, seats, due, size, history, history_size)


def observation_size(rules: Rules) -> int:
    """Length of ``to_array`` under ``rules``."""
    return layout(rules).size


def _anchor(view: HandView) -> int:
    return 0 if view.seat is None else view.seat


def _blank(size: int) -> array[float]:
    """A zeroed ``float32`` buffer: filled item by item, then wrapped by numpy without a copy."""
    return _ZEROS[size][:] if size in _ZEROS else _ZEROS.setdefault(size, array("f", bytes(4 * size)))[:]


_ZEROS: dict[int, array[float]] = {}


def _fill(view: HandView, out: array[float], where: Layout) -> None:
    players = where.players
    me = _anchor(view)
    seats = view.seats
    to_act = view.to_act
    block = where.seats
    for rel in range(players):
        seat = seats[(me + rel) % players]
        start = where.own if rel == 0 else where.opponents + (rel - 1) * 3 * DECK_SIZE
        for cards in seat.rows:
            for card in cards:
                out[start + card] = 1.0
            start += DECK_SIZE
        fantasy = seat.fantasy
        out[block] = seat.seat in to_act
        out[block + 1] = fantasy > 0
        out[block + 2] = fantasy / MOST_FANTASY_CARDS
        out[block + 3] = min(seat.fantasy_in_row, MOST_IN_ROW) / MOST_IN_ROW
        out[block + 4] = seat.holding / MOST_FANTASY_CARDS
        out[block + 5] = seat.hidden / HAND_CARDS
        out[block + 6] = min(seat.discarded, MOST_DISCARDS) / MOST_DISCARDS
        out[block + 7] = seat.done
        block += SEAT_SCALARS
    held = where.own + 3 * DECK_SIZE
    for card in view.cards:
        out[held + card] = 1.0
    held += DECK_SIZE
    for card in view.discards:
        out[held + card] = 1.0
    out[where.street + view.street] = 1.0
    out[where.button + (view.button - me) % players] = 1.0
    out[where.due] = min(view.discards_due, MOST_DISCARDS) / MOST_DISCARDS


def to_array(view: HandView) -> F32:
    """The view as a ``float32`` vector of ``observation_size(view.rules)`` values in [0, 1]."""
    where = layout(view.rules)
    out = _blank(where.size)
    _fill(view, out, where)
    return np.frombuffer(out, dtype=np.float32)


def history_array(view: HandView) -> F32:
    """``to_array`` followed by the action history: for each seat (relative to the viewer)
    and street, its placements into top, middle and bottom and its discards (the viewer's
    own only), one 52-card plane each. Under one rule set, equal exactly when
    ``information_state`` is.
    """
    where = layout(view.rules)
    out = _blank(where.history_size)
    _fill(view, out, where)
    me = _anchor(view)
    for seen, street in zip(view.history, streets_of(view.history), strict=True):
        rel = (seen.seat - me) % where.players
        base = where.history + ((rel * where.streets) + street) * 4 * DECK_SIZE
        for card, row in seen.placements:
            out[base + int(row) * DECK_SIZE + card] = 1.0
        for card in seen.discards:
            out[base + 3 * DECK_SIZE + card] = 1.0
    return np.frombuffer(out, dtype=np.float32)


def streets_of(history: Sequence[SeenAction]) -> list[int]:
    """The street of each action: a seat's k-th action is on street k (a fantasy board, its only one, on 0)."""
    done: dict[int, int] = {}
    streets = []
    for seen in history:
        street = done.get(seen.seat, 0)
        streets.append(street)
        done[seen.seat] = street + 1
    return streets


@cache
def rules_text(rules: Rules) -> str:
    """``pineapple/3`` plus every setting that differs from the variant's preset."""
    base = PRESETS[rules.variant.value].with_settings({"players": rules.players}).to_dict()
    changed = [f"{name}={value}" for name, value in rules.to_dict().items() if base[name] != value]
    return "/".join([rules.variant.value, str(rules.players), *changed])


def _cards(cards: tuple[int, ...]) -> str:
    return "".join(format_card(card) for card in cards)


def _seen_text(seen: SeenAction, street: int) -> str:
    rows = ["", "", ""]
    for card, row in seen.placements:
        rows[row] += format_card(card)
    text = f"{seen.seat}@{street}:" + "/".join(rows)
    if seen.hidden:
        text += f"#{seen.hidden}"
    if seen.discards:
        text += "x" + _cards(seen.discards)
    elif seen.discarded:
        text += f"x{seen.discarded}"
    return text


def observation_text(view: HandView) -> str:
    """The view without its action history or clocks, as text (the current position only)."""
    parts = [
        rules_text(view.rules),
        f"seat {view.seat} button {view.button} street {view.street} act {','.join(map(str, view.to_act))}",
        f"held {_cards(tuple(sorted(view.cards)))} disc {_cards(view.discards)}",
    ]
    for seat in view.seats:
        rows = "/".join(_cards(row) for row in seat.rows)
        parts.append(
            f"s{seat.seat} f{seat.fantasy}.{seat.fantasy_in_row} {rows} "
            f"#{seat.hidden} h{seat.holding} x{seat.discarded}{' done' if seat.done else ''}"
        )
    return " | ".join(parts)


def information_state(view: HandView) -> str:
    """``observation_text`` plus every action in the order the viewer saw it."""
    history = view.history
    moves = " ".join(_seen_text(seen, street) for seen, street in zip(history, streets_of(history), strict=True))
    return observation_text(view) + " || " + moves


__all__ = [
    "Layout",
    "history_array",
    "information_state",
    "layout",
    "layout_of",
    "observation_size",
    "observation_text",
    "rules_text",
    "streets_of",
    "to_array",
]
