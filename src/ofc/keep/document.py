"""A score book as a JSON document: the book file of ``ofc keep`` and the input of ``ofc keep score``.

``{"format": "ofc-keep", "version": 1, "rules": PRESET or {"preset": ..., SETTING: VALUE},
"players": [NAME, ...], "button": NAME, "hands": [{NAME: BOARD or "dead"}]}``; ``format`` and
``version`` may be left out when reading. See ``docs/keep.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ofc.formats.score_table import rules_from_document
from ofc.keep.book import Book
from ofc.keep.entries import BookError
from ofc.keep.replay import Keeping
from ofc.rules.errors import OfcError
from ofc.rules.rulebook import Rules

FORMAT = "ofc-keep"
VERSION = 1
TOP_KEYS = frozenset({"format", "version", "rules", "players", "button", "hands"})


def read_book(document: object) -> Book:
    """A book from its JSON document (hands unchecked: ``replay`` checks them)."""
    if not isinstance(document, Mapping):
        raise BookError('a book is a JSON object with "rules", "players", "button" and "hands"', field="book")
    unknown = sorted(str(key) for key in document if key not in TOP_KEYS)
    if unknown:
        raise BookError(
            "unknown key {unknown!r} in the book (known: {names})",
            field=unknown[0],
            unknown=unknown[0],
            names=", ".join(sorted(TOP_KEYS)),
        )
    if document.get("format", FORMAT) != FORMAT:
        raise BookError(
            '"format" must be {expected!r}, got {found!r}',
            field="format",
            expected=FORMAT,
            found=document.get("format"),
        )
    version = document.get("version", VERSION)
    if version != VERSION or isinstance(version, bool):
        raise BookError(
            "this ofc reads book version {current}, not {version!r}", field="version", current=VERSION, version=version
        )
    try:
        rules = rules_from_document(document.get("rules"))
    except OfcError as error:
        raise BookError('"rules": {error}', field="rules", error=error) from None
    players = document.get("players")
    if not isinstance(players, list):
        raise BookError('"players" must be a list of names', field="players")
    if "button" not in document:
        raise BookError('"button" is missing: name the player with the first button', field="button")
    book = Book.new(rules, players, document["button"])
    said = document.get("rules")
    if isinstance(said, Mapping) and "players" in said and str(said["players"]) != str(len(book.players)):
        raise BookError(
            "setting players is {said} but {n_players} players are named",
            field="players",
            said=said["players"],
            n_players=len(book.players),
        )
    hands = document.get("hands", [])
    if not isinstance(hands, list):
        raise BookError('"hands" must be a list of hands', field="hands")
    read = []
    for number, hand in enumerate(hands):
        if not isinstance(hand, Mapping):
            raise BookError(
                "hand {number}: must map player names to boards or 'dead'", field="hands", number=number + 1
            )
        try:
            read.append(book.read_hand(hand))
        except BookError as error:
            raise BookError("hand {number}: {error}", field=error.field, number=number + 1, error=error) from None
    return book.with_hands(read)


def book_document(book: Book) -> dict[str, Any]:
    """The JSON document of ``book`` (what ``read_book`` reads back)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": book.settings(),
        "players": list(book.players),
        "button": book.players[book.button],
        "hands": [{name: entry.to_json() for name, entry in hand.items()} for hand in book.hands],
    }


def rules_of(settings: Mapping[str, object]) -> Rules:
    """Rules from a book's stored settings."""
    return rules_from_document(dict(settings))


def amount(value: Fraction) -> int | float:
    """An exact amount as a JSON number: whole, exact decimal, or rounded to 2 places."""
    if value.denominator == 1:
        return int(value)
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    return float(value) if denominator == 1 else round(float(value), 2)


def score_document(keeping: Keeping) -> dict[str, Any]:
    """The ``ofc keep score --json`` document: each hand, what comes next, totals, settlement."""
    hands = [
        {
            "button": hand.button,
            "fantasy": hand.fantasy,
            "points": {name: amount(points) for name, points in hand.points.items()},
            "fouled": hand.fouled,
        }
        for hand in keeping.hands
    ]
    return {
        "hands": hands,
        "next": {"button": keeping.next_button, "fantasy": keeping.next_fantasy},
        "match_over": keeping.over,
        "totals": {
            "points": {name: amount(points) for name, points in keeping.points.items()},
            "money": {name: amount(money) for name, money in keeping.money.items()},
        },
        "settlement": [
            {"from": transfer.payer, "to": transfer.payee, "amount": amount(transfer.amount)}
            for transfer in keeping.settlement()
        ],
    }
