"""``ofc tournament``: bots play a tournament to the end, or many with statistics."""

from __future__ import annotations

import json
import os
import secrets
import sys
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from ofc.cli.app import app, build_rules
from ofc.errors import RulesError
from ofc.rules import Rules
from ofc.tournament import Finish, Tournament

if TYPE_CHECKING:  # annotations only: the modules themselves load when the command runs
    from ofc.tournament_sim import RepeatResult, TournamentRun


def plural(count: int, noun: str) -> str:
    """``1 hand``, ``8 hands``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def level_lines(run: TournamentRun) -> list[str]:
    """One line per level: chips per point, hands, chips at its end and who went out in it."""
    from ofc.terminal.tourney import place_text, rate_text

    names = [s.name for s in run.standings]
    lines = []
    for level in run.levels:
        chips = ", ".join(f"{name} {count}" for name, count in zip(names, level.chips, strict=True))
        hands = plural(level.hands, "hand")
        text = f"level {level.level:>2}: {rate_text(level.chips_per_point)}, {hands}; chips {chips}"
        for bot in level.out:
            gone = run.standings[bot]
            text += f"; {gone.name} out in hand {gone.out_in_hand} ({place_text(Finish(gone.place, gone.tied))})"
        lines.append(text)
    return lines


def standings_table(run: TournamentRun) -> RichTable:
    """The final standings, best place first."""
    from ofc.terminal.tourney import place_text

    grid = RichTable(title=f"Final standings after {run.hands} hands, prize pool {run.pool:.2f}")
    for column in ("place", "bot", "prize", "hands played", "out in hand"):
        grid.add_column(column, justify="left" if column in ("place", "bot") else "right")
    for standing in sorted(run.standings, key=lambda s: s.place):
        out = "-" if standing.out_in_hand is None else str(standing.out_in_hand)
        grid.add_row(
            place_text(Finish(standing.place, standing.tied)),
            standing.name,
            f"{standing.prize:.2f}",
            str(standing.hands_played),
            out,
        )
    return grid


def repeat_table(result: RepeatResult) -> RichTable:
    """Per bot: mean prize with its 95% interval, then each place's share with its interval."""
    from ofc.terminal.tourney import ordinal

    title = f"{result.tournaments} tournaments, buy-in {result.buy_in:.2f}, seed {result.seed}, "
    grid = RichTable(title=title + f"{result.mean_hands:.1f} hands on average")
    grid.add_column("bot")
    grid.add_column("mean prize", justify="right")
    grid.add_column("95% CI", justify="right")
    for place in result.bots[0].places:
        grid.add_column(f"{ordinal(place.place)} (95% CI)", justify="right")
    for bot in result.bots:
        shares = [f"{p.share:.1%} ({p.low:.0%}-{p.high:.0%})" for p in bot.places]
        grid.add_row(bot.name, f"{bot.mean_prize:.2f}", f"\u00b1{bot.ci95:.2f}", *shares)
    return grid


def console() -> Console:
    """Standard output, wide enough for the tables when it is not a terminal."""
    return Console(width=None if sys.stdout.isatty() else 160, highlight=False)


@app.command("tournament")
def tournament_command(
    bots: Annotated[str, typer.Option("--bots", help="Bots, one per seat: e.g. mc,heuristic,random")],
    rules: Annotated[str, typer.Option("--rules", help="Rules preset")] = "pineapple",
    settings: Annotated[
        list[str] | None, typer.Option("--set", metavar="KEY=VALUE", help="Override a setting (buy_in, payouts, ...)")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="Seed of the run (random if omitted)")] = None,
    count: Annotated[int, typer.Option("--repeat", help="Tournaments to play; more than 1 prints statistics")] = 1,
    workers: Annotated[int | None, typer.Option("--workers", help="Processes for --repeat (default: all)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON")] = False,
) -> None:
    """Play a tournament of bots to the end and print each level and the final standings."""
    from ofc.bots import make_bot, split_specs
    from ofc.sim import table_rules
    from ofc.tournament_sim import play_tournament

    specs = split_specs(bots)
    if len(specs) < 2:
        raise RulesError(f"--bots: a tournament needs at least two bots, not {len(specs)}")
    for spec in specs:
        make_bot(spec)  # an unknown bot or option fails before anything is played
    table = table_rules(build_rules(Rules.preset(rules), None, settings or []), len(specs))
    Tournament(table, button=0)  # more places paid than players fails here
    if count < 1:
        raise RulesError(f"--repeat must be at least 1, not {count}")
    processes = workers if workers is not None else (os.cpu_count() or 1)
    if processes < 1:
        raise RulesError(f"--workers must be at least 1, not {processes}")
    run_seed = seed if seed is not None else secrets.randbits(31)
    if count == 1:
        run = play_tournament(table, specs, seed=run_seed)
        if as_json:
            typer.echo(json.dumps(run.to_dict()))
            return
        out = console()
        out.print(
            f"{table.variant} tournament, {table.players} players, buy-in {table.buy_in:.2f}, "
            f"{table.starting_chips} chips, {table.level_hands} hands a level, seed {run_seed}"
        )
        for line in level_lines(run):
            out.print(line)
        out.print(standings_table(run))
        return
    result = run_repeat(table, specs, count, run_seed, processes)
    if as_json:
        typer.echo(json.dumps(result.to_dict()))
    else:
        console().print(repeat_table(result))


def run_repeat(table: Rules, specs: list[str], count: int, seed: int, workers: int) -> RepeatResult:
    """``repeat`` with a progress bar and ETA on a terminal."""
    from ofc.tournament_sim import repeat

    if not sys.stderr.isatty():
        return repeat(table, specs, count, seed=seed, workers=workers)
    columns = (TextColumn("tournaments"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("tournaments", total=count)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return repeat(table, specs, count, seed=seed, workers=workers, progress=advance)
