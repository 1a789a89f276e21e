"""``ofc rules``: show a preset's settings and royalty tables."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table as RichTable

from ofc.cli.app import app, build_rules
from ofc.ranking import RANK_PLURALS, Category
from ofc.rules import PRESETS, Rules

ROYALTY_HANDS = (
    ("trips", Category.TRIPS),
    ("straight", Category.STRAIGHT),
    ("flush", Category.FLUSH),
    ("full house", Category.FULL_HOUSE),
    ("four of a kind", Category.QUADS),
    ("straight flush", Category.STRAIGHT_FLUSH),
)


def royalty_rows(rules: Rules) -> list[tuple[str, int, int]]:
    """(hand, bottom, middle) royalties of the rules' table."""
    table = rules.royalty_table
    rows = [(name, table.bottom[c], table.middle[c]) for name, c in ROYALTY_HANDS]
    rows.append(("royal flush", table.bottom_royal, table.middle_royal))
    return rows


def top_rows(rules: Rules) -> list[tuple[str, int]]:
    """(top hand, royalty) for every paying pair and trips."""
    table = rules.royalty_table
    pairs = [(f"pair of {RANK_PLURALS[r]}", v) for r, v in enumerate(table.top_pair) if v]
    trips = [(f"trips, {RANK_PLURALS[r]}", v) for r, v in enumerate(table.top_trips) if v]
    return pairs + trips


def setting_text(value: object) -> str:
    """A setting's value as shown to a person."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


@app.command("rules")
def show_rules(
    preset: Annotated[str, typer.Argument(help=f"One of: {', '.join(PRESETS)}")] = "classic",
    settings: Annotated[list[str] | None, typer.Option("--set", metavar="KEY=VALUE", help="Override a setting")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print settings and tables as JSON")] = False,
) -> None:
    """Print a preset's settings and its royalty tables."""
    rules = build_rules(Rules.preset(preset), None, settings or [])
    if as_json:
        document = {
            "settings": rules.to_dict(),
            "royalties": {
                "bottom_middle": {hand: {"bottom": b, "middle": m} for hand, b, m in royalty_rows(rules)},
                "top": dict(top_rows(rules)),
            },
        }
        typer.echo(json.dumps(document))
        return
    console = Console()
    grid = RichTable(title=f"preset {preset}")
    grid.add_column("setting")
    grid.add_column("value")
    for name, value in rules.to_dict().items():
        grid.add_row(name, setting_text(value))
    console.print(grid)
    pays = RichTable(title=f"{rules.scoring} royalties: bottom and middle")
    for column in ("hand", "bottom", "middle"):
        pays.add_column(column, justify="left" if column == "hand" else "right")
    for hand, bottom, middle in royalty_rows(rules):
        pays.add_row(hand, str(bottom), str(middle))
    console.print(pays)
    top = RichTable(title="top row royalties")
    top.add_column("hand")
    top.add_column("royalty", justify="right")
    for hand, value in top_rows(rules):
        top.add_row(hand, str(value))
    console.print(top)
