"""``ofc simulate``: duplicate-deal simulations between bots, with per-bot statistics."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from ofc.cli.app import app, build_rules
from ofc.rules.errors import RulesError
from ofc.rules.rulebook import Rules

if TYPE_CHECKING:  # annotations only: the modules themselves load when the command runs
    from ofc.sim.simulate import SimResult


def result_table(result: SimResult) -> RichTable:
    """The readable per-bot summary."""
    grid = RichTable(title=f"{result.deals} duplicate deals, {result.blocks} blocks, seed {result.seed}")
    for column in ("bot", "pts/hand", "95% CI", "foul", "FL", "stay", "FL gain", "ms mean", "ms max"):
        grid.add_column(column, justify="left" if column == "bot" else "right")
    for bot in result.bots:
        gain = "-" if bot.fantasy_gain is None else f"{bot.fantasy_gain:+.2f}"
        grid.add_row(
            bot.name,
            f"{bot.points_per_hand:+.3f}",
            f"\u00b1{bot.ci95:.3f}",
            f"{bot.foul_rate:.1%}",
            f"{bot.fantasy_rate:.1%}",
            f"{bot.stay_rate:.1%}",
            gain,
            f"{bot.decision_seconds * 1000:.1f}",
            f"{bot.decision_max * 1000:.1f}",
        )
    return grid


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Inside, whatever is written to stdout goes to stderr: by Python (``sys.stdout``) or at the level
    of the file descriptor (Ray's core, the processes it starts). Ray prints the log lines of a lost
    node or worker on stdout; a cluster run keeps them off the JSON document or table printed after."""
    sys.stdout.flush()
    try:
        saved: int | None = os.dup(1)
        os.dup2(2, 1)
    except OSError:  # no descriptor 1 or 2: only Python's stream is redirected
        saved = None
    python_stdout, sys.stdout = sys.stdout, sys.stderr
    try:
        yield
    finally:
        sys.stderr.flush()
        sys.stdout = python_stdout
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


@app.command("simulate")
def simulate_command(
    bots: Annotated[str, typer.Option("--bots", help="Bots, one per seat: e.g. mc:seconds=0.2,heuristic")],
    rules: Annotated[str, typer.Option("--rules", help="Rules preset")] = "pineapple",
    settings: Annotated[list[str] | None, typer.Option("--set", metavar="KEY=VALUE", help="Override a setting")] = None,
    hands: Annotated[int, typer.Option("--hands", help="Duplicate deals to play")] = 100,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the whole run (random if omitted)")] = None,
    workers: Annotated[int | None, typer.Option("--workers", help="Processes (default: all cores)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON")] = False,
    cluster: Annotated[
        str | None, typer.Option("--cluster", help="Run blocks on Ray: auto, local or ray://HOST:PORT")
    ] = None,
) -> None:
    """Play bots against each other on duplicate deals and print per-bot statistics."""
    from ofc.bots import split_specs
    from ofc.train.cluster import check_cluster

    specs = split_specs(bots)
    table = build_rules(Rules.preset(rules), None, settings or [])
    if hands < 1:
        raise RulesError("--hands must be at least 1, not {hands}", hands=hands)
    count = workers if workers is not None else (os.cpu_count() or 1)
    if count < 1:
        raise RulesError("--workers must be at least 1, not {count}", count=count)
    if cluster is not None:
        check_cluster(cluster)
    run_seed = seed if seed is not None else secrets.randbits(31)
    with stdout_to_stderr() if cluster is not None else contextlib.nullcontext():
        result = run_simulation(table, specs, hands, run_seed, count, cluster)
    if as_json:
        typer.echo(json.dumps(result.to_dict()))
    else:
        Console(width=None if sys.stdout.isatty() else 140).print(result_table(result))


def run_simulation(
    table: Rules, specs: list[str], hands: int, seed: int, workers: int, cluster: str | None
) -> SimResult:
    """The simulation, with a progress bar on stderr when it is a terminal."""
    from ofc.sim.simulate import simulate

    if sys.stderr.isatty():
        columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("blocks", total=None)

            def advance(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            return simulate(table, specs, hands, seed=seed, workers=workers, progress=advance, cluster=cluster)
    return simulate(table, specs, hands, seed=seed, workers=workers, cluster=cluster)
