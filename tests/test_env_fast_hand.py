"""The compiled table step (``ofc.env.fast_hand``) is the engine's hand in another form.

A table with ``fast=True`` and one without are reset with the same seed and fed the same
random legal numbers; at every step the seat to act, every seat's observation and mask must
be equal, and equal to ``to_array`` and ``action_mask`` of the engine's own view (the one gate
to hidden information); at the showdown the points must equal ``ofc score`` of the final
boards. Numbers that cannot be played get the engine's error and change nothing; anything
that needs the engine's objects replays the hand, and play goes on identically.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc.engine.hand import Hand
from ofc.env import pettingzoo_env
from ofc.env.encoding import action_mask
from ofc.env.observation import to_array
from ofc.env.table import Table
from ofc.rules.errors import ActionError
from ofc.rules.rulebook import Rules
from support.env_checks import scored_points

CONFIGS = [
    *(("classic", players) for players in (2, 3, 4)),
    *(("turbo", players) for players in (2, 3, 4)),
    ("pineapple", 2),
    ("pineapple", 3),
    ("pineapple-progressive", 3),
]


@st.composite
def tables(draw: st.DrawFn) -> Rules:
    """A rule set of any variant and size, scoring system and fantasy setting."""
    preset, players = draw(st.sampled_from(CONFIGS))
    scorings = ["american"] if preset.startswith("pineapple") else ["classic", "american"]  # classic: not pineapple
    return Rules.preset(preset).with_settings(
        {
            "players": players,
            "scoring": draw(st.sampled_from(scorings)),
            "fantasy": draw(st.booleans()),
            "fantasy_max_in_row": draw(st.sampled_from([1, 2, None])),
        }
    )


def assert_same(fast: Table, engine: Table, hand: Hand) -> None:
    """Equal seat to act, observations and masks; both equal to the engine view's."""
    assert fast.to_play == engine.to_play
    for seat in range(fast.rules.players):
        mine, theirs = fast.observe(seat), engine.observe(seat)
        view = hand.view(seat)
        assert np.array_equal(mine["observation"], theirs["observation"])
        assert np.array_equal(mine["observation"], to_array(view))
        assert np.array_equal(mine["action_mask"], theirs["action_mask"])
        assert np.array_equal(mine["action_mask"], action_mask(view))
        assert np.array_equal(fast.mask(seat), mine["action_mask"])


@settings(max_examples=200, deadline=None)
@given(tables(), st.integers(0, 2**32), st.integers(0, 2**32))
def test_every_step_equals_the_engine(rules: Rules, seed: int, policy: int) -> None:
    fast, engine = Table(rules, fast=True), Table(rules)
    fast.reset(seed)
    engine.reset(seed)
    rng = random.Random(policy)
    steps = 0
    while engine.to_play is not None:
        assert_same(fast, engine, engine.hand)
        number = int(rng.choice(np.flatnonzero(engine.mask(engine.to_play))))
        fast.play(number)
        engine.play(number)
        steps += 1
    assert_same(fast, engine, engine.hand)
    assert steps == len(rules.spec.streets) * rules.players
    assert fast.points() == engine.points() == scored_points(engine.view(None))
    assert sum(fast.points()) == 0
    assert fast.compiled  # played compiled to the end: nothing asked for the engine's hand
    assert fast.hand.result is not None
    assert fast.hand.result.points == fast.points()


def test_the_first_legal_number_worked_by_hand() -> None:
    """Heads-up classic, each seat always plays its lowest legal number.

    A first-street number writes the rows of the five cards in ascending order in base 3 (0
    top), the lowest card leading: 0 = 00000, 1 = 00001, 2 = 00002 and 3 = 00010 put five or
    four cards on top, which holds three, so the first legal number is 4 = 00011: the three
    lowest cards on top, the two highest in the middle. Button 1: seat 0 acts first and is
    dealt the deck's first five cards.
    """
    rules = Rules.preset("classic").with_settings({"players": 2})
    fast, engine = Table(rules, fast=True, button=1), Table(rules, button=1)
    fast.reset(11)
    engine.reset(11)
    first = np.flatnonzero(fast.mask(0))
    assert first[0] == 4  # 0, 1, 2, 3 put four or five cards on top (3 places): masked
    while fast.to_play is not None:
        seat = fast.to_play
        number = int(np.flatnonzero(fast.mask(seat))[0])
        fast.play(number)
        engine.play(number)
    board = engine.view(None).seats[0].rows
    first_five = sorted(engine.hand.private_record().deck[0:5])
    assert sorted(board[0]) == first_five[:3]
    assert set(first_five[3:]) <= set(board[1])
    assert fast.points() == engine.points() == scored_points(engine.view(None))


@pytest.mark.parametrize(
    ("number", "message"),
    [
        (243, "action 243 is not one of the 243 numbers of this street (0-242)"),
        (0, "action 0 puts 5 cards in the top row, which has room for 3"),
        (True, "action True is not one of the 243 numbers"),
        ("7", "action '7' is not one of the 243 numbers"),
        (np.int8(-1), "action -1 is not one of the 243 numbers"),
    ],
)
def test_a_number_that_cannot_be_played_gets_the_engines_error_and_changes_nothing(
    number: object, message: str
) -> None:
    rules = Rules.preset("pineapple").with_settings({"players": 3})
    fast, engine = Table(rules, fast=True), Table(rules)
    fast.reset(5)
    engine.reset(5)
    seat = fast.to_play
    assert seat is not None
    before = fast.observe(seat)
    with pytest.raises(ActionError) as raised:
        fast.play(number)  # type: ignore[arg-type]  # a wrong kind on purpose
    assert message in str(raised.value)
    with pytest.raises(ActionError) as engine_raised:
        engine.play(number)  # type: ignore[arg-type]
    assert str(raised.value) == str(engine_raised.value)
    after = fast.observe(seat)
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])
    assert fast.hand.actions_taken == 0


def test_a_look_at_the_engines_hand_mid_hand_replays_it_and_play_goes_on_alike() -> None:
    rules = Rules.preset("pineapple").with_settings({"players": 2})
    fast, engine = Table(rules, fast=True), Table(rules)
    fast.reset(8)
    engine.reset(8)
    rng = random.Random(3)
    steps = 0
    while engine.to_play is not None:
        if steps == 5:
            assert fast.compiled
            assert fast.view(None) == engine.view(None)  # the replay: the same public view
            assert not fast.compiled  # the engine plays on
        number = int(rng.choice(np.flatnonzero(engine.mask(engine.to_play))))
        fast.play(number)
        engine.play(number)
        steps += 1
        assert_same(fast, engine, engine.hand)
    assert fast.points() == engine.points()


def test_fantasy_hands_take_the_engine_and_the_next_normal_hand_the_compiled_step() -> None:
    rules = Rules.preset("pineapple").with_settings({"players": 3})
    fast = Table(rules, fast=True)
    fast.reset(4, (0, 14, 0))
    assert not fast.compiled
    assert fast.hand.fantasy == (0, 14, 0)
    fast.reset(4, (0, 0, 0))
    assert fast.compiled


def test_the_same_seed_deals_the_same_hands_compiled_or_not() -> None:
    rules = Rules.preset("turbo").with_settings({"players": 3})
    fast, engine = Table(rules, fast=True), Table(rules)
    fast.reset(21)
    engine.reset(21)
    for _ in range(5):  # the next hands come from the same seeded generator
        assert fast.hand.private_record().deck == engine.hand.private_record().deck
        assert fast.hand.button == engine.hand.button
        fast.reset()
        engine.reset()


@pytest.mark.parametrize(("rules", "players"), [("pineapple", 3), ("classic", 4), ("turbo", 2)])
def test_pettingzoo_episodes_are_the_same_compiled_or_not(rules: str, players: int) -> None:
    compiled, engine = pettingzoo_env(rules, players), pettingzoo_env(rules, players, compiled=False)
    rng = np.random.default_rng(9)
    for episode in range(10):
        compiled.reset(seed=episode)
        engine.reset(seed=episode)
        for agent, other in zip(compiled.agent_iter(), engine.agent_iter(), strict=True):
            assert agent == other
            mine, reward, done, _, _ = compiled.last()
            theirs, their_reward, their_done, _, _ = engine.last()
            assert np.array_equal(mine["observation"], theirs["observation"])
            assert np.array_equal(mine["action_mask"], theirs["action_mask"])
            assert (reward, done) == (their_reward, their_done)
            number = None if done else int(rng.choice(np.flatnonzero(mine["action_mask"])))
            compiled.step(number)
            engine.step(number)
        assert compiled.table.compiled
        assert not engine.table.compiled


def test_a_number_past_a_pineapple_streets_27_gets_the_engines_error() -> None:
    """After the first street a pineapple seat has 3 cards, one discarded: 3 x 3^2 = 27 numbers (0-26)."""
    rules = Rules.preset("pineapple").with_settings({"players": 2})
    fast = Table(rules, fast=True)
    fast.reset(2)
    for _ in range(2):
        seat = fast.to_play
        assert seat is not None
        fast.play(int(np.flatnonzero(fast.mask(seat))[0]))
    seat = fast.to_play
    assert seat is not None
    assert fast.compiled
    assert int(np.flatnonzero(fast.mask(seat))[-1]) <= 26
    before = fast.observe(seat)["observation"]
    with pytest.raises(ActionError, match=r"action 27 is not one of the 27 numbers of this street \(0-26\)"):
        fast.play(27)
    assert np.array_equal(fast.observe(seat)["observation"], before)
    assert fast.hand.actions_taken == 2
