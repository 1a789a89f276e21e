"""Cards as small ints, their notation, and the deck.

A card is an ``int`` in ``0..51``: ``rank * 4 + suit`` where rank ``0..12`` stands for
``2..A`` and suit ``0..3`` for clubs, diamonds, hearts, spades (``cdhs``). Notation is rank
then suit (``Ah``, ``Td``); parsing accepts either case and ``10`` for ``T``.
``read_typed_cards`` reads cards as people type them into a score book (see its docstring).
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


TYPED_RANKS: dict[str, int] = {
    **{symbol: index for index, symbol in enumerate("23456789tjqka")},
    "в": 9,  # валет (jack)
    "д": 10,  # дама (queen)
    "к": 11,  # король (king)
    "т": 12,  # туз (ace)
}
"""Rank letters a score book reads (lower case): Latin, and the Cyrillic initials of the Russian
and Ukrainian rank names; ``10`` is read too."""
TYPED_SUITS: dict[str, int] = {
    **{symbol: index for index, symbol in enumerate("cdhs")},
    **{symbol: index for index, symbol in enumerate("\u2663\u2666\u2665\u2660")},  # the filled symbols
    **{symbol: index for index, symbol in enumerate("\u2667\u2662\u2661\u2664")},  # the outlined ones
    "т": 0,  # трефы / трефи (clubs)
    "б": 1,  # бубны / бубни (diamonds)
    "ч": 2,  # червы / чирви (hearts)
    "п": 3,  # пики / піки (spades)
}
"""Suit letters and symbols a score book reads (lower case)."""
_TEN = "10"
_PRESENTATION = str.maketrans("", "", "\ufe0e\ufe0f")
"""Variation selectors that make a suit symbol an emoji or text; they carry no meaning here."""


def read_typed_cards(text: str) -> tuple[Card, ...]:
    """Read cards as people type them: ``QsQh2c``, ``Q♠ Q♥ 2♣``, ``♠Q``, ``sQ``, ``10h``, ``Дп Кч``.

    Words are split at spaces, commas and semicolons; each word holds whole cards, each written
    rank then suit or suit then rank, in either case. Ranks: ``2``-``9``, ``10`` or ``T``, ``J Q K A``
    and the Cyrillic ``В Д К Т`` (валет, дама, король, туз). Suits: ``c d h s``, the symbols ``♣ ♦ ♥
    ♠`` (filled or outlined) and the Cyrillic ``т б ч п`` (трефы, бубны, червы, пики). A Cyrillic
    ``т`` is a suit beside a rank and the ace beside a suit; ``тт`` is the ace of clubs. Refused,
    each with its own error naming the word: an unknown character, a rank or suit left without
    its pair, two ranks or two suits side by side, and the Cyrillic ``Т`` (туз) beside a Latin suit
    letter, which reads as a Latin ``T`` (ten) too. Cards are not checked for repeats here.

    >>> format_cards(read_typed_cards("QsQh2c")), format_cards(read_typed_cards("♠Q 10♥ тт"))
    ('Qs Qh 2c', 'Qs Th Ac')
    """
    cards: list[Card] = []
    for word in _TOKEN_SPLIT.split(text.translate(_PRESENTATION)):
        if word:
            cards.extend(_read_word(word))
    return tuple(cards)


def _symbols(word: str) -> list[str]:
    """The word's symbols as typed, ``10`` as one."""
    symbols: list[str] = []
    index = 0
    while index < len(word):
        size = 2 if word.startswith(_TEN, index) else 1
        symbols.append(word[index : index + size])
        index += size
    return symbols


def _rank(symbol: str) -> int | None:
    return 8 if symbol == _TEN else TYPED_RANKS.get(symbol.lower())


def _suit(symbol: str) -> int | None:
    return TYPED_SUITS.get(symbol.lower())


def _read_word(word: str) -> list[Card]:
    symbols = _symbols(word)
    shown = repr(word) if len(word) <= _SHOWN else f"'{word[:_SHOWN]}...' ({len(word)} characters)"
    for symbol in symbols:
        if _rank(symbol) is None and _suit(symbol) is None:
            raise CardError(
                "cannot read {shown}: {char!r} is neither a rank (2-9, 10, T J Q K A, В Д К Т) "
                "nor a suit (c d h s, \u2663 \u2666 \u2665 \u2660, т б ч п)",
                shown=shown,
                char=symbol,
            )
    cards = [_read_pair(symbols[start], symbols[start + 1], shown) for start in range(0, len(symbols) - 1, 2)]
    if len(symbols) % 2:
        last = symbols[-1]
        if _suit(last) is None:
            raise CardError("cannot read {shown}: the rank {last!r} at its end has no suit", shown=shown, last=last)
        if _rank(last) is None:
            raise CardError("cannot read {shown}: the suit {last!r} at its end has no rank", shown=shown, last=last)
        raise CardError("cannot read {shown}: the {last!r} at its end has no pair", shown=shown, last=last)
    return cards


def _read_pair(first: str, second: str, shown: str) -> Card:
    """One card from two symbols, rank first or suit first."""
    pair = first + second
    readings = {
        rank * 4 + suit
        for rank, suit in ((_rank(first), _suit(second)), (_rank(second), _suit(first)))
        if rank is not None and suit is not None
    }
    if not readings:
        if _suit(first) is None:
            raise CardError(
                "cannot read {shown}: {pair!r} is two ranks; a card is a rank and a suit", shown=shown, pair=pair
            )
        raise CardError(
            "cannot read {shown}: {pair!r} is two suits; a card is a rank and a suit", shown=shown, pair=pair
        )
    if any(symbol in "тТ" for symbol in (first, second)) and pair.lower().strip("т") in ("c", "d", "h", "s"):
        raise CardError(
            "cannot read {shown}: {pair!r} mixes the Cyrillic Т (туз, ace) with a Latin suit; "
            "write A or T (ten) in Latin letters, or the suit in Cyrillic (т б ч п)",
            shown=shown,
            pair=pair,
        )
    return readings.pop()  # two readings only for "тт", the ace of clubs either way


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
