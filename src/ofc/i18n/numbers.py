"""Numbers, points and money written the way each language writes them (CLDR, through Babel).

Babel loads with the first number written, not with the command line.
"""

from __future__ import annotations

from decimal import Decimal

from ofc.i18n.language import Language, current_language


def format_number(value: int | float | Decimal, language: Language | None = None) -> str:
    """``12345.5`` as ``12,345.5`` (en) or ``12 345,5`` (ru, uk; a no-break space groups)."""
    from babel.numbers import format_decimal

    return str(format_decimal(value, locale=language or current_language(), decimal_quantization=False))


def format_signed(value: int | float | Decimal, language: Language | None = None) -> str:
    """A score with its sign: ``+3``, ``-2``, ``0``."""
    text = format_number(value, language)
    return f"+{text}" if value > 0 else text


def format_money(value: int | float | Decimal, language: Language | None = None) -> str:
    """Play money with two decimals when it has cents: ``1 234,50`` in Russian, ``1,234`` in English."""
    amount = Decimal(str(value))
    if amount == amount.to_integral_value():
        return format_number(amount.to_integral_value(), language)
    from babel.numbers import format_decimal

    pattern = "#,##0.00"
    return str(format_decimal(amount, format=pattern, locale=language or current_language()))


def format_percent(share: float, places: int = 0, language: Language | None = None) -> str:
    """A share as a percentage with ``places`` (0 or 1) decimals: ``12.5%`` (``12,5%`` in Russian)."""
    from babel.numbers import format_percent as babel_percent

    pattern = "#,##0.0%" if places else "#,##0%"
    return str(babel_percent(share, format=pattern, locale=language or current_language()))
