"""A normal hand for the environments as a few arrays, stepped by ``ofc.fast.table_step``.

``FastHand`` plays a hand with no seat in fantasy at the cost of one compiled call a step:
the deck order, every seat's rows and held cards, and every seat's ``to_array`` vector (the
observers' work done for all seats at once). It is the engine's hand in another form, held
equal to it by tests at every step; whatever needs the engine's own objects (a view, a bot, a
rendering, the error naming why a number cannot be played) gets a ``Hand`` replayed from the
same deck and the numbers played (``replay``). Scores come from the settlement kernels
(``ofc.fast.settle``), themselves held equal to ``ofc.rules.scoring``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ofc.engine.deals import play_order
from ofc.engine.hand import Hand, deal_plan
from ofc.env.encoding import action_space_size, deal_mask, decode, street_codes
from ofc.env.observer import StreetDeal, blank_vector, seat_frame
from ofc.fast.settle import settle_tables
from ofc.fast.table_step import BAD, OVER, S_SEATS, S_TURN, SEAT_FIELDS, table_start, table_step
from ofc.rules.cards import Card, Deck
from ofc.rules.rulebook import Rules

I64 = npt.NDArray[np.int64]
I8 = npt.NDArray[np.int8]
F32 = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Setup:
    """What every normal hand of one rule set shares: decoding tables, discards due, vector offsets."""

    rules: Rules
    size: int
    codes: npt.NDArray[np.int8]
    """``[street, number, position]``: the row of the held card at ``position`` (ascending), -1 discarded."""
    sizes: I64
    dues: I64
    frame: I64
    where: I64

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.rules.players


@cache
def setup_for(rules: Rules) -> Setup:
    """The shared tables of ``rules`` (kept: a table deals many hands)."""
    streets = rules.spec.streets
    players = rules.players
    size = action_space_size(rules)
    most = max(street.cards for street in streets)
    codes = np.full((len(streets), size, most), -1, dtype=np.int8)
    sizes = np.zeros(len(streets), dtype=np.int64)
    for number, street in enumerate(streets):
        shape = street_codes(street.cards, street.discards)
        sizes[number] = shape.size
        for index, places in enumerate(shape.places):
            for position, row in places:
                codes[number, index, position] = int(row)
    frame = np.zeros((players, players, 2), dtype=np.int64)
    for viewer in range(players):
        offsets = seat_frame(players, len(streets), viewer)
        frame[viewer, :, 0] = offsets.rows
        frame[viewer, :, 1] = offsets.blocks
    first = seat_frame(players, len(streets), 0)
    where = np.array([first.held, first.discards, first.street, first.due], dtype=np.int64)
    dues = np.array([street.discards for street in streets], dtype=np.int64)
    return Setup(rules, size, codes, sizes, dues, frame, where)


@cache
def _deals(rules: Rules, button: int) -> I64:
    plan = deal_plan(rules, button, (0,) * rules.players)
    return np.array([(deal.seat, deal.cards) for deal in plan], dtype=np.int64)


@cache
def _blanks(rules: Rules, button: int) -> F32:
    streets = len(rules.spec.streets)
    return np.stack([blank_vector(rules.players, streets, seat, button, (), ()) for seat in range(rules.players)])


@cache
def _seat_order(rules: Rules, button: int) -> I64:
    return np.array(play_order(button, rules.players), dtype=np.int64)


def _street_deal(key: int) -> StreetDeal:
    """The street deal ``ofc.fast.table_step.mask_key`` numbered ``key``."""
    rest, bottom = divmod(key, 6)
    rest, middle = divmod(rest, 6)
    rest, top = divmod(rest, 4)
    count, due = divmod(rest, 5)
    return count, due, (top, middle, bottom)


class FastHand:
    """A normal hand of ``setup.rules`` dealt from ``order`` with ``button``."""

    __slots__ = (
        "_args",
        "_key",
        "_masks",
        "_nothing",
        "_seats",
        "_state",
        "_vectors",
        "boards",
        "button",
        "numbers",
        "order",
        "setup",
    )

    def __init__(self, setup: Setup, button: int, order: list[Card], masks: dict[int, I8]) -> None:
        rules = setup.rules
        self.setup = setup
        self.button = button
        self.order = order
        self.numbers: list[int] = []
        players = setup.players
        self._state = np.zeros(S_SEATS + players * SEAT_FIELDS, dtype=np.int64)
        self.boards = np.full((players, 13), -1, dtype=np.int64)
        vectors = self._vectors = _blanks(rules, button).copy()
        deals, seats = _deals(rules, button), _seat_order(rules, button)
        self._seats = seats
        deck = np.array(order, dtype=np.int64)
        self._args: tuple[Any, ...] = (
            self._state, self.boards, vectors, deck, setup.frame, setup.where, deals, seats, setup.dues,
            setup.codes, setup.sizes,
        )  # fmt: skip
        self._masks = masks
        self._nothing = deal_mask(None, setup.size)
        self._key = table_start(self._state, vectors, deck, setup.frame, setup.where, deals, seats, setup.dues)

    @property
    def to_play(self) -> int | None:
        """The seat to act, or None once the hand is over."""
        if self._key == OVER:
            return None
        return int(self._seats[self._state[S_TURN]])

    def mask(self, seat: int) -> I8:
        """1 for every number ``seat`` may play now (shared and read-only)."""
        key = self._key
        if key == OVER or seat != self.to_play:
            return self._nothing
        mask = self._masks.get(key)
        if mask is None:
            mask = self._masks[key] = deal_mask(_street_deal(key), self.setup.size)
        return mask

    def observe(self, seat: int) -> dict[str, npt.NDArray[Any]]:
        """``{"observation": vector, "action_mask": mask}`` for ``seat`` (both fresh copies)."""
        return {"observation": self._vectors[seat].copy(), "action_mask": self.mask(seat).copy()}

    def play(self, number: int) -> bool:
        """Play ``number`` for the seat to act; False (nothing changed) if it cannot be played now."""
        key = table_step(number, *self._args)
        if key == BAD:
            return False
        self._key = key
        self.numbers.append(number)
        return True

    @property
    def over(self) -> bool:
        """Whether every seat has placed its 13 cards."""
        return self._key == OVER

    def points(self) -> tuple[int, ...]:
        """Each seat's points at the showdown (the hand must be over)."""
        players = self.setup.players
        settled = settle_tables(self.boards[None], np.zeros((1, players), dtype=np.int64), self.setup.rules)
        return tuple([int(points) for points in settled.points[0]])

    def replay(self) -> Hand:
        """The engine's hand in the same state: the same deck, button and numbers."""
        hand = Hand(self.setup.rules, button=self.button, deck=Deck(order=self.order))
        for number in self.numbers:
            hand.apply(decode(hand.view(hand.to_act[0]), number), hand.now)
        return hand


__all__ = ["FastHand", "Setup", "setup_for"]
