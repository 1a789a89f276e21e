"""Expected exact values typed as what the code returns (``Fraction`` / ``Decimal`` tuples).

``Fraction(2) == 2`` and ``Decimal(2) == 2``, so comparing against these is the same check as
against int literals; writing them this way lets mypy's strict equality see matching types.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction


def fracs(*values: int | Fraction) -> tuple[Fraction, ...]:
    """The tuple of ``values`` as fractions."""
    return tuple(Fraction(v) for v in values)


def decs(*values: int | str | Decimal) -> tuple[Decimal, ...]:
    """The tuple of ``values`` as decimals (strings read exactly, as ``Decimal("42.5")``)."""
    return tuple(Decimal(v) for v in values)
