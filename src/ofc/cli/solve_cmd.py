"""``ofc solve fantasy``: the exact best setting of a fantasy deal."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Annotated

import typer

from ofc.cli.app import LanguageOption, app, build_rules, help_without_command, read_text
from ofc.engine.result import board_dict
from ofc.i18n import format_number, tr
from ofc.rules.cards import format_card, format_cards, parse_cards
from ofc.rules.errors import InputError, OfcError
from ofc.rules.rows import ROWS
from ofc.rules.rulebook import Rules
from ofc.solver import DEFAULT_STAY_VALUE
from ofc.terminal.words import hand_text, row_word

if TYPE_CHECKING:  # annotations only: the modules themselves load when the command runs
    from ofc.solver import FantasySolution


solve_app = typer.Typer(help="Solvers: the exact fantasyland solver.")
solve_app.callback(invoke_without_command=True)(help_without_command)
app.add_typer(solve_app, name="solve")


def solution_json(solution: FantasySolution, seconds: float) -> dict[str, object]:
    """The ``--json`` document of one solved deal."""
    return {
        **board_dict(solution.board),
        "discards": [format_card(c) for c in solution.discards],
        "royalties": solution.royalties.total,
        "stays": solution.stays,
        "value": solution.value,
        "seconds": seconds,
    }


def render(solution: FantasySolution, seconds: float, stay_value: float) -> str:
    """The readable answer: rows with hand names and royalties, then the totals."""
    board, keys, pay = solution.board, solution.keys, solution.royalties
    rows = (
        (board.top, keys.top, pay.top),
        (board.middle, keys.middle, pay.middle),
        (board.bottom, keys.bottom, pay.bottom),
    )
    stays = tr("yes (a repeat is worth {value})", value=short(stay_value)) if solution.stays else tr("no")
    labels = [tr("discards"), tr("royalties"), tr("stays"), tr("value"), tr("time")]
    width = max(9, *(len(row_word(row)) for row in ROWS), *(len(label) for label in labels))
    lines = [
        f"{row_word(row):<{width}} {format_cards(cards):<15} {hand_text(key):<32} {bonus:>3}"
        for row, (cards, key, bonus) in zip(ROWS, rows, strict=True)
    ]
    values = [
        format_cards(solution.discards) or "-",
        format_number(pay.total),
        stays,
        short(solution.value),
        tr("{ms} ms", ms=format_number(round(seconds * 1000, 2))),
    ]
    lines += [f"{label:<{width}} {value}" for label, value in zip(labels, values, strict=True)]
    return "\n".join(lines)


def short(value: float) -> str:
    """A value as ``{:g}`` writes it, in the language's digits: ``12``, ``37.5`` (``37,5``)."""
    return format_number(float(f"{value:g}"))


def timed_solve(text: str, rules: Rules, stay_value: float, can_stay: bool) -> tuple[FantasySolution, float]:
    """Parse and solve one deal; the time covers the solve alone."""
    from ofc.solver import solve_fantasy

    cards = parse_cards(text)
    start = time.perf_counter()
    solution = solve_fantasy(cards, rules, stay_value=stay_value, can_stay=can_stay)
    return solution, time.perf_counter() - start


@solve_app.command("fantasy")
def fantasy(
    cards: Annotated[str | None, typer.Argument(help='The deal in one string, e.g. "Ah Kd 7c ..."')] = None,
    rules: Annotated[str, typer.Option("--rules", help="Rules preset")] = "pineapple",
    settings: Annotated[list[str] | None, typer.Option("--set", metavar="KEY=VALUE", help="Override a setting")] = None,
    stay_value: Annotated[
        float, typer.Option("--stay-value", help="Points a repeat fantasy is worth")
    ] = DEFAULT_STAY_VALUE,
    no_stay: Annotated[
        bool, typer.Option("--no-stay", help="A repeat is not allowed (fantasy_max_in_row reached)")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON")] = False,
    batch: Annotated[
        str | None, typer.Option("--batch", metavar="FILE", help="One deal per line (- for stdin); JSON lines out")
    ] = None,
    lang: LanguageOption = None,
) -> None:
    """Set a fantasy deal (13 to 17 cards) for the most royalties plus the stay value."""
    from ofc.solver import warm_up

    game = build_rules(Rules.preset(rules), None, settings or [])
    if (cards is None) == (batch is None):
        raise InputError("give either CARDS or --batch FILE")
    warm_up(game)
    if batch is not None:
        lines = read_text(batch).splitlines()
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                solution, seconds = timed_solve(line, game, stay_value, not no_stay)
            except OfcError as error:
                raise InputError("{batch} line {number}: {error}", batch=batch, number=number, error=error) from None
            typer.echo(json.dumps(solution_json(solution, seconds)))
        return
    assert cards is not None
    solution, seconds = timed_solve(cards, game, stay_value, not no_stay)
    if as_json:
        typer.echo(json.dumps(solution_json(solution, seconds)))
    else:
        typer.echo(render(solution, seconds, stay_value))
