"""``fantasy_choices=k``: a fantasy seat picks one of the solver's k best boards by action number."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import ofc.env.spiel  # noqa: F401  # registers python_ofc
from ofc.engine.hand import Hand
from ofc.env import SeatEnv, pettingzoo_env
from ofc.env.table import Table
from ofc.rules.cards import ALL_CARDS, Deck, format_cards, parse_cards
from ofc.rules.errors import ActionError, SetupError
from ofc.rules.rulebook import Rules
from ofc.solver import FantasySolution, solve_fantasy, solve_fantasy_top
from support.env_checks import scored_points

PINEAPPLE3 = Rules.preset("pineapple").with_settings({"players": 3})
ROYAL_AND_3C = "Kc Kd Kh Ts Js Qs Ks As 2h 4h 6h 8h Th 3c"
FANTASY = (0, 14, 0)


def stacked_table(choices: int) -> Table:
    """Button 0, so seat 1 is dealt first: its 14 fantasy cards are the top of the deck."""
    table = Table(PINEAPPLE3, fantasy=FANTASY, fantasy_choices=choices)
    top = parse_cards(ROYAL_AND_3C)
    deck = Deck(order=top + tuple(c for c in ALL_CARDS if c not in top))
    table.hand = Hand(PINEAPPLE3, button=0, deck=deck, fantasy=FANTASY)
    return table


def rows(board: FantasySolution) -> tuple[str, str, str, str]:
    b = board.board
    return format_cards(b.top), format_cards(b.middle), format_cards(b.bottom), format_cards(board.discards)


def test_the_fantasy_seat_chooses_among_the_solvers_boards_worked_by_hand() -> None:
    # The boards of ROYAL_AND_3C are worked out in tests/test_solver_top.py: 66 for KKK over
    # the T-high heart flush and the royal, then 53 for a pair of kings on top, the strongest
    # heart flush middles first.
    table = stacked_table(4)
    assert table.to_play == 1  # the fantasy seat sets first (RULES.md), before seat 2 and 0
    royal = "Ts Js Qs Ks As"
    assert [rows(b) for b in table.boards(1)] == [
        ("Kc Kd Kh", "2h 4h 6h 8h Th", royal, "3c"),
        ("3c Kc Kd", "4h 6h 8h Th Kh", royal, "2h"),
        ("2h Kc Kd", "4h 6h 8h Th Kh", royal, "3c"),
        ("4h Kc Kd", "2h 6h 8h Th Kh", royal, "3c"),
    ]
    assert [b.value for b in table.boards(1)] == [66.0, 53.0, 53.0, 53.0]
    assert table.mask(1).tolist() == [1, 1, 1, 1] + [0] * 239
    observation = table.observe(1)
    assert observation["action_mask"].tolist() == [1, 1, 1, 1] + [0] * 239
    assert table.observe(2)["action_mask"].sum() == 0  # seat 2 waits for the fantasy seat
    table.play(3)
    top, middle, bottom = table.view(1).seats[1].rows
    assert (sorted(top), sorted(middle), sorted(bottom)) == (
        sorted(parse_cards("4h Kc Kd")),
        sorted(parse_cards("2h 6h 8h Th Kh")),
        sorted(parse_cards(royal)),
    )
    assert table.view(1).discards == parse_cards("3c")
    assert table.to_play == 2  # then the street seats in order of play


def test_a_number_beyond_the_boards_is_refused_and_changes_nothing() -> None:
    table = stacked_table(4)
    for number in (4, -1, 242, 1.0, True):
        with pytest.raises(
            ActionError, match=r"sets its fantasy hand: action .* is not one of the solver's 4 boards \(0-3\)"
        ):
            table.play(number)  # type: ignore[arg-type]
    assert table.to_play == 1
    assert table.hand.actions_taken == 0
    table.play(np.int64(0))  # type: ignore[arg-type]  # numpy numbers are numbers
    assert sorted(table.view(1).seats[1].rows[0]) == sorted(parse_cards("Kc Kd Kh"))


def test_pettingzoo_asks_the_fantasy_agent_with_its_boards_in_info() -> None:
    env = pettingzoo_env("pineapple", 3, fantasy=FANTASY, fantasy_choices=5)
    default = pettingzoo_env("pineapple", 3, fantasy=FANTASY)
    rng = np.random.default_rng(2)
    for seed in range(4):
        env.reset(seed=seed)
        default.reset(seed=seed)
        assert env.agent_selection == "player_1"
        observation = env.observe("player_1")
        assert observation["action_mask"].tolist() == [1] * 5 + [0] * 238
        boards = env.infos["player_1"]["fantasy_boards"]
        cards = env.table.view(1).cards
        assert boards == solve_fantasy_top(cards, env.table.rules, 5)
        assert boards[0] == solve_fantasy(cards, env.table.rules)
        assert all("fantasy_boards" not in env.infos[a] for a in ("player_0", "player_2"))
        env.step(0)  # the solver's own board, as the default env sets it for the same seed
        assert "fantasy_boards" not in env.infos["player_1"]
        assert env.table.view(None).seats[1].hidden == 13
        assert (
            env.table.hand.private_record().actions[0].action == default.table.hand.private_record().actions[0].action
        )
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            totals[agent] += reward
            done = termination or truncation
            env.step(None if done else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        assert list(totals.values()) == [float(p) for p in scored_points(env.table.view(None))]


def test_pettingzoo_api_and_seed_tests_pass_with_fantasy_choices() -> None:
    api_test(pettingzoo_env("pineapple", 3, fantasy=FANTASY, fantasy_choices=3), num_cycles=1000)
    seed_test(lambda: pettingzoo_env("pineapple", 3, fantasy=FANTASY, fantasy_choices=3), num_cycles=1000)


def test_gymnasium_learner_in_fantasy_chooses_and_the_checker_passes() -> None:
    env = SeatEnv("pineapple", "heuristic,random", seat=1, fantasy=FANTASY, fantasy_choices=6, button=0)
    observation, info = env.reset(seed=4)
    boards = info["fantasy_boards"]
    assert len(boards) == 6
    assert boards == solve_fantasy_top(env.table.view(1).cards, env.table.rules, 6)
    assert observation["action_mask"].tolist() == [1] * 6 + [0] * 237
    observation, reward, done, _, info = env.step(2)
    assert done  # the fantasy seat's one decision: the bots then play the hand out
    assert reward == float(scored_points(env.table.view(None))[1])
    assert "fantasy_boards" not in info
    placed = env.table.view(1).seats[1].rows
    assert tuple(sorted(row) for row in placed) == tuple(
        sorted(row) for row in (boards[2].board.top, boards[2].board.middle, boards[2].board.bottom)
    )
    check_env(SeatEnv("pineapple", "heuristic,random", seat=1, fantasy=FANTASY, fantasy_choices=6))


def test_a_bot_in_fantasy_still_sets_its_own_board() -> None:
    env = SeatEnv("pineapple", "heuristic,random", seat=0, fantasy=FANTASY, fantasy_choices=6, button=0)
    env.reset(seed=1)
    view = env.table.view(1)
    assert view.seats[1].done  # the heuristic bot at seat 1 set its fantasy board before seat 0 acts


@pytest.mark.parametrize("choices", [-1, 244, True, "3", 2.0])
def test_bad_fantasy_choices_are_named(choices: object) -> None:
    message = r"fantasy_choices must be a whole number from 0 \(the solver sets fantasy hands\) to 243"
    with pytest.raises(SetupError, match=message):
        pettingzoo_env("pineapple", 3, fantasy_choices=choices)
    with pytest.raises(SetupError, match=message):
        SeatEnv("pineapple", "random", fantasy_choices=choices)
    if isinstance(choices, int) and not isinstance(choices, bool):  # OpenSpiel parameters are typed
        with pytest.raises((SetupError, RuntimeError), match=message):
            pyspiel.load_game("python_ofc", {"fantasy_choices": choices})


def test_openspiel_fantasy_seat_picks_a_board_by_number() -> None:
    game = pyspiel.load_game(
        "python_ofc", {"variant": "pineapple", "players": 3, "fantasy_deals": "0,14,0", "button": 0}
    )
    state = game.new_initial_state()
    for card in parse_cards(ROYAL_AND_3C) + parse_cards("2c 2d 2s 3d 3h  5c 5d 5h 5s 6c"):
        assert state.is_chance_node()
        state.apply_action(card)
    assert state.current_player() == 2  # by default the solver has set seat 1's board already
    chooser = pyspiel.load_game(
        "python_ofc",
        {"variant": "pineapple", "players": 3, "fantasy_deals": "0,14,0", "button": 0, "fantasy_choices": 4},
    )
    state = chooser.new_initial_state()
    for card in parse_cards(ROYAL_AND_3C) + parse_cards("2c 2d 2s 3d 3h  5c 5d 5h 5s 6c"):
        state.apply_action(card)
    assert state.current_player() == 1
    assert state.legal_actions() == [0, 1, 2, 3]
    assert state.legal_actions(2) == []
    assert [rows(b) for b in state.fantasy_boards(1)][1] == ("3c Kc Kd", "4h 6h 8h Th Kh", "Ts Js Qs Ks As", "2h")
    assert state.action_to_string(1, 1).endswith("(board 1, worth 53)")
    other = state.resample_from_infostate(2, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    state.apply_action(1)
    assert state.current_player() == 2
    top, middle, _ = state.hand.view(1).seats[1].rows
    assert (sorted(top), sorted(middle)) == (sorted(parse_cards("3c Kc Kd")), sorted(parse_cards("4h 6h 8h Th Kh")))
    other.apply_action(1)  # the same choice among the boards of another deal seat 2 cannot tell apart
    assert other.information_state_string(2) == state.information_state_string(2)
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions() or [c for c, _ in state.chance_outcomes()]))
    assert state.returns() == [float(p) for p in scored_points(state.view(None))]
