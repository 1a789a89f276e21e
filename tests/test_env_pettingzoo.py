"""The PettingZoo environment: PettingZoo's own API and seed tests, returns, hidden cards, rendering."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from pettingzoo.test import api_test, seed_test

from ofc.env import pettingzoo_env
from ofc.rules.cards import format_card
from ofc.rules.errors import ActionError, RulesError
from support.env_checks import scored_points
from support.twins import Position, hidden_twin, positions

TABLES = [("classic", 2), ("classic", 4), ("turbo", 3), ("pineapple", 2), ("pineapple", 3)]


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_pettingzoo_api_and_seed_tests_pass(rules: str, players: int) -> None:
    api_test(pettingzoo_env(rules, players), num_cycles=1000)
    seed_test(lambda: pettingzoo_env(rules, players), num_cycles=1000)


def test_api_test_passes_with_a_fantasy_seat() -> None:
    api_test(pettingzoo_env("pineapple", 3, fantasy=(0, 14, 0)), num_cycles=1000)


def play_out(env: object, rng: np.random.Generator) -> dict[str, float]:
    totals: dict[str, float] = {}
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        observation, reward, termination, truncation, _ = env.last()  # type: ignore[attr-defined]
        totals[agent] = totals.get(agent, 0.0) + reward
        action = None if termination or truncation else int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)  # type: ignore[attr-defined]
    return totals


@pytest.mark.parametrize(
    ("rules", "players", "fantasy"), [("pineapple", 3, (0, 14, 0)), ("classic", 4, ()), ("turbo", 2, (13, 0))]
)
def test_every_episode_returns_the_scored_points(rules: str, players: int, fantasy: tuple[int, ...]) -> None:
    env = pettingzoo_env(rules, players, fantasy=fantasy)
    rng = np.random.default_rng(5)
    for episode in range(15):
        env.reset(seed=episode)
        totals = play_out(env, rng)
        final = env.table.view(None)
        expected = scored_points(final)
        assert [totals[f"player_{seat}"] for seat in range(players)] == [float(p) for p in expected]
        assert sum(expected) == 0
        if fantasy:
            assert final.seats[fantasy.index(max(fantasy))].done  # the solver set the fantasy seat


def test_fantasy_seats_are_never_asked_to_act() -> None:
    env = pettingzoo_env("pineapple", 3, fantasy=(0, 14, 0))
    env.reset(seed=3)
    asked = set()
    rng = np.random.default_rng(1)
    for agent in env.agent_iter():
        observation, _, termination, _, _ = env.last()
        if not termination:
            asked.add(agent)
        env.step(None if termination else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert asked == {"player_0", "player_2"}


def test_an_illegal_number_is_refused_and_changes_nothing() -> None:
    env = pettingzoo_env("pineapple", 2)
    env.reset(seed=1)
    before = env.observe(env.agent_selection)
    with pytest.raises(ActionError, match="top row, which has room for 3"):
        env.step(0)  # all five cards on top
    after = env.observe(env.agent_selection)
    assert np.array_equal(before["observation"], after["observation"])


def test_bad_settings_are_named() -> None:
    with pytest.raises(RulesError, match="players"):
        pettingzoo_env("pineapple", 4)
    with pytest.raises(RulesError, match="unknown setting 'colour'"):
        pettingzoo_env("classic", 2, colour="red")


def test_ansi_render_draws_the_public_boards() -> None:
    env = pettingzoo_env("classic", 2, render_mode="ansi", button=0)
    env.reset(seed=2)
    text = env.render()
    assert text is not None
    lines = text.splitlines()
    assert lines[0].split() == ["player_0", "(D)", "player_1"]
    assert lines[1].startswith("T  -- -- --")
    assert lines[3].startswith("B  -- -- -- -- --")
    assert lines[-1] == "Street 1 of 9: place 5 cards"
    held = [format_card(card) for seat in (0, 1) for card in env.table.view(seat).cards]
    assert len(held) == 10
    assert not any(card in text for card in held)  # a spectator's view: no held card shows


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_an_agents_observation_never_changes_with_cards_it_cannot_see(
    case: tuple[Position, int, random.Random],
) -> None:
    position, seat, rng = case
    env = pettingzoo_env(position.rules, None)
    agent = f"player_{seat}"
    env.table.hand = position.hand()
    mine = env.observe(agent)
    env.table.hand = hidden_twin(position, seat, rng).hand()
    twin = env.observe(agent)
    assert np.array_equal(mine["observation"], twin["observation"])
    assert np.array_equal(mine["action_mask"], twin["action_mask"])
