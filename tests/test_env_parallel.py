"""The PettingZoo ``ParallelEnv``: PettingZoo's parallel tests, fantasy seats choosing at once,
the same play as the AEC environment, refusals that change nothing, and ``is_parallelizable``."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, parallel_seed_test
from pettingzoo.utils.conversions import aec_to_parallel

from ofc.env import parallel_env, pettingzoo_env
from ofc.env.parallel import legal_number
from ofc.rules.errors import ActionError, SetupError
from ofc.solver import solve_fantasy_top
from support.env_checks import scored_points

TABLES = [
    ("classic", 2, (), 0),
    ("turbo", 3, (), 0),
    ("pineapple", 3, (), 0),
    ("pineapple", 3, (0, 14, 0), 0),
    ("pineapple", 3, (14, 0, 14), 3),
    ("classic", 4, (13, 13, 0, 13), 2),
]


@pytest.mark.parametrize(("rules", "players", "fantasy", "choices"), TABLES)
def test_pettingzoo_parallel_api_and_seed_tests_pass(
    rules: str, players: int, fantasy: tuple[int, ...], choices: int
) -> None:
    parallel_api_test(parallel_env(rules, players, fantasy=fantasy, fantasy_choices=choices), num_cycles=1000)
    parallel_seed_test(lambda: parallel_env(rules, players, fantasy=fantasy, fantasy_choices=choices))


def test_fantasy_seats_choose_in_one_step() -> None:
    env = parallel_env("pineapple", 3, fantasy=(14, 0, 14), fantasy_choices=3, illegal="raise")
    observations, infos = env.reset(seed=1)
    assert sorted(env.acting) == ["player_0", "player_2"]
    for seat in (0, 2):
        agent = f"player_{seat}"
        boards = solve_fantasy_top(env.table.view(seat).cards, env.table.rules, 3)
        assert infos[agent]["fantasy_boards"] == boards
        assert observations[agent]["action_mask"][:4].tolist() == [1, 1, 1, 0]
    assert "fantasy_boards" not in infos["player_1"]
    assert not observations["player_1"]["action_mask"].any()  # the street seat waits for them
    infos_boards_0 = infos["player_0"]["fantasy_boards"]
    chosen = {0: infos_boards_0[2], 2: infos["player_2"]["fantasy_boards"][0]}
    _, rewards, terminations, _, infos = env.step({"player_0": 2, "player_2": 0, "player_1": 123})
    assert env.acting == ["player_1"]  # the one street seat, once both boards are set
    assert rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": 0.0}
    assert not any(terminations.values())
    assert infos == {"player_0": {}, "player_1": {}, "player_2": {}}
    for seat, solution in chosen.items():
        rows = [sorted(row) for row in env.table.view(seat).seats[seat].rows]
        board = solution.board
        assert rows == [sorted(board.top), sorted(board.middle), sorted(board.bottom)]
    assert chosen[0] != infos_boards_0[0]  # number 2 set another board than the solver's own


def test_a_bad_number_or_a_missing_agent_changes_nothing() -> None:
    env = parallel_env("pineapple", 3, fantasy=(14, 0, 14), fantasy_choices=3, illegal="raise")
    before, _ = env.reset(seed=1)
    with pytest.raises(
        ActionError, match=r"seat 2 sets its fantasy hand: action 3 is not one of the solver's 3 boards"
    ):
        env.step({"player_0": 0, "player_2": 3})
    with pytest.raises(SetupError, match="player_2 must act now"):
        env.step({"player_0": 0})
    assert sorted(env.acting) == ["player_0", "player_2"]  # player_0's good number was not applied
    assert not any(env.table.view(0).seats[0].rows)
    after = env._observations()
    for agent in env.possible_agents:
        assert np.array_equal(before[agent]["observation"], after[agent]["observation"])
    street = parallel_env("pineapple", 2, illegal="raise")
    street.reset(seed=1)
    seat = street.acting[0]
    with pytest.raises(ActionError, match="top row, which has room for 3"):
        street.step({seat: 0})  # all five cards on top
    assert street.acting == [seat]


def test_an_illegal_number_is_replaced_by_a_seeded_draw_and_reported() -> None:
    def first_step(seed: int) -> tuple[dict[str, dict[str, object]], np.ndarray]:
        env = parallel_env("pineapple", 2, button=1)
        env.reset(seed=seed)
        observations, _, _, _, infos = env.step({"player_0": 0, "player_1": 0})
        return infos, observations["player_1"]["observation"]

    infos, seen = first_step(4)
    assert infos["player_0"] == {"illegal_action": 0}  # seat 0 acts first with button 1: 0 is not legal
    assert infos["player_1"] == {}
    again, seen_again = first_step(4)
    assert again == infos
    assert np.array_equal(seen, seen_again)  # the same replacement, so the same placement shown


def test_the_same_numbers_play_as_the_aec_env() -> None:
    rng = np.random.default_rng(8)
    for seed in range(6):
        parallel = parallel_env("pineapple", 3)
        aec = pettingzoo_env("pineapple", 3)
        observations, _ = parallel.reset(seed=seed)
        aec.reset(seed=seed)
        totals = dict.fromkeys(parallel.possible_agents, 0.0)
        while parallel.agents:
            (agent,) = parallel.acting
            assert aec.agent_selection == agent
            for other in parallel.possible_agents:
                assert np.array_equal(observations[other]["observation"], aec.observe(other)["observation"])
            number = int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
            aec.step(number)
            observations, rewards, terminations, _, _ = parallel.step({agent: number})
            for other, reward in rewards.items():
                totals[other] += reward
        assert all(terminations.values())
        assert [totals[a] for a in parallel.possible_agents] == [
            float(p) for p in scored_points(parallel.table.view(None))
        ]
        assert [aec.rewards[a] for a in aec.possible_agents] == [totals[a] for a in parallel.possible_agents]
        with pytest.raises(SetupError, match="the hand is over"):
            parallel.step({})


def test_legal_numbers() -> None:
    mask = np.array([0, 1, 1], dtype=np.int8)
    assert [legal_number(n, mask) for n in (0, 1, 2, 3, -1)] == [False, True, True, False, False]
    assert legal_number(np.int64(2), mask)
    assert not legal_number(True, mask)
    assert not legal_number(1.0, mask)
    assert not legal_number(None, mask)


def test_is_parallelizable_is_false_because_aec_to_parallel_cannot_follow_the_order_of_play() -> None:
    env = pettingzoo_env("pineapple", 3, button=0)
    assert env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env)
    # Forced, the wrapper expects player_0 first, but seat 1 (the button's left) acts first.
    env.metadata = {**env.metadata, "is_parallelizable": True}
    wrapped = aec_to_parallel(env)
    observations, _ = wrapped.reset(seed=1)
    actions = {
        agent: int(np.flatnonzero(obs["action_mask"])[0]) if obs["action_mask"].any() else 0
        for agent, obs in observations.items()
    }
    with pytest.raises(AssertionError, match="expected agent player_0 got agent player_1"):
        wrapped.step(actions)


def test_bad_setup_is_named() -> None:
    with pytest.raises(SetupError, match="illegal must be one of random, raise, not 'skip'"):
        parallel_env("pineapple", 3, illegal="skip")
    with pytest.raises(SetupError, match="render_mode must be 'ansi' or None"):
        parallel_env("pineapple", 3, render_mode="human")


def test_ansi_render_draws_the_public_boards() -> None:
    env = parallel_env("classic", 2, render_mode="ansi", button=0)
    env.reset(seed=2)
    text = env.render()
    assert text is not None
    assert text.splitlines()[-1] == "Street 1 of 9: place 5 cards"
    assert parallel_env("classic", 2).render() is None
