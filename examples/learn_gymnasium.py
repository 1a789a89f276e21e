"""Learning shown: a linear after-state value learned on the Gymnasium env beats masked random play.

    .venv/bin/python examples/learn_gymnasium.py --size small   # CI: a few seconds
    .venv/bin/python examples/learn_gymnasium.py --size docs --png docs/images/learning_curve.png

numpy alone. The learner holds seat 0 of heads-up pineapple against ofc's ``heuristic`` bot
(``ofc/Seat-v0``). For every legal action number it rebuilds, from the observation vector
only, the seat's rows as they would be after the action (the action's meaning is the
documented encoding: ``ofc.env.encoding.street_codes``), describes them by a few numbers
(cards per row, pairs, trips, flush and straight draws, a row stronger than the one below
it, ...) and scores them with a linear value. It plays the best-scored action (exploring
at random with probability ``epsilon`` while training). The value is fitted by ridge
regression of every after-state on the hand's final points (Monte Carlo), on all the hands
played so far, after each round: approximate policy iteration, the first round being
masked random play.

Every hand is seeded: training hands use seeds from ``--seed * 1,000,000`` on, held-out
hands seeds from 1,000,000,000 on, never trained on. After each round the greedy policy
plays the held-out hands; at the end the masked random policy (uniform over the legal
numbers) plays the same held-out hands, and the margin is printed with its standard error.
``--png`` writes the learning curve (numpy and zlib, no plotting library).
"""

from __future__ import annotations

import argparse
import math
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ofc.env import SeatEnv
from ofc.env.encoding import street_codes

F64 = npt.NDArray[np.float64]
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]

SIZES = {
    # rounds, training hands per round, held-out hands
    "small": (4, 150, 200),
    "docs": (10, 600, 1000),
}
HELD_OUT = 1_000_000_000
"""The first held-out seed; training seeds stay below it."""

ROW_CARDS = np.array([3.0, 5.0, 5.0])
HELD = slice(156, 208)
"""The observation's block of cards held (``docs/environments.md``, "Observations")."""


@cache
def placement_table(cards: int, discards: int) -> F64:
    """``table[n, p, r]`` = 1 when action number ``n`` puts the ``p``-th lowest held card in row ``r``."""
    codes = street_codes(cards, discards)
    table = np.zeros((codes.size, cards, 3))
    for number, (dropped, rows) in enumerate(zip(codes.dropped, codes.rows, strict=True)):
        kept = [p for p in range(cards) if p not in dropped]
        for position, row in zip(kept, rows, strict=True):  # the lowest kept card is the leading digit
            table[number, position, row] = 1.0
    return table


def after_states(observation: npt.NDArray[np.float32], legal: npt.NDArray[np.intp]) -> tuple[F64, F64]:
    """Rank counts (legal, 3, 13) and suit counts (legal, 3, 4) of the seat's rows after each legal number."""
    rows = observation[:156].astype(np.float64).reshape(3, 13, 4)  # card = rank * 4 + suit
    held = np.flatnonzero(observation[HELD])  # ascending, as the encoding counts positions
    discards = round(float(observation[-1]) * 4)
    moves = placement_table(len(held), discards)[legal]  # (legal, held, row)
    ranks = np.eye(13)[held // 4]
    suits = np.eye(4)[held % 4]
    rank_counts = rows.sum(axis=2) + np.einsum("lpr,pk->lrk", moves, ranks)
    suit_counts = rows.sum(axis=1) + np.einsum("lpr,pk->lrk", moves, suits)
    return rank_counts, suit_counts


def features(observation: npt.NDArray[np.float32], legal: npt.NDArray[np.intp]) -> F64:
    """One row of numbers per legal action number, describing the seat's rows after it."""
    ranks, suits = after_states(observation, legal)
    cards = ranks.sum(axis=2)  # (legal, 3)
    full = cards == ROW_CARDS
    values = np.arange(1, 14) / 13.0
    pairs = (ranks == 2).sum(axis=2)
    trips = (ranks == 3).sum(axis=2)
    quads = (ranks == 4).sum(axis=2)
    pair_rank = np.where(ranks >= 2, values, 0.0).max(axis=2)
    high = np.where(ranks >= 1, values, 0.0).max(axis=2)
    low = np.where(ranks >= 1, values, 2.0).min(axis=2)
    suited = (suits.max(axis=2) == cards) & (cards >= 2)
    connected = (ranks.max(axis=2) <= 1) & (cards >= 2) & (high - low <= 4 / 13 + 1e-9)
    flush = suited & (cards == 5)
    straight = connected & (cards == 5)
    category = np.select(
        [quads > 0, (trips > 0) & (pairs > 0), flush, straight, trips > 0, pairs >= 2, pairs == 1],
        [7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0],
        0.0,
    )
    strength = category + np.where(category > 0, pair_rank, high)
    above = [strength[:, 0] - strength[:, 1], strength[:, 1] - strength[:, 2]]  # top over middle, middle over bottom
    crossed = [np.maximum(gap, 0.0) for gap in above]
    foul_risk = [(gap > 0).astype(float) for gap in above]
    locked = [(above[0] > 0) & full[:, 0] & full[:, 1], (above[1] > 0) & full[:, 1] & full[:, 2]]
    columns = [
        np.ones(len(legal)),
        *(cards / ROW_CARDS).T,
        *pairs.T,
        *trips.T,
        *quads[:, 1:].T,
        *pair_rank.T,
        *high.T,
        *suited[:, 1:].T,
        *flush[:, 1:].T,
        *connected[:, 1:].T,
        *straight[:, 1:].T,
        *crossed,
        *foul_risk,
        *locked,
    ]
    return np.column_stack(columns).astype(np.float64)


FEATURES = 32


def play(env: SeatEnv, seed: int, choose: Policy) -> float:
    """One hand (episode) with the given seed; the seat's points."""
    observation, _ = env.reset(seed=seed)
    while True:
        number = choose(observation["observation"], observation["action_mask"])
        observation, reward, done, _, _ = env.step(number)
        if done:
            return float(reward)


def random_policy(rng: np.random.Generator) -> Policy:
    """Uniform over the legal numbers (the mask)."""

    def choose(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return choose


@dataclass
class Learner:
    """The linear value of after-states, its training data and its epsilon-greedy policy."""

    weights: F64
    rng: np.random.Generator
    epsilon: float = 0.0
    recording: bool = False

    def __post_init__(self) -> None:
        self.rows: list[F64] = []
        self.targets: list[float] = []
        self.hand: list[F64] = []

    def choose(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        """The best-valued legal number (a random legal one with probability ``epsilon``)."""
        legal = np.flatnonzero(mask)
        described = features(observation, legal)
        if self.epsilon and self.rng.random() < self.epsilon:
            index = int(self.rng.integers(len(legal)))
        else:
            index = int(np.argmax(described @ self.weights))
        if self.recording:
            self.hand.append(described[index])
        return int(legal[index])

    def end_hand(self, points: float) -> None:
        """Every after-state of the hand just played is labelled with its final points."""
        self.rows.extend(self.hand)
        self.targets.extend([points] * len(self.hand))
        self.hand = []

    def fit(self, ridge: float = 1.0) -> None:
        """Ridge regression of the recorded after-states on their hands' points."""
        matrix = np.array(self.rows)
        target = np.array(self.targets)
        gram = matrix.T @ matrix + ridge * np.eye(matrix.shape[1])
        self.weights = np.linalg.solve(gram, matrix.T @ target)


@dataclass(frozen=True)
class Outcome:
    """What a run measured."""

    curve: list[tuple[int, float]]
    """(hands trained, the greedy policy's mean points on the held-out hands); 0: masked random play."""
    trained: F64
    random: F64

    @property
    def margin(self) -> float:
        """Mean points per held-out hand, trained over random."""
        return float(self.trained.mean() - self.random.mean())

    @property
    def error(self) -> float:
        """Standard error of the margin (two independent means)."""
        return math.sqrt(standard_error(self.trained) ** 2 + standard_error(self.random) ** 2)


def standard_error(points: F64) -> float:
    """Standard error of the mean of ``points``."""
    return float(points.std(ddof=1) / math.sqrt(len(points)))


def run(rounds: int, hands: int, held_out: int, seed: int, opponents: str, report: Callable[[str], None]) -> Outcome:
    """Train for ``rounds`` rounds of ``hands`` hands, evaluating on ``held_out`` hands after each."""
    env = SeatEnv("pineapple", opponents, seat=0, illegal="raise")
    learner = Learner(np.zeros(FEATURES), np.random.default_rng(seed))
    tests = range(HELD_OUT, HELD_OUT + held_out)
    baseline = np.array([play(env, s, random_policy(np.random.default_rng([seed, s]))) for s in tests])
    report(f"masked random policy, {held_out} held-out hands: {baseline.mean():+.3f} points per hand")
    curve = [(0, float(baseline.mean()))]
    trained = baseline
    for number in range(rounds):
        learner.epsilon, learner.recording = (1.0 if number == 0 else 0.1), True
        for hand in range(hands):
            learner.end_hand(play(env, seed * 1_000_000 + number * hands + hand, learner.choose))
        learner.fit()
        learner.epsilon, learner.recording = 0.0, False
        trained = np.array([play(env, s, learner.choose) for s in tests])
        curve.append(((number + 1) * hands, float(trained.mean())))
        report(
            f"round {number + 1}: {(number + 1) * hands} hands trained, held-out {trained.mean():+.3f} points per hand"
        )
    env.close()
    return Outcome(curve, trained, baseline)


# --- the learning curve as a PNG, without a plotting library ---

DIGITS = {
    "0": "111101101101111",
    "1": "010110010010111",
    "2": "111001111100111",
    "3": "111001111001111",
    "4": "101101111001001",
    "5": "111100111001111",
    "6": "111100111101111",
    "7": "111001001001001",
    "8": "111101111101111",
    "9": "111101111001111",
    "-": "000000111000000",
    "+": "000010111010000",
    ".": "000000000000010",
}
"""A 3 x 5 pixel font for the axis labels."""


def write_png(path: Path, pixels: npt.NDArray[np.uint8]) -> None:
    """``pixels`` (height, width, 3) as an 8-bit RGB PNG."""
    height, width, _ = pixels.shape
    raw = b"".join(b"\x00" + pixels[y].tobytes() for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png)


def text(canvas: npt.NDArray[np.uint8], x: int, y: int, label: str, scale: int = 2) -> None:
    """Draw ``label`` with its top-left corner at (x, y)."""
    for character in label:
        glyph = np.array([int(bit) for bit in DIGITS[character]], dtype=bool).reshape(5, 3)
        block = np.kron(glyph, np.ones((scale, scale), dtype=bool))
        height, width = block.shape
        canvas[y : y + height, x : x + width][block] = 0
        x += (3 + 1) * scale


def line(
    canvas: npt.NDArray[np.uint8],
    start: tuple[float, float],
    end: tuple[float, float],
    colour: tuple[int, int, int],
    width: int = 2,
) -> None:
    """A straight segment from ``start`` to ``end`` (x, y in pixels)."""
    steps = int(max(abs(end[0] - start[0]), abs(end[1] - start[1]))) + 1
    for t in np.linspace(0.0, 1.0, steps):
        x = round(start[0] + t * (end[0] - start[0]))
        y = round(start[1] + t * (end[1] - start[1]))
        canvas[y - width // 2 : y + (width + 1) // 2, x - width // 2 : x + (width + 1) // 2] = colour


def draw_curve(path: Path, outcome: Outcome) -> None:
    """Held-out mean points (blue) against hands trained, the masked random policy's level (grey)."""
    width, height, left, right, top, bottom = 640, 400, 60, 20, 20, 40
    canvas = np.full((height, width, 3), 255, dtype=np.uint8)
    xs = [float(hands) for hands, _ in outcome.curve]
    ys = [points for _, points in outcome.curve]
    low, high = math.floor(min(ys)) - 1, math.ceil(max(ys)) + 1
    span_x = max(xs) or 1.0

    def at(x: float, y: float) -> tuple[float, float]:
        return left + x / span_x * (width - left - right), top + (high - y) / (high - low) * (height - top - bottom)

    for value in range(low, high + 1):  # grid and y labels
        _, y = at(0, value)
        line(canvas, at(0, value), at(span_x, value), (225, 225, 225) if value else (150, 150, 150), 1)
        text(canvas, 6, round(y) - 5, f"{value:+d}" if value else "0")
    for index in range(5):  # x labels
        hands = round(span_x * index / 4)
        x, _ = at(hands, low)
        line(canvas, (x, height - bottom), (x, height - bottom + 5), (0, 0, 0), 1)
        label = str(hands)
        text(canvas, round(x) - len(label) * 4 + 1, height - bottom + 10, label)
    line(canvas, (left, top), (left, height - bottom), (0, 0, 0), 1)
    line(canvas, (left, height - bottom), (width - right, height - bottom), (0, 0, 0), 1)
    line(canvas, at(0, outcome.curve[0][1]), at(span_x, outcome.curve[0][1]), (160, 160, 160))
    for (x0, y0), (x1, y1) in zip(outcome.curve, outcome.curve[1:], strict=False):
        line(canvas, at(x0, y0), at(x1, y1), (30, 90, 200), 3)
    for hands, points in outcome.curve:  # a dot per evaluation
        line(canvas, at(hands, points), at(hands, points), (30, 90, 200), 8)
    write_png(path, canvas)


def main() -> None:
    """Parse the options, train, print the curve and the held-out margin over random play."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="small")
    parser.add_argument("--opponents", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--png", type=Path, help="write the learning curve here")
    options = parser.parse_args()
    rounds, hands, held_out = SIZES[options.size]
    print(f"pineapple heads-up against {options.opponents}, seat 0, seed {options.seed}, size {options.size}")
    outcome = run(rounds, hands, held_out, options.seed, options.opponents, print)
    trained, baseline = outcome.trained, outcome.random
    print(f"trained (greedy): {trained.mean():+.3f} +- {standard_error(trained):.3f} points per held-out hand")
    print(f"masked random:    {baseline.mean():+.3f} +- {standard_error(baseline):.3f} points per held-out hand")
    print(
        f"margin: {outcome.margin:+.3f} points per hand over {held_out} held-out hands, "
        f"standard error {outcome.error:.3f}, {outcome.margin / outcome.error:.1f} standard errors"
    )
    if options.png is not None:
        draw_curve(options.png, outcome)
        print(f"learning curve: {options.png}")


if __name__ == "__main__":
    main()
