"""Reading a table of finished boards from a JSON document (the input of ``ofc score``).

The document is ``{"rules": PRESET or {"preset": ..., SETTING: VALUE}, "players": [PLAYER]}``
where a player is ``{"name": str, "top": CARDS, "middle": CARDS, "bottom": CARDS}`` and may
carry ``"fantasy_in_row"`` (how many fantasy hands in a row this hand completes). ``CARDS`` is
a string such as ``"Ah Kd 2c"`` or a list of card strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ofc.rules.cards import parse_cards
from ofc.rules.errors import InputError, OfcError
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import ROW_NAMES, Board
from ofc.rules.terms import Term

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
            raise InputError('"rules": "preset" must be a preset name, got {preset!r}', preset=preset)
        return Rules.preset(preset).with_settings(settings)
    raise InputError('"rules" must be a preset name or an object of settings, got {value!r}', value=value)


def read_seat(index: int, value: object) -> Seat:
    """One player object of the document; errors name the player."""
    number = index + 1
    if not isinstance(value, Mapping):
        raise InputError("player {number}: expected an object with top, middle and bottom rows", number=number)
    unknown = sorted(set(value) - PLAYER_KEYS)
    if unknown:
        raise InputError(
            "player {number}: unknown key {unknown!r} (known: {names})",
            number=number,
            unknown=unknown[0],
            names=", ".join(sorted(PLAYER_KEYS)),
        )
    name = value.get("name", f"player {number}")
    if not isinstance(name, str) or not name.strip():
        raise InputError("player {number}: name must be a non-empty string", number=number)
    rows: dict[str, tuple[int, ...]] = {}
    for row in ROW_NAMES:
        if row not in value:
            raise InputError("player {name!r}: the {row} row is missing", name=name, row=Term("row", row))
        cards = value[row]
        if not isinstance(cards, str | list):
            raise InputError(
                "player {name!r}: the {row} row must be a string or a list of cards", name=name, row=Term("row", row)
            )
        try:
            rows[row] = parse_cards(cards)
        except OfcError as error:
            raise InputError(
                "player {name!r}, {row} row: {error}", name=name, row=Term("row", row), error=error
            ) from None
    streak = value.get("fantasy_in_row", 0)
    if isinstance(streak, bool) or not isinstance(streak, int) or streak < 0:
        raise InputError("player {name!r}: fantasy_in_row must be a whole number >= 0", name=name)
    try:
        board = Board(rows["top"], rows["middle"], rows["bottom"])
    except OfcError as error:
        raise InputError("player {name!r}: {error}", name=name, error=error) from None
    return Seat(name, board, streak)


def read_table(document: object, rules: Rules | None = None) -> Table:
    """Parse a whole document; ``rules`` (when given) replaces the document's own rules."""
    if not isinstance(document, Mapping):
        raise InputError('expected a JSON object with "rules" and "players"')
    unknown = sorted(set(document) - {"rules", "players"})
    if unknown:
        raise InputError("unknown key {unknown!r} at the top level (known: players, rules)", unknown=unknown[0])
    players = document.get("players")
    if not isinstance(players, list):
        raise InputError('"players" must be a list of players')
    seats = tuple(read_seat(i, value) for i, value in enumerate(players))
    names = [seat.name for seat in seats]
    for name in names:
        if names.count(name) > 1:
            raise InputError("two players are called {name!r}", name=name)
    table_rules = rules if rules is not None else rules_from_document(document.get("rules"))
    explicit = document.get("rules")
    says_players = rules is None and isinstance(explicit, Mapping) and "players" in explicit
    if says_players and table_rules.players != len(seats):
        raise InputError(
            "setting players is {players} but {n_seats} players are given",
            players=table_rules.players,
            n_seats=len(seats),
        )
    if len(seats) < 2:
        raise InputError("a table needs at least 2 players, got {n_seats}", n_seats=len(seats))
    table_rules = table_rules.with_settings({"players": len(seats)})
    return Table(table_rules, seats)
