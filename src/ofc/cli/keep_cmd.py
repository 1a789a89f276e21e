"""``ofc keep``: keep a live match's score in a book file, hand after hand.

``new`` starts a book, ``add`` enters a hand, ``edit`` / ``delete`` change a past one (every
later hand is scored again), ``show`` and ``settle`` print the table and who pays whom,
``score`` reads a whole book and prints everything (``--json`` for programs).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ofc.cli.app import LanguageOption, app, build_rules, help_without_command, read_json
from ofc.cli.keep_screen import render_hand, render_settlement, render_table
from ofc.keep.book import Book
from ofc.keep.document import book_document, read_book, score_document
from ofc.keep.entries import BookError
from ofc.keep.replay import Keeping, replay
from ofc.rules.errors import InputError
from ofc.rules.rulebook import Rules

keep_app = typer.Typer(
    help="Keep a live match's score: hands entered one by one, totals, settlement.",
    rich_markup_mode=None,
)
keep_app.callback(invoke_without_command=True)(help_without_command)
app.add_typer(keep_app, name="keep")

FileArg = Annotated[Path, typer.Argument(metavar="FILE", help="The book file (JSON)")]
Entries = Annotated[list[str] | None, typer.Argument(metavar="NAME=BOARD...", help="'top / middle / bottom' or dead")]


def load(path: Path) -> Keeping:
    """Read and replay a book file."""
    return replay(read_book(read_json(str(path))))


def save(path: Path, book: Book) -> None:
    """Write the book file atomically (a crash leaves the old file or the new one, never half)."""
    text = json.dumps(book_document(book), indent=1) + "\n"
    folder = path.resolve().parent
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def parse_assignments(book: Book, items: Sequence[str]) -> dict[str, object]:
    """``NAME=BOARD`` arguments as a raw hand (names checked)."""
    raw: dict[str, object] = {}
    for item in items:
        name, sep, board = item.partition("=")
        if not sep:
            raise BookError("expected NAME=BOARD (or NAME=dead), got {item!r}", field="hand", item=item)
        name = name.strip()
        book.seat(name, name)
        if name in raw:
            raise BookError("{name} is given twice", field=name, name=name)
        raw[name] = board
    return raw


def hand_number(keeping: Keeping, number: int) -> int:
    """A 1-based hand number as an index; ``BookError`` when there is no such hand."""
    count = len(keeping.hands)
    if not 1 <= number <= count:
        if count == 1:
            raise BookError(
                "there is no hand {number}: the book holds {count} hand", field="hand", number=number, count=count
            )
        raise BookError(
            "there is no hand {number}: the book holds {count} hands", field="hand", number=number, count=count
        )
    return number - 1


def changed(path: Path, book: Book) -> None:
    """Check ``book``, write it, and print the last hand and the running table."""
    keeping = replay(book)
    save(path, book)
    console = Console()
    if keeping.hands:
        render_hand(keeping.hands[-1], console)
    render_table(keeping, console)
    if keeping.over:
        render_settlement(keeping, console)


@keep_app.command("new")
def new(
    path: FileArg,
    players: Annotated[list[str] | None, typer.Argument(metavar="NAME...", help="Players in seat order")] = None,
    rules: Annotated[str, typer.Option("--rules", help="Preset")] = "classic",
    settings: Annotated[list[str] | None, typer.Option("--set", metavar="KEY=VALUE", help="A setting")] = None,
    button: Annotated[str | None, typer.Option("--button", help="First button (default: the first name)")] = None,
    after: Annotated[Path | None, typer.Option("--after", help="An old book: same players, button on")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE")] = False,
    lang: LanguageOption = None,
) -> None:
    """Start a book: the players in seat order, the rules, who has the button."""
    if path.exists() and not force:
        raise InputError("{path} exists: choose another file or pass --force", path=path)
    if after is not None:
        if players or settings or button:
            raise InputError("--after takes the players, rules and button from the old book: give none of them")
        old = load(after)
        if not old.over:
            raise InputError(
                "the match of {after} is not over yet: finish it (or start a book with names)", after=after
            )
        book = old.next_book()
    else:
        names = players or []
        chosen = build_rules(Rules.preset(rules), None, settings or [])
        book = Book.new(chosen, names, button if button is not None else (names[0] if names else ""))
    changed(path, book)


@keep_app.command("add")
def add(path: FileArg, entries: Entries = None, lang: LanguageOption = None) -> None:
    """Enter the next hand: NAME=BOARD for every player dealt in."""
    keeping = load(path)
    book = keeping.book
    hand = book.read_hand(parse_assignments(book, entries or []))
    changed(path, book.with_hands([*book.hands, hand]))


@keep_app.command("edit")
def edit(
    path: FileArg,
    number: Annotated[int, typer.Argument(metavar="N", help="The hand to change, from 1")],
    entries: Entries = None,
    lang: LanguageOption = None,
) -> None:
    """Change hand N: the players named get the new boards; later hands are scored again."""
    keeping = load(path)
    book = keeping.book
    index = hand_number(keeping, number)
    hand = dict(book.hands[index]) | book.read_hand(parse_assignments(book, entries or []))
    hands = list(book.hands)
    hands[index] = {name: hand[name] for name in book.players if name in hand}
    changed(path, _rechecked(book.with_hands(hands), number))


@keep_app.command("delete")
def delete(
    path: FileArg,
    number: Annotated[int | None, typer.Argument(metavar="[N]", help="The hand to delete (default: the last)")] = None,
    lang: LanguageOption = None,
) -> None:
    """Delete hand N (the last by default: undo); later hands are scored again."""
    keeping = load(path)
    book = keeping.book
    index = hand_number(keeping, number if number is not None else len(keeping.hands))
    hands = [hand for position, hand in enumerate(book.hands) if position != index]
    changed(path, _rechecked(book.with_hands(hands), index + 1))


def _rechecked(book: Book, number: int) -> Book:
    """``book`` when it still replays; else an error saying the change at hand ``number`` breaks it."""
    try:
        replay(book)
    except BookError as error:
        raise BookError(
            "changing hand {number} is refused, {error}", field=error.field, number=number, error=error
        ) from None
    return book


@keep_app.command("show")
def show(
    path: FileArg,
    number: Annotated[int | None, typer.Option("--hand", help="Show hand N in full")] = None,
    lang: LanguageOption = None,
) -> None:
    """The running table (and hand N in full with --hand)."""
    keeping = load(path)
    console = Console()
    if number is not None:
        render_hand(keeping.hands[hand_number(keeping, number)], console)
    render_table(keeping, console)


@keep_app.command("settle")
def settle(path: FileArg, lang: LanguageOption = None) -> None:
    """Totals and who pays whom how much (fewest transfers)."""
    keeping = load(path)
    console = Console()
    render_table(keeping, console)
    render_settlement(keeping, console)


@keep_app.command("score")
def score(
    source: Annotated[str, typer.Argument(metavar="FILE|-", help="A whole book (JSON); - for stdin")] = "-",
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON")] = False,
    lang: LanguageOption = None,
) -> None:
    """Score a whole book: every hand, what comes next, totals, settlement."""
    keeping = replay(read_book(read_json(source)))
    if as_json:
        typer.echo(json.dumps(score_document(keeping)))
        return
    console = Console()
    for hand in keeping.hands:
        render_hand(hand, console)
    render_table(keeping, console)
    render_settlement(keeping, console)
