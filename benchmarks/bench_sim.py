"""Simulation throughput on Ray: hands per second with 1 and 2 local Ray workers, and the ratio.

Starts a Ray head on this machine (loopback, ``--cpus`` CPUs), runs the same duplicate
simulation (``ofc.sim.simulate.simulate(..., cluster=...)``) once with one Ray worker and once with
two, checks that both give the same figures (they must: blocks are seeded by number), and
prints hands per second and the scaling ratio. A warm-up run compiles the kernels in the
workers first, so the timed runs measure play, not compilation::

    .venv/bin/python benchmarks/bench_sim.py --bots heuristic,heuristic --hands 400
"""

from __future__ import annotations

import argparse
import time

import ray

from ofc.rules.rulebook import Rules
from ofc.sim.simulate import simulate


def run(rules: Rules, bots: list[str], hands: int, seed: int, cpus: int) -> tuple[float, object]:
    """Hands per second of one simulation on a fresh Ray head with ``cpus`` worker CPUs."""
    ray.init(address="local", num_cpus=cpus, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
    try:
        simulate(rules, bots, 2 * cpus * len(bots), seed=seed + 1, cluster="auto")  # warm every worker
        start = time.perf_counter()
        result = simulate(rules, bots, hands, seed=seed, cluster="auto")
        elapsed = time.perf_counter() - start
    finally:
        ray.shutdown()
    figures = [(b.points_per_hand, b.ci95, b.foul_rate, b.fantasy_rate) for b in result.bots]
    played = sum(b.hands for b in result.bots) / len(bots)
    return played / elapsed, figures


def main() -> None:
    """Parse the options and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="pineapple")
    parser.add_argument("--bots", default="heuristic,heuristic")
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    bots = args.bots.split(",")
    one, figures_one = run(rules, bots, args.hands, args.seed, 1)
    two, figures_two = run(rules, bots, args.hands, args.seed, 2)
    print(f"{args.rules}, {args.bots}, {args.hands} deals on a local Ray head")
    print(f"1 worker : {one:8.1f} hands/s")
    print(f"2 workers: {two:8.1f} hands/s")
    print(f"scaling  : {two / one:.2f}x (ideal 2.00x on two free cores)")
    print(f"same figures with 1 and 2 workers: {figures_one == figures_two}")


if __name__ == "__main__":
    main()
