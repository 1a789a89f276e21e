"""Play money on the server: whole cents, decimal text, and a match's settlement with the house.

Balances and house entries are kept in whole cents and stored and sent as decimal text
(``"1000"``, ``"1012.5"``, ``"987.34"``), never as floats. A match's ledger is exact
(fractions: the loss limit shares a capped loss out pro rata), so settling it rounds each
seat's result toward zero to the cent; bots have no balance, so the **house** takes each bot
seat's result and the cents rounded off. The people's changes plus the house's entries of
a settled match therefore sum to zero: the server never mints or burns money, and nobody
loses more than the loss limit their seat held.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Protocol

CENT = Decimal("0.01")
ROUNDING_SEAT = -1
"""The house entry of a match's cents rounded off carries this seat number."""


class Seat(Protocol):
    """What settling needs to know of a seat: a bot spec, or the person sitting there."""

    bot: str | None
    player: str | None


def cents(value: Fraction | Decimal | int) -> Fraction:
    """``value`` rounded toward zero to a whole cent (a loss never grows, a win never does)."""
    number = Fraction(value)
    whole = abs(number * 100).numerator // abs(number * 100).denominator
    return Fraction(whole if number >= 0 else -whole, 100)


def in_cents(value: Fraction | Decimal | int) -> bool:
    """Whether ``value`` is a whole number of cents."""
    return (Fraction(value) * 100).denominator == 1


def money_text(value: Fraction | Decimal | int) -> str:
    """An amount as decimal text: ``1000``, ``-12.5``, ``987.34`` (an amount older than cents: to the cent)."""
    number = Fraction(value)
    amount = (Decimal(number.numerator) / Decimal(number.denominator)).quantize(CENT)
    text = f"{amount:f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def settle_match(money: Sequence[Fraction], seats: Sequence[Seat]) -> tuple[dict[str, Fraction], dict[int, Fraction]]:
    """A finished match's money: per person's name, and the house's entries per bot seat.

    ``money`` is the ledger's exact result per table seat (summing to zero). Each result is
    rounded toward zero to the cent; the house takes the bot seats' results and, under
    ``ROUNDING_SEAT``, whatever the rounding left, so everything returned sums to zero.
    """
    people = {seat.player: cents(money[i]) for i, seat in enumerate(seats) if seat.player is not None}
    house = {i: cents(money[i]) for i, seat in enumerate(seats) if seat.player is None}
    left = -(sum(people.values(), Fraction(0)) + sum(house.values(), Fraction(0)))
    if left:
        house[ROUNDING_SEAT] = left
    return people, house
