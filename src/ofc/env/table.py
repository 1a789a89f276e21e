"""One hand driven for the environments: seeded decks, solver-set fantasy boards, numbered actions.

The environments see the hand only through ``Hand.view(seat)``: observations, masks and the
decoding of an action number are all built from the acting seat's view. Time never passes
(every action is applied at time 0), so no clock runs out. Fantasy seats are set by the
exact solver as soon as they may act, before any street seat is asked for a decision, so
``to_play`` is always a street seat (or None once the hand is over).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ofc.actions import Action
from ofc.bots.base import fantasy_decision
from ofc.env.encoding import action_mask, action_space_size, decode
from ofc.errors import SetupError
from ofc.hand import Hand
from ofc.observation import observation_size, to_array
from ofc.rules import Rules
from ofc.view import HandView

Observation = dict[str, npt.NDArray[Any]]


def read_rules(rules: Rules | str, players: int | None, settings: Mapping[str, object]) -> Rules:
    """A preset name or a ``Rules``, with ``players`` and other settings applied (validated)."""
    base = Rules.preset(rules) if isinstance(rules, str) else rules
    extra = dict(settings)
    if players is not None:
        extra["players"] = players
    return base.with_settings(extra) if extra else base


class Table:
    """A hand of ``rules`` for environment play; ``reset`` deals a new one."""

    def __init__(self, rules: Rules, *, fantasy: Sequence[int] = (), button: int | None = None) -> None:
        self.rules = rules
        self.fantasy = tuple(fantasy)
        self.button = button
        self.size = action_space_size(rules)
        self.observation_size = observation_size(rules)
        self._rng = random.Random()
        self.hand = self._deal(self.fantasy)

    @property
    def hand(self) -> Hand:
        """The hand being played."""
        return self._hand

    @hand.setter
    def hand(self, hand: Hand) -> None:
        self._hand = hand
        self._views: dict[int | None, HandView] = {}

    def _deal(self, fantasy: Sequence[int]) -> Hand:
        players = self.rules.players
        button = self.button if self.button is not None else self._rng.randrange(players)
        hand = Hand(self.rules, button=button, seed=self._rng.getrandbits(64), fantasy=fantasy)
        return self._set_fantasy(hand)

    def reset(self, seed: int | None = None, fantasy: Sequence[int] | None = None) -> None:
        """Deal a new hand (``seed`` fixes the button and deck of this and later hands)."""
        if seed is not None:
            self._rng = random.Random(seed)
        if fantasy is not None and len(fantasy) != self.rules.players:
            raise SetupError(
                "fantasy needs one deal size per seat ({players}), got {n_fantasy}",
                players=self.rules.players,
                n_fantasy=len(fantasy),
            )
        self.hand = self._deal(self.fantasy if fantasy is None else tuple(fantasy))

    @staticmethod
    def _set_fantasy(hand: Hand) -> Hand:
        """Apply the solver's board for every fantasy seat that may act now."""
        while not hand.is_over:
            seats = [seat for seat in hand.to_act if hand.fantasy[seat]]
            if not seats:
                break
            hand.apply(fantasy_decision(hand.view(seats[0])).action, 0)
        return hand

    @property
    def to_play(self) -> int | None:
        """The street seat to act, or None once the hand is over."""
        return None if self.hand.is_over else self.hand.to_act[0]

    def view(self, seat: int | None) -> HandView:
        """``seat``'s view of the hand (kept until the hand changes)."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self._hand.view(seat)
        return view

    def observe(self, seat: int) -> Observation:
        """``{"observation": vector, "action_mask": 0/1 per action number}`` for ``seat``."""
        view = self.view(seat)
        return {"observation": to_array(view), "action_mask": action_mask(view).copy()}

    def apply(self, action: Action) -> None:
        """Apply ``action`` (a bot's) at time 0, then set any fantasy seat that may act."""
        self._hand.apply(action, 0)
        self._views = {}
        self._set_fantasy(self._hand)

    def play(self, number: int) -> None:
        """Apply action ``number`` for the seat to act (``ActionError`` if it is not legal)."""
        seat = self.to_play
        if seat is None:
            raise SetupError("the hand is over: reset it before playing")
        self.apply(decode(self.view(seat), number))

    def points(self) -> tuple[int, ...]:
        """Each seat's points at the showdown (zeros before)."""
        result = self.hand.result
        return result.points if result is not None else (0,) * self.rules.players


def random_number(mask: npt.NDArray[np.int8], rng: np.random.Generator) -> int:
    """A uniformly drawn legal action number from a mask."""
    return int(rng.choice(np.flatnonzero(mask)))


__all__ = ["Observation", "Table", "random_number", "read_rules"]
