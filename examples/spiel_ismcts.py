"""OpenSpiel's information-set MCTS against ofc's heuristic bot in ``python_ofc``.

    .venv/bin/python examples/spiel_ismcts.py --hands 4 --simulations 30

ISMCTS (``open_spiel.python.algorithms.ismcts``) plays seat 0: it samples the cards it cannot
see with ``state.resample_from_infostate`` and evaluates leaves by playing the hand out with
ofc's heuristic for every seat. The heuristic bot plays the other seats from their views.
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import ofc.env.spiel  # noqa: F401  # registers python_ofc
from ofc.bots import HeuristicBot
from ofc.env.encoding import encode
from ofc.env.spiel import OfcState


def heuristic_number(bot: HeuristicBot, state: OfcState) -> int:
    """The heuristic bot's action for the player to act, as an action number."""
    view = state.view(state.current_player())
    return encode(view, bot.act(view))


class HeuristicRollouts(mcts.RandomRolloutEvaluator):  # type: ignore[misc]
    """Values a state by playing it out: chance at random, every seat by the heuristic."""

    def __init__(self, bot: HeuristicBot, rng: np.random.RandomState) -> None:
        super().__init__(n_rollouts=1, random_state=rng)
        self._bot = bot

    def evaluate(self, state: OfcState) -> np.ndarray:
        working = state.clone()
        while not working.is_terminal():
            if working.is_chance_node():
                cards = [card for card, _ in working.chance_outcomes()]
                working.apply_action(int(self._random_state.choice(cards)))
            else:
                working.apply_action(heuristic_number(self._bot, working))
        return np.array(working.returns())


def play(hands: int, simulations: int, variant: str, players: int, seed: int) -> list[float]:
    """Play ``hands`` hands (button moving) and return ISMCTS's points per hand."""
    rng = np.random.RandomState(seed)
    bot = HeuristicBot()
    points: list[float] = []
    for number in range(hands):
        game = pyspiel.load_game("python_ofc", {"variant": variant, "players": players, "button": number % players})
        searcher = ismcts.ISMCTSBot(
            game, HeuristicRollouts(bot, rng), uct_c=2.0, max_simulations=simulations, random_state=rng
        )
        # seeded worlds: left alone, ISMCTS draws them with an unseeded sampler of its own
        searcher.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.uniform))
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                cards = [card for card, _ in state.chance_outcomes()]
                state.apply_action(int(rng.choice(cards)))
            elif state.current_player() == 0:
                state.apply_action(searcher.step(state))
            else:
                state.apply_action(heuristic_number(bot, state))
        points.append(state.returns()[0])
        print(f"hand {number + 1}: ISMCTS {state.returns()[0]:+.0f}")
    return points


def main() -> None:
    """Parse the options and play."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=30)
    parser.add_argument("--variant", default="pineapple", choices=["classic", "turbo", "pineapple"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    points = play(options.hands, options.simulations, options.variant, options.players, options.seed)
    print(f"ISMCTS against heuristic: {sum(points) / len(points):+.2f} points per hand over {len(points)} hands")


if __name__ == "__main__":
    main()
