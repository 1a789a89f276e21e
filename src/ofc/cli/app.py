"""The ``ofc`` typer application and the error handling shared by every command.

Each command lives in its own module under ``ofc.cli`` and registers itself on ``app``.
Any ``OfcError`` (and any usage error) ends the process with status 2 and one line on
stderr, in the player's language; no command prints a traceback for bad input.

The language of what a command prints is ``--lang`` (``LanguageOption``, shared by every
command a player reads), else the environment (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
``LANG``); ``main`` restores the caller's language when the command ends. Help texts stay
English (typer reads them at import, before any choice is known); ``--json`` output and hand
histories never go through the translation layer.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from typer.exceptions import TyperException

from ofc.i18n import from_environment, localize_error, parse_language, set_language, tr, use_language
from ofc.rules.errors import InputError, OfcError

if TYPE_CHECKING:
    from ofc.rules.rulebook import Rules

USAGE_ERROR = 2

app = typer.Typer(
    name="ofc",
    help="Open Face Chinese Poker: scoring, rules, solver, play.",
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def help_without_command(ctx: typer.Context) -> None:
    """A group called without a sub-command prints its help and exits with status 0."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)


app.callback(invoke_without_command=True)(help_without_command)


def choose_language(value: str | None) -> str | None:
    """``--lang``'s callback: make its language (or the environment's) current for the command."""
    set_language(parse_language(value) if value is not None else from_environment(os.environ))
    return value


LanguageOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        metavar="en|ru|uk",
        help="Language of the output (default: LANGUAGE, LC_ALL, LC_MESSAGES or LANG)",
        callback=choose_language,
        is_eager=True,
    ),
]
"""The one ``--lang`` option of every command a player reads."""


def fail(message: str) -> NoReturn:
    """Print ``ofc: error: message`` on one line of stderr and exit with status 2."""
    text = " ".join(str(message).split())
    print(tr("ofc: error: {message}", message=text), file=sys.stderr)
    raise SystemExit(USAGE_ERROR)


def read_text(source: str) -> str:
    """Read a file named on the command line, ``-`` meaning standard input."""
    name = "standard input" if source == "-" else source
    try:
        if source != "-":
            return Path(source).read_text(encoding="utf-8")
        raw = getattr(sys.stdin, "buffer", None)  # the bytes, whatever the locale's error handler
        return raw.read().decode("utf-8") if raw is not None else sys.stdin.read()
    except OSError as error:
        raise InputError("cannot read {name}: {problem}", name=name, problem=error.strerror or error) from None
    except UnicodeDecodeError:
        raise InputError("cannot read {name}: not UTF-8 text", name=name) from None


def read_json(source: str) -> object:
    """Parse a JSON document from a file or ``-``, with a one-line error when malformed."""
    text = read_text(source)
    name = "standard input" if source == "-" else source
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            "{name} is not valid JSON: {problem} at line {line}", name=name, problem=error.msg, line=error.lineno
        ) from None
    except RecursionError:
        raise InputError("{name} is not valid JSON: it is nested too deeply", name=name) from None
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise InputError("{name} is not valid JSON: a number has too many digits", name=name) from None


def build_rules(base: Rules, preset: str | None, assignments: Sequence[str]) -> Rules:
    """Apply ``--rules PRESET`` (replacing ``base``) and then ``--set KEY=VALUE`` overrides."""
    from ofc.rules.rulebook import Rules, parse_assignment

    rules = Rules.preset(preset) if preset is not None else base
    overrides = dict(parse_assignment(text) for text in assignments)
    return rules.with_settings(overrides) if overrides else rules


COMMAND_MODULES: Mapping[str, str] = {
    "analyze": "ofc.cli.analyze_cmd",
    "keep": "ofc.cli.keep_cmd",
    "play": "ofc.cli.play_cmd",
    "replay": "ofc.cli.replay_cmd",
    "rules": "ofc.cli.rules_cmd",
    "score": "ofc.cli.score_cmd",
    "serve": "ofc.cli.serve_cmd",
    "simulate": "ofc.cli.simulate_cmd",
    "solve": "ofc.cli.solve_cmd",
    "tournament": "ofc.cli.tournament_cmd",
    "train": "ofc.cli.train_cmd",
}
"""Sub-command name -> the module that registers it on ``app`` when imported."""


def register(args: Sequence[str]) -> None:
    """Import the module of the sub-command ``args`` name, or every one (for ``--help``, unknown names).

    A command that needs no kernels, bots or server starts without loading them.
    """
    first = next((arg for arg in args if not arg.startswith("-")), "")
    names = [first] if first in COMMAND_MODULES else list(COMMAND_MODULES)
    for name in names:
        importlib.import_module(COMMAND_MODULES[name])


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``ofc`` command."""
    args = list(argv) if argv is not None else sys.argv[1:]
    register(args)

    with use_language(from_environment(os.environ)):  # --lang changes it; the caller's comes back
        run(args)


def run(args: list[str]) -> None:
    """Run the command line ``args``; errors end it as ``fail`` says."""
    try:
        app(args=args, standalone_mode=False)
    except OfcError as error:
        fail(localize_error(error))
    except typer.Abort:
        print(tr("ofc: aborted"), file=sys.stderr)
        raise SystemExit(130) from None
    except TyperException as error:
        fail(error.format_message())
    except typer.Exit as done:
        raise SystemExit(done.exit_code) from None
