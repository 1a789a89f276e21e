"""Does ``pro`` convert a fantasy try? Its own first placement against a pair of queens or better put on top.

On heads-up deals whose first five cards (for the seat left of the button) hold a pair of
queens or better, the hand is played twice against the same opponent: once by ``pro`` as it
is, once by ``pro`` made to put its highest such pair on top at the first deal (the rest of
that placement and every later street chosen by its own search). Each outcome is the seat's
points plus ``--fantasy`` points when its board earns a fantasy (classic's measured worth
against the heuristic bot is about 12.7, ``ofc.sim.simulate.fantasy_gain``). Prints the mean
difference (forced minus own) with a 95% interval over deals, and both versions' foul and
fantasy entry counts. ``--weights FILE`` (``ofc train --out FILE``) makes both versions of the
seat play by FILE; an opponent ``pro`` keeps the shipped weights::

    nice -n 5 .venv/bin/python benchmarks/bench_pro_forced_top.py --rules classic --deals 60
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from pathlib import Path

from ofc.bots import Bot, make_bot
from ofc.bots.base import legal_actions
from ofc.bots.pro import ProBot
from ofc.bots.pro_weights import ProWeights, read_weights, shipped_weights
from ofc.engine.actions import Action
from ofc.engine.deals import derive_seed
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.fast.evaluation import QUEEN
from ofc.rules.cards import Card, rank_of
from ofc.rules.rows import Row
from ofc.rules.rulebook import Rules
from ofc.series.session import play_hand
from ofc.sim.simulate import table_rules


def top_pair(cards: Sequence[Card]) -> int | None:
    """The highest rank of which ``cards`` hold two or more, queens or better (``None``: none)."""
    ranks = [rank_of(card) for card in cards]
    pairs = [rank for rank in set(ranks) if rank >= QUEEN and ranks.count(rank) >= 2]
    return max(pairs) if pairs else None


def pair_on_top(action: Action, rank: int) -> bool:
    """Whether ``action`` puts two cards of ``rank`` on top."""
    return sum(1 for card, row in action.placements if row == Row.TOP and rank_of(card) == rank) >= 2


class ForcedTop:
    """``pro``, but at its first deal it chooses among the placements with its QQ+ pair on top."""

    def __init__(self, bot: ProBot) -> None:
        self.bot = bot

    def act(self, view: HandView) -> Action:
        """The pair-on-top placement ``pro`` ranks best at the first deal, else ``pro``'s action."""
        rank = top_pair(view.cards)
        if rank is None or view.seat is None or any(view.seats[view.seat].rows):
            return self.bot.act(view)
        actions = [action for action in legal_actions(view) if pair_on_top(action, rank)]
        return self.bot.rank(view, actions, self.bot.candidates, self.bot.seconds, self.bot.rollouts)[0].action


def weighted(bot: ProBot, weights: ProWeights) -> ProBot:
    """``bot`` playing by ``weights``."""
    bot.weights = weights
    return bot


def outcome(rules: Rules, deck: int, seat0: Bot | ForcedTop, opponent: Bot, fantasy: float) -> tuple[float, bool, bool]:
    """Seat 0's points plus ``fantasy`` if it earns one, whether it fouled, whether it earned a fantasy."""
    hand = Hand(rules, button=1, seed=deck)
    play_hand(hand, [seat0, opponent])
    assert hand.result is not None
    line = hand.result.sheet.players[0]
    entered = line.fantasy > 0
    return hand.result.points[0] + fantasy * entered, bool(line.fouled), entered


def main() -> None:
    """Parse the options and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--deals", type=int, default=60, help="deals with a QQ+ pair dealt first")
    parser.add_argument("--opponent", default="pro")
    parser.add_argument("--fantasy", type=float, default=12.7, help="points a fantasy entry adds")
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument(
        "--weights", type=Path, help="a weights file (ofc train --out) for pro in place of the shipped one"
    )
    args = parser.parse_args()
    weights = shipped_weights() if args.weights is None else read_weights(args.weights)
    rules = table_rules(Rules.preset(args.rules), 2)
    diffs: list[float] = []
    fouls = [0, 0]
    entries = [0, 0]
    deal = 0
    while len(diffs) < args.deals:
        deal += 1
        deck = derive_seed(args.seed, deal)
        if top_pair(Hand(rules, button=1, seed=deck).view(0).cards) is None:
            continue
        bots = derive_seed(args.seed, deal, 1)
        own = weighted(ProBot(seed=bots), weights)
        forced = ForcedTop(weighted(ProBot(seed=bots), weights))
        results = [
            outcome(rules, deck, seat0, make_bot(args.opponent, seed=bots + 1), args.fantasy) for seat0 in (own, forced)
        ]
        for k, (_, fouled, entered) in enumerate(results):
            fouls[k] += fouled
            entries[k] += entered
        diffs.append(results[1][0] - results[0][0])
    n = len(diffs)
    mean = sum(diffs) / n
    half = 1.96 * math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1) / n)
    print(
        f"{args.rules}, {n} deals with QQ+ dealt first, against {args.opponent} (fantasy at {args.fantasy:g}): "
        f"forced pair-on-top minus own choice {mean:+.2f} +- {half:.2f} points; "
        f"fouls {fouls[0]} / {fouls[1]}, fantasy entries {entries[0]} / {entries[1]} (own / forced)"
    )


if __name__ == "__main__":
    main()
