"""``ofc tournament``: bots play a tournament to the end, or many with statistics."""

from __future__ import annotations

import json
import os
import secrets
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from ofc.cli.app import LanguageOption, app, build_rules
from ofc.i18n import format_number, format_percent, tr, trn
from ofc.rules.errors import RulesError
from ofc.rules.rulebook import Rules
from ofc.rules.variants import VARIANT_TERMS
from ofc.series.tournament import Finish, Tournament
from ofc.terminal.words import money_text

if TYPE_CHECKING:  # annotations only: the modules themselves load when the command runs
    from ofc.sim.tournaments import RepeatResult, TournamentRun


def level_lines(run: TournamentRun) -> list[str]:
    """One line per level: chips per point, hands, chips at its end and who went out in it."""
    from ofc.terminal.tournament import hands_text, place_text, rate_text

    names = [s.name for s in run.standings]
    lines = []
    for level in run.levels:
        chips = ", ".join(f"{name} {format_number(count)}" for name, count in zip(names, level.chips, strict=True))
        number = str(level.level).rjust(2)
        text = tr(
            "level {level}: {rate}, {hands}; chips {chips}",
            level=number,
            rate=rate_text(level.chips_per_point),
            hands=hands_text(level.hands),
            chips=chips,
        )
        for bot in level.out:
            gone = run.standings[bot]
            text += tr(
                "; {name} out in hand {number} ({place})",
                name=gone.name,
                number=gone.out_in_hand,
                place=place_text(Finish(gone.place, gone.tied)),
            )
        lines.append(text)
    return lines


def titled_table(title: str, left: Sequence[str], right: Sequence[str]) -> RichTable:
    """A table under ``title``: the ``left`` columns (text), then the ``right`` ones (numbers)."""
    grid = RichTable(title=title)
    for column in left:
        grid.add_column(column)
    for column in right:
        grid.add_column(column, justify="right")
    return grid


def standings_table(run: TournamentRun) -> RichTable:
    """The final standings, best place first."""
    from ofc.terminal.tournament import place_text

    title = trn(
        "Final standings after {n} hand, prize pool {pool}",
        "Final standings after {n} hands, prize pool {pool}",
        run.hands,
        pool=money_text(run.pool),
    )
    grid = titled_table(title, (tr("place"), tr("bot")), (tr("prize"), tr("hands played"), tr("out in hand")))
    for standing in sorted(run.standings, key=lambda s: s.place):
        out = "-" if standing.out_in_hand is None else format_number(standing.out_in_hand)
        grid.add_row(
            place_text(Finish(standing.place, standing.tied)),
            standing.name,
            money_text(standing.prize),
            format_number(standing.hands_played),
            out,
        )
    return grid


def repeat_table(result: RepeatResult) -> RichTable:
    """Per bot: mean prize with its 95% interval, then each place's share with its interval."""
    from ofc.terminal.tournament import ordinal

    title = trn(
        "{n} tournament, buy-in {buy_in}, seed {seed}, {hands} hands on average",
        "{n} tournaments, buy-in {buy_in}, seed {seed}, {hands} hands on average",
        result.tournaments,
        buy_in=money_text(result.buy_in),
        seed=str(result.seed),
        hands=format_number(round(result.mean_hands, 1)),
    )
    places = [tr("{place} (95% CI)", place=ordinal(place.place)) for place in result.bots[0].places]
    grid = titled_table(title, (tr("bot"),), (tr("mean prize"), tr("95% CI"), *places))
    for bot in result.bots:
        shares = [
            f"{format_percent(p.share, 1)} ({format_percent(p.low)}-{format_percent(p.high)})" for p in bot.places
        ]
        grid.add_row(bot.name, money_text(bot.mean_prize), "\u00b1" + money_text(bot.ci95), *shares)
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
    lang: LanguageOption = None,
) -> None:
    """Play a tournament of bots to the end and print each level and the final standings."""
    from ofc.bots import make_bot, split_specs
    from ofc.sim.simulate import table_rules
    from ofc.sim.tournaments import play_tournament

    specs = split_specs(bots)
    if len(specs) < 2:
        raise RulesError("--bots: a tournament needs at least two bots, not {n_specs}", n_specs=len(specs))
    for spec in specs:
        make_bot(spec)  # an unknown bot or option fails before anything is played
    table = table_rules(build_rules(Rules.preset(rules), None, settings or []), len(specs))
    Tournament(table, button=0)  # more places paid than players fails here
    if count < 1:
        raise RulesError("--repeat must be at least 1, not {count}", count=count)
    processes = workers if workers is not None else (os.cpu_count() or 1)
    if processes < 1:
        raise RulesError("--workers must be at least 1, not {processes}", processes=processes)
    run_seed = seed if seed is not None else secrets.randbits(31)
    if count == 1:
        run = play_tournament(table, specs, seed=run_seed)
        if as_json:
            typer.echo(json.dumps(run.to_dict()))
            return
        out = console()
        out.print(
            trn(
                "{variant} tournament, {n} player, buy-in {buy_in}, {chips} chips, {hands} hands a level, seed {seed}",
                "{variant} tournament, {n} players, buy-in {buy_in}, {chips} chips, {hands} hands a level, seed {seed}",
                table.players,
                variant=VARIANT_TERMS[table.variant],
                buy_in=money_text(table.buy_in),
                chips=table.starting_chips,
                hands=table.level_hands,
                seed=str(run_seed),
            )
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
    from ofc.sim.tournaments import repeat

    if not sys.stderr.isatty():
        return repeat(table, specs, count, seed=seed, workers=workers)
    columns = (TextColumn(tr("tournaments")), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("tournaments", total=count)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return repeat(table, specs, count, seed=seed, workers=workers, progress=advance)
