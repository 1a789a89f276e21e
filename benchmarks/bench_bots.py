"""Bot strength benchmark: duplicate simulations of the README's match-ups, printed as a table.

Each match-up is exactly an ``ofc simulate`` run (printed with its figures), so any line can
be reproduced on its own. Then ``ofc.sim.simulate.fantasy_gain`` prices a fantasy hand per rule set:
every deal is played with the hero in fantasy and again playing normally, against the same
bot; the mean difference is the estimate of the solver's ``stay_value``::

    .venv/bin/python benchmarks/bench_bots.py                 # everything (tens of minutes)
    .venv/bin/python benchmarks/bench_bots.py --only turbo --scale 0.1 --workers 2
    .venv/bin/python benchmarks/bench_bots.py --part stay       # the stay-value runs only
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass

from ofc.rules.rulebook import Rules
from ofc.sim.simulate import SimResult, fantasy_gain, simulate

MC = "mc:rollouts=100,seconds=1"


@dataclass(frozen=True)
class Matchup:
    """One duplicate run: rules preset, bots, deals."""

    preset: str
    bots: tuple[str, ...]
    hands: int

    def command(self, seed: int, workers: int) -> str:
        """The equivalent ``ofc simulate`` command line."""
        return (
            f"ofc simulate --rules {self.preset} --bots {','.join(self.bots)} --hands {self.hands} "
            f"--seed {seed} --workers {workers}"
        )


STAY_RUNS = (
    ("pineapple", MC, 1000),
    ("classic", MC, 500),
    ("turbo", MC, 500),
    ("pineapple", "heuristic", 5000),
    ("classic", "heuristic", 5000),
    ("turbo", "heuristic", 5000),
)
"""(preset, bot playing both seats, deals) of the stay-value runs."""

MATCHUPS = (
    Matchup("pineapple", ("heuristic", "random"), 2000),
    Matchup("pineapple", (MC, "heuristic"), 2000),
    Matchup("classic", ("heuristic", "random"), 500),
    Matchup("turbo", ("heuristic", "random"), 500),
    Matchup("classic", (MC, "heuristic"), 500),
    Matchup("turbo", (MC, "heuristic"), 500),
)


def report(matchup: Matchup, result: SimResult, seconds: float, seed: int, workers: int) -> list[str]:
    """Markdown lines for one run."""
    lines = [f"`{matchup.command(seed, workers)}`: {result.deals} deals in {seconds:.0f} s", ""]
    lines.append("| bot | points/hand | 95% CI | foul | fantasy | stay | fantasy gain | decision mean / max |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for bot in result.bots:
        gain = "-" if bot.fantasy_gain is None else f"{bot.fantasy_gain:+.1f}"
        lines.append(
            f"| {bot.name} | {bot.points_per_hand:+.2f} | \u00b1{bot.ci95:.2f} | {bot.foul_rate:.1%} "
            f"| {bot.fantasy_rate:.1%} | {bot.stay_rate:.1%} | {gain} "
            f"| {bot.decision_seconds * 1000:.1f} / {bot.decision_max * 1000:.0f} ms |"
        )
    return [*lines, ""]


def main() -> None:
    """Run the selected match-ups and print their tables and the stay-value estimates."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["pineapple", "classic", "turbo"], help="one rule set")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every run's deals")
    parser.add_argument("--part", choices=["all", "matchups", "stay"], default="all", help="what to run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    options = parser.parse_args()
    for matchup in MATCHUPS if options.part != "stay" else ():
        if options.only and matchup.preset != options.only:
            continue
        hands = max(1, round(matchup.hands * options.scale))
        run = Matchup(matchup.preset, matchup.bots, hands)
        start = time.perf_counter()
        result = simulate(Rules.preset(run.preset), run.bots, hands, seed=options.seed, workers=options.workers)
        print("\n".join(report(run, result, time.perf_counter() - start, options.seed, options.workers)), flush=True)
    if options.part == "matchups":
        return
    print("| rules | bot (both seats) | deals | a fantasy hand is worth (points) | time |")
    print("|---|---|---:|---:|---:|")
    for preset, bot, deals in STAY_RUNS:
        if options.only and preset != options.only:
            continue
        count = max(2, round(deals * options.scale))
        start = time.perf_counter()
        gain, ci = fantasy_gain(Rules.preset(preset), bot, bot, count, seed=options.seed, workers=options.workers)
        spent = time.perf_counter() - start
        print(f"| {preset} | {bot} | {count} | {gain:+.2f} \u00b1{ci:.2f} | {spent:.0f} s |", flush=True)


if __name__ == "__main__":
    main()
