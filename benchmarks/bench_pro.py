"""The learned value as a greedy policy against the static evaluation it corrects, per variant.

Heads-up self-play on duplicate decks: each deck is played with the learned policy in seat 0
and the static one in seat 1, then with the seats swapped; the figure is the learned seat's
mean outcome (points plus the fantasy value when its board earns one, as in training) with a
95% interval, and both policies' foul and fantasy rates. Seconds of CPU per variant::

    .venv/bin/python benchmarks/bench_pro.py --hands 3000

``--part selfplay`` plays the ``pro`` bot itself (play-outs and all) against itself on
``--hands`` normal heads-up hands of ``--rules`` (no fantasy hands: each hand is dealt fresh)
and prints its foul rate (and the share of plain fouls, boards fouled without a fantasy top)
and fantasy entry rate per seat-hand with 95% intervals (Wilson), and the mean decision time::

    nice -n 10 .venv/bin/python benchmarks/bench_pro.py --part selfplay --hands 200 --bot pro

``--part search`` plays ``SearchBot``, the ``pro`` bot with a front-loaded, raced search
(``FRONT_LOAD``, ``FINALISTS``; defined here, not shipped), against the default ``pro`` (the
same time split evenly over the streets, every candidate played out to the end) on ``--hands``
normal heads-up decks of ``--rules``, each deck twice with the seats swapped, and prints the
first bot's points per hand (95% interval over decks), both bots' foul and fantasy rates and
mean decision times::

    nice -n 5 .venv/bin/python benchmarks/bench_pro.py --part search --hands 300

``--part pair-top`` looks at the first ``--hands`` heads-up pineapple deals whose first five
cards hold a pair of queens or better: where the learned value ranks the best placement with
that pair on top among all placements, and how 1,500 play-outs (the ``pro`` policy, the same
shuffles for all) value the best three such placements against the ten ``pro`` plays out::

    nice -n 5 .venv/bin/python benchmarks/bench_pro.py --part pair-top --hands 16

``--weights FILE`` makes every part use another weights file (``ofc train --out FILE``) in
place of the shipped one. ``--part versus --weights FILE`` plays ``pro`` with FILE against
``pro`` with the shipped weights in heads-up duplicate blocks of ``--rules`` (default
pineapple; ``ofc.sim.simulate.play_block``: each deck played with the bots' seats swapped, fantasy
carried over), ``--blocks`` of them, printing the running figures every 10 blocks: FILE's
points per hand with a 95% interval over blocks, both bots' foul and fantasy entry rates and
decision times::

    nice -n 5 .venv/bin/python benchmarks/bench_pro.py --part versus --weights new.npz --blocks 400 --seed 5

The bot's strength against other bots is measured with ``ofc simulate`` (README).
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np

from ofc.bots import Bot, make_bot
from ofc.bots.arrays import KernelRules, after_action, playouts
from ofc.bots.base import check_can_act, legal_actions
from ofc.bots.budget import run_within_budget
from ofc.bots.pro import EVERY_SEAT, Z95, Choice, ProBot, pro_kernel, run_playouts, street_index
from ofc.bots.pro_weights import VARIANTS, ProWeights, read_weights, shipped_weights
from ofc.engine.actions import Action
from ofc.engine.deals import derive_seed
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.fast.pro_value import FEATURE_NAMES
from ofc.fast.rollout import Playouts
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import fantasy_entry_cards, row_keys
from ofc.series.session import play_hand
from ofc.sim import simulate as sim
from ofc.train.selfplay import selfplay_chunk

FOULED = FEATURE_NAMES.index("fouled")
MADE = FEATURE_NAMES.index("fantasy_made")
FRONT_LOAD = (2.5, 1.5, 1.0, 0.75)
"""Relative time of a seat's street decisions before its last, the first street first, later
streets as the last entry: the first streets decide fantasy and fouls and their play-outs are
the longest, while the last street is mostly priced exactly."""
RACE_SHARE = 0.5
"""Share of a decision's budget played out over every candidate before only the best
``FINALISTS`` go on, on the same shuffles."""
FINALISTS = 3
"""The candidates that go on after ``RACE_SHARE`` of the budget."""


def street_share(rules: Rules, placed: int, front_load: tuple[float, ...]) -> float:
    """The multiple of ``seconds`` a decision gets with ``placed`` cards on the seat's board.

    The streets before the last share ``front_load``, scaled to one budget each on average;
    the last street gets one budget.
    """
    last = len(rules.spec.streets) - 1
    index = street_index(rules, placed)
    if index >= last:
        return 1.0
    raw = [front_load[min(i, len(front_load) - 1)] for i in range(last)]
    return raw[index] * last / sum(raw)


class SearchBot(ProBot):
    """``pro`` with its time split by ``FRONT_LOAD`` over the streets and its candidates raced:
    ``RACE_SHARE`` of the budget over all of them, the rest over the ``FINALISTS`` best so far.

    The candidates left out of the final are reported at minus infinity, so the bot's ranking
    puts the finalists first (best first) and chooses among them alone.
    """

    def rank(
        self, view: HandView, actions: list[Action], keep: int, seconds: float | None, rollouts: int | None
    ) -> tuple[Choice, ...]:
        """``ProBot.rank`` with ``seconds`` scaled by the street's share (``street_share``)."""
        if seconds is not None:
            placed = sum(len(row) for row in view.seats[check_can_act(view)].rows)
            seconds *= street_share(view.rules, placed, FRONT_LOAD)
        return super().rank(view, actions, keep, seconds, rollouts)

    def sample(
        self, job: Playouts, kernel: KernelRules, weights: np.ndarray, seconds: float | None, rollouts: int | None,
        start: float, learned: int = EVERY_SEAT,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
        """``ProBot.sample``, raced when there are more than ``FINALISTS`` candidates."""
        n = len(job.cand_boards)
        if n <= FINALISTS or (rollouts is not None and rollouts < 2):
            return super().sample(job, kernel, weights, seconds, rollouts, start, learned)
        sums = np.zeros(n, dtype=np.float64)
        squares = np.zeros(n, dtype=np.float64)
        tallies = np.zeros((n, 3), dtype=np.float64)
        seed = self._rng.getrandbits(31)
        done = run_within_budget(
            lambda first, count: run_playouts(
                job, kernel, weights, first, count, seed, sums, squares, tallies, learned
            ),
            None if seconds is None else seconds * RACE_SHARE,
            None if rollouts is None else rollouts // 2,
            start,
        )
        keep = np.argsort(-sums, kind="stable")[:FINALISTS]
        sub = job._replace(cand_boards=job.cand_boards[keep], cand_counts=job.cand_counts[keep])
        more_sums = np.zeros(FINALISTS, dtype=np.float64)
        more_squares = np.zeros(FINALISTS, dtype=np.float64)
        more_tallies = np.zeros((FINALISTS, 3), dtype=np.float64)
        more = run_within_budget(
            lambda first, count: run_playouts(
                sub, kernel, weights, done + first, count, seed, more_sums, more_squares, more_tallies, learned
            ),
            seconds,
            None if rollouts is None else rollouts - done,
            start,
        )
        runs = done + more
        self.last_rollouts = runs
        means = np.full(n, -math.inf)
        spread = np.full(n, math.inf)
        shares = np.zeros((n, 3), dtype=np.float64)
        means[keep] = (sums[keep] + more_sums) / runs
        variance = (squares[keep] + more_squares) / runs - means[keep] ** 2
        spread[keep] = Z95 * np.sqrt(np.maximum(variance, 0.0) / max(runs - 1, 1))
        shares[keep] = (tallies[keep] + more_tallies) / runs
        return means, spread, shares[:, :2], shares[:, 2]


def duel(variant: str, hands: int, seed: int, weights: ProWeights) -> str:
    """One line: the learned seat's mean outcome and both seats' foul and fantasy rates."""
    fantasy = weights.fantasy_value
    w = weights.for_variant(variant)
    seat0 = selfplay_chunk(variant, 2, seed, 0, hands, w, fantasy, explore=0.0, learned_seats=1)
    seat1 = selfplay_chunk(variant, 2, seed, 0, hands, w, fantasy, explore=0.0, learned_seats=2)
    per_hand = len(seat0.target) // hands
    last0 = seat0.x.reshape(hands, per_hand, -1)[:, -2]
    last1 = seat1.x.reshape(hands, per_hand, -1)[:, -1]
    static0 = seat1.x.reshape(hands, per_hand, -1)[:, -2]
    outcome = (seat0.target.reshape(hands, -1)[:, -2] + seat1.target.reshape(hands, -1)[:, -1]) / 2
    learned_foul = (last0[:, FOULED].mean() + last1[:, FOULED].mean()) / 2
    entered0 = (last0[:, MADE] * (1 - last0[:, FOULED])).mean()
    learned_fl = (entered0 + (last1[:, MADE] * (1 - last1[:, FOULED])).mean()) / 2
    static_foul = static0[:, FOULED].mean()
    static_fl = (static0[:, MADE] * (1 - static0[:, FOULED])).mean()
    half = 1.96 * outcome.std(ddof=1) / np.sqrt(hands)
    return (
        f"{variant:9s} learned vs static greedy: {outcome.mean():+.2f} +- {half:.2f} points/hand "
        f"(fantasy at {fantasy:g}); foul {learned_foul:.1%} vs {static_foul:.1%}; "
        f"fantasy {learned_fl:.1%} vs {static_fl:.1%} ({hands} decks, seats swapped)"
    )


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a rate ``hits / n``."""
    z = 1.959963984540054
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


class Timed:
    """Times the decisions of a bot."""

    def __init__(self, spec: str, seed: int, bot: Bot | None = None, weights: ProWeights | None = None) -> None:
        self.bot = make_bot(spec, seed=seed) if bot is None else bot
        if weights is not None and isinstance(self.bot, ProBot):
            self.bot.weights = weights
        self.seconds = 0.0
        self.decisions = 0

    def act(self, view: object) -> object:
        start = time.perf_counter()
        action = self.bot.act(view)  # type: ignore[arg-type]
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


def selfplay_rates(rules_name: str, spec: str, hands: int, seed: int, weights: ProWeights) -> str:
    """One line: the foul and fantasy entry rates of ``spec`` playing itself heads-up."""
    rules = Rules.preset(rules_name)
    rules = rules if rules.players == 2 else rules.with_settings({"players": 2})
    bots = [Timed(spec, derive_seed(seed, 0), weights=weights), Timed(spec, derive_seed(seed, 1), weights=weights)]
    fouled = plain = entered = 0
    for h in range(hands):
        hand = Hand(rules, button=h % 2, seed=derive_seed(seed, 2, h))
        play_hand(hand, bots)  # type: ignore[arg-type]
        assert hand.result is not None
        for board, line in zip(hand.result.boards, hand.result.sheet.players, strict=True):
            fouled += line.fouled
            plain += line.fouled and fantasy_entry_cards(row_keys(board).top, rules) == 0
            entered += line.fantasy > 0
    n = 2 * hands
    f_lo, f_hi = wilson(fouled, n)
    e_lo, e_hi = wilson(entered, n)
    ms = 1000 * sum(b.seconds for b in bots) / max(1, sum(b.decisions for b in bots))
    return (
        f"{rules_name} {spec} self-play, {hands} hands ({n} boards, seed {seed}): "
        f"foul {fouled / n:.1%} [{f_lo:.1%}, {f_hi:.1%}] (plain, without a fantasy top: {plain / n:.1%}), "
        f"fantasy entry {entered / n:.1%} [{e_lo:.1%}, {e_hi:.1%}], {ms:.0f} ms a decision"
    )


def search_duel(rules_name: str, hands: int, seed: int, weights: ProWeights) -> str:
    """One line: the front-loaded, raced ``pro`` against the default one on duplicate decks."""
    rules = Rules.preset(rules_name)
    rules = rules if rules.players == 2 else rules.with_settings({"players": 2})
    raced = Timed("pro", 0, SearchBot(seed=derive_seed(seed, 0)), weights)
    plain = Timed("pro", 0, ProBot(seed=derive_seed(seed, 1)), weights)
    per_deck: list[float] = []
    fouled = [0, 0]
    entered = [0, 0]
    for h in range(hands):
        points = 0.0
        for raced_seat in (0, 1):
            hand = Hand(rules, button=h % 2, seed=derive_seed(seed, 2, h))
            play_hand(hand, [raced, plain] if raced_seat == 0 else [plain, raced])  # type: ignore[list-item]
            assert hand.result is not None
            points += hand.result.points[raced_seat] / 2
            for seat, line in enumerate(hand.result.sheet.players):
                who = 0 if seat == raced_seat else 1
                fouled[who] += line.fouled
                entered[who] += line.fantasy > 0
        per_deck.append(points)
    values = np.array(per_deck)
    half = 1.96 * values.std(ddof=1) / math.sqrt(hands)
    n = 2 * hands

    def ms(bot: Timed) -> float:
        return 1000 * bot.seconds / max(1, bot.decisions)

    return (
        f"{rules_name} pro front-loaded {FRONT_LOAD} raced to {FINALISTS} vs pro, {hands} decks twice "
        f"(seed {seed}): {values.mean():+.2f} +- {half:.2f} points/hand; foul {fouled[0] / n:.1%} vs "
        f"{fouled[1] / n:.1%}, fantasy {entered[0] / n:.1%} vs {entered[1] / n:.1%}; "
        f"{ms(raced):.0f} vs {ms(plain):.0f} ms a decision"
    )


def versus(path: Path, blocks: int, seed: int, rules_name: str) -> None:
    """Print the running duplicate result of ``pro`` with the weights at ``path`` against the shipped ones."""
    other = read_weights(path)
    marked = "pro:candidates=10"  # plays as "pro"; the spec only tells the two bots apart

    def make(spec: str, seed: int | None = None) -> Bot:
        bot = make_bot(spec, seed=seed)
        if spec == marked:
            assert isinstance(bot, ProBot)
            bot.weights = other
        return bot

    sim.make_bot = make  # type: ignore[attr-defined]  # play_block builds its bots through this name
    rules = sim.table_rules(Rules.preset(rules_name), 2)
    specs = (marked, "pro")
    results: list[sim.BlockResult] = []
    start = time.perf_counter()
    for block in range(blocks):
        results.append(sim.play_block(rules, specs, seed, block))
        if (block + 1) % 10 and block + 1 < blocks:
            continue
        new, old = (sim.summarise(s, [r.tallies[i] for r in results]) for i, s in enumerate(specs))
        print(
            f"{rules_name}: {path.name} vs shipped, seed {seed}, {block + 1} blocks, "
            f"{sum(r.deals for r in results)} deals: "
            f"{new.points_per_hand:+.2f} +- {new.ci95:.2f} points/hand; foul {new.foul_rate:.1%} / "
            f"{old.foul_rate:.1%} ({new.hands} / {old.hands} hands); fantasy {new.fantasy_rate:.1%} / "
            f"{old.fantasy_rate:.1%}; {1000 * new.decision_seconds:.0f} / {1000 * old.decision_seconds:.0f} ms; "
            f"{time.perf_counter() - start:.0f} s",
            flush=True,
        )


def pair_top(deals: int, pro_weights: ProWeights, playouts_each: int = 1500) -> str:
    """Lines: per deal with a QQ+ pair dealt first, the prior's rank of pair-on-top and the play-out gap."""
    rules = Rules.preset("pineapple").with_settings({"players": 2})
    bot = ProBot(seconds=None, rollouts=playouts_each, seed=1)
    bot.weights = pro_weights
    weights = bot.weights.for_variant("pineapple")
    lines: list[str] = []
    gaps: list[float] = []
    ranks: list[int] = []
    seed = 0
    while len(gaps) < deals:
        hand = Hand(rules, button=1, seed=seed)
        seed += 1
        seat = hand.to_act[0]
        view = hand.view(seat)
        dealt = [card >> 2 for card in view.cards]
        pairs = [r for r in set(dealt) if dealt.count(r) == 2 and r >= 10]  # rank 10 is the queen
        if not pairs:
            continue
        actions = list(legal_actions(view))
        pair = pairs[0]
        on_top = [i for i, a in enumerate(actions) if sum(r == 0 and c >> 2 == pair for c, r in a.placements) == 2]
        kernel = pro_kernel(view, bot.fantasy_value)
        prior = bot.prior(view, actions, kernel, weights)
        order = [int(i) for i in np.argsort(-prior, kind="stable")]
        ranks.append(min(order.index(i) for i in on_top))
        candidates = order[: bot.candidates] + sorted(on_top, key=lambda i: -prior[i])[:3]
        built = [after_action(view.seats[seat].rows, actions[i]) for i in candidates]
        job = playouts(view, np.array([b for b, _ in built]), np.array([c for _, c in built]))
        sums, squares = np.zeros(len(candidates)), np.zeros(len(candidates))
        run_playouts(job, kernel, weights, 0, playouts_each, derive_seed(7, seed), sums, squares)
        means = sums / playouts_each
        best, best_top = float(means[: bot.candidates].max()), float(means[bot.candidates :].max())
        gaps.append(best_top - best)
        lines.append(
            f"deal {seed - 1}: pair of {'QKA'[pairs[0] - 10]}, best pair-on-top placement ranked {ranks[-1] + 1} "
            f"of {len(actions)} by the learned value; play-outs: best of the ten {best:+.2f}, "
            f"best pair-on-top {best_top:+.2f}"
        )
    gap = np.array(gaps)
    lines.append(
        f"{deals} deals: pair-on-top among the ten candidates in {sum(r < bot.candidates for r in ranks)}; "
        f"better by play-outs in {int((gap > 0).sum())}; mean gap {gap.mean():+.2f} +- "
        f"{1.96 * gap.std(ddof=1) / math.sqrt(deals):.2f} points ({playouts_each} play-outs each)"
    )
    return "\n".join(lines)


def main() -> None:
    """Parse the options and print one line per variant."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--part", choices=("greedy", "selfplay", "search", "pair-top", "versus"), default="greedy")
    parser.add_argument("--bot", default="pro", help="the bot playing itself (--part selfplay)")
    parser.add_argument("--rules", default="pineapple", help="the preset (--part selfplay, search and versus)")
    parser.add_argument("--weights", type=Path, help="a weights file in place of the shipped one")
    parser.add_argument("--blocks", type=int, default=400, help="duplicate blocks (--part versus)")
    args = parser.parse_args()
    weights = shipped_weights() if args.weights is None else read_weights(args.weights)
    if args.part == "versus":
        if args.weights is None:
            parser.error("--part versus needs --weights FILE")
        versus(args.weights, args.blocks, args.seed, args.rules)
        return
    if args.part == "selfplay":
        print(selfplay_rates(args.rules, args.bot, args.hands, args.seed, weights))
        return
    if args.part == "pair-top":
        print(pair_top(args.hands, weights))
        return
    if args.part == "search":
        print(search_duel(args.rules, args.hands, args.seed, weights))
        return
    for variant in VARIANTS:
        if variant in weights.by_variant:  # a file trained for one variant holds only that one
            print(duel(variant, args.hands, args.seed, weights))
        else:
            print(f"{variant:9s} not in the weights file: skipped")


if __name__ == "__main__":
    main()
