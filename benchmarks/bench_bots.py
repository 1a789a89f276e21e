"""Bot strength benchmark: duplicate simulations of the README's match-ups, printed as a table.

Each match-up is exactly an ``ofc simulate`` run (printed with its figures), so any line can
be reproduced on its own. The fantasy gain (points per fantasy hand minus points per normal
hand of the same bot) is what a fantasy is worth to that bot: the last lines average it per
rule set over the bots that played fantasy hands, weighted by those hands, as an estimate
of the solver's ``stay_value``::

    .venv/bin/python benchmarks/bench_bots.py                 # everything (tens of minutes)
    .venv/bin/python benchmarks/bench_bots.py --only turbo --scale 0.1 --workers 2
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass

from ofc.rules import Rules
from ofc.sim import SimResult, simulate

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
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    options = parser.parse_args()
    gains: dict[str, list[tuple[float, int]]] = {}
    for matchup in MATCHUPS:
        if options.only and matchup.preset != options.only:
            continue
        hands = max(1, round(matchup.hands * options.scale))
        run = Matchup(matchup.preset, matchup.bots, hands)
        start = time.perf_counter()
        result = simulate(Rules.preset(run.preset), run.bots, hands, seed=options.seed, workers=options.workers)
        print("\n".join(report(run, result, time.perf_counter() - start, options.seed, options.workers)), flush=True)
        for bot in result.bots:
            if bot.fantasy_gain is not None and bot.name != "random":
                gains.setdefault(run.preset, []).append((bot.fantasy_gain, bot.fantasy_hands))
    for preset, pairs in gains.items():
        hands = sum(n for _, n in pairs)
        estimate = sum(g * n for g, n in pairs) / hands
        print(f"{preset}: a fantasy is worth {estimate:+.1f} points ({hands} fantasy hands)")


if __name__ == "__main__":
    main()
