"""Gymnasium's vector environments over ``SeatEnv``: a masked random policy runs many episodes
under each autoreset mode, every number it draws is legal, and the final mask is number 0 alone."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv, VectorEnv

from ofc.env.seat import SeatEnv, final_mask

EPISODES = 30
make = partial(SeatEnv, "pineapple", "heuristic", illegal="raise")  # an illegal number would raise


def masked_draws(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly drawn legal number per row of ``masks`` (fails on an all-zero row)."""
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])


def run_next_step(envs: VectorEnv[Any, Any, Any]) -> tuple[int, list[float]]:
    """Steps under next-step autoreset until ``EPISODES`` episodes end; the steps and the returns."""
    rng = np.random.default_rng(2)
    observations, _ = envs.reset(seed=5)
    finished = np.zeros(envs.num_envs, dtype=bool)  # the sub-env ended last step: this step resets it
    returns: list[float] = []
    steps = 0
    while len(returns) < EPISODES:
        masks = observations["action_mask"]
        actions = masked_draws(masks, rng)
        for index in np.flatnonzero(finished):
            assert np.array_equal(masks[index], final_mask(243))  # the final observation's mask
            assert actions[index] == 0  # the placeholder, discarded by the autoreset
        observations, rewards, terminations, truncations, infos = envs.step(actions)
        steps += 1
        assert not truncations.any()
        assert "illegal_action" not in infos
        returns.extend(float(r) for r in rewards[terminations])
        finished = terminations
    envs.close()
    return steps, returns


def test_sync_vector_env_runs_a_masked_random_policy() -> None:
    steps, returns = run_next_step(SyncVectorEnv([make, make]))
    # A pineapple seat decides 5 times a hand, so both envs end together at vector steps 5, 11,
    # 17, ... (each a hand's 5 decisions after the step that reset it): 15 such steps, the last 89.
    assert steps == 5 + 14 * 6
    assert len(returns) == EPISODES
    assert any(returns)
    assert all(r == int(r) for r in returns)


def test_async_vector_env_runs_a_masked_random_policy() -> None:
    steps, returns = run_next_step(AsyncVectorEnv([make, make]))
    assert steps == 5 + 14 * 6
    assert returns == run_next_step(SyncVectorEnv([make, make]))[1]  # the same seeds replay in other processes


def test_same_step_autoreset_puts_the_final_observation_in_info() -> None:
    envs = SyncVectorEnv([make, make], autoreset_mode=AutoresetMode.SAME_STEP)
    rng = np.random.default_rng(3)
    observations, _ = envs.reset(seed=9)
    ended = 0
    while ended < 10:
        observations, _, terminations, _, infos = envs.step(masked_draws(observations["action_mask"], rng))
        for index in np.flatnonzero(terminations):
            ended += 1
            assert np.array_equal(infos["final_obs"][index]["action_mask"], final_mask(243))
            assert observations["action_mask"][index].sum() > 1  # already the next hand's first decision
    envs.close()


def test_one_env_ends_with_the_final_mask() -> None:
    env = make()
    observation, _ = env.reset(seed=1)
    terminated = False
    while not terminated:
        observation, _, terminated, _, _ = env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    assert observation["action_mask"].tolist() == [1] + [0] * 242
    with pytest.raises(Exception, match="the hand is over: call reset"):
        env.step(0)
