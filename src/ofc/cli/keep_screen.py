"""What ``ofc keep`` prints: a hand as ``ofc score`` shows it, the running table, the settlement."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from ofc.i18n import format_money, format_number, tr, trn
from ofc.keep.replay import Keeping, PlayedHand
from ofc.rules.cards import format_cards
from ofc.rules.rows import ROWS
from ofc.series.ledger import amount_text
from ofc.terminal.cardtext import signed
from ofc.terminal.words import hand_text, row_word, scoring_text, variant_word


def render_hand(hand: PlayedHand, console: Console) -> None:
    """The boards with hand names and royalties, then each player's results."""
    rules = hand.rules
    fantasy = ", ".join(
        tr("{name} in fantasy ({cards} cards)", name=name, cards=cards) for name, cards in hand.fantasy.items()
    )
    title = tr(
        "hand {number}: {variant}, {scoring}, button {button}",
        number=hand.number + 1,
        variant=variant_word(rules),
        scoring=scoring_text(rules),
        button=hand.button,
    )
    boards = RichTable(title=Text(title + (f"; {fantasy}" if fantasy else "")))
    boards.add_column(tr("player"))
    boards.add_column(tr("row"))
    boards.add_column(tr("cards"))
    boards.add_column(tr("hand"))
    boards.add_column(tr("royalty"), justify="right")
    for name in hand.order:
        entry, line = hand.entries[name], hand.line(name)
        if entry.board is None:
            boards.add_row(Text(name), "", tr("DEAD (did not finish)"), "", "0", end_section=True)
            continue
        keys = (line.keys.top, line.keys.middle, line.keys.bottom)
        pays = (line.royalties.top, line.royalties.middle, line.royalties.bottom)
        for row in ROWS:
            label = name if row == 0 else (tr("FOULED") if line.fouled and row == 1 else "")
            cards = format_cards(entry.board.row(row.label))
            name_of = hand_text(keys[row])
            pay = format_number(pays[row])
            boards.add_row(Text(label), row_word(row), cards, name_of, pay, end_section=row == 2)
    console.print(boards)
    results = RichTable(title=tr("results in points (a column per opponent; was: before the loss limit)"))
    for column in (tr("player"), tr("fouled"), tr("royalties"), tr("fantasy next")):
        results.add_column(column)
    for name in hand.order:
        results.add_column(Text(name), justify="right")
    results.add_column(tr("total"), justify="right", no_wrap=True)
    points = hand.points
    for name in hand.order:
        line = hand.line(name)
        cells = ["" if other == name else plus(hand.pair(name, other).total) for other in hand.order]
        fouled = tr("dead") if hand.entries[name].dead else (tr("yes") if line.fouled else tr("no"))
        earned = trn("{n} card", "{n} cards", line.fantasy) if line.fantasy else "-"
        total = points_amount(points[name])
        if points[name] != line.points:
            total += tr(" (was {points})", points=plus(line.points))
        results.add_row(Text(name), fouled, format_number(line.royalties.total), earned, *cells, total)
    console.print(results)
    pairs = RichTable(title=tr("pair by pair"), show_header=True)
    pairs.add_column(tr("pair"))
    for column in (*(row_word(row) for row in ROWS), tr("scoop"), tr("royalties"), tr("total")):
        pairs.add_column(column, justify="right")
    order = hand.order
    for position, name in enumerate(order):
        for other in order[position + 1 :]:
            part = hand.pair(name, other)
            cells = [plus(value) for value in (*part.rows, part.scoop, part.royalties, part.total)]
            pairs.add_row(Text(tr("{name} v {other}", name=name, other=other)), *cells)
    console.print(pairs)


def plus(value: int) -> str:
    """Whole points with a sign, ``+0`` for nothing won."""
    return signed(value) if value else "+0"


def points_amount(value: Fraction) -> str:
    """Points (exact, perhaps cut by the loss limit) with a sign: ``+12``, ``-2.5`` (``-2,5``)."""
    text = format_number(Decimal(amount_text(value)))
    return text if text.startswith("-") or value == 0 else f"+{text}"


def money_amount(value: Fraction | Decimal, sign: bool = True) -> str:
    """Money, with a sign unless ``sign`` is false: ``+12``, ``-2.50`` (``-2,50`` in Russian)."""
    text = format_money(Decimal(amount_text(value)))
    return f"+{text}" if sign and value > 0 else text


def render_table(keeping: Keeping, console: Console) -> None:
    """The running totals per player and what the next hand is."""
    book = keeping.book
    count = len(keeping.hands)
    table = RichTable(title=trn("after {n} hand", "after {n} hands", count))
    table.add_column(tr("player"))
    for number in range(count):
        table.add_column(str(number + 1), justify="right")
    table.add_column(tr("points"), justify="right")
    table.add_column(tr("money (x{value})", value=format_number(book.rules.point_value)), justify="right")
    table.add_column("")
    left = keeping.left
    for name in book.players:
        per_hand = [points_amount(hand.points[name]) for hand in keeping.hands]
        note = tr("out: loss limit") if name in left else ""
        if name in keeping.next_fantasy:
            note = tr("fantasy next: {cards}", cards=keeping.next_fantasy[name])
        money = money_amount(keeping.money[name])
        table.add_row(Text(name), *per_hand, points_amount(keeping.points[name]), money, note)
    console.print(table)
    if keeping.over:
        console.print(trn("The match is over after {n} hand.", "The match is over after {n} hands.", count))
    else:
        text = tr(
            "Next: hand {number}, button {button}, order of play {order}.",
            number=count + 1,
            button=keeping.next_button,
            order=", ".join(keeping.next_order),
        )
        console.print(Text(text))


def render_settlement(keeping: Keeping, console: Console) -> None:
    """Who pays whom, fewest transfers."""
    transfers = keeping.settlement()
    final = keeping.over
    if not transfers:
        if final:
            console.print(tr("Settlement final: nobody owes anything."))
        else:
            console.print(tr("Settlement so far (the match is not over): nobody owes anything."))
        return
    console.print(tr("Settlement final:") if final else tr("Settlement so far (the match is not over):"))
    for transfer in transfers:
        amount = money_amount(transfer.amount, sign=False)
        text = tr("{payer} pays {payee} {amount}", payer=transfer.payer, payee=transfer.payee, amount=amount)
        console.print(Text("  " + text))
