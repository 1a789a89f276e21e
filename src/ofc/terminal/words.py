"""The game's words and numbers in the player's language, for the terminal and the command line.

Rows, variants and hand names come from the rules core as ``Term`` and ``Phrase`` values;
these render them (and points, with the language's plural forms) in the current language.
"""

from __future__ import annotations

from fractions import Fraction

from ofc.engine.actions import Action
from ofc.i18n import NC_, Phrase, Term, fill, localize, tr, trn
from ofc.rules.cards import format_cards
from ofc.rules.ranking import hand_name
from ofc.rules.rows import ROWS, Row
from ofc.rules.rulebook import Rules
from ofc.rules.variants import SCORING_TERMS, VARIANT_TERMS
from ofc.terminal.cardtext import money, signed


def word(value: Term | Phrase) -> str:
    """A term (a row, a variant, a rank) or a phrase in the current language."""
    return fill("{value}", {"value": value})


def row_word(row: Row) -> str:
    """``top`` / ``верхний`` / ``верхній``."""
    return word(row.term)


ROW_LETTERS: tuple[Term, Term, Term] = (NC_("row letter", "T"), NC_("row letter", "M"), NC_("row letter", "B"))
"""The rows' letters at the left of the boards, top first: ``T M B``, ``В С Н`` in Russian and
Ukrainian. The player may type them (and the rows' names) in their language as well as ``t m b``."""


def row_letters() -> tuple[str, str, str]:
    """``T M B`` / ``В С Н``: the rows' letters in the player's language, top first."""
    top, middle, bottom = (word(letter) for letter in ROW_LETTERS)
    return top, middle, bottom


def row_in_language(token: str) -> Row | None:
    """The row a token names by its letter or its name in the player's language (``в``, ``нижний``), or None."""
    key = token.strip().lower()
    for row, letter in zip(ROWS, row_letters(), strict=True):
        if key in (letter.lower(), row_word(row).lower()):
            return row
    return None


BOT_KINDS: dict[str, Term] = {
    "random": NC_("bot name", "random"),
    "heuristic": NC_("bot name", "heuristic"),
    "mc": NC_("bot name", "mc"),
    "pro": NC_("bot name", "pro"),
}
"""The bots' kinds as a seat's name shows them in the player's language."""


def bot_name_text(name: str) -> str:
    """A bot seat's name (``ofc.bots.spec.bot_names``: ``random``, ``mc2``) in the player's
    language: ``случайный``, ``Монте-Карло 2``; a name of another kind stays as it is."""
    kind = name.rstrip("0123456789")
    term = BOT_KINDS.get(kind)
    if term is None:
        return name
    shown = word(term)
    if shown == kind:
        return name
    number = name[len(kind) :]
    return f"{shown} {number}" if number else shown


def hand_text(key: int) -> str:
    """A hand's name, ``Two pair, kings and nines`` or ``Две пары: короли и девятки``."""
    phrase = hand_name(key)
    return localize(phrase.template, phrase.params)


def variant_word(rules: Rules) -> str:
    """``classic`` / ``классический`` / ``класичний``."""
    return word(VARIANT_TERMS[rules.variant])


def game_text(rules: Rules) -> str:
    """``classic, 2 players, classic scoring`` in the player's language."""
    return trn(
        "{variant}, {n} player, {scoring} scoring",
        "{variant}, {n} players, {scoring} scoring",
        rules.players,
        variant=VARIANT_TERMS[rules.variant],
        scoring=SCORING_TERMS[rules.scoring],
    )


def scoring_text(rules: Rules) -> str:
    """``american scoring`` / ``американские правила``."""
    return tr("{scoring} scoring", scoring=SCORING_TERMS[rules.scoring])


def row_texts(action: Action) -> list[str]:
    """``["top Qs", "bottom 9h 9d"]``: each row the action fills, named in the player's language."""
    return [f"{row_word(row)} {format_cards(cards)}" for row in ROWS if (cards := action.row_cards(row))]


def points_text(points: Fraction | int) -> str:
    """Points with their sign and the plural the number takes: ``+1 pt``, ``-12 pts`` (``+2 очка``)."""
    number = Fraction(points)
    count = abs(number.numerator) if number.denominator == 1 else 2  # a fraction reads as "of a point"
    return trn("{points} pt", "{points} pts", count, points=signed(points))


def money_text(value: object) -> str:
    """A prize, pool or buy-in with two decimals: ``60.00`` (``60,00`` in Russian and Ukrainian)."""
    return money(Fraction(str(value))).lstrip("+")
