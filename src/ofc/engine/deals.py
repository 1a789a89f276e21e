"""The order in which a hand deals its cards: the one definition the engine and search share.

The deck is dealt from its first card in chunks. First every seat in order of play (left of
the button first) gets its opening deal: the whole fantasy deal for a fantasy seat, the first
street (five cards) for the others. Then, street by street, each seat that is not in fantasy
gets that street's cards when its turn comes, in order of play. ``Hand`` deals by this list,
and determinization (``ofc.engine.determinize``) reads it to know which deck places a seat has seen.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ofc.rules.rulebook import HAND_CARDS, Rules


@dataclass(frozen=True, slots=True)
class Deal:
    """One chunk of the deck dealt to one seat."""

    seat: int
    street: int
    """Index into ``rules.spec.streets`` (0 for the opening deal, fantasy deals included)."""
    cards: int
    discards: int
    """How many of these cards the seat discards when it places them."""
    fantasy: bool


@cache
def play_order(button: int, players: int) -> tuple[int, ...]:
    """Every seat in order of play: left of the button first, the button last (kept: a table asks often)."""
    return tuple((button + 1 + i) % players for i in range(players))


def deal_sequence(rules: Rules, button: int, fantasy: Sequence[int]) -> tuple[Deal, ...]:
    """Every deal of a hand in the order the engine makes them (``fantasy[seat]``: deal size or 0)."""
    order = play_order(button, rules.players)
    streets = rules.spec.streets
    deals = [
        Deal(seat, 0, fantasy[seat], fantasy[seat] - HAND_CARDS, True)
        if fantasy[seat]
        else Deal(seat, 0, streets[0].cards, streets[0].discards, False)
        for seat in order
    ]
    regular = [seat for seat in order if not fantasy[seat]]
    for number, street in enumerate(streets[1:], start=1):
        deals.extend(Deal(seat, number, street.cards, street.discards, False) for seat in regular)
    return tuple(deals)


__all__ = ["Deal", "deal_sequence", "play_order"]


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from ``parts`` (run seed, block, hand, ...), stable across machines."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
