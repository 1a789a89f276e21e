"""Pairs of hands for the hidden-information tests: same public history, different hidden cards.

``Position`` is a deck, a button, fantasy deals and the actions applied; ``relabel`` swaps
cards through the deck and the actions alike, so the relabelled position is a legal hand
with the same shape. Relabelling only cards ``seat`` has not seen gives a twin that seat
cannot tell apart; swapping a seen card with an unseen one gives a hand it can.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from hypothesis import strategies as st

from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.rules.cards import Card, Deck
from ofc.rules.rulebook import Rules

CONFIGS = [
    ("classic", 2),
    ("classic", 4),
    ("turbo", 3),
    ("pineapple", 2),
    ("pineapple", 3),
    ("pineapple-progressive", 2),
]


@dataclass(frozen=True)
class Position:
    """A hand as data: replay it with ``hand()``."""

    rules: Rules
    button: int
    deck: tuple[Card, ...]
    fantasy: tuple[int, ...]
    actions: tuple[Action, ...]

    def hand(self) -> Hand:
        """The hand after every action (all at time 0)."""
        hand = Hand(self.rules, button=self.button, deck=Deck(order=self.deck), fantasy=self.fantasy)
        for action in self.actions:
            hand.apply(action, 0)
        return hand

    def relabel(self, swap: Mapping[Card, Card]) -> Position:
        """The same play with every card ``c`` replaced by ``swap.get(c, c)``."""

        def card(c: Card) -> Card:
            return swap.get(c, c)

        actions = tuple(
            Action(a.seat, tuple((card(c), row) for c, row in a.placements), tuple(card(c) for c in a.discards))
            for a in self.actions
        )
        return Position(self.rules, self.button, tuple(card(c) for c in self.deck), self.fantasy, actions)


def seen_cards(view: HandView) -> set[Card]:
    """Every card the view shows."""
    seen = set(view.cards) | set(view.discards)
    for seat in view.seats:
        for row in seat.rows:
            seen.update(row)
    return seen


def random_position(rules: Rules, seed: int, steps: int, fantasy: tuple[int, ...]) -> Position:
    """Random legal play (fantasy seats included) from a shuffled deck, ``steps`` actions at most."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    button = rng.randrange(rules.players)
    hand = Hand(rules, button=button, deck=Deck(order=deck), fantasy=fantasy)
    actions: list[Action] = []
    while not hand.is_over and len(actions) < steps:
        legal = hand.legal_actions(hand.to_act[0])
        action = legal[rng.randrange(len(legal))]
        hand.apply(action, 0)
        actions.append(action)
    return Position(rules, button, tuple(deck), fantasy, tuple(actions))


@st.composite
def positions(draw: st.DrawFn) -> tuple[Position, int, random.Random]:
    """A random position of a random variant and table, a seat, and a random source."""
    preset, players = draw(st.sampled_from(CONFIGS))
    rules = Rules.preset(preset).with_settings({"players": players})
    deals = sorted(rules.fantasy_deals)
    fantasy = tuple(draw(st.sampled_from([0, 0, 0, *deals])) for _ in range(players))
    position = random_position(rules, draw(st.integers(0, 2**32)), draw(st.integers(0, 40)), fantasy)
    seat = draw(st.integers(0, players - 1))
    return position, seat, random.Random(draw(st.integers(0, 2**32)))


def hidden_twin(position: Position, seat: int, rng: random.Random) -> Position:
    """``position`` with every card ``seat`` has not seen shuffled among themselves."""
    seen = seen_cards(position.hand().view(seat))
    unseen = [card for card in range(52) if card not in seen]
    shuffled = list(unseen)
    rng.shuffle(shuffled)
    return position.relabel(dict(zip(unseen, shuffled, strict=True)))


def visible_change(position: Position, seat: int, rng: random.Random) -> Position | None:
    """``position`` with one card ``seat`` sees swapped for one it does not see (None if it sees all)."""
    seen = seen_cards(position.hand().view(seat))
    unseen = [card for card in range(52) if card not in seen]
    if not unseen:
        return None
    shown = rng.choice(sorted(seen))
    other = rng.choice(unseen)
    return position.relabel({shown: other, other: shown})
