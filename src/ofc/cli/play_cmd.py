"""``ofc play``: a match (or, with ``--tournament``, a tournament) of one person against bots
at the terminal (docs/play.md)."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from ofc.cli.app import LanguageOption, app, build_rules
from ofc.i18n import tr
from ofc.rules.cards import Deck
from ofc.rules.errors import BotError, InputError
from ofc.rules.rulebook import Rules
from ofc.series.match import Match
from ofc.series.tournament import Tournament

if TYPE_CHECKING:  # annotations only: the modules themselves load when the command runs
    from ofc.bots import Bot


DEFAULT_BOTS = "mc"


def bot_specs(text: str | None, players: int | None) -> list[str]:
    """One bot spec per opponent: as listed, or one spec repeated for every opponent."""
    from ofc.bots import split_specs

    specs = split_specs(text or DEFAULT_BOTS)
    wanted = len(specs) if players is None else players - 1
    if players is not None and len(specs) == 1:
        specs = specs * wanted
    if len(specs) != wanted:
        raise BotError(
            "--bots names {n_specs} bots for {players} players: give {wanted}, or one for all",
            n_specs=len(specs),
            players=players,
            wanted=wanted,
        )
    return specs


def seat_names(player: str, specs: Sequence[str]) -> list[str]:
    """The player's name, then each bot named for its kind (``mc``, ``mc2``...)."""
    from ofc.bots.spec import bot_names

    name = " ".join(player.split())
    if not name:
        raise InputError("--name must not be empty")
    if not name.isprintable():  # it is printed on the screen and saved in every hand history
        raise InputError("--name must be printable text, not {name!r}", name=name)
    return [name, *bot_names(specs, taken=[name])]


def dealer(rng: random.Random | None) -> Callable[[], Deck]:
    """Decks for the hands: from seeds drawn with ``rng``, or securely shuffled."""
    if rng is None:
        return Deck
    return lambda: Deck(rng.randrange(2**32))


@app.command("play")
def play(
    rules: Annotated[str, typer.Option("--rules", help="Preset: classic, turbo, pineapple, ...")] = "classic",
    settings: Annotated[list[str] | None, typer.Option("--set", metavar="KEY=VALUE", help="Override a setting")] = None,
    players: Annotated[int | None, typer.Option("--players", help="Seats at the table, you included")] = None,
    bots: Annotated[
        str | None, typer.Option("--bots", help="Bots, comma-separated (random, heuristic, mc[:seconds=S])")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="Seed the button, the decks and the bots")] = None,
    name: Annotated[str | None, typer.Option("--name", help="Your name at the table (default: you)")] = None,
    hint_seconds: Annotated[float, typer.Option("--hint-seconds", help="Thinking time of a hint")] = 1.0,
    hands_dir: Annotated[
        Path | None, typer.Option("--hands-dir", help="Folder for hand histories (default: see docs/play.md)")
    ] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="No colours (NO_COLOR works too)")] = False,
    tournament: Annotated[
        bool, typer.Option("--tournament", help="Play a tournament (chips, levels) instead of a match")
    ] = False,
    lang: LanguageOption = None,
) -> None:
    """Play a match (or a tournament) against bots at the terminal; every finished hand is saved."""
    from ofc.bots import make_bot
    from ofc.terminal.face import Face
    from ofc.terminal.game import Game
    from ofc.terminal.reader import Keyboard, LineReader
    from ofc.terminal.store import HandStore, hands_folder
    from ofc.terminal.tournament import TournamentGame
    from ofc.terminal.warming import warm_bots

    table = build_rules(Rules.preset(rules), None, settings or [])
    if players is not None:
        table = table.with_settings({"players": players})  # checked before the bots are counted
    specs = bot_specs(bots, table.players if players is None and bots is None else players)
    table = table.with_settings({"players": len(specs) + 1})
    if tournament:
        Tournament(table, button=0)  # more places paid than players fails before anything starts
    names = seat_names(tr("you") if name is None else name, specs)
    rng = random.Random(seed) if seed is not None else None
    opponents: dict[int, Bot] = {
        seat: make_bot(spec, seed=None if rng is None else rng.randrange(2**32)) for seat, spec in enumerate(specs, 1)
    }
    advisor_spec = f"pro:seconds={hint_seconds}"
    make_bot(advisor_spec)  # a bad --hint-seconds fails here, before the match starts
    advisor: list[Bot] = []
    advisor_seed = None if rng is None else rng.randrange(2**32)

    def advise() -> Bot:
        if not advisor:
            advisor.append(make_bot(advisor_spec, seed=advisor_seed))
        return advisor[0]

    button = (rng or random.SystemRandom()).randrange(table.players)
    console = Console(no_color=True if no_color else None, highlight=False)
    keyboard: Keyboard = LineReader()  # a pipe or a file: plain lines
    if sys.stdin.isatty() and sys.stdout.isatty():
        from ofc.terminal.prompt import PromptReader

        keyboard = PromptReader(color=not console.no_color and console.color_system is not None)
    face = Face(console, keyboard)
    store = HandStore(hands_dir or hands_folder(), datetime.now(UTC))
    decks = dealer(rng)
    game: Game | TournamentGame
    if tournament:
        game = TournamentGame(
            face, Tournament(table, button=button), names, opponents, store=store, decks=decks, advisor=advise
        )
    else:
        game = Game(face, Match(table, button=button), names, opponents, store=store, decks=decks, advisor=advise)
    with face.interrupts.installed():
        warm_bots(table, face.say)  # said when the kernels are compiled (the first time), not when loaded
        game.run()
