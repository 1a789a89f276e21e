"""``ofc rules``: show a preset's settings and royalty tables."""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation
from typing import Annotated

import typer

from ofc.cli.app import LanguageOption, app, build_rules
from ofc.i18n import NC_, Term, format_number, localize, tr
from ofc.rules.ranking import CATEGORY_NAMES, RANK_PLURALS, Category
from ofc.rules.rows import Row
from ofc.rules.rulebook import PRESETS, Rules
from ofc.rules.variants import SCORING_TERMS, VARIANT_TERMS
from ofc.terminal.words import row_word, scoring_text, word

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


def readable_royalty_rows(rules: Rules) -> list[tuple[str, int, int]]:
    """``royalty_rows`` with the hands named in the player's language."""
    table = rules.royalty_table
    rows = [(word(CATEGORY_NAMES[c]), table.bottom[c], table.middle[c]) for _name, c in ROYALTY_HANDS]
    rows.append((localize("Royal flush", {}), table.bottom_royal, table.middle_royal))
    return rows


def readable_top_rows(rules: Rules) -> list[tuple[str, int]]:
    """``top_rows`` with the hands named in the player's language: ``Pair, sixes``, ``Trips, aces``."""
    table = rules.royalty_table
    pair, trips = CATEGORY_NAMES[Category.PAIR], CATEGORY_NAMES[Category.TRIPS]
    pairs = [
        (localize("{category}, {ranks}", {"category": pair, "ranks": RANK_PLURALS[r]}), v)
        for r, v in enumerate(table.top_pair)
        if v
    ]
    sets = [
        (localize("{category}, {ranks}", {"category": trips, "ranks": RANK_PLURALS[r]}), v)
        for r, v in enumerate(table.top_trips)
        if v
    ]
    return pairs + sets


VALUE_TERMS: dict[str, dict[str, Term]] = {
    "variant": {variant.value: term for variant, term in VARIANT_TERMS.items()},
    "scoring": {scoring.value: term for scoring, term in SCORING_TERMS.items()},
    "fantasy_cards": {
        "fixed": NC_("fantasy cards", "fixed"),
        "progressive": NC_("fantasy cards", "progressive"),
    },
    "fantasy_stay": {
        "top_trips": NC_("fantasy stay", "top_trips"),
        "bottom_quads_plus": NC_("fantasy stay", "bottom_quads_plus"),
        "middle_quads_plus": NC_("fantasy stay", "middle_quads_plus"),
        "middle_full_house_plus": NC_("fantasy stay", "middle_full_house_plus"),
    },
    "button_on_fantasy": {
        "stays": NC_("button on fantasy", "stays"),
        "moves": NC_("button on fantasy", "moves"),
    },
}
"""The words a setting's value is shown in, per setting (``--set`` and ``--json`` keep the English values)."""


def _one_value(name: str, value: object) -> str:
    term = VALUE_TERMS.get(name, {}).get(str(value))
    if term is not None:
        return word(term)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return format_number(value)
    if isinstance(value, str):
        try:
            return format_number(Decimal(value))
        except InvalidOperation:
            return value
    return str(value)


def setting_text(value: object, name: str = "") -> str:
    """A setting's value as shown to a person in the player's language: the words of setting
    ``name``'s values translated (``VALUE_TERMS``), numbers written the language's way, none,
    on, off translated."""
    if value is None:
        return tr("none")
    if isinstance(value, bool):
        return tr("on") if value else tr("off")
    if isinstance(value, list):
        return ", ".join(_one_value(name, v) for v in value) or tr("none")
    return _one_value(name, value)


@app.command("rules")
def show_rules(
    preset: Annotated[str, typer.Argument(help=f"One of: {', '.join(PRESETS)}")] = "classic",
    settings: Annotated[list[str] | None, typer.Option("--set", metavar="KEY=VALUE", help="Override a setting")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print settings and tables as JSON")] = False,
    lang: LanguageOption = None,
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
    from rich.console import Console  # loaded only for the tables (not by --json or --help)
    from rich.table import Table as RichTable

    console = Console()
    grid = RichTable(title=tr("preset {preset}", preset=preset))
    grid.add_column(tr("setting"))
    grid.add_column(tr("value"))
    for name, value in rules.to_dict().items():
        grid.add_row(name, setting_text(value, name))
    console.print(grid)
    pays = RichTable(title=tr("royalties ({scoring}): bottom and middle rows", scoring=scoring_text(rules)))
    pays.add_column(tr("hand"))
    pays.add_column(row_word(Row.BOTTOM), justify="right")
    pays.add_column(row_word(Row.MIDDLE), justify="right")
    for hand, bottom, middle in readable_royalty_rows(rules):
        pays.add_row(hand, str(bottom), str(middle))
    console.print(pays)
    top = RichTable(title=tr("top row royalties"))
    top.add_column(tr("hand"))
    top.add_column(tr("royalty"), justify="right")
    for hand, value in readable_top_rows(rules):
        top.add_row(hand, str(value))
    console.print(top)
