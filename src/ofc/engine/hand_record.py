"""Records a hand keeps of itself: the private record (deck and actions) and undo's snapshots."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from ofc.engine.actions import ActionRecord
from ofc.rules.cards import Card


@dataclass(frozen=True, slots=True)
class PrivateRecord:
    """The hidden record of a hand: the deck order, its seed, and every action with its time.

    For hand histories and storage only; never show it to a player (``view`` is their gate).
    """

    deck: tuple[Card, ...]
    seed: int | None
    actions: tuple[ActionRecord, ...]


class Before(NamedTuple):
    """What ``undo`` puts back: the hand's counters, held cards and clocks before an action (a tuple:
    one is made per action applied, so it is kept cheap)."""

    now: Decimal
    next: int
    dealt: int
    street: int
    turn: int
    to_act: tuple[int, ...]
    held: tuple[tuple[Card, ...], ...]
    clocks: tuple[tuple[Decimal, Decimal, Decimal | None], ...]
