"""Cards, clocks and numbers as short styled text (pure; the same text with or without colour).

Cards keep the notation the player types (``Ah``); with colour each suit has its own colour
(a four-colour deck), and the text is the same without it, so nothing depends on colour.
Numbers are written the current language's way (``1,234.50``, ``1 234,50``).
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from rich.text import Text

from ofc.engine.clock import ClockReading
from ofc.i18n import current_language, format_number
from ofc.rules.cards import Card, format_card, suit_of

SUIT_STYLES = ("green", "blue", "red", "bold")
"""Styles of clubs, diamonds, hearts and spades."""
PENDING_STYLE = "reverse"
EMPTY = "--"
HIDDEN = "##"


def card(card: Card, *, pending: bool = False) -> Text:
    """``Ah`` in its suit's colour; a card placed but not confirmed is marked ``Ah*``."""
    style = SUIT_STYLES[suit_of(card)]
    text = Text(format_card(card), style=f"{style} {PENDING_STYLE}" if pending else style)
    if pending:
        text.append("*")
    return text


def cards(items: tuple[Card, ...] | list[Card]) -> Text:
    """Cards separated by single spaces."""
    return Text(" ").join(card(item) for item in items)


def minutes(seconds: Decimal) -> str:
    """Seconds as ``m:ss``, rounded up (a clock shows 0:00 only when it is spent)."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def clock(reading: ClockReading) -> str:
    """A seat's hand clock and time bank: ``1:58 +3:00``."""
    return f"{minutes(reading.hand)} +{minutes(reading.bank)}"


def signed(value: Fraction | int) -> str:
    """Points with a sign: ``+12``, ``-3``, ``0``, ``+5/2`` (exact)."""
    if value == 0:
        return "0"
    number = Fraction(value)
    size = abs(number)
    body = format_number(size.numerator)
    if size.denominator != 1:
        body += f"/{format_number(size.denominator)}"
    return f"-{body}" if number < 0 else f"+{body}"


def money(value: Fraction) -> str:
    """Money with a sign and two decimals: ``+12.00``, ``-0.33`` (``+12,00`` in Russian)."""
    return two_places(value)


def two_places(value: Fraction | float) -> str:
    """A number with a sign (none for zero) and two decimals: ``+1.50``, ``-0.33``, ``0.00``."""
    cents = round(Fraction(value) * 100)
    sign = "-" if cents < 0 else "+" if cents > 0 else ""
    amount = Decimal(abs(cents)) / 100
    from babel.numbers import format_decimal  # loaded with the first amount, not the command line

    return sign + str(format_decimal(amount, format="#,##0.00", locale=current_language()))
