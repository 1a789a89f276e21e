"""A score book as data: rules, players, the first button and the hands entered so far.

Book values are immutable and unchecked beyond their own shape; ``ofc.keep.replay`` checks a
whole book against the rules and derives everything else from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ofc.keep.entries import BookError, Entry, parse_entry
from ofc.rules.errors import OfcError
from ofc.rules.rulebook import Rules
from ofc.rules.variants import VARIANT_TERMS

Hand = Mapping[str, Entry]
"""One entered hand: each dealt player's entry, by name."""

MAX_NAME = 24
KEPT_SETTINGS = (
    "variant",
    "scoring",
    "fantasy",
    "fantasy_cards",
    "fantasy_stay",
    "fantasy_max_in_row",
    "button_on_fantasy",
    "point_value",
    "loss_limit",
)
"""The settings a book stores: the ones that change a live match's score."""


def check_name(name: object) -> str:
    """A player's name, trimmed; refused when empty, too long or holding ``=`` or ``/``."""
    if not isinstance(name, str) or not name.strip():
        raise BookError("a player's name must be a non-empty text", field="players")
    text = name.strip()
    if len(text) > MAX_NAME:
        raise BookError(
            "player name {text!r}... is longer than {most} characters",
            field="players",
            text=text[:MAX_NAME],
            most=MAX_NAME,
        )
    if any(mark in text for mark in "=/") or text.lower() == "dead":
        raise BookError("player name {text!r} may not hold '=' or '/' nor be 'dead'", field="players", text=text)
    return text


@dataclass(frozen=True)
class Book:
    """The rules (``players`` = number of names), the names in seat order, the first button."""

    rules: Rules
    players: tuple[str, ...]
    button: int
    """Seat of the first hand's button."""
    hands: tuple[Hand, ...] = ()

    @staticmethod
    def new(rules: Rules, players: Sequence[object], button: object) -> Book:
        """A book without hands; raises ``BookError`` naming the bad name, count or button."""
        names = tuple(check_name(name) for name in players)
        folded = [name.casefold() for name in names]
        for name in names:
            if folded.count(name.casefold()) > 1:
                raise BookError("two players are called {name!r}", field="players", name=name)
        spec = rules.spec
        if not spec.min_players <= len(names) <= spec.max_players:
            raise BookError(
                "{variant} is played by {min_players}-{max_players} players, got {n_names}",
                field="players",
                variant=VARIANT_TERMS[rules.variant],
                min_players=spec.min_players,
                max_players=spec.max_players,
                n_names=len(names),
            )
        try:
            table_rules = rules.with_settings({"players": len(names)})
        except OfcError as error:
            raise BookError("{problem}", field="rules", problem=error) from None
        return Book(table_rules, names, seat_of(names, button, "button"))

    def seat(self, name: object, field: str = "") -> int:
        """The seat of the player called ``name`` (``BookError`` for an unknown name)."""
        return seat_of(self.players, name, field)

    def read_hand(self, raw: Mapping[str, object]) -> dict[str, Entry]:
        """Entries by player name from raw values (text or objects); names must be players'."""
        if not isinstance(raw, Mapping):
            raise BookError("a hand must map player names to boards or 'dead'", field="hand")
        entries: dict[str, Entry] = {}
        for name, value in raw.items():
            self.seat(name, str(name))
            entries[str(name)] = parse_entry(value, str(name))
        return {name: entries[name] for name in self.players if name in entries}

    def with_hands(self, hands: Sequence[Hand]) -> Book:
        """The same book holding ``hands`` (unchecked: ``replay`` checks them)."""
        return replace(self, hands=tuple(hands))

    def settings(self) -> dict[str, object]:
        """The kept settings as JSON-friendly values."""
        every = self.rules.to_dict()
        return {name: every[name] for name in KEPT_SETTINGS}


def seat_of(players: Sequence[str], name: object, field: str) -> int:
    """Index of ``name`` in ``players``; ``BookError`` listing the players when unknown."""
    if isinstance(name, str) and name.strip() in players:
        return players.index(name.strip())
    known = ", ".join(players)
    raise BookError("unknown player {name!r} (players: {known})", field=field, name=name, known=known)
