"""``ofc replay FILE``: replay a hand history and print it street by street.

A replay is after the fact, so discards and fantasy boards are shown as they were played;
a seat's copy (the file ``ofc play`` keeps) shows other seats' discards face-down, as they
stay for ever, and is checked from its placements since it holds no deck.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ofc.cli.app import LanguageOption, app, read_json
from ofc.engine.actions import Action
from ofc.engine.result import HandResult
from ofc.formats.history import HandHistory, check_copy, read, replay
from ofc.i18n import format_number, tr, trn
from ofc.rules.cards import format_cards
from ofc.rules.errors import HistoryError
from ofc.rules.rows import ROWS
from ofc.rules.rulebook import Street
from ofc.terminal.cardtext import signed
from ofc.terminal.words import game_text, hand_text, points_text, row_texts, row_word


def seat_name(history: HandHistory, seat: int) -> str:
    """The name of ``seat``, or ``seat N`` (in the player's language) when the history names nobody."""
    return history.names[seat] if history.names is not None else tr("seat {number}", number=seat)


def action_text(action: Action, hidden: int = 0) -> str:
    """``top Qs | bottom 9h 9d; discarded 2c`` for one action (``hidden`` discards face-down)."""
    text = " | ".join(row_texts(action))
    if action.discards:
        text += tr("; discarded {cards}", cards=format_cards(action.discards))
    if hidden:
        text += trn("; discarded {n} card face-down", "; discarded {n} cards face-down", hidden)
    return text


def street_title(number: int, street: Street) -> str:
    """Heading of street ``number`` (1-based)."""
    if street.discards:
        deal = trn(
            "{n} card: place {place}, discard {discards}",
            "{n} cards: place {place}, discard {discards}",
            street.cards,
            place=street.place,
            discards=street.discards,
        )
    else:
        deal = trn("{n} card: place {place}", "{n} cards: place {place}", street.cards, place=street.place)
    return tr("Street {number} ({deal})", number=number, deal=deal)


def header_lines(history: HandHistory) -> list[str]:
    """The table: rules, seats, button, deck seed and fantasy seats."""
    rules = history.rules
    seats = ", ".join(f"{seat_name(history, seat)}" for seat in range(rules.players))
    lines = [
        game_text(rules),
        tr("seats: {seats}; button: {button}", seats=seats, button=seat_name(history, history.button)),
    ]
    if history.viewer is not None:
        lines.append(tr("{name}'s copy: other seats' discards stay face-down", name=seat_name(history, history.viewer)))
    elif history.seed is not None:
        lines.append(tr("deck: seed {seed}", seed=str(history.seed)))
    else:
        lines.append(tr("deck: shuffled (no seed)"))
    fields = history.tournament
    if fields is not None:
        lines.append(
            trn(
                "tournament hand {hand}, level {level}: {n} chip per point",
                "tournament hand {hand}, level {level}: {n} chips per point",
                fields.chips_per_point,
                hand=fields.hand,
                level=fields.level,
            )
        )
        stacks = zip(fields.chips, fields.chips_won, fields.chips_after, strict=True)
        chips = ", ".join(
            f"{seat_name(history, seat)} {format_number(a)} {plus(w)} = {format_number(b)}"
            for seat, (a, w, b) in enumerate(stacks)
        )
        lines.append(tr("chips: {stacks}", stacks=chips))
    for seat, cards in enumerate(history.fantasy):
        if cards:
            lines.append(tr("fantasy: {name} is dealt {cards} cards", name=seat_name(history, seat), cards=cards))
    return lines


FANTASY_HEADING = -2
"""``play_lines``' marker for the fantasy heading (streets are numbered from 0)."""


def play_lines(history: HandHistory) -> list[str]:
    """Every action in order, under a heading for each street."""
    players = history.rules.players
    width = max(len(seat_name(history, seat)) for seat in range(players))
    streets = history.rules.spec.streets
    hidden = history.hidden or (0,) * len(history.records)
    played = [0] * players
    shown = -1
    lines: list[str] = []
    for record, face_down in zip(history.records, hidden, strict=True):
        seat = record.action.seat
        name = seat_name(history, seat).ljust(width)
        at = format_number(record.time.normalize())
        if record.automatic:
            when = tr("  (at {time} s, automatic: out of time)", time=at)
        else:
            when = tr("  (at {time} s)", time=at)
        text = action_text(record.action, face_down)
        if history.fantasy[seat]:
            if shown != FANTASY_HEADING:
                shown = FANTASY_HEADING
                lines.extend(["", tr("Fantasy hands (set first, face-down until the showdown)")])
            lines.append(f"  {name}  " + tr("fantasy: {action}", action=text) + when)
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
        return ["", tr("The hand is not finished.")]
    lines = ["", tr("Showdown")]
    rows = max(len(row_word(row)) for row in ROWS)
    players = history.rules.players
    width = max(len(seat_name(history, seat)) for seat in range(players))
    for seat, (board, line) in enumerate(zip(result.boards, result.sheet.players, strict=True)):
        keys = (line.keys.top, line.keys.middle, line.keys.bottom)
        pays = (line.royalties.top, line.royalties.middle, line.royalties.bottom)
        for position, row in enumerate(ROWS):
            label = seat_name(history, seat).ljust(width) if position == 0 else " " * width
            cards = format_cards(board.row(row.label)).ljust(14)
            bonus = tr(", royalty {royalty}", royalty=pays[position]) if pays[position] else ""
            lines.append(f"  {label}  {row_word(row):<{rows}} {cards} {hand_text(keys[position])}{bonus}")
        notes = [tr("FOULED")] if line.fouled else []
        notes.append(tr("royalties {royalties}", royalties=line.royalties.total))
        if line.fantasy:
            notes.append(trn("fantasy next hand: {n} card", "fantasy next hand: {n} cards", line.fantasy))
        lines.append(f"  {' ' * width}  {', '.join(notes)}")
    lines.extend(["", tr("Points")])
    for seat, line in enumerate(result.sheet.players):
        versus = ", ".join(
            tr("{points} vs {name}", points=plus(points), name=seat_name(history, other))
            for other, points in enumerate(line.vs)
            if other != seat
        )
        versus = tr("({versus})", versus=versus)  # "(с соперниками: bob +19)" in Russian
        lines.append(f"  {seat_name(history, seat).ljust(width)}  {points_text(line.points)}  {versus}")
    return lines


def plus(points: int) -> str:
    """Points with a sign, ``+0`` for a draw."""
    return signed(points) if points else "+0"


def replay_text(history: HandHistory, result: HandResult | None) -> str:
    """The whole printed replay of a checked history and its result."""
    return "\n".join(header_lines(history) + play_lines(history) + showdown_lines(history, result))


@app.command("replay")
def replay_command(
    source: Annotated[str, typer.Argument(metavar="FILE|-", help="Hand history JSON; - for stdin")],
    lang: LanguageOption = None,
) -> None:
    """Replay a hand history, check it, and print the hand street by street."""
    document = read_json(source)
    if not isinstance(document, dict):
        raise HistoryError("a hand history must be a JSON object")
    history = read(document)
    result = check_copy(history) if history.is_copy else replay(history).result
    typer.echo(replay_text(history, result))
