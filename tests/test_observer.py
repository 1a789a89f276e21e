"""``ofc.env.observer.Observer``: the vector kept up to date equals ``to_array`` of a view built from scratch."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ofc.bots.base import fantasy_decision
from ofc.engine.hand import Hand
from ofc.env import pettingzoo_env
from ofc.env.encoding import street_deal
from ofc.env.observation import to_array
from ofc.env.observer import Observer
from ofc.rules.errors import NoSuchSeat
from ofc.rules.rulebook import Rules

TABLES = [
    ("pineapple", 3, ()),
    ("pineapple", 3, (0, 14, 0)),
    ("pineapple", 2, ()),
    ("classic", 4, ()),
    ("classic", 2, (13, 0)),
    ("turbo", 3, (0, 0, 13)),
    ("pineapple-progressive", 2, (15, 0)),
]


def same(observer: Observer, hand: Hand) -> None:
    """The observer's vector and street deal equal those built from the seat's whole view."""
    view = hand.view(observer.seat)
    assert np.array_equal(observer.array(), to_array(view))
    assert observer.street_deal() == street_deal(view)
    assert observer.cards == view.cards


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TABLES), st.integers(0, 2**32), st.floats(0.0, 1.0), st.floats(0.0, 0.3))
def test_the_kept_vector_equals_the_one_built_from_the_view_at_every_step(
    table: tuple[str, int, tuple[int, ...]], seed: int, look: float, undo: float
) -> None:
    # Seats look at random moments (so an update may hold several actions or none), the hand
    # is sometimes undone, and fantasy boards are set face-down and turned up at the showdown.
    variant, players, fantasy = table
    rng = random.Random(seed)
    hand = Hand(Rules.preset(variant).with_settings({"players": players}), button=seed % players, seed=seed,
                fantasy=fantasy)  # fmt: skip
    observers = [Observer(hand, seat) for seat in range(players)]
    while not hand.is_over:
        for observer in observers:
            if rng.random() < look:
                same(observer, hand)
        seat = hand.to_act[0]
        if hand.fantasy[seat]:
            hand.apply(fantasy_decision(hand.view(seat)).action, 0)
        else:
            hand.apply(rng.choice(hand.legal_actions(seat)), 0)
        if rng.random() < undo:
            hand.undo()
    for observer in observers:
        same(observer, hand)
        same(observer, hand)  # a second look reads nothing new
    hand.undo()  # back before the showdown: the fantasy board is face-down again
    for observer in observers:
        same(observer, hand)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TABLES), st.integers(0, 2**32))
def test_every_pettingzoo_observation_equals_the_one_built_from_the_view(
    table: tuple[str, int, tuple[int, ...]], seed: int
) -> None:
    variant, players, fantasy = table
    env = pettingzoo_env(variant, players, fantasy=fantasy)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in env.agent_iter():
        for seat, other in enumerate(env.possible_agents):
            if other in env.agents:
                observation = env.observe(other)
                assert np.array_equal(observation["observation"], to_array(env.table.hand.view(seat)))
        observation, _, termination, truncation, _ = env.last()
        done = termination or truncation
        env.step(None if done else int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_an_observation_is_a_copy_that_later_play_leaves_alone() -> None:
    hand = Hand(Rules.preset("pineapple"), button=0, seed=3)
    observer = Observer(hand, 1)
    before = observer.array()
    kept = before.copy()
    hand.apply(hand.legal_actions(1)[0], 0)
    assert not np.array_equal(observer.array(), kept)  # seat 1's five cards are on its board now
    assert np.array_equal(before, kept)


def test_a_seat_not_at_the_table_is_named() -> None:
    hand = Hand(Rules.preset("pineapple"), button=0, seed=3)
    with pytest.raises(NoSuchSeat, match="no seat 2 at this table of 2"):
        Observer(hand, 2)


def test_an_observer_following_the_next_hand_starts_afresh() -> None:
    # A table's next deal: same rules, another button and a fantasy seat (its face-down board
    # shows to seat 0 only as 13 hidden cards), then a table of other rules and size.
    rules = Rules.preset("pineapple")
    first = Hand(rules, button=0, seed=1)
    observer = Observer(first, 0)
    first.apply(first.legal_actions(1)[5], 0)
    observer.array()
    second = Hand(rules, button=1, seed=2, fantasy=(0, 14))
    second.apply(fantasy_decision(second.view(1)).action, 0)
    observer.follow(second)
    same(observer, second)
    third = Hand(Rules.preset("classic").with_settings({"players": 4}), button=3, seed=3)
    observer.follow(third)
    same(observer, third)
    with pytest.raises(NoSuchSeat, match="no seat 3 at this table of 2"):
        Observer(third, 3).follow(first)
