"""What the player types, read into command values (pure: no I/O, no game state).

A placement line is cards followed by where they go: ``Ah b Kd m 7c x`` puts the ace of hearts
on the bottom, the king of diamonds in the middle and discards the seven of clubs; ``Ah Kd b``
puts both on the bottom. Rows are ``t``/``top``, ``m``/``mid``/``middle``, ``b``/``bot``/
``bottom``; ``x``/``d``/``discard`` discards. A placement line may end in ``ok`` to confirm
at once. Every other command is one word: see ``HELP``.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from ofc.i18n import N_
from ofc.rules.cards import Card, format_cards, parse_card
from ofc.rules.errors import CardError, OfcError, UnknownRow
from ofc.rules.rows import Row
from ofc.terminal.words import row_in_language


class CommandError(OfcError, ValueError):
    """A line the player typed cannot be read; the message says why, in one line."""


DISCARD: Literal["discard"] = "discard"
Target = Row | Literal["discard"]
"""Where a card goes: a row, or the discards."""


class Verb(Enum):
    """The one-word commands."""

    CONFIRM = "ok"
    UNDO = "undo"
    CLEAR = "clear"
    HINT = "hint"
    SOLVE = "solve"
    ACCEPT = "accept"
    HELP = "help"
    QUIT = "quit"


@dataclass(frozen=True)
class Place:
    """Put ``moves`` (card, target) in order; ``confirm`` when the line ended in ``ok``."""

    moves: tuple[tuple[Card, Target], ...]
    confirm: bool = False


@dataclass(frozen=True)
class Undo:
    """Take back one card: ``card``, or the last one placed when None."""

    card: Card | None = None


@dataclass(frozen=True)
class Simple:
    """A one-word command other than undo."""

    verb: Verb


Command = Place | Undo | Simple

_DISCARD_WORDS = frozenset({"x", "d", "discard"})

_VERBS: dict[str, Verb] = {
    "": Verb.CONFIRM, "ok": Verb.CONFIRM, "done": Verb.CONFIRM,
    "undo": Verb.UNDO, "u": Verb.UNDO, "back": Verb.UNDO,
    "clear": Verb.CLEAR, "c": Verb.CLEAR, "reset": Verb.CLEAR,
    "hint": Verb.HINT, "h": Verb.HINT,
    "solve": Verb.SOLVE, "s": Verb.SOLVE,
    "accept": Verb.ACCEPT, "a": Verb.ACCEPT,
    "help": Verb.HELP, "?": Verb.HELP,
    "quit": Verb.QUIT, "q": Verb.QUIT, "exit": Verb.QUIT,
}  # fmt: skip

HELP: tuple[str, ...] = (
    N_("Ah b Kd m 7c x   Ah to the bottom, Kd middle, 7c discarded (rows: t, m, b)"),
    N_("Ah Kd b          several cards to one row; end a line with ok to confirm at once"),
    N_("Enter or ok      confirm the street once every card is placed"),
    N_("undo [CARD]      take back the last card (or CARD); clear takes back all"),
    N_("hint             the pro bot's three best choices and their expected points"),
    N_("solve            the fantasy solver's board; accept takes a hint or solve"),
    N_("help             this list; quit (or Ctrl-C) leaves the match"),
)
"""The help lines, in English (``translate`` each where it is shown). The commands themselves
stay the same in every language: ``t``/``m``/``b``, ``x``, ``ok``, ``undo``, ``hint``..."""


WORDS: tuple[str, ...] = (*(verb.value for verb in Verb), "top", "middle", "bottom", "discard")
"""The words a terminal completes besides the cards: every command and the rows' full names."""


def parse_target(token: str) -> Target | None:
    """The row (any name ``Row.parse`` reads, or its letter or name in the player's language:
    ``ofc.terminal.words.row_in_language``) or discard a token names, or None."""
    if token.lower() in _DISCARD_WORDS:
        return DISCARD
    with suppress(UnknownRow):
        return Row.parse(token)
    return row_in_language(token)


def parse_command(line: str) -> Command:
    """Read one line the player typed; raises ``CommandError`` with a one-line reason."""
    tokens = line.split()
    if not tokens:
        return Simple(Verb.CONFIRM)
    first = tokens[0].lower()
    verb = _VERBS.get(first)
    if verb is Verb.UNDO:
        return _undo(tokens[1:])
    if verb is not None:
        if len(tokens) > 1:
            raise CommandError("{first} takes nothing after it, got {names!r}", first=first, names=" ".join(tokens[1:]))
        return Simple(verb)
    return _placement(tokens)


def _undo(rest: list[str]) -> Undo:
    if not rest:
        return Undo()
    if len(rest) > 1:
        raise CommandError("undo takes back one card at a time, got {names!r}", names=" ".join(rest))
    return Undo(_card(rest[0]))


def _card(token: str) -> Card:
    try:
        return parse_card(token)
    except CardError:
        raise CommandError(
            "{token!r} is neither a card (like Ah, Td, 10c) nor a command (help lists them)", token=token
        ) from None


def _placement(tokens: list[str]) -> Place:
    confirm = tokens[-1].lower() in ("ok", "done")
    if confirm:
        tokens = tokens[:-1]
    moves: list[tuple[Card, Target]] = []
    waiting: list[Card] = []
    for token in tokens:
        target = parse_target(token)
        if target is None:
            waiting.append(_card(token))
            continue
        if not waiting:
            raise CommandError("{token!r} needs cards before it: write the card first, as in 'Ah {token}'", token=token)
        moves.extend((card, target) for card in waiting)
        waiting = []
    if waiting:
        names = format_cards(waiting)
        raise CommandError("say where {names} should go: add t, m, b (or x to discard) after it", names=names)
    if not moves:
        raise CommandError("nothing to place: write cards and rows, as in 'Ah b Kd m'")
    return Place(tuple(moves), confirm)
