"""The table screen, drawn from the player's view alone (pure: view in, text out).

Boards stand side by side, one column per seat (up to four fit in 80 columns)::

    classic, 2 players, classic scoring - hand 1
    match: you 0, heuristic 0

       you (D)            heuristic
       1:58 +3:00  to act 2:00 +3:00
    T  Ah -- --           Qs -- --
    M  7c 7d Jh*-- --     9c 9h -- -- --
    B  2s 3s 4s -- --     Ad Kd 4c -- --

Empty places are ``--``, face-down fantasy cards ``##`` and a card placed but not yet
confirmed is marked ``*``. Below the boards: the street, the cards to place, what has been
placed, the player's discards and any notes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from ofc.engine.view import HandView, SeatView
from ofc.i18n import tr, trn
from ofc.rules.cards import Card
from ofc.rules.rows import ROW_SIZES, ROWS, Row
from ofc.rules.rulebook import HAND_CARDS
from ofc.terminal import cardtext
from ofc.terminal.commands import DISCARD
from ofc.terminal.placing import Placing
from ofc.terminal.words import game_text, row_letters, row_word

COLUMN = 19
"""Width of one seat's column; the row labels take 3 more (4 seats: 79 columns)."""
NAME_WIDTH = 12
WIDTH = 80


@dataclass(frozen=True)
class Table:
    """What the screen shows besides the view: seat names (hand order), hand number, ledger.

    A tournament gives ``status`` lines (level, chips, places) instead of the match ledger.
    """

    names: tuple[str, ...]
    hand_number: int
    ledger: str
    status: tuple[str, ...] = ()


def short_name(name: str) -> str:
    """A name cut to fit its column."""
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "~"


def title(view: HandView, table: Table) -> Text:
    """First line: the game and the hand number."""
    text = tr(
        "{game} - hand {number}",
        game=game_text(view.rules),
        number=table.hand_number,
    )
    return Text(text, style="bold")


def ledger_line(table: Table) -> Text:
    """Second line: the match so far in points, cut to the screen's width."""
    text = Text(tr("match: {ledger}", ledger=table.ledger) if table.ledger else "")
    text.truncate(WIDTH - 1)
    return text


def status_lines(table: Table) -> list[Text]:
    """The match ledger line, or a tournament's status lines, each cut to the screen's width."""
    if not table.status:
        return [ledger_line(table)]
    lines = [Text(line) for line in table.status]
    for line in lines:
        line.truncate(WIDTH - 1)
    return lines


def row_text(seat: SeatView, row: Row, pending: Sequence[Card]) -> Text:
    """One row of a board: its cards, then pending cards, then empty or face-down places."""
    placed = seat.rows[row]
    hidden = _hidden_in(seat, row)
    out = Text()
    for item in placed:
        out.append_text(cardtext.card(item))
        out.append(" ")
    for item in pending:
        out.append_text(cardtext.card(item, pending=True))
    empty = ROW_SIZES[row] - len(placed) - len(pending) - hidden
    out.append(" ".join([cardtext.HIDDEN] * hidden + [cardtext.EMPTY] * empty))
    out.rstrip()
    return out


def _hidden_in(seat: SeatView, row: Row) -> int:
    """Face-down cards in ``row``: a set fantasy board fills top, then middle, then bottom."""
    before = sum(ROW_SIZES[:row])
    return max(0, min(ROW_SIZES[row], seat.hidden - before))


def seat_status(seat: SeatView, viewer: int | None) -> str:
    """The line under a board: fantasy, cards held, discards (counts only, for others)."""
    if seat.fantasy:
        if seat.done:
            return tr("fantasy {cards} (set)", cards=seat.fantasy)
        return tr("fantasy {cards}", cards=seat.fantasy)
    if seat.seat == viewer:
        return ""
    parts = [tr("holds {count}", count=seat.holding)] if seat.holding else []
    if seat.discarded:
        parts.append(tr("disc {count}", count=seat.discarded))
    return ", ".join(parts)


def board_lines(view: HandView, table: Table, placing: Placing | None) -> list[Text]:
    """Names, clocks, the three rows and a status line, one column per seat."""
    header = [Text("   "), Text("   ")]
    rows = [Text(f"{letter}  ") for letter in row_letters()]
    status = Text("   ")
    for seat in view.seats:
        mine = seat.seat == view.seat
        name = short_name(table.names[seat.seat]) + (tr(" (D)") if seat.seat == view.button else "")
        turn = tr("  to act") if seat.seat in view.to_act else ""
        cells = [
            Text(name, style="bold" if mine else ""),
            Text(cardtext.clock(seat.clock) + turn, style="yellow" if turn else ""),
        ]
        for line, cell in zip(header, cells, strict=True):
            _cell(line, cell)
        for row in ROWS:
            pending = placing.cards_in(row) if mine and placing is not None else ()
            _cell(rows[row], row_text(seat, row, pending))
        _cell(status, Text(seat_status(seat, view.seat), style="dim"))
    lines = [*header, *rows, status]
    for line in lines:
        line.rstrip()
    return lines


def _cell(line: Text, cell: Text) -> None:
    cell.truncate(COLUMN - 1)
    line.append_text(cell)
    line.append(" " * (COLUMN - cell.cell_len))


def street_line(view: HandView) -> Text:
    """What this deal asks of the player."""
    me = view.seats[view.seat] if view.seat is not None else None
    if me is not None and me.fantasy:
        if me.done:
            return Text(tr("Fantasy: your hand is set; the others play on"), style="bold")
        extra = len(view.cards) - HAND_CARDS
        text = tr(
            "Fantasy: set {set} of your {cards} cards, discard {extra}",
            set=HAND_CARDS,
            cards=len(view.cards),
            extra=extra,
        )
        if not extra:
            text = tr("Fantasy: set all {cards} cards", cards=HAND_CARDS)
        return Text(text + tr(" (solve shows the solver's board)"), style="bold")
    streets = view.rules.spec.streets
    street = streets[min(view.street, len(streets) - 1)]
    place = trn("place {n} card", "place {n} cards", street.place)
    if street.discards:
        place = tr("{place}, discard {count}", place=place, count=street.discards)
    text = tr("Street {number} of {streets}: {place}", number=view.street + 1, streets=len(streets), place=place)
    return Text(text, style="bold")


def placing_lines(view: HandView, placing: Placing | None) -> list[Text]:
    """The cards still to place, what is placed so far, and the player's discards."""
    lines: list[Text] = []
    if placing is not None:
        left = placing.unplaced
        if left:
            lines.append(Text(tr("To place: ")).append_text(cardtext.cards(list(left))))
        else:
            lines.append(Text(tr("All placed: Enter confirms, undo takes back"), style="green"))
        if placing.moves:
            lines.append(Text(tr("Placed: ")).append_text(moves_text(placing)))
    if view.discards:
        lines.append(Text(tr("Your discards: ")).append_text(cardtext.cards(list(view.discards))))
    return lines


def moves_text(placing: Placing) -> Text:
    """``top Qs | bottom Ah 2c | discard 7d`` for the cards placed so far."""
    parts: list[Text] = []
    for target in (*ROWS, DISCARD):
        placed = placing.cards_in(target)
        if placed:
            label = tr("discard") if target == DISCARD else row_word(Row(target))
            parts.append(Text(f"{label} ").append_text(cardtext.cards(list(placed))))
    return Text(" | ").join(parts)


def screen(view: HandView, table: Table, placing: Placing | None, notes: Sequence[Text]) -> Text:
    """The whole table screen, without the prompt."""
    lines = [title(view, table), *status_lines(table), Text()]
    lines.extend(board_lines(view, table, placing))
    lines.append(Text())
    lines.append(street_line(view))
    lines.extend(placing_lines(view, placing))
    lines.extend(notes)
    return Text("\n").join(lines)
