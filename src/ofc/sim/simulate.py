"""Duplicate-deal simulations between bots, and their statistics.

How a run is laid out (``players`` = number of bots; the rules' table size is set to it):

- The run is a series of **blocks**. A block is one match (``ofc.series.match.Match``, button on
  seat 0, fantasy carried from hand to hand, the button staying on fantasy hands) played
  once per **rotation** of the bots over the seats: in rotation ``r`` bot ``b`` sits in seat
  ``(b + r) % players``. Hand ``h`` of block ``k`` is dealt from the same deck seed in every
  rotation, so each bot receives the cards every other bot received (duplicate), and luck
  largely cancels. Fantasies can make one rotation's match longer than another's; the extra
  hands use the next seeds of the block.
- A **deal** is one deck seed of a block; a block counts the deals of its longest rotation.
  ``hands`` deals are asked for: ``ceil(hands / players)`` blocks are played (at least two,
  so an interval exists), and the result reports the deals actually played (fantasy hands
  add some).
- Seeds: deck seeds and bot seeds derive from ``seed``, the block, the hand and the seat by
  a hash, so a run is reproducible given its seed whatever the number of workers (for bots
  bounded by rollouts rather than seconds).

A second experiment prices a fantasy directly (``fantasy_gain``): each deal is played twice
with the same deck seed, once with the ``hero`` bot in seat 0 in fantasy and once with it
playing normally, the ``villain`` bot in the other seats; the mean difference of seat 0's
points estimates what one fantasy hand is worth, the solver's ``stay_value`` when the repeat
is the last one allowed.

Statistics per bot: points per hand is total points over hands played; its 95% interval
treats blocks as the independent units (a ratio estimate: ``1.96 * sqrt(sum((x_k - m h_k)^2)
/ (B (B - 1))) / mean(h)`` for block points ``x_k`` and hands ``h_k``). Foul rate is over
all hands, fantasy rate is entries over normal hands, stay rate is fantasy boards meeting a
stay condition over fantasy hands, and the fantasy gain (points per fantasy hand minus points
per normal hand) estimates what a fantasy is worth.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass, field
from typing import Any

from ofc.bots import Bot, make_bot
from ofc.engine.actions import Action
from ofc.engine.deals import derive_seed
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.rules.errors import RulesError
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import meets_stay
from ofc.series.match import HandRecord, Match
from ofc.series.session import Session, play_hand
from ofc.sim.processes import process_pool

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


@dataclass
class Tally:
    """What one bot did in one block (all rotations)."""

    points: float = 0.0
    hands: int = 0
    fouls: int = 0
    normal_hands: int = 0
    entries: int = 0
    fantasy_hands: int = 0
    stays: int = 0
    normal_points: float = 0.0
    fantasy_points: float = 0.0
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0


@dataclass(frozen=True)
class BlockResult:
    """One block: its number, the deals it used and each bot's tally (bot order)."""

    block: int
    deals: int
    tallies: tuple[Tally, ...]


class TimedBot:
    """An agent that times each decision of the bot it wraps."""

    def __init__(self, bot: Bot, tally: Tally) -> None:
        self.bot = bot
        self.tally = tally

    def act(self, view: HandView) -> Action:
        """The bot's action; the time it took is added to the tally."""
        start = time.perf_counter()
        action = self.bot.act(view)
        spent = time.perf_counter() - start
        self.tally.decisions += 1
        self.tally.seconds += spent
        self.tally.slowest = max(self.tally.slowest, spent)
        return action


def table_rules(rules: Rules, bots: int) -> Rules:
    """``rules`` for a table of one seat per bot; raises ``RulesError`` when it cannot seat them."""
    if bots < 2:
        raise RulesError("a simulation needs at least two bots")
    return rules if rules.players == bots else rules.with_settings({"players": bots})


def rotation_seats(players: int, rotation: int) -> tuple[int, ...]:
    """``bot_at[seat]``: which bot sits in each seat in ``rotation``."""
    return tuple((seat - rotation) % players for seat in range(players))


_warm: set[tuple[Rules, tuple[str, ...]]] = set()


def warm_up(rules: Rules, specs: Sequence[str]) -> None:
    """Let each bot decide once, untimed, so kernels load before any decision is timed."""
    key = (rules, tuple(specs))
    if key in _warm:
        return
    _warm.add(key)
    for fantasy in (0, max(rules.fantasy_deals, default=0)):
        hand = Hand(rules, button=rules.players - 1, seed=0, fantasy=(fantasy,) + (0,) * (rules.players - 1))
        for spec in specs:
            make_bot(spec, seed=0).decide(hand.view(0))


def play_block(rules: Rules, specs: Sequence[str], seed: int, block: int) -> BlockResult:
    """Play block ``block``: one match per rotation on the block's deck seeds (spawn-safe)."""
    warm_up(rules, specs)
    players = len(specs)
    tallies = tuple(Tally() for _ in specs)
    deals = 0
    for rotation in range(players):
        bot_at = rotation_seats(players, rotation)
        bots = [make_bot(spec, seed=derive_seed(seed, block, rotation, b)) for b, spec in enumerate(specs)]
        agents = [TimedBot(bots[bot_at[seat]], tallies[bot_at[seat]]) for seat in range(players)]
        session = Session(Match(rules, button=0))
        hand_number = 0
        while not session.finished:
            hand = session.deal(seed=derive_seed(seed, block, hand_number))
            play_hand(hand, [agents[seat] for seat in session.plan.seats])
            record = session.settle()
            assert isinstance(record, HandRecord)
            plan = record.plan
            for k, seat in enumerate(plan.seats):
                line = record.sheet.players[k]
                tally = tallies[bot_at[seat]]
                points = float(sum(record.vs[seat]))
                tally.points += points
                tally.hands += 1
                tally.fouls += line.fouled
                if plan.fantasy[k]:
                    tally.fantasy_hands += 1
                    tally.fantasy_points += points
                    tally.stays += not line.fouled and meets_stay(line.keys, rules)
                else:
                    tally.normal_hands += 1
                    tally.normal_points += points
                    tally.entries += line.fantasy > 0
            hand_number += 1
        deals = max(deals, hand_number)
    return BlockResult(block, deals, tallies)


@dataclass(frozen=True)
class BotStats:
    """A bot's figures over a whole run (see the module docstring)."""

    name: str
    points_per_hand: float
    ci95: float
    foul_rate: float
    fantasy_rate: float
    stay_rate: float
    decision_seconds: float
    decision_max: float
    hands: int
    fantasy_hands: int
    fantasy_gain: float | None

    def to_dict(self) -> dict[str, object]:
        """The ``--json`` entry of this bot."""
        return {
            "name": self.name,
            "points_per_hand": self.points_per_hand,
            "ci95": self.ci95,
            "foul_rate": self.foul_rate,
            "fantasy_rate": self.fantasy_rate,
            "stay_rate": self.stay_rate,
            "decision_seconds": self.decision_seconds,
            "decision_max_seconds": self.decision_max,
        }


@dataclass(frozen=True)
class SimResult:
    """A run: its deals, seed, blocks and per-bot statistics."""

    deals: int
    seed: int
    blocks: int
    bots: tuple[BotStats, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        """The ``--json`` document."""
        return {"bots": [bot.to_dict() for bot in self.bots], "hands": self.deals}


def mean_ci95(points: Sequence[float], hands: Sequence[int]) -> tuple[float, float]:
    """Points per hand and its 95% half-width, blocks as units (a ratio estimate)."""
    total_hands = sum(hands)
    if total_hands == 0:
        return 0.0, 0.0
    mean = sum(points) / total_hands
    blocks = len(points)
    if blocks < 2:
        return mean, math.inf
    spread = sum((x - mean * h) ** 2 for x, h in zip(points, hands, strict=True))
    return mean, Z95 * math.sqrt(spread / (blocks * (blocks - 1))) / (total_hands / blocks)


def _ratio(part: float, whole: float) -> float:
    return part / whole if whole else 0.0


def summarise(name: str, tallies: Sequence[Tally]) -> BotStats:
    """One bot's statistics from its tally in each block."""
    mean, ci = mean_ci95([t.points for t in tallies], [t.hands for t in tallies])

    def total(attribute: str) -> float:
        return float(sum(getattr(t, attribute) for t in tallies))

    normal, fantasy = total("normal_hands"), total("fantasy_hands")
    gain = None
    if normal and fantasy:
        gain = total("fantasy_points") / fantasy - total("normal_points") / normal
    return BotStats(
        name=name,
        points_per_hand=mean,
        ci95=ci,
        foul_rate=_ratio(total("fouls"), total("hands")),
        fantasy_rate=_ratio(total("entries"), normal),
        stay_rate=_ratio(total("stays"), fantasy),
        decision_seconds=_ratio(total("seconds"), total("decisions")),
        decision_max=max((t.slowest for t in tallies), default=0.0),
        hands=int(total("hands")),
        fantasy_hands=int(fantasy),
        fantasy_gain=gain,
    )


def block_count(hands: int, players: int) -> int:
    """Blocks needed for ``hands`` deals at a table of ``players`` (at least two)."""
    return max(2, -(-hands // players))


Progress = Callable[[int, int], None]
"""Called with (blocks done, blocks in all) as blocks finish."""


def simulate(
    rules: Rules,
    specs: Sequence[str],
    hands: int,
    *,
    seed: int,
    workers: int = 1,
    progress: Progress | None = None,
    cluster: str | None = None,
) -> SimResult:
    """Play a duplicate simulation of the bots ``specs`` (see the module docstring).

    With ``cluster`` (``auto``, ``local`` or ``ray://HOST:PORT``) the blocks run as Ray tasks
    (``ofc.train.cluster``); blocks are independent and seeded by number, so the result equals
    a local run's with the same seed.
    """
    if hands < 1:
        raise RulesError("a simulation needs at least one hand, not {hands}", hands=hands)
    specs = tuple(s.strip() for s in specs)
    for spec in specs:
        make_bot(spec)  # fail early, in this process, on a bad name or option
    table = table_rules(rules, len(specs))
    count = block_count(hands, len(specs))
    results: list[BlockResult] = []
    if cluster is not None:
        args = [(table, specs, seed, block) for block in range(count)]
        results = _on_cluster(cluster, args, progress)
    elif workers <= 1:
        for block in range(count):
            results.append(play_block(table, specs, seed, block))
            if progress is not None:
                progress(len(results), count)
    else:
        with process_pool(workers) as pool:
            futures = [pool.submit(play_block, table, specs, seed, block) for block in range(count)]
            for future in as_completed(futures):
                results.append(future.result())
                if progress is not None:
                    progress(len(results), count)
    results.sort(key=lambda r: r.block)
    stats = tuple(summarise(spec, [r.tallies[b] for r in results]) for b, spec in enumerate(specs))
    return SimResult(deals=sum(r.deals for r in results), seed=seed, blocks=count, bots=stats)


def _on_cluster(cluster: str, args: list[tuple[Any, ...]], progress: Progress | None) -> list[BlockResult]:
    """The blocks of ``args`` as Ray tasks; a connection this call made is closed before it returns
    (Ray prints its last buffered log lines then, inside the caller's output redirection)."""
    from ofc.train.cluster import run_tasks

    before = sys.modules.get("ray")
    joined = before is not None and before.is_initialized()
    try:
        return run_tasks(play_block, args, cluster=cluster, done=progress)
    finally:
        ray = sys.modules.get("ray")
        if not joined and ray is not None and ray.is_initialized():
            ray.shutdown()


def _seat0_points(rules: Rules, bots: Sequence[Bot], seed: int, fantasy: int) -> int:
    """Seat 0's points in the hand of deck ``seed`` (seat 0 in fantasy with ``fantasy`` cards)."""
    deal = (fantasy,) + (0,) * (rules.players - 1)
    hand = Hand(rules, button=rules.players - 1, seed=seed, fantasy=deal)
    play_hand(hand, list(bots))
    assert hand.result is not None
    return hand.result.points[0]


def fantasy_gain_chunk(rules: Rules, hero: str, villain: str, seed: int, deals: range) -> list[float]:
    """Fantasy minus normal points of seat 0 for each deal of ``deals`` (spawn-safe)."""
    warm_up(rules, (hero, villain))
    cards = min(rules.fantasy_deals)
    out: list[float] = []
    for deal in deals:
        bots = [make_bot(hero, seed=derive_seed(seed, deal, 0))]
        bots += [make_bot(villain, seed=derive_seed(seed, deal, seat)) for seat in range(1, rules.players)]
        deck = derive_seed(seed, deal)
        out.append(float(_seat0_points(rules, bots, deck, cards) - _seat0_points(rules, bots, deck, 0)))
    return out


def fantasy_gain(
    rules: Rules, hero: str, villain: str, deals: int, *, seed: int, workers: int = 1, chunk: int = 20
) -> tuple[float, float]:
    """Points one fantasy hand is worth to ``hero`` against ``villain``s, and its 95% half-width."""
    if not rules.fantasy_deals:
        raise RulesError("fantasy is off under these rules: it has no value to measure")
    make_bot(hero)
    make_bot(villain)
    parts = [range(start, min(start + chunk, deals)) for start in range(0, deals, chunk)]
    if workers <= 1:
        gains = [g for part in parts for g in fantasy_gain_chunk(rules, hero, villain, seed, part)]
    else:
        with process_pool(workers) as pool:
            done = pool.map(fantasy_gain_chunk, *zip(*[(rules, hero, villain, seed, p) for p in parts], strict=True))
            gains = [g for part in done for g in part]
    return mean_ci95(gains, [1] * len(gains))
