"""One player's part of an entered hand: a finished board (and any discards), or "dead".

Text form: ``"Qh Qd 2c / 9h 9d 9c 3s 4s / As Ks Js 8s 2s"`` (top / middle / bottom), an
optional fourth part for the discards (``... / 7c``), or ``dead``; cards are read as people type
them (``QhQd2c``, ``Q♥ Q♦ 2♣``, ``♥Q``, ``Дч``: ``ofc.rules.cards.read_typed_cards``). Object form:
``{"top": ..., "middle": ..., "bottom": ..., "discards": ...}`` with each row a string or a
list of cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ofc.rules.cards import Card, check_distinct, format_cards, read_typed_cards
from ofc.rules.errors import CardError, InputError, OfcError
from ofc.rules.scoring import ROW_NAMES, Board
from ofc.rules.terms import Term

DEAD = "dead"
ENTRY_KEYS = frozenset({*ROW_NAMES, "discards"})
ROW_SIZES = {"top": 3, "middle": 5, "bottom": 5}


class BookError(InputError):
    """A score book or an entry is wrong; ``field`` says where (``"ann.middle"``, ``"players"``)."""

    def __init__(self, template: str = "", /, *, field: str = "", **params: object) -> None:
        super().__init__(template, **params)
        self.field = field


@dataclass(frozen=True)
class Entry:
    """A player's hand as entered: ``board`` (None when the player did not finish) and discards.

    ``discards`` is None when they were not entered (they never change the score; when given,
    they are checked against the deal).
    """

    board: Board | None
    discards: tuple[Card, ...] | None = None

    @property
    def dead(self) -> bool:
        """Whether the player did not finish the hand (scored as a fouled hand)."""
        return self.board is None

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card entered: the board's, then the discards."""
        board = self.board.cards if self.board is not None else ()
        return board + (self.discards or ())

    def to_json(self) -> object:
        """``"dead"`` or ``{"top", "middle", "bottom"[, "discards"]}`` as card text."""
        if self.board is None:
            return DEAD
        out = {name: format_cards(self.board.row(name)) for name in ROW_NAMES}
        if self.discards is not None:
            out["discards"] = format_cards(self.discards)
        return out

    def text(self) -> str:
        """The one-line form: ``top / middle / bottom[ / discards]`` or ``dead``."""
        if self.board is None:
            return DEAD
        parts = [format_cards(self.board.row(name)) for name in ROW_NAMES]
        if self.discards is not None:
            parts.append(format_cards(self.discards))
        return " / ".join(parts)


def _text(item: object) -> str:
    if not isinstance(item, str):
        raise CardError("a card must be written as text, not {token!r}", token=item)
    return item


def _cards(value: object, player: str, row: str | None) -> tuple[Card, ...]:
    """The cards of ``player``'s ``row`` (None: the discards) as entered."""
    field = f"{player}.{row or 'discards'}"
    if not isinstance(value, str | list):
        if row is None:
            raise BookError("{player}, discards: must be cards as text or a list of cards", field=field, player=player)
        raise BookError(
            "{player}, {row} row: must be cards as text or a list of cards",
            field=field,
            player=player,
            row=Term("row", row),
        )
    try:
        if isinstance(value, str):
            cards = read_typed_cards(value)
        else:
            cards = tuple(card for item in value for card in read_typed_cards(_text(item)))
        check_distinct(cards)
        return cards
    except OfcError as error:
        if row is None:
            raise BookError("{player}, discards: {error}", field=field, player=player, error=error) from None
        raise BookError(
            "{player}, {row} row: {error}", field=field, player=player, row=Term("row", row), error=error
        ) from None


def parse_entry(value: object, player: str) -> Entry:
    """Read one player's entry (text or object); errors name the player and the row."""
    if isinstance(value, str) and value.strip().lower() == DEAD:
        return Entry(None)
    if isinstance(value, str):
        parts = value.split("/")
        if len(parts) not in (3, 4):
            if len(parts) == 1:
                raise BookError(
                    "{player}: write the board as 'top / middle / bottom' (3 parts, a 4th for discards), "
                    "or 'dead'; got {count} part",
                    field=player,
                    player=player,
                    count=len(parts),
                )
            raise BookError(
                "{player}: write the board as 'top / middle / bottom' (3 parts, a 4th for discards), "
                "or 'dead'; got {count} parts",
                field=player,
                player=player,
                count=len(parts),
            )
        rows: dict[str, object] = dict(zip((*ROW_NAMES, "discards"), parts, strict=False))
    elif isinstance(value, Mapping):
        unknown = sorted(str(key) for key in value if key not in ENTRY_KEYS)
        if unknown:
            raise BookError(
                "{player}: unknown key {unknown!r} (known: bottom, discards, middle, top)",
                field=player,
                player=player,
                unknown=unknown[0],
            )
        rows = dict(value)
    else:
        raise BookError(
            "{player}: expected a board ('top / middle / bottom') or 'dead', got {value!r}",
            field=player,
            player=player,
            value=value,
        )
    cards: dict[str, tuple[Card, ...]] = {}
    for name in ROW_NAMES:
        if name not in rows:
            raise BookError(
                "{player}: the {row} row is missing", field=f"{player}.{name}", player=player, row=Term("row", name)
            )
        cards[name] = _cards(rows[name], player, name)
        if len(cards[name]) != ROW_SIZES[name]:
            raise BookError(
                "{player}, {row} row: needs {size} cards, got {count}",
                field=f"{player}.{name}",
                player=player,
                row=Term("row", name),
                size=ROW_SIZES[name],
                count=len(cards[name]),
            )
    discards = None
    if rows.get("discards") is not None:
        discards = _cards(rows["discards"], player, None)
    entry_cards = cards["top"] + cards["middle"] + cards["bottom"] + (discards or ())
    seen: set[Card] = set()
    for card in entry_cards:
        if card in seen:
            raise BookError(
                "{player}: card {cards} is entered twice", field=player, player=player, cards=format_cards([card])
            )
        seen.add(card)
    return Entry(Board(cards["top"], cards["middle"], cards["bottom"]), discards)
