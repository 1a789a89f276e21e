"""What ``ofc keep`` prints: a hand as ``ofc score`` shows it, the running table, the settlement."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from ofc.cards import format_cards
from ofc.keep.replay import Keeping, PlayedHand
from ofc.ledger import amount_text
from ofc.ranking import hand_name
from ofc.scoring import ROW_NAMES


def render_hand(hand: PlayedHand, console: Console) -> None:
    """The boards with hand names and royalties, then each player's results."""
    rules = hand.rules
    fantasy = ", ".join(f"{name} in fantasy ({cards} cards)" for name, cards in hand.fantasy.items())
    title = f"hand {hand.number + 1}: {rules.variant}, {rules.scoring} scoring, button {hand.button}"
    boards = RichTable(title=Text(title + (f"; {fantasy}" if fantasy else "")))
    for column in ("player", "row", "cards", "hand", "royalty"):
        boards.add_column(column, justify="right" if column == "royalty" else "left")
    for name in hand.order:
        entry, line = hand.entries[name], hand.line(name)
        if entry.board is None:
            boards.add_row(Text(name), "", "DEAD (did not finish)", "", "0", end_section=True)
            continue
        keys = (line.keys.top, line.keys.middle, line.keys.bottom)
        pays = (line.royalties.top, line.royalties.middle, line.royalties.bottom)
        for position, row in enumerate(ROW_NAMES):
            label = name if position == 0 else ("FOULED" if line.fouled and position == 1 else "")
            cards = format_cards(entry.board.row(row))
            name_of = hand_name(keys[position])
            boards.add_row(Text(label), row, cards, name_of, str(pays[position]), end_section=position == 2)
    console.print(boards)
    results = RichTable(title="results in points (a column per opponent; was: before the loss limit)")
    for column in ("player", "fouled", "royalties", "fantasy next"):
        results.add_column(column)
    for name in hand.order:
        results.add_column(Text(name), justify="right")
    results.add_column("total", justify="right", no_wrap=True)
    points = hand.points
    for name in hand.order:
        line = hand.line(name)
        cells = ["" if other == name else f"{hand.pair(name, other).total:+d}" for other in hand.order]
        fouled = "dead" if hand.entries[name].dead else ("yes" if line.fouled else "no")
        earned = f"{line.fantasy} cards" if line.fantasy else "-"
        total = _signed(points[name])
        if points[name] != line.points:
            total += f" (was {line.points:+d})"
        results.add_row(Text(name), fouled, str(line.royalties.total), earned, *cells, total)
    console.print(results)
    pairs = RichTable(title="pair by pair", show_header=True)
    for column in ("pair", "top", "middle", "bottom", "scoop", "royalties", "total"):
        pairs.add_column(column, justify="left" if column == "pair" else "right")
    order = hand.order
    for position, name in enumerate(order):
        for other in order[position + 1 :]:
            part = hand.pair(name, other)
            cells = [f"{value:+d}" for value in (*part.rows, part.scoop, part.royalties, part.total)]
            pairs.add_row(Text(f"{name} v {other}"), *cells)
    console.print(pairs)


def _signed(value: object) -> str:
    text = amount_text(value)  # type: ignore[arg-type]
    return text if text.startswith("-") or text == "0" else f"+{text}"


def render_table(keeping: Keeping, console: Console) -> None:
    """The running totals per player and what the next hand is."""
    book = keeping.book
    table = RichTable(title=f"after {len(keeping.hands)} hand{'s' if len(keeping.hands) != 1 else ''}")
    table.add_column("player")
    for number in range(len(keeping.hands)):
        table.add_column(str(number + 1), justify="right")
    table.add_column("points", justify="right")
    table.add_column(f"money (x{book.rules.point_value})", justify="right")
    table.add_column("")
    left = keeping.left
    for name in book.players:
        per_hand = [_signed(hand.points[name]) for hand in keeping.hands]
        note = "out: loss limit" if name in left else ""
        if name in keeping.next_fantasy:
            note = f"fantasy next: {keeping.next_fantasy[name]}"
        table.add_row(Text(name), *per_hand, _signed(keeping.points[name]), _signed(keeping.money[name]), note)
    console.print(table)
    if keeping.over:
        console.print(f"The match is over after {len(keeping.hands)} hands.")
    else:
        order = ", ".join(keeping.next_order)
        console.print(
            Text(f"Next: hand {len(keeping.hands) + 1}, button {keeping.next_button}, order of play {order}.")
        )


def render_settlement(keeping: Keeping, console: Console) -> None:
    """Who pays whom, fewest transfers."""
    transfers = keeping.settlement()
    status = "final" if keeping.over else "so far (the match is not over)"
    if not transfers:
        console.print(f"Settlement {status}: nobody owes anything.")
        return
    console.print(f"Settlement {status}:")
    for transfer in transfers:
        console.print(Text(f"  {transfer.payer} pays {transfer.payee} {amount_text(transfer.amount)}"))
