"""A random-policy loop through the PettingZoo environment: every agent draws a legal action.

.venv/bin/python examples/pettingzoo_random.py --hands 100 --rules pineapple --players 3
"""

from __future__ import annotations

import argparse

import numpy as np

from ofc.env import pettingzoo_env


def play(hands: int, rules: str, players: int, seed: int, show: bool) -> dict[str, float]:
    """Play ``hands`` episodes with uniformly random legal actions; total reward per agent."""
    env = pettingzoo_env(rules, players, render_mode="ansi")
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for hand in range(hands):
        env.reset(seed=seed + hand)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            totals[agent] += reward
            finished = termination or truncation
            action = None if finished else int(rng.choice(np.flatnonzero(observation["action_mask"])))
            env.step(action)
        if show:
            print(env.render())
    return totals


def main() -> None:
    """Parse the options, play, print each agent's total."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--rules", default="pineapple")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", action="store_true", help="print the boards after each hand")
    options = parser.parse_args()
    totals = play(options.hands, options.rules, options.players, options.seed, options.show)
    print(f"{options.hands} hands of {options.rules}, {options.players} players, random play:")
    for agent, total in totals.items():
        print(f"  {agent}: {total:+.0f} points")
    print(f"  sum: {sum(totals.values()):+.0f} (zero-sum)")


if __name__ == "__main__":
    main()
