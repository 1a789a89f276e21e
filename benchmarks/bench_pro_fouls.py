"""Where the ``pro`` bot's fouls come from: its play-outs' foul shares, street by street, against the fouls it makes.

Heads-up self-play of ``--bot`` (default ``pro``, pineapple's careful style) on ``--hands``
normal hands of ``--rules`` (each dealt fresh, no fantasy hands). At each street decision
the bot's choices hold every candidate's share of fouled play-outs; the script keeps the
chosen candidate's share and the smallest share among the candidates. When the hand is over
it prints, per street: the decisions, the mean share of the choice, the mean smallest share
on offer, and the share of those boards that did foul, with its 95% (Wilson) interval. A
calibrated share sits inside that interval; a share far above it means the play-out policy
fouls more than the bot itself will, so a charge on it charges for fouls the bot would not
make. A last table takes the fouled boards alone: the street where the choice's share first
reached a half (the board "gave up" there) and how much safer a candidate was::

    nice -n 5 .venv/bin/python benchmarks/bench_pro_fouls.py --hands 200 --seed 7
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from dataclasses import dataclass, field

from ofc.bots import make_bot
from ofc.bots.pro import ProBot
from ofc.engine.actions import Action
from ofc.engine.deals import derive_seed
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.rules.rulebook import Rules
from ofc.series.session import play_hand
from ofc.sim.tournaments import wilson


@dataclass
class Step:
    """One street decision: the street (from 1), the chosen candidate's foul share, the smallest on offer."""

    street: int
    chosen: float
    safest: float


@dataclass
class Recorder:
    """A ``pro`` bot that keeps the foul shares of each decision of the current hand."""

    bot: ProBot
    steps: list[Step] = field(default_factory=list)
    seconds: float = 0.0
    decisions: int = 0

    def act(self, view: HandView) -> Action:
        start = time.perf_counter()
        decision = self.bot.decide(view)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        first = self.bot.last_choices[0].foul
        if first is not None:  # played out or priced exactly (not a fantasy set or a forced move)
            safest = min(c.foul for c in self.bot.last_choices if c.foul is not None)
            self.steps.append(Step(view.street + 1, first, safest))
        return decision.action


def calibration(rules_name: str, spec: str, hands: int, seed: int) -> str:
    """The per-street table and the fouled boards' table, as text."""
    rules = Rules.preset(rules_name)
    rules = rules if rules.players == 2 else rules.with_settings({"players": 2})
    bots = []
    for seat in (0, 1):
        bot = make_bot(spec, seed=derive_seed(seed, seat))
        if not isinstance(bot, ProBot):
            raise SystemExit(f"{spec} is not a pro bot")
        bots.append(Recorder(bot))
    by_street: dict[int, list[tuple[Step, bool]]] = defaultdict(list)
    gave_up: dict[int, int] = defaultdict(int)
    safer: list[float] = []
    fouled_boards = boards = 0
    for h in range(hands):
        for recorder in bots:
            recorder.steps = []
        hand = Hand(rules, button=h % 2, seed=derive_seed(seed, 2, h))
        play_hand(hand, bots)
        assert hand.result is not None
        for recorder, line in zip(bots, hand.result.sheet.players, strict=True):
            boards += 1
            fouled_boards += line.fouled
            for step in recorder.steps:
                by_street[step.street].append((step, bool(line.fouled)))
            if line.fouled:
                street = next((s.street for s in recorder.steps if s.chosen >= 0.5), 0)
                gave_up[street] += 1
                safer.extend(s.chosen - s.safest for s in recorder.steps)
    ms = 1000 * sum(b.seconds for b in bots) / max(1, sum(b.decisions for b in bots))
    lines = [
        f"{rules_name} {spec} self-play, {hands} hands, seed {seed}: {fouled_boards} of {boards} boards fouled "
        f"({fouled_boards / boards:.1%}), {ms:.0f} ms a decision",
        "street  decisions  choice's share  safest share  fouled [95%]",
    ]
    for street in sorted(by_street):
        rows = by_street[street]
        n = len(rows)
        hits = sum(fouled for _, fouled in rows)
        lo, hi = wilson(hits / n, n)
        chosen = sum(s.chosen for s, _ in rows) / n
        safest = sum(s.safest for s, _ in rows) / n
        lines.append(f"{street:6d}  {n:9d}  {chosen:14.1%}  {safest:12.1%}  {hits / n:.1%} [{lo:.1%}, {hi:.1%}]")
    lines.append("fouled boards by the street whose choice's share first reached 50% (0: none did):")
    lines.append("  " + ", ".join(f"street {s}: {gave_up[s]}" for s in sorted(gave_up)))
    if safer:
        lines.append(
            f"  on their decisions the choice's share exceeded the safest by {sum(safer) / len(safer):.1%} on average"
        )
    return "\n".join(lines)


def main() -> None:
    """Parse the options and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--bot", default="pro", help="a pro bot spec")
    parser.add_argument("--rules", default="pineapple", help="the preset (played heads-up)")
    args = parser.parse_args()
    print(calibration(args.rules, args.bot, args.hands, args.seed))


if __name__ == "__main__":
    main()
