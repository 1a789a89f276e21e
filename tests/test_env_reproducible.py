"""A seed fixes everything: Gymnasium's and PettingZoo's checkers one after another in one process,
after other environments have run, over 20 seeds each; seeded replays with a negative control."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from ofc.bots import make_bot
from ofc.bots.spec import parse_spec, split_specs
from ofc.env import parallel_env, pettingzoo_env
from ofc.env.aec import OfcAECEnv
from ofc.env.parallel import OfcParallelEnv
from ofc.env.seat import DEFAULT_OPPONENTS, SeatEnv
from ofc.env.table import Observation, read_rules

SEEDS = 20
CHEAP = "mc:rollouts=2,heuristic"  # bounded by play-outs, as the default, but cheap
TABLES = [("pineapple", 3), ("classic", 2), ("turbo", 3)]


class MovedSeatEnv(SeatEnv):
    """``SeatEnv`` whose seeds are moved by ``offset``: checkers that always reset with seed 123
    or 42 then deal another hand for each offset."""

    def __init__(self, offset: int, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.offset = offset

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        return super().reset(seed=None if seed is None else seed + self.offset, options=options)


class MovedAECEnv(OfcAECEnv):
    """``OfcAECEnv`` with its seeds moved by ``offset``."""

    offset = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(None if seed is None else seed + self.offset, options)


class MovedParallelEnv(OfcParallelEnv):
    """``OfcParallelEnv`` with its seeds moved by ``offset``."""

    offset = 0

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        return super().reset(None if seed is None else seed + self.offset, options)


def moved_aec(offset: int, rules: str, players: int) -> MovedAECEnv:
    env = MovedAECEnv(read_rules(rules, players, {}))
    env.offset = offset
    return env


def moved_parallel(offset: int, rules: str, players: int) -> MovedParallelEnv:
    env = MovedParallelEnv(read_rules(rules, players, {}))
    env.offset = offset
    return env


def other_envs_run(seed: int) -> None:
    """A random hand through each interface, one with a bot bounded by time, to stir the process."""
    rng = np.random.default_rng(seed)
    aec = pettingzoo_env("pineapple", 3)
    aec.reset(seed=seed)
    for _agent in aec.agent_iter():
        observation, _, termination, _, _ = aec.last()
        aec.step(None if termination else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    par = parallel_env("classic", 2)
    observations, _ = par.reset(seed=seed)
    while par.agents:
        observations, *_ = par.step(
            {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in par.acting}
        )
    timed = SeatEnv("turbo", "mc:seconds=0.002,random", seat=1)
    observation, _ = timed.reset(seed=seed)
    done = False
    while not done:
        observation, _, done, _, _ = timed.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_checkers_pass_one_after_another_over_twenty_seeds() -> None:
    for offset in range(SEEDS):
        rules, players = TABLES[offset % len(TABLES)]
        other_envs_run(offset)
        opponents = CHEAP if players == 3 else "mc:rollouts=2"
        check_env(
            MovedSeatEnv(offset, rules, opponents, seat=offset % players, players=players), skip_render_check=True
        )
        api_test(moved_aec(offset, rules, players), num_cycles=1000)
        seed_test(lambda: moved_aec(offset, rules, players), num_cycles=500)  # noqa: B023  # called at once
        parallel_api_test(moved_parallel(offset, rules, players), num_cycles=1000)
        parallel_seed_test(lambda: moved_parallel(offset, rules, players))  # noqa: B023  # called at once


def trajectory(env: SeatEnv, seed: int) -> list[Any]:
    """Every observation, reward and flag of a hand from ``reset(seed)``, the learner taking the
    legal number the seed's generator draws."""
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    seen: list[Any] = [observation["observation"].tolist()]
    done = False
    while not done:
        number = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, done, truncated, _ = env.step(number)
        seen.append((observation["observation"].tolist(), observation["action_mask"].tolist(), reward, truncated))
    return seen


def test_seeded_resets_replay_after_other_envs_ran_and_different_seeds_differ() -> None:
    env = SeatEnv("pineapple", CHEAP, seat=1)
    first = {seed: trajectory(env, seed) for seed in range(SEEDS)}
    for seed in range(SEEDS):
        other_envs_run(100 + seed)
        assert trajectory(env, seed) == first[seed]  # the same instance, after other seeds
        assert trajectory(SeatEnv("pineapple", CHEAP, seat=1), seed) == first[seed]  # a new one
    # Negative control: each seed deals its own hand, so first observations and whole
    # trajectories are pairwise different (the equalities above are not true of any two runs).
    openings = {str(seen[0]) for seen in first.values()}
    assert len(openings) == SEEDS
    assert len({str(seen) for seen in first.values()}) == SEEDS


def test_the_default_opponents_are_bounded_by_play_outs_and_replay() -> None:
    for spec in split_specs(DEFAULT_OPPONENTS):
        name, options = parse_spec(spec)
        assert "seconds" not in options
        assert name not in ("mc", "pro") or "rollouts" in options
    env = SeatEnv()
    assert env.specs == ("mc:rollouts=16", "heuristic")
    three = trajectory(env, 3)
    other_envs_run(3)
    assert trajectory(SeatEnv(), 3) == three
    assert trajectory(env, 4)[0] != three[0]


def test_a_seeded_bot_decides_alike_and_its_seed_matters() -> None:
    env = SeatEnv("pineapple", "heuristic", seat=0)
    env.reset(seed=6)
    view = env.table.view(0)  # the first five cards: 232 legal placements
    decided = [make_bot("mc:rollouts=2", seed=seed).act(view) for seed in range(8)]
    assert [make_bot("mc:rollouts=2", seed=seed).act(view) for seed in range(8)] == decided
    assert len(set(decided)) > 1  # two play-outs a candidate: the draw decides, so seeds differ
