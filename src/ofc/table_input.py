"""Reading a table of finished boards from a JSON document (the input of ``ofc score``).

The document is ``{"rules": PRESET or {"preset": ..., SETTING: VALUE}, "players": [PLAYER]}``
where a player is ``{"name": str, "top": CARDS, "middle": CARDS, "bottom": CARDS}`` and may
carry ``"fantasy_in_row"`` (how many fantasy hands in a row this hand completes). ``CARDS`` is
a string such as ``"Ah Kd 2c"`` or a list of card strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ofc.cards import parse_cards
from ofc.errors import InputError, OfcError
from ofc.rules import Rules
from ofc.scoring import ROW_NAMES, Board

PLAYER_KEYS = frozenset({"name", "top", "middle", "bottom", "fantasy_in_row"})
DEFAULT_PRESET = "classic"


@dataclass(frozen=True)
class Seat:
    """One player of the table: a name, a finished board and their fantasy streak."""

    name: str
    board: Board
    fantasy_in_row: int = 0


@dataclass(frozen=True)
class Table:
    """The rules and the seats read from a document."""

    rules: Rules
    seats: tuple[Seat, ...]


def rules_from_document(value: object) -> Rules:
    """Rules from the document's ``"rules"`` entry: a preset name or an object of settings."""
    if value is None:
        return Rules.preset(DEFAULT_PRESET)
    if isinstance(value, str):
        return Rules.preset(value)
    if isinstance(value, Mapping):
        settings = dict(value)
        preset = settings.pop("preset", DEFAULT_PRESET)
        if not isinstance(preset, str):
            raise InputError(f'"rules": "preset" must be a preset name, got {preset!r}')
        return Rules.preset(preset).with_settings(settings)
    raise InputError(f'"rules" must be a preset name or an object of settings, got {value!r}')


def read_seat(index: int, value: object) -> Seat:
    """One player object of the document; errors name the player."""
    label = f"player {index + 1}"
    if not isinstance(value, Mapping):
        raise InputError(f"{label}: expected an object with top, middle and bottom rows")
    unknown = sorted(set(value) - PLAYER_KEYS)
    if unknown:
        raise InputError(f"{label}: unknown key {unknown[0]!r} (known: {', '.join(sorted(PLAYER_KEYS))})")
    name = value.get("name", label)
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"{label}: name must be a non-empty string")
    label = f"player {name!r}"
    rows: dict[str, tuple[int, ...]] = {}
    for row in ROW_NAMES:
        if row not in value:
            raise InputError(f"{label}: the {row} row is missing")
        cards = value[row]
        if not isinstance(cards, str | list):
            raise InputError(f"{label}: the {row} row must be a string or a list of cards")
        try:
            rows[row] = parse_cards(cards)
        except OfcError as error:
            raise InputError(f"{label}, {row} row: {error}") from None
    streak = value.get("fantasy_in_row", 0)
    if isinstance(streak, bool) or not isinstance(streak, int) or streak < 0:
        raise InputError(f"{label}: fantasy_in_row must be a whole number >= 0")
    try:
        board = Board(rows["top"], rows["middle"], rows["bottom"])
    except OfcError as error:
        raise InputError(f"{label}: {error}") from None
    return Seat(name, board, streak)


def read_table(document: object, rules: Rules | None = None) -> Table:
    """Parse a whole document; ``rules`` (when given) replaces the document's own rules."""
    if not isinstance(document, Mapping):
        raise InputError('expected a JSON object with "rules" and "players"')
    unknown = sorted(set(document) - {"rules", "players"})
    if unknown:
        raise InputError(f"unknown key {unknown[0]!r} at the top level (known: players, rules)")
    players = document.get("players")
    if not isinstance(players, list):
        raise InputError('"players" must be a list of players')
    seats = tuple(read_seat(i, value) for i, value in enumerate(players))
    names = [seat.name for seat in seats]
    for name in names:
        if names.count(name) > 1:
            raise InputError(f"two players are called {name!r}")
    table_rules = rules if rules is not None else rules_from_document(document.get("rules"))
    explicit = document.get("rules")
    says_players = rules is None and isinstance(explicit, Mapping) and "players" in explicit
    if says_players and table_rules.players != len(seats):
        raise InputError(f"setting players is {table_rules.players} but {len(seats)} players are given")
    if len(seats) < 2:
        raise InputError(f"a table needs at least 2 players, got {len(seats)}")
    table_rules = table_rules.with_settings({"players": len(seats)})
    return Table(table_rules, seats)
