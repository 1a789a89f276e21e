"""``ofc replay FILE``: replay a hand history and print it street by street.

A replay is after the fact, so discards and fantasy boards are shown as they were played;
a seat's copy (the file ``ofc play`` keeps) shows other seats' discards face-down, as they
stay for ever, and is checked from its placements since it holds no deck.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ofc.actions import ROWS, Action
from ofc.cards import format_cards
from ofc.cli.app import app, read_json
from ofc.clock import time_text
from ofc.errors import HistoryError
from ofc.history import HandHistory, check_copy, read, replay
from ofc.ranking import hand_name
from ofc.result import HandResult
from ofc.rules import Street


def action_text(action: Action, hidden: int = 0) -> str:
    """``top Qs | bottom 9h 9d; discarded 2c`` for one action (``hidden`` discards face-down)."""
    text = " | ".join(action.row_texts())
    if action.discards:
        text += f"; discarded {format_cards(action.discards)}"
    if hidden:
        text += f"; discarded {hidden} card{'s' if hidden > 1 else ''} face-down"
    return text


def street_title(number: int, street: Street) -> str:
    """Heading of street ``number`` (1-based)."""
    plural = "s" if street.cards != 1 else ""
    deal = f"{street.cards} card{plural}: place {street.place}"
    if street.discards:
        deal += f", discard {street.discards}"
    return f"Street {number} ({deal})"


def header_lines(history: HandHistory) -> list[str]:
    """The table: rules, seats, button, deck seed and fantasy seats."""
    rules = history.rules
    seats = ", ".join(f"{history.name(seat)}" for seat in range(rules.players))
    lines = [
        f"{rules.variant}, {rules.players} players, {rules.scoring} scoring",
        f"seats: {seats}; button: {history.name(history.button)}",
    ]
    if history.viewer is not None:
        lines.append(f"{history.name(history.viewer)}'s copy: other seats' discards stay face-down")
    else:
        lines.append(f"deck: seed {history.seed}" if history.seed is not None else "deck: shuffled (no seed)")
    fields = history.tournament
    if fields is not None:
        lines.append(f"tournament hand {fields.hand}, level {fields.level}: {fields.chips_per_point} chips per point")
        stacks = zip(fields.chips, fields.chips_won, fields.chips_after, strict=True)
        chips = ", ".join(f"{history.name(seat)} {a} {w:+d} = {b}" for seat, (a, w, b) in enumerate(stacks))
        lines.append(f"chips: {chips}")
    for seat, cards in enumerate(history.fantasy):
        if cards:
            lines.append(f"fantasy: {history.name(seat)} is dealt {cards} cards")
    return lines


FANTASY_HEADING = -2
"""``play_lines``' marker for the fantasy heading (streets are numbered from 0)."""


def play_lines(history: HandHistory) -> list[str]:
    """Every action in order, under a heading for each street."""
    players = history.rules.players
    width = max(len(history.name(seat)) for seat in range(players))
    streets = history.rules.spec.streets
    hidden = history.hidden or (0,) * len(history.records)
    played = [0] * players
    shown = -1
    lines: list[str] = []
    for record, face_down in zip(history.records, hidden, strict=True):
        seat = record.action.seat
        name = history.name(seat).ljust(width)
        how = ", automatic: out of time" if record.automatic else ""
        when = f"  (at {time_text(record.time)} s{how})"
        text = action_text(record.action, face_down)
        if history.fantasy[seat]:
            if shown != FANTASY_HEADING:
                shown = FANTASY_HEADING
                lines.extend(["", "Fantasy hands (set first, face-down until the showdown)"])
            lines.append(f"  {name}  fantasy: {text}{when}")
            continue
        street = played[seat]
        played[seat] += 1
        if street != shown:
            shown = street
            lines.extend(["", street_title(street + 1, streets[street])])
        lines.append(f"  {name}  {text}{when}")
    return lines


def showdown_lines(history: HandHistory, result: HandResult | None) -> list[str]:
    """The boards with hand names, then each seat's points from the score sheet."""
    if result is None:
        return ["", "The hand is not finished."]
    lines = ["", "Showdown"]
    players = history.rules.players
    width = max(len(history.name(seat)) for seat in range(players))
    for seat, (board, line) in enumerate(zip(result.boards, result.sheet.players, strict=True)):
        keys = (line.keys.top, line.keys.middle, line.keys.bottom)
        pays = (line.royalties.top, line.royalties.middle, line.royalties.bottom)
        for position, row in enumerate(ROWS):
            label = history.name(seat).ljust(width) if position == 0 else " " * width
            cards = format_cards(board.row(row.label)).ljust(14)
            bonus = f", royalty {pays[position]}" if pays[position] else ""
            lines.append(f"  {label}  {row.label:<6} {cards} {hand_name(keys[position])}{bonus}")
        notes = ["FOULED"] if line.fouled else []
        notes.append(f"royalties {line.royalties.total}")
        if line.fantasy:
            notes.append(f"fantasy next hand: {line.fantasy} cards")
        lines.append(f"  {' ' * width}  {', '.join(notes)}")
    lines.extend(["", "Points"])
    for seat, line in enumerate(result.sheet.players):
        versus = ", ".join(
            f"{points:+d} vs {history.name(other)}" for other, points in enumerate(line.vs) if other != seat
        )
        lines.append(f"  {history.name(seat).ljust(width)}  {line.points:+d}  ({versus})")
    return lines


def replay_text(history: HandHistory, result: HandResult | None) -> str:
    """The whole printed replay of a checked history and its result."""
    return "\n".join(header_lines(history) + play_lines(history) + showdown_lines(history, result))


@app.command("replay")
def replay_command(
    source: Annotated[str, typer.Argument(metavar="FILE|-", help="Hand history JSON; - for stdin")],
) -> None:
    """Replay a hand history, check it, and print the hand street by street."""
    document = read_json(source)
    if not isinstance(document, dict):
        raise HistoryError("a hand history must be a JSON object")
    history = read(document)
    result = check_copy(history) if history.is_copy else replay(history).result
    typer.echo(replay_text(history, result))
