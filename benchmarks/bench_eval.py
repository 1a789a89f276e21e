"""Batch hand evaluation: hands per second of the numba kernels beside the pure-Python core.

Times ``ofc.fast.eval5`` / ``eval3`` / ``board_keys`` on random hands (one core, after a
warm-up call), the core's ``rank5`` / ``rank3`` on a sample, and phevaluator's per-call
``evaluate_cards`` when it is installed (``pip install -e .[dev]``), and prints the ratios.

phevaluator has no batch interface, so two comparisons are printed: the batch kernel against
phevaluator called once per hand (what a caller with many hands gains), and, on equal terms,
``eval5`` also called once per hand from the same kind of Python loop (the evaluators side by
side, call overhead included in both)::

    .venv/bin/python benchmarks/bench_eval.py [--hands 20000000] [--sample 300000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from ofc.fast import board_keys, eval3, eval5
from ofc.rules.ranking import rank3, rank5


def random_hands(count: int, size: int, seed: int) -> np.ndarray:
    """``count`` hands of ``size`` distinct cards each, as ``uint8``."""
    rng = np.random.default_rng(seed)
    out = np.empty((0, size), dtype=np.uint8)
    while len(out) < count:
        draw = rng.integers(0, 52, (count, size), dtype=np.uint8)
        ordered = np.sort(draw, axis=1)
        distinct = (np.diff(ordered, axis=1) != 0).all(axis=1)
        out = np.concatenate([out, draw[distinct]])
    return np.ascontiguousarray(out[:count])


def best_rate(run: Callable[[], object], count: int, repeats: int = 3) -> float:
    """Items per second of the fastest of ``repeats`` runs."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def python_rate(evaluate: Callable[[list[int]], object], hands: list[list[int]]) -> float:
    """Hands per second of a per-call Python evaluator over ``hands``."""
    return best_rate(lambda: [evaluate(hand) for hand in hands], len(hands), repeats=1)


def phevaluator_rate(hands: list[list[int]]) -> float | None:
    """phevaluator's per-call rate (same card numbering as ours), or None when absent."""
    try:
        from phevaluator import evaluate_cards
    except ImportError:
        return None
    return best_rate(lambda: [evaluate_cards(*hand) for hand in hands], len(hands), repeats=1)


def line(name: str, rate: float, reference: float) -> str:
    """One figure and its ratio to the pure-Python core."""
    return f"  {name:<34} {rate / 1e6:>9.2f} M/s   {rate / reference:>8.2f} x the core"


def main() -> None:
    """Warm up, time every evaluator and print rates and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000_000)
    parser.add_argument("--sample", type=int, default=300_000)
    args = parser.parse_args()
    fives = random_hands(args.hands, 5, seed=1)
    threes = np.ascontiguousarray(fives[:, :3])
    boards = random_hands(args.hands // 4, 13, seed=2)
    eval5(fives[:10])
    eval3(threes[:10])
    board_keys(boards[:10])
    sample5 = fives[: args.sample].tolist()
    sample3 = threes[: args.sample].tolist()
    core5 = python_rate(rank5, sample5)
    core3 = python_rate(rank3, sample3)
    fast5 = best_rate(lambda: eval5(fives), len(fives))
    print(f"5-card hands ({args.hands:,} random; per-call evaluators on {args.sample:,})")
    print(line("ofc.fast.eval5 (numba, one core)", fast5, core5))
    print(line("ofc.rules.ranking.rank5 (pure Python)", core5, core5))
    phe = phevaluator_rate(sample5)
    if phe is None:
        print("  phevaluator                        not installed (pip install -e .[dev])")
    else:
        print(line("phevaluator.evaluate_cards (per call)", phe, core5))
        per_call = python_rate(lambda hand: eval5(np.array([hand], dtype=np.uint8)), sample5)
        print(line("ofc.fast.eval5 (per call)", per_call, core5))
        print(f"  batch eval5 / phevaluator per call: {fast5 / phe:,.0f} x (batch against per call)")
        print(f"  eval5 per call / phevaluator per call: {per_call / phe:,.2f} x (equal terms)")
    print("3-card top rows")
    print(line("ofc.fast.eval3 (numba, one core)", best_rate(lambda: eval3(threes), len(threes)), core3))
    print(line("ofc.rules.ranking.rank3 (pure Python)", core3, core3))
    print("boards (3 row keys each)")
    rate = best_rate(lambda: board_keys(boards), len(boards))
    print(f"  {'ofc.fast.board_keys':<34} {rate / 1e6:>10.2f} M boards/s")


if __name__ == "__main__":
    main()
