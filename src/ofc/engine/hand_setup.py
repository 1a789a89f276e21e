"""Checks of a hand's set-up values (button, deck, fantasy deals, streaks, time banks), each naming the fault."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from functools import lru_cache

from ofc.engine.clock import to_time
from ofc.engine.deals import Deal, deal_sequence
from ofc.rules.cards import DECK_SIZE, Deck
from ofc.rules.errors import SetupError
from ofc.rules.rulebook import Rules


def read_button(rules: Rules, button: int) -> int:
    """The button, checked to be a seat at the table."""
    if isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < rules.players:
        raise SetupError(
            "button must be a seat from 0 to {last}, not {button!r}", last=rules.players - 1, button=button
        )
    return button


def read_deck(deck: Deck | None, seed: int | None) -> Deck:
    """The deck given, or one shuffled from ``seed`` (or secure randomness); not both."""
    if deck is not None and seed is not None:
        raise SetupError("give a deck or a seed, not both")
    return Deck(seed) if deck is None else deck


def check_deal_size(deals: tuple[Deal, ...]) -> tuple[Deal, ...]:
    """The deal sequence, checked to fit in one deck."""
    needed = sum(deal.cards for deal in deals)
    if needed > DECK_SIZE:
        raise SetupError("this deal needs {needed} cards, more than a deck holds", needed=needed)
    return deals


@lru_cache(maxsize=1024)
def deal_plan(rules: Rules, button: int, fantasy: tuple[int, ...]) -> tuple[Deal, ...]:
    """``deal_sequence`` checked to fit in one deck; kept, since every hand of a table deals alike."""
    return check_deal_size(deal_sequence(rules, button, fantasy))


def per_seat(name: str, values: Sequence[object], players: int) -> None:
    """Raise unless ``values`` is empty (the default) or has one entry per seat."""
    if values and len(values) != players:
        raise SetupError(
            "{name} needs one entry per seat ({players}), got {count}",
            name=name,
            players=players,
            count=len(values),
        )


def read_fantasy(rules: Rules, fantasy: Sequence[int]) -> tuple[int, ...]:
    """Per seat, the cards of its fantasy deal (0 = a normal hand), checked against ``rules``."""
    if not fantasy and isinstance(fantasy, tuple | list):  # the default: no seat in fantasy
        return (0,) * rules.players
    per_seat("fantasy", fantasy, rules.players)
    deals = rules.fantasy_deals
    out = tuple(fantasy) or (0,) * rules.players
    for seat, cards in enumerate(out):
        if cards and cards not in deals:
            if not deals:
                raise SetupError(
                    "seat {seat} cannot be dealt {cards} cards in fantasy: allowed none (fantasy is off)",
                    seat=seat,
                    cards=cards,
                )
            allowed = ", ".join(str(n) for n in sorted(deals))
            raise SetupError(
                "seat {seat} cannot be dealt {cards} cards in fantasy: allowed {allowed}",
                seat=seat,
                cards=cards,
                allowed=allowed,
            )
    return out


def read_streaks(fantasy: tuple[int, ...], streaks: Sequence[int]) -> tuple[int, ...]:
    """Per seat, the fantasy hands in a row this hand completes (default 1 for a fantasy seat)."""
    if not streaks and isinstance(streaks, tuple | list) and not any(fantasy):  # the default without fantasy
        return (0,) * len(fantasy)
    per_seat("fantasy_in_row", streaks, len(fantasy))
    out = tuple(streaks) or tuple(1 if cards else 0 for cards in fantasy)
    for seat, (cards, streak) in enumerate(zip(fantasy, out, strict=True)):
        if (streak >= 1) != bool(cards) or streak < 0:
            if cards:
                raise SetupError(
                    "seat {seat} plays a fantasy hand, so fantasy_in_row cannot be {streak}", seat=seat, streak=streak
                )
            raise SetupError(
                "seat {seat} plays a normal hand, so fantasy_in_row cannot be {streak}", seat=seat, streak=streak
            )
    return out


def read_banks(rules: Rules, banks: Sequence[Decimal]) -> tuple[Decimal, ...]:
    """Per seat, the match time bank left (default ``rules.time_bank_seconds``)."""
    if not banks and isinstance(banks, tuple | list):  # the default: the rules' bank (never negative)
        return (rules.time_bank_seconds,) * rules.players
    per_seat("time_banks", banks, rules.players)
    out = tuple(to_time(b) for b in banks) or (rules.time_bank_seconds,) * rules.players
    for seat, bank in enumerate(out):
        if bank < 0:
            raise SetupError("seat {seat}'s time bank cannot be negative ({bank})", seat=seat, bank=bank)
    return out
