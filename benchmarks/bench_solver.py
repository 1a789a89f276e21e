"""Exact fantasy solving: time per deal of ``solve_fantasy`` beside a pure-Python search.

For each deal size, random deals are solved after a warm-up call (so numba's load time is
left out) and the median, 90th percentile and worst times are printed. The pure-Python
figure is the best exact method we could write without compiled code (``python_search``: a
branch and bound over the core's ``rank5``/``rank3``, royalties and stay rules), measured in
the same run on the same kind of deals, each answer checked against ``solve_fantasy``.
``--top 3,243`` also times ``solve_fantasy_top`` (the k best boards, as the environments'
``fantasy_choices`` use it) on the same deals as ``solve_fantasy``, with the ratio of medians::

    .venv/bin/python benchmarks/bench_solver.py [--deals 300] [--python-deals 3] [--top 3,243]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from itertools import combinations

from ofc.rules.cards import Card
from ofc.rules.ranking import rank3, rank5
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import RowKeys, bottom_royalty, meets_stay, middle_royalty, top_royalty
from ofc.solver import DEFAULT_STAY_VALUE, solve_fantasy, solve_fantasy_top, warm_up

PRESET_FOR_SIZE = {13: "pineapple", 14: "pineapple", 15: "pineapple-progressive"}


def python_search(deal: list[Card], rules: Rules, can_stay: bool = True) -> float:
    """The best value by an exact branch-and-bound search in pure Python (the fair reference).

    Every 5- and 3-card subset is ranked once; rows are tried richest first (royalty plus the
    stay value if that row alone earns a repeat, an upper bound of what it adds), with bit
    masks for disjointness, and a branch is cut as soon as its bound cannot beat the best board.
    """
    stay = DEFAULT_STAY_VALUE if can_stay else 0.0
    table = rules.royalty_table
    masks = {card: 1 << index for index, card in enumerate(deal)}

    def row(cards: tuple[Card, ...], key: int, royalty: int, keys: RowKeys) -> tuple[float, int, int, int, bool]:
        earns = stay > 0 and meets_stay(keys, rules)
        return royalty + (stay if earns else 0.0), sum(masks[c] for c in cards), key, royalty, earns

    fives = [(five, rank5(five)) for five in combinations(deal, 5)]
    bottoms = sorted((row(f, k, bottom_royalty(k, table), RowKeys(0, 0, k)) for f, k in fives), reverse=True)
    middles = sorted((row(f, k, middle_royalty(k, table), RowKeys(0, k, 0)) for f, k in fives), reverse=True)
    tops = sorted(
        (row(t, k, top_royalty(k, table), RowKeys(k, 0, 0)) for t in combinations(deal, 3) for k in [rank3(t)]),
        reverse=True,
    )
    best = -1.0
    for ub_b, mask_b, kb, roy_b, earn_b in bottoms:
        if ub_b + middles[0][0] + tops[0][0] <= best:
            break
        for ub_m, mask_m, km, roy_m, earn_m in middles:
            if ub_b + ub_m + tops[0][0] <= best:
                break
            if mask_m & mask_b or km > kb:
                continue
            used = mask_b | mask_m
            for ub_t, mask_t, kt, roy_t, earn_t in tops:
                if ub_b + ub_m + ub_t <= best:
                    break
                if mask_t & used or kt > km:
                    continue
                best = max(best, roy_b + roy_m + roy_t + (stay if earn_b or earn_m or earn_t else 0.0))
    return best


def python_seconds(size: int, rules: Rules, deals: int, rng: random.Random) -> float:
    """Median seconds of the pure-Python search; each answer is checked against ``solve_fantasy``."""
    times = []
    for _ in range(deals):
        deal = rng.sample(range(52), size)
        start = time.perf_counter()
        value = python_search(deal, rules)
        times.append(time.perf_counter() - start)
        assert value == solve_fantasy(deal, rules).value, deal
    return statistics.median(times)


def fast_times(size: int, rules: Rules, deals: int, rng: random.Random) -> list[float]:
    """Seconds per deal of ``solve_fantasy`` on ``deals`` random deals."""
    times = []
    for _ in range(deals):
        deal = rng.sample(range(52), size)
        start = time.perf_counter()
        solve_fantasy(deal, rules)
        times.append(time.perf_counter() - start)
    return times


def top_table(sizes: list[int], ks: list[int], deals: int, rng: random.Random) -> None:
    """Median and p90 of ``solve_fantasy_top`` per size and k, beside ``solve_fantasy`` on the same deals."""
    print(f"{'cards':>5} {'k':>5} {'median':>10} {'p90':>10} {'best only':>10} {'ratio':>7}")
    for size in sizes:
        rules = Rules.preset(PRESET_FOR_SIZE.get(size, "pineapple-progressive"))
        hands = [rng.sample(range(52), size) for _ in range(deals)]
        single = statistics.median(timed(partial(solve_fantasy, rules=rules), hands))
        for k in ks:
            times = sorted(timed(partial(solve_fantasy_top, rules=rules, k=k), hands))
            median, p90 = statistics.median(times), times[int(0.9 * (len(times) - 1))]
            figures = f"{median * 1e3:>8.2f}ms {p90 * 1e3:>8.2f}ms {single * 1e3:>8.2f}ms"
            print(f"{size:>5} {k:>5} {figures} {median / single:>6.1f}x")


def timed(solve: Callable[[list[Card]], object], deals: list[list[Card]]) -> list[float]:
    """Seconds of ``solve`` on each deal."""
    times = []
    for deal in deals:
        start = time.perf_counter()
        solve(deal)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    """Warm up, then print per-size figures and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="random deals per size for the fast solver")
    parser.add_argument("--python-deals", type=int, default=3, help="deals per size for the Python search")
    parser.add_argument("--sizes", default="13,14,15,16,17")
    parser.add_argument("--top", default="", help="k values for solve_fantasy_top, e.g. 3,243 (none by default)")
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
        slow = python_seconds(size, rules, args.python_deals, rng)
        print(
            f"{size:>5} {median * 1e3:>8.2f}ms {p90 * 1e3:>8.2f}ms {times[-1] * 1e3:>8.2f}ms "
            f"{slow:>13.3f}s {slow / median:>8,.0f}x"
        )
    print("pure Python: exact branch and bound, median of --python-deals deals, each checked against solve_fantasy")
    if args.top:
        solve_fantasy_top(tuple(range(0, 51, 3)), Rules.preset("pineapple-progressive"), 2)  # load the kernel
        print("the k best boards (solve_fantasy_top) against the best only (solve_fantasy), same deals:")
        top_table([int(s) for s in args.sizes.split(",")], [int(k) for k in args.top.split(",")], args.deals, rng)


if __name__ == "__main__":
    main()
