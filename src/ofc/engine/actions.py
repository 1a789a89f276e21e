"""Actions as values: which card goes to which row, which cards are discarded.

An ``Action`` is one seat's whole decision for one deal: five cards at the first deal, one
card a street in classic, four in turbo, two placed and one discarded in pineapple, or a
fantasy seat's whole board with its discards. Build one directly or with ``Action.of``:

>>> action = Action.of(1, top="Qh", bottom="9c", discard="2d")
>>> print(action)
seat 1: top Qh; bottom 9c; discard 2d
>>> action == Action.of(1, bottom="9c", top="Qh", discard="2d")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from ofc.rules.cards import Card, format_card, format_cards, parse_card, parse_cards
from ofc.rules.errors import ActionError
from ofc.rules.rows import ROWS, Row

Placement = tuple[Card, Row]
"""One card and the row it goes to."""


def _cards(source: str | Iterable[Card]) -> tuple[Card, ...]:
    return parse_cards(source) if isinstance(source, str) else tuple(source)


@dataclass(frozen=True, slots=True, init=False)
class Action:
    """One seat's decision for one deal: ``placements`` (card, row) and ``discards``.

    The engine checks an action against the hand when it is applied; the value itself is
    just data, so faces, bots and histories can build, store and compare actions freely.
    Placements and discards are kept sorted by card, highest first, so two actions making the
    same decision are equal whatever order they were written in.
    """

    seat: int
    placements: tuple[Placement, ...]
    discards: tuple[Card, ...] = ()

    def __init__(self, seat: int, placements: tuple[Placement, ...], discards: tuple[Card, ...] = ()) -> None:
        try:  # sorted before they are set: an action is made for every decision, so each is set once
            ordered = tuple(sorted(placements, reverse=True)), tuple(sorted(discards, reverse=True))
        except TypeError:  # not cards: left as given for ``Hand.check`` to name the fault
            ordered = placements, discards
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "placements", ordered[0])
        object.__setattr__(self, "discards", ordered[1])

    @staticmethod
    def of(
        seat: int,
        *,
        top: str | Iterable[Card] = (),
        middle: str | Iterable[Card] = (),
        bottom: str | Iterable[Card] = (),
        discard: str | Iterable[Card] = (),
    ) -> Action:
        """Build an action row by row from card text (``"Ah Kd"``) or card ints."""
        placements: list[Placement] = []
        for row, source in zip(ROWS, (top, middle, bottom), strict=True):
            placements.extend((card, row) for card in _cards(source))
        return Action(seat, tuple(placements), _cards(discard))

    def row_cards(self, row: Row) -> tuple[Card, ...]:
        """The cards this action puts into ``row``, in the action's order."""
        return tuple(card for card, where in self.placements if where == row)

    def row_texts(self) -> list[str]:
        """``["top Qs", "bottom 9h 9d"]``: each row this action fills, with its cards."""
        return [f"{row.label} {format_cards(cards)}" for row in ROWS if (cards := self.row_cards(row))]

    def __str__(self) -> str:
        parts = self.row_texts()
        if self.discards:
            parts.append(f"discard {format_cards(self.discards)}")
        return f"seat {self.seat}: " + "; ".join(parts or ["nothing"])

    def to_dict(self) -> dict[str, object]:
        """JSON-friendly form: ``{"seat", "place": [[card, row], ...], "discard": [...]}``."""
        return {
            "seat": self.seat,
            "place": [[format_card(card), Row(row).label] for card, row in self.placements],
            "discard": [format_card(card) for card in self.discards],
        }

    @staticmethod
    def from_dict(data: Mapping[str, object]) -> Action:
        """Read the form written by ``to_dict``; raises ``ActionError`` when malformed."""
        seat = data.get("seat")
        place = data.get("place")
        discard = data.get("discard", [])
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ActionError("an action needs a whole-number seat, got {seat!r}", seat=seat)
        if not isinstance(place, list) or not isinstance(discard, list):
            raise ActionError("seat {seat}'s action needs lists 'place' and 'discard'", seat=seat)
        placements: list[Placement] = []
        for item in place:
            if not (isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item)):
                raise ActionError(
                    "seat {seat}'s action: a placement is [card, row], not {item!r}", seat=seat, item=item
                )
            placements.append((parse_card(item[0]), Row.parse(item[1])))
        if not all(isinstance(card, str) for card in discard):
            raise ActionError(
                "seat {seat}'s action: discards must be card text, got {discard!r}", seat=seat, discard=discard
            )
        return Action(seat, tuple(placements), tuple(parse_card(card) for card in discard))


_new = object.__new__
_ACTION_SEAT, _ACTION_PLACEMENTS, _ACTION_DISCARDS = (
    Action.__dict__[name].__set__ for name in ("seat", "placements", "discards")
)


def sorted_action(seat: int, placements: tuple[Placement, ...], discards: tuple[Card, ...]) -> Action:
    """``Action(seat, placements, discards)`` for placements and discards already in its order (by card,
    highest first), without sorting them again: for callers that build them so (``ofc.env.encoding``).
    The fields are set through the slots (as ``object.__setattr__`` would, in less time)."""
    action: Action = _new(Action)
    _ACTION_SEAT(action, seat)
    _ACTION_PLACEMENTS(action, placements)
    _ACTION_DISCARDS(action, discards)
    return action


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """An applied action with the time it was applied and whether the clock made it."""

    action: Action
    time: Decimal
    automatic: bool = False


_RECORD_ACTION, _RECORD_TIME, _RECORD_AUTOMATIC = (
    ActionRecord.__dict__[name].__set__ for name in ("action", "time", "automatic")
)


def action_record(action: Action, time: Decimal, automatic: bool, /) -> ActionRecord:
    """``ActionRecord(action, time, automatic)`` set through its slots: the same value, made quicker
    (the engine makes one per action applied)."""
    record: ActionRecord = _new(ActionRecord)
    _RECORD_ACTION(record, action)
    _RECORD_TIME(record, time)
    _RECORD_AUTOMATIC(record, automatic)
    return record
