"""Cards as small ints, their notation, and the deck.

A card is an ``int`` in ``0..51``: ``rank * 4 + suit`` where rank ``0..12`` stands for
``2..A`` and suit ``0..3`` for clubs, diamonds, hearts, spades (``cdhs``). Notation is rank
then suit (``Ah``, ``Td``); parsing accepts either case and ``10`` for ``T``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from typing import TypeAlias

from ofc.rules.errors import CardError

Card: TypeAlias = int
"""A card, ``rank * 4 + suit``."""

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52
ALL_CARDS: tuple[Card, ...] = tuple(range(DECK_SIZE))

_TOKEN_SPLIT = re.compile(r"[\s,;]+")
_SHOWN = 16
"""Characters of an unreadable token quoted in the error (a whole line may be one token)."""


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0 = deuce .. 12 = ace) and ``suit`` (0..3, ``cdhs``)."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise CardError("no card has rank index {rank} and suit index {suit}", rank=rank, suit=suit)
    return rank * 4 + suit


def rank_of(card: Card) -> int:
    """Rank index of ``card``: 0 for a deuce up to 12 for an ace."""
    return card >> 2


def suit_of(card: Card) -> int:
    """Suit index of ``card``: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card & 3


def parse_card(text: str) -> Card:
    """Read one card such as ``Ah``, ``td`` or ``10h``.

    >>> parse_card("Ah"), parse_card("10h") == parse_card("Th"), format_card(parse_card("qd"))
    (50, True, 'Qd')
    >>> parse_card("Ax")
    Traceback (most recent call last):
    ...
    ofc.rules.errors.CardError: unknown card 'Ax': expected a rank of 23456789TJQKA (or 10) and a suit of cdhs
    """
    token = text.strip()
    body = token.upper()
    if body.startswith("10"):
        body = "T" + body[2:]
    if len(body) != 2 or body[0] not in RANKS or body[1].lower() not in SUITS:
        shown = repr(token) if len(token) <= _SHOWN else f"'{token[:_SHOWN]}...' ({len(token)} characters)"
        raise CardError(
            "unknown card {shown}: expected a rank of {ranks} (or 10) and a suit of {suits}",
            shown=shown,
            ranks=RANKS,
            suits=SUITS,
        )
    return RANKS.index(body[0]) * 4 + SUITS.index(body[1].lower())


def parse_cards(source: str | Iterable[str], *, unique: bool = True) -> tuple[Card, ...]:
    """Read cards from a string (``"Ah Kd, 10c"``) or an iterable of card strings.

    With ``unique`` (the default) a card given twice is an error naming it.
    """
    tokens = [t for t in _TOKEN_SPLIT.split(source) if t] if isinstance(source, str) else list(source)
    cards: list[Card] = []
    for token in tokens:
        if not isinstance(token, str):
            raise CardError("a card must be written as text, not {token!r}", token=token)
        cards.append(parse_card(token))
    if unique:
        check_distinct(cards)
    return tuple(cards)


def check_distinct(cards: Iterable[Card]) -> None:
    """Raise ``CardError`` naming the first card that appears twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardError("card {card} appears twice", card=format_card(card))
        seen.add(card)


def format_card(card: Card) -> str:
    """Notation of ``card``, e.g. ``Ah``."""
    if not 0 <= card < DECK_SIZE:
        raise CardError("no card has index {card}", card=card)
    return RANKS[card >> 2] + SUITS[card & 3]


def format_cards(cards: Iterable[Card], sep: str = " ") -> str:
    """Notation of several cards joined by ``sep``."""
    return sep.join(format_card(c) for c in cards)


class Deck:
    """A shuffled deck dealt from the top.

    Without a seed the order comes from the operating system's secure randomness; with a seed
    (a whole number from 0) it is reproducible: the same seed gives the same order on every
    machine. Negative seeds are refused, since ``random.Random`` shuffles ``-n`` as ``n``.
    """

    __slots__ = ("_cards", "_next", "seed")

    def __init__(self, seed: int | None = None, *, order: Sequence[Card] | None = None) -> None:
        if seed is not None and seed < 0:
            raise CardError("a deck seed is a whole number from 0, not {seed}", seed=seed)
        self.seed = seed
        if order is not None:
            if sorted(order) != list(ALL_CARDS):
                raise CardError("a deck order must hold each of the 52 cards exactly once")
            self._cards = list(order)
        else:
            self._cards = list(ALL_CARDS)
            rng: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
            rng.shuffle(self._cards)
        self._next = 0

    @property
    def order(self) -> tuple[Card, ...]:
        """The whole deck order, dealt cards included."""
        return tuple(self._cards)

    @property
    def remaining(self) -> int:
        """How many cards are left to deal."""
        return DECK_SIZE - self._next

    def deal(self, count: int) -> tuple[Card, ...]:
        """Deal ``count`` cards from the top."""
        if count < 0 or count > self.remaining:
            raise CardError(
                "cannot deal {count} cards: {remaining} left in the deck", count=count, remaining=self.remaining
            )
        start = self._next
        self._next += count
        return tuple(self._cards[start : self._next])
