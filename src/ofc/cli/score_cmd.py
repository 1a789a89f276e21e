"""``ofc score``: score a table of finished boards.

The scoring, the table reader and rich load when the command runs, so ``ofc score --help``
starts as fast as typer itself (``benchmarks/bench_cli.py``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from ofc.cli.app import LanguageOption, app, build_rules, read_json
from ofc.rules.errors import InputError

if TYPE_CHECKING:
    from rich.console import Console

    from ofc.formats.score_table import Table
    from ofc.rules.rulebook import Rules
    from ofc.rules.scoring import ScoreSheet


def score_json(table: Table, sheet: ScoreSheet) -> dict[str, object]:
    """The ``--json`` document: one entry per player, in input order."""
    names = [seat.name for seat in table.seats]
    players = []
    for i, (seat, line) in enumerate(zip(table.seats, sheet.players, strict=True)):
        players.append(
            {
                "name": seat.name,
                "fouled": line.fouled,
                "royalties": line.royalties.to_dict(),
                "fantasy": line.fantasy,
                "points": line.points,
                "vs": {names[j]: points for j, points in enumerate(line.vs) if j != i},
            }
        )
    return {"players": players}


def render(table: Table, sheet: ScoreSheet, console: Console) -> None:
    """Print the readable score: the boards with hand names, then the results."""
    from rich.table import Table as RichTable
    from rich.text import Text

    from ofc.i18n import format_number, tr, trn
    from ofc.rules.cards import format_cards
    from ofc.rules.rows import ROWS
    from ofc.terminal.cardtext import signed
    from ofc.terminal.words import hand_text, row_word, scoring_text, variant_word

    rules = table.rules
    names = [seat.name for seat in table.seats]
    boards = RichTable(title=tr("{variant}, {scoring}", variant=variant_word(rules), scoring=scoring_text(rules)))
    boards.add_column(tr("player"))
    boards.add_column(tr("row"))
    boards.add_column(tr("cards"))
    boards.add_column(tr("hand"))
    boards.add_column(tr("royalty"), justify="right")
    for seat, line in zip(table.seats, sheet.players, strict=True):
        keys, pay = line.keys, line.royalties
        rows = ((keys.top, pay.top), (keys.middle, pay.middle), (keys.bottom, pay.bottom))
        for row, (key, bonus) in zip(ROWS, rows, strict=True):
            label = seat.name if row == 0 else (tr("FOULED") if line.fouled and row == 1 else "")
            cards = format_cards(seat.board.row(row.label))
            bonus_text = format_number(bonus)
            boards.add_row(Text(label), row_word(row), cards, hand_text(key), bonus_text, end_section=row == 2)
    console.print(boards)
    results = RichTable(title=tr("results in points (a column per opponent)"))
    results.add_column(tr("player"))
    results.add_column(tr("fouled"))
    results.add_column(tr("royalties"))
    results.add_column(tr("fantasy"))
    for name in names:
        results.add_column(Text(name), justify="right")  # a name is text, never rich markup
    results.add_column(tr("total"), justify="right")
    for i, (seat, line) in enumerate(zip(table.seats, sheet.players, strict=True)):
        fantasy = trn("{n} card", "{n} cards", line.fantasy) if line.fantasy else "-"
        vs = ["" if i == j else signed(points) for j, points in enumerate(line.vs)]
        fouled = tr("yes") if line.fouled else tr("no")
        royalties = format_number(line.royalties.total)
        results.add_row(Text(seat.name), fouled, royalties, fantasy, *vs, signed(line.points))
    console.print(results)


@app.command("score")
def score(
    source: Annotated[str, typer.Argument(metavar="[FILE|-]", help="JSON table; - for stdin")] = "-",
    rules: Annotated[str | None, typer.Option("--rules", help="Preset replacing the file's rules")] = None,
    settings: Annotated[list[str] | None, typer.Option("--set", metavar="KEY=VALUE", help="Override a setting")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON")] = False,
    lang: LanguageOption = None,
) -> None:
    """Score a table of finished boards: fouls, royalties, fantasy, points per opponent."""
    from rich.console import Console

    from ofc.formats.score_table import read_table
    from ofc.rules.rulebook import Rules, parse_assignment
    from ofc.rules.scoring import score_boards

    document = read_json(source)
    override: Rules | None = None
    if rules is not None or settings:
        base = read_table(document).rules if rules is None else Rules.preset(rules)
        override = build_rules(base, None, settings or [])
    table = read_table(document, override)
    said = dict(parse_assignment(text) for text in settings or [])
    if override is not None and "players" in said and override.players != len(table.seats):
        raise InputError(
            "--set players={said} but the table has {n_seats} players", said=said["players"], n_seats=len(table.seats)
        )
    sheet = score_boards(
        [seat.board for seat in table.seats],
        table.rules,
        [seat.fantasy_in_row for seat in table.seats],
    )
    if as_json:
        typer.echo(json.dumps(score_json(table, sheet)))
    else:
        render(table, sheet, Console())
