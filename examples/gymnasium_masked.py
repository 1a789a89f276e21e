"""A short Gymnasium training loop: REINFORCE with a linear softmax policy over legal actions only.

    .venv/bin/python examples/gymnasium_masked.py --episodes 300 --opponents heuristic

The policy scores every action number from the observation vector, puts illegal numbers at
minus infinity using the action mask, and samples from the softmax of the rest; after each
hand (one episode) the log-probability of every action taken is pushed up or down by the
hand's points, less a running baseline.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
import numpy.typing as npt

import ofc.env  # noqa: F401  # registers ofc/Seat-v0

F64 = npt.NDArray[np.float64]


def masked_softmax(logits: F64, mask: npt.NDArray[np.int8]) -> F64:
    """Softmax over the legal entries of ``logits``; illegal ones get probability 0."""
    scores: F64 = np.where(mask.astype(bool), logits, -np.inf)
    scores -= scores.max()
    weights: F64 = np.exp(scores)
    return weights / float(weights.sum())


def train(episodes: int, opponents: str, rules: str, seed: int, rate: float) -> list[float]:
    """Train for ``episodes`` hands; returns the reward of each."""
    env = gymnasium.make("ofc/Seat-v0", rules=rules, opponents=opponents, seat=0)
    rng = np.random.default_rng(seed)
    # the env's spaces: a Dict of a Box of features and an action mask, and a Discrete action
    assert isinstance(env.observation_space, gymnasium.spaces.Dict)
    features_space = env.observation_space["observation"]
    assert isinstance(features_space, gymnasium.spaces.Box)
    assert isinstance(env.action_space, gymnasium.spaces.Discrete)
    size = features_space.shape[0]
    actions = int(env.action_space.n)
    weights = np.zeros((actions, size))
    baseline = 0.0
    rewards: list[float] = []
    for episode in range(episodes):
        observation, _ = env.reset(seed=seed + episode)
        taken: list[tuple[F64, int, F64]] = []
        done = False
        reward = 0.0
        while not done:
            features = observation["observation"].astype(np.float64)
            probabilities = masked_softmax(weights @ features, observation["action_mask"])
            action = int(rng.choice(actions, p=probabilities))
            taken.append((features, action, probabilities))
            observation, step_reward, done, _, _ = env.step(action)
            reward = float(step_reward)
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        for features, action, probabilities in taken:
            gradient = -probabilities
            gradient[action] += 1.0  # d log p(action) / d logits
            weights += rate * advantage * np.outer(gradient, features)
        rewards.append(reward)
    env.close()
    return rewards


def main() -> None:
    """Parse the options, train, print the mean reward of each tenth of the run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--opponents", default="heuristic")
    parser.add_argument("--rules", default="pineapple")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=0.002)
    options = parser.parse_args()
    rewards = train(options.episodes, options.opponents, options.rules, options.seed, options.rate)
    block = max(1, len(rewards) // 10)
    for start in range(0, len(rewards), block):
        part = rewards[start : start + block]
        print(f"episodes {start + 1}-{start + len(part)}: mean reward {np.mean(part):+.2f}")


if __name__ == "__main__":
    main()
