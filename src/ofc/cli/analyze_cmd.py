"""``ofc analyze``: each decision of a saved hand against the best choice, with its loss.

The analysis (numpy, numba, the bots) loads when the command runs, not with ``ofc --help``.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from ofc.bots import ANALYSIS_CANDIDATES, ANALYSIS_FLAG, ANALYSIS_ROLLOUTS
from ofc.cli.app import app, read_text
from ofc.rules.errors import HistoryError


@app.command("analyze")
def analyze_command(
    source: Annotated[str, typer.Argument(help="Hand-history JSON file, or - for standard input")],
    seat: Annotated[list[int] | None, typer.Option("--seat", help="Seat to analyse (repeatable; default all)")] = None,
    player: Annotated[str | None, typer.Option("--player", help="Analyse the seat of this name")] = None,
    rollouts: Annotated[int, typer.Option("--rollouts", help="Play-outs per choice")] = ANALYSIS_ROLLOUTS,
    candidates: Annotated[int, typer.Option("--candidates", help="Choices priced per decision")] = ANALYSIS_CANDIDATES,
    flag: Annotated[float, typer.Option("--flag", help="Flag losses of at least this many points")] = ANALYSIS_FLAG,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the play-outs")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON")] = False,
) -> None:
    """Give each decision of a saved hand its expected loss against the best choice."""
    from rich.console import Console
    from rich.table import Table as RichTable

    from ofc.bots.analysis import Analyzer, total_loss
    from ofc.formats.history import read

    history = read(read_text(source))
    seats = list(seat) if seat else None
    if player is not None:
        names = history.names or ()
        if player not in names:
            if not names:
                raise HistoryError("no player named {player!r} in this hand (seats: unnamed)", player=player)
            raise HistoryError(
                "no player named {player!r} in this hand (seats: {names})", player=player, names=", ".join(names)
            )
        seats = [names.index(player)]
    reports = Analyzer(rollouts=rollouts, candidates=candidates, flag=flag, seed=seed).analyse(history, seats)
    if as_json:
        document = {"decisions": [r.to_dict() for r in reports], "total_loss": total_loss(reports)}
        typer.echo(json.dumps(document))
        return
    grid = RichTable(title=f"decisions priced by {rollouts} play-outs per choice (95% intervals)")
    for column in ("#", "seat", "street", "played", "best", "loss", ""):
        grid.add_column(column)
    for r in reports:
        if r.kind != "street":
            grid.add_row(str(r.index + 1), history.name(r.seat), str(r.street), str(r.played), r.kind, "-", "")
            continue
        best = r.choices[0]
        grid.add_row(
            str(r.index + 1),
            history.name(r.seat),
            str(r.street),
            f"{r.played} ({r.played_value:+.2f})",
            f"{best.action} ({best.value:+.2f})",
            f"{r.loss:.2f} \u00b1{r.ci95:.2f}",
            "MISTAKE" if r.flagged else "within noise" if r.within_noise else "",
        )
    Console(width=None if sys.stdout.isatty() else 160).print(grid)
    typer.echo(f"total expected loss: {total_loss(reports):.2f} points")
