"""Exact fantasy solving: time per deal of ``solve_fantasy`` beside a pure-Python search.

For each deal size, random deals are solved after a warm-up call (so numba's load time is
left out) and the median, 90th percentile and worst times are printed. The pure-Python
figure is an exhaustive search over the core (``rank5``/``rank3`` cached per subset,
``royalties_of`` and ``meets_stay`` per board): measured on a few 13- and 14-card deals,
and for larger deals estimated from a sample of bottoms (the search time grows linearly in
the number of bottoms it tries)::

    .venv/bin/python benchmarks/bench_solver.py [--deals 300] [--python-deals 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from itertools import combinations

from ofc.cards import Card
from ofc.ranking import rank3, rank5
from ofc.rules import Rules
from ofc.scoring import RowKeys, meets_stay, royalties_of
from ofc.solver import DEFAULT_STAY_VALUE, solve_fantasy, warm_up

PRESET_FOR_SIZE = {13: "pineapple", 14: "pineapple", 15: "pineapple-progressive"}
QUOTED_SECONDS = {14: 0.2, 17: 38.0}
"""The best public Python solver we know of, as quoted in the issue (not measured here)."""


def python_search(deal: list[Card], rules: Rules, bottoms: int | None = None) -> float:
    """Best value by exhaustive search over the core; ``bottoms`` limits the bottom sets tried."""
    cards = sorted(deal)
    fives = list(combinations(cards, 5))
    key5 = {five: rank5(five) for five in fives}
    key3 = {three: rank3(three) for three in combinations(cards, 3)}
    best = -1.0
    for bottom in fives[:bottoms]:
        kb = key5[bottom]
        rest = [c for c in cards if c not in bottom]
        for middle in combinations(rest, 5):
            km = key5[middle]
            if km > kb:
                continue
            left = [c for c in rest if c not in middle]
            for top in combinations(left, 3):
                keys = RowKeys(key3[top], km, kb)
                if keys.fouled:
                    continue
                stays = meets_stay(keys, rules)
                best = max(best, royalties_of(keys, rules).total + (DEFAULT_STAY_VALUE if stays else 0.0))
    return best


def python_seconds(size: int, rules: Rules, deals: int, rng: random.Random) -> tuple[float, bool]:
    """Median seconds of the pure-Python search, and whether it was estimated from a sample."""
    sample = None if size <= 14 else 40
    times = []
    for _ in range(deals):
        deal = rng.sample(range(52), size)
        start = time.perf_counter()
        python_search(deal, rules, sample)
        elapsed = time.perf_counter() - start
        times.append(elapsed if sample is None else elapsed * len(list(combinations(range(size), 5))) / sample)
    return statistics.median(times), sample is not None


def fast_times(size: int, rules: Rules, deals: int, rng: random.Random) -> list[float]:
    """Seconds per deal of ``solve_fantasy`` on ``deals`` random deals."""
    times = []
    for _ in range(deals):
        deal = rng.sample(range(52), size)
        start = time.perf_counter()
        solve_fantasy(deal, rules)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    """Warm up, then print per-size figures and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="random deals per size for the fast solver")
    parser.add_argument("--python-deals", type=int, default=3, help="deals per size for the Python search")
    parser.add_argument("--sizes", default="13,14,15,16,17")
    args = parser.parse_args()
    rng = random.Random(2026)
    warm_up(Rules.preset("pineapple-progressive"))
    print(f"exact fantasy solving, stay value {DEFAULT_STAY_VALUE:g}, random deals, one core")
    header = f"{'cards':>5} {'median':>10} {'p90':>10} {'worst':>10} {'pure Python':>14} {'ratio':>9}"
    print(header)
    for size in (int(s) for s in args.sizes.split(",")):
        rules = Rules.preset(PRESET_FOR_SIZE.get(size, "pineapple-progressive"))
        times = sorted(fast_times(size, rules, args.deals, rng))
        median = statistics.median(times)
        p90 = times[int(0.9 * (len(times) - 1))]
        slow, estimated = python_seconds(size, rules, args.python_deals, rng)
        mark = "~" if estimated else " "
        print(
            f"{size:>5} {median * 1e3:>8.2f}ms {p90 * 1e3:>8.2f}ms {times[-1] * 1e3:>8.2f}ms "
            f"{mark}{slow:>12.2f}s {slow / median:>8,.0f}x"
        )
        if size in QUOTED_SECONDS:
            quoted = QUOTED_SECONDS[size]
            print(f"{'':>5} quoted best public Python solver: {quoted:g} s, {quoted / median:,.0f}x our median")
    print("~ = estimated from 40 sampled bottoms per deal")


if __name__ == "__main__":
    main()
