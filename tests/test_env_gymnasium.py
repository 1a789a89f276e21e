"""The Gymnasium environment: Gymnasium's checker, registration, returns, bots, illegal numbers."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings

import ofc.env
from ofc.env import SeatEnv
from ofc.rules.errors import ActionError, BotError, SetupError
from support.env_checks import scored_points
from support.twins import Position, hidden_twin, positions


@pytest.mark.parametrize(
    ("rules", "opponents", "seat"),
    [("pineapple", "mc:rollouts=8,heuristic", 1), ("classic", "heuristic", 0), ("turbo", "random,heuristic,random", 3)],
)
def test_gymnasium_env_checker_passes(rules: str, opponents: str, seat: int) -> None:
    check_env(SeatEnv(rules, opponents, seat=seat))


def test_registered_as_ofc_seat_v0() -> None:
    env = gymnasium.make(ofc.env.SEAT_ENV_ID, rules="classic", opponents="heuristic", render_mode="ansi")
    check_env(env.unwrapped)
    observation, _ = env.reset(seed=4)
    assert observation["observation"].shape == (445,)  # classic, 2 players (test_observation)
    env.close()


def test_table_size_follows_the_bots_named() -> None:
    env = SeatEnv("pineapple", "mc:seconds=0.05,heuristic")
    assert env.table.rules.players == 3
    assert env.specs == ("mc:seconds=0.05", "heuristic")
    assert SeatEnv("classic", "heuristic", players=4).specs == ("heuristic",) * 3


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"seat": 3}, SetupError, "seat must be a seat from 0 to 2, not 3"),
        ({"opponents": "heuristic,random,mc", "players": 3}, SetupError, "names 3 bots for 2 other seats"),
        ({"opponents": "robot"}, BotError, "unknown bot 'robot'"),
        ({"illegal": "ignore"}, SetupError, "illegal must be one of random, raise"),
    ],
)
def test_bad_setup_is_named(kwargs: dict[str, object], error: type[Exception], message: str) -> None:
    base: dict[str, object] = {"rules": "pineapple", "opponents": "heuristic,heuristic"}
    with pytest.raises(error, match=message):
        SeatEnv(**{**base, **kwargs})


@pytest.mark.parametrize(("rules", "seat", "fantasy"), [("pineapple", 2, (0, 14, 0)), ("classic", 0, ())])
def test_every_episode_returns_the_scored_points(rules: str, seat: int, fantasy: tuple[int, ...]) -> None:
    env = SeatEnv(rules, "heuristic,random", seat=seat, fantasy=fantasy)
    rng = np.random.default_rng(3)
    for episode in range(10):
        observation, _ = env.reset(seed=episode)
        done, total = False, 0.0
        while not done:
            number = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, reward, done, truncated, info = env.step(number)
            assert not truncated
            assert "illegal_action" not in info
            total += reward
        assert total == scored_points(env.table.view(None))[seat]


def test_illegal_numbers_are_replaced_or_refused() -> None:
    env = SeatEnv("pineapple", "heuristic", seat=0)
    env.reset(seed=7)
    _, _, _, _, info = env.step(0)  # five cards on top: replaced by a random legal number
    assert info == {"illegal_action": 0}
    assert sum(map(len, env.table.view(0).seats[0].rows)) == 5
    strict = SeatEnv("pineapple", "heuristic", seat=0, illegal="raise")
    first, _ = strict.reset(seed=7)
    with pytest.raises(ActionError, match="action 0 is not legal now"):
        strict.step(0)
    assert np.array_equal(strict.table.observe(0)["observation"], first["observation"])


def test_seeded_resets_replay_exactly() -> None:
    def run(seed: int) -> list[float]:
        env = SeatEnv("pineapple", "mc:rollouts=8,random", seat=1)
        observation, _ = env.reset(seed=seed)
        seen = [float(observation["observation"].sum())]
        done = False
        while not done:
            number = int(np.flatnonzero(observation["action_mask"])[0])
            observation, reward, done, _, _ = env.step(number)
            seen.append(float(observation["observation"].sum()) + reward)
        return seen

    eleven = run(11)
    assert run(11) == eleven
    # Negative control: another seed deals other cards, so the first observation and the whole
    # trajectory differ (the equality above is not true of any two runs).
    twelve = run(12)
    assert twelve[0] != eleven[0]
    assert twelve != eleven


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_the_learners_observation_never_changes_with_cards_it_cannot_see(
    case: tuple[Position, int, random.Random],
) -> None:
    position, seat, rng = case
    env = SeatEnv(position.rules, "random", seat=seat, players=position.rules.players)
    env.table.hand = position.hand()
    mine = env.table.observe(seat)
    env.table.hand = hidden_twin(position, seat, rng).hand()
    twin = env.table.observe(seat)
    assert np.array_equal(mine["observation"], twin["observation"])
    assert np.array_equal(mine["action_mask"], twin["action_mask"])
