"""The OpenSpiel game ``python_ofc``: OpenSpiel's random simulation test, chance, returns, resampling,
a golden playthrough, and OpenSpiel's own ISMCTS and MCTS bots playing it.

The golden playthrough is OpenSpiel's playthrough text of one random game; after a change that
alters it on purpose, write it anew with::

    .venv/bin/python -c "import ofc.env.spiel; from open_spiel.python.algorithms import generate_playthrough as g;
    open('tests/data/python_ofc_classic_2.txt', 'w').write(g.playthrough('python_ofc(players=2,variant=classic)',
    None, seed=38))"
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, generate_playthrough, ismcts, mcts

import ofc.env.spiel  # noqa: F401  # registers python_ofc
from ofc.env.spiel import OfcState, most_points, restartable
from ofc.rules.cards import format_card
from ofc.rules.errors import OfcError
from ofc.rules.rulebook import Rules
from support.env_checks import scored_points

GAMES = [
    {"variant": "classic", "players": 2},
    {"variant": "classic", "players": 4, "button": 3},
    {"variant": "turbo", "players": 3},
    {"variant": "pineapple", "players": 3, "fantasy_deals": "0,14,0"},
    {"variant": "pineapple", "players": 2, "fantasy_cards": "progressive", "fantasy_deals": "17,0"},
    {"variant": "pineapple", "players": 3, "fantasy_deals": "0,14,0", "fantasy_choices": 3},
    {
        "variant": "pineapple",
        "players": 2,
        "fantasy_cards": "progressive",
        "fantasy_deals": "0,16",
        "fantasy_choices": 2,
    },
]


@pytest.mark.parametrize("params", GAMES, ids=lambda p: "-".join(str(v) for v in p.values()))
def test_openspiel_random_simulation_test_passes(params: dict[str, object]) -> None:
    pyspiel.random_sim_test(pyspiel.load_game("python_ofc", params), num_sims=3, serialize=False, verbose=False)


def play_randomly(state: OfcState, rng: random.Random, stop: int | None = None) -> None:
    moves = 0
    while not state.is_terminal() and (stop is None or moves < stop):
        if state.is_chance_node():
            state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        moves += 1


def test_game_info_worked_by_hand() -> None:
    game = pyspiel.load_game("python_ofc", {"variant": "pineapple", "players": 3})
    assert game.num_distinct_actions() == 243
    assert game.max_chance_outcomes() == 52
    # 3 seats x 17 cards = 51 chance nodes, 5 streets x 3 seats = 15 decisions.
    assert game.max_game_length() == 51 + 15
    # American: per opponent 3 rows + 3 scoop + AAA 22 + royal middle 50 + royal bottom 25 = 103.
    assert game.max_utility() == 2 * 103 == most_points(Rules.preset("pineapple").with_settings({"players": 3}))
    assert game.observation_tensor_size() == 606
    assert game.information_state_tensor_size() == 606 + 3120


def test_chance_deals_each_card_when_the_engine_deals_it() -> None:
    game = pyspiel.load_game("python_ofc", {"variant": "pineapple", "players": 2, "button": 0})
    state = game.new_initial_state()
    rng = random.Random(1)
    # First: 5 cards to seat 1 (left of the button), then 5 to seat 0, one chance node each.
    for _ in range(10):
        assert state.is_chance_node()
        assert len(state.chance_outcomes()) == 52 - len(state.history())
        play_randomly(state, rng, stop=1)
    assert state.current_player() == 1
    assert len(state.view(1).cards) == 5
    play_randomly(state, rng, stop=1)  # seat 1 places; seat 0 already holds its five
    assert state.current_player() == 0
    play_randomly(state, rng, stop=1)  # seat 0 places: seat 1's street cards are dealt next
    for dealt in range(3):
        assert state.is_chance_node()
        assert len(state.view(1).cards) == dealt  # placeholders never show
        assert state.view(0).seats[1].holding == dealt
        play_randomly(state, rng, stop=1)
    assert state.current_player() == 1
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 50) == "deal Ah"


@pytest.mark.parametrize("params", GAMES, ids=lambda p: "-".join(str(v) for v in p.values()))
def test_returns_are_the_scored_points(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_ofc", params)
    rng = random.Random(9)
    for _ in range(4):
        state = game.new_initial_state()
        play_randomly(state, rng)
        assert state.returns() == [float(p) for p in scored_points(state.view(None))]


@pytest.mark.parametrize("params", GAMES, ids=lambda p: "-".join(str(v) for v in p.values()))
def test_resampled_states_look_the_same_to_the_player(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_ofc", params)
    rng = random.Random(4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    for stop in (0, 12, 25, 40, 60):  # 0: the first decision, when every other seat holds five hidden cards
        state = game.new_initial_state()
        play_randomly(state, rng, stop=stop)
        while state.is_chance_node():
            play_randomly(state, rng, stop=1)
        if state.is_terminal():
            continue
        player = state.current_player()
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.observation_string(player) == state.observation_string(player)
        assert other.observation_tensor(player) == state.observation_tensor(player)
        assert other.legal_actions() == state.legal_actions()
        differed += str(other) != str(state)
        play_randomly(other, rng)  # the resampled state plays on to a legal end
    assert differed >= 1


def test_a_seat_tells_apart_hands_that_deal_it_other_cards() -> None:
    game = pyspiel.load_game("python_ofc", {"variant": "classic", "players": 2})
    one, two = game.new_initial_state(), game.new_initial_state()
    for card in range(10):
        one.apply_action(card)
        two.apply_action(card if card != 9 else 11)  # seat 0's last card differs
    assert one.information_state_string(1) == two.information_state_string(1)
    assert one.information_state_string(0) != two.information_state_string(0)
    assert format_card(11) in two.information_state_string(0)


def test_bad_parameters_are_named() -> None:
    with pytest.raises((OfcError, RuntimeError), match="players"):
        pyspiel.load_game("python_ofc", {"variant": "pineapple", "players": 4})
    with pytest.raises((OfcError, RuntimeError), match="fantasy_deals needs one deal size per seat"):
        pyspiel.load_game("python_ofc", {"variant": "classic", "players": 2, "fantasy_deals": "13"})


def test_a_clone_plays_on_without_touching_the_original() -> None:
    game = pyspiel.load_game("python_ofc", {"variant": "pineapple", "players": 3, "fantasy_deals": "0,0,14"})
    state = game.new_initial_state()
    rng = random.Random(2)
    play_randomly(state, rng, stop=30)
    before = (str(state), state.history(), state.information_state_string(0), state.legal_actions())
    copy = state.clone()
    assert copy.hand is not state.hand
    play_randomly(copy, rng)
    assert copy.is_terminal()
    assert (str(state), state.history(), state.information_state_string(0), state.legal_actions()) == before
    play_randomly(state, rng)
    assert state.returns() == [float(p) for p in scored_points(state.view(None))]


GOLDEN = Path(__file__).parent / "data" / "python_ofc_classic_2.txt"


def test_the_golden_playthrough_plays_again_line_for_line() -> None:
    original = GOLDEN.read_text(encoding="utf-8")
    found = re.search(r"^game: (.*)$", original, re.MULTILINE)
    assert found is not None
    assert found.group(1) == "python_ofc(players=2,variant=classic)"
    actions = [int(number) for number in re.findall(r"^action: (\d+)$", original, re.MULTILINE)]
    # Classic, 2 seats: 26 cards dealt one chance node each, 9 streets x 2 seats decisions.
    assert len(actions) == 26 + 18
    # Seat 1 sets Td Ks 6d on top over a queen-high middle (3c 6c Qh 5h 9s): it fouls, and
    # seat 0 wins its 3 rows and 3 for the scoop.
    assert "seat 1: top Ks" in original
    assert original.rstrip().endswith("Returns() = [6, -6]")
    assert generate_playthrough.playthrough(found.group(1), actions) == original


def play_with_search_bots(seed: int) -> OfcState:
    """ISMCTS at seat 0, MCTS at seat 1, chance from ``seed``: a plain loop over one classic hand."""
    game = pyspiel.load_game("python_ofc", {"variant": "classic", "players": 2})
    rng = np.random.RandomState(seed)
    rollouts = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = ismcts.ISMCTSBot(game, rollouts, uct_c=2.0, max_simulations=6, random_state=rng)
    # ISMCTS draws its worlds with an unseeded sampler of its own: give it the seeded one
    searcher.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.uniform))
    cheater = mcts.MCTSBot(game, uct_c=2.0, max_simulations=6, evaluator=rollouts, random_state=rng)
    bots = [searcher, cheater]
    state: OfcState = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            cards = [card for card, _ in state.chance_outcomes()]
            state.apply_action(int(rng.choice(cards)))
        else:
            action = int(bots[state.current_player()].step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


def test_openspiel_ismcts_and_mcts_bots_play_a_hand_to_its_end() -> None:
    state = play_with_search_bots(5)
    assert len(state.history()) == 26 + 18
    assert state.returns() == [float(p) for p in scored_points(state.view(None))]
    assert sum(state.returns()) == 0
    assert play_with_search_bots(5).history() == state.history()  # seeded: the same hand again


def test_evaluate_bots_needs_restart_at_which_restartable_gives() -> None:
    game = pyspiel.load_game("python_ofc", {"variant": "classic", "players": 2})
    rng = np.random.RandomState(3)
    rollouts = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = ismcts.ISMCTSBot(game, rollouts, uct_c=2.0, max_simulations=3, random_state=rng)
    searcher.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.uniform))
    other = mcts.MCTSBot(game, uct_c=2.0, max_simulations=3, evaluator=rollouts, random_state=rng)
    with pytest.raises(pyspiel.SpielError, match=r"RestartAt\(state\) not implemented"):
        evaluate_bots.evaluate_bots(game.new_initial_state(), [searcher, other], rng)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [restartable(searcher), restartable(other)], rng)
    assert len(returns) == 2
    assert sum(returns) == 0
