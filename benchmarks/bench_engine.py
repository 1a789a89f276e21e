"""Play random legal hands through the public API and print hands per second.

Each step lists the legal actions of the seat to act, draws one at random and applies it,
so the figure covers dealing, legal-action listing, validation, clocks and the showdown::

    .venv/bin/python benchmarks/bench_engine.py [--variant pineapple] [--players 3] [--hands 5000]
"""

from __future__ import annotations

import argparse
import random
import time

from ofc.engine.hand import Hand
from ofc.rules.cards import Deck
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import Board, score_boards


def play(rules: Rules, hands: int, seed: int) -> int:
    """Play ``hands`` seeded random hands; returns the sum of the first seat's points."""
    rng = random.Random(seed)
    total = 0
    for number in range(hands):
        hand = Hand(rules, button=number % rules.players, seed=seed + number)
        clock = 0
        while not hand.is_over:
            clock += 1
            seat = hand.to_act[0]
            hand.apply(rng.choice(hand.legal_actions(seat)), clock)
        result = hand.result
        assert result is not None
        total += result.points[0]
    return total


def floor(rules: Rules, hands: int, seed: int) -> None:
    """The unavoidable part of each hand: the deal and the showdown's scoring (of the boards the
    first seat's five cards, then every card, would make placed bottom-first), without any play."""
    players = rules.players
    for number in range(hands):
        deck = Deck(seed + number).order
        boards = [
            Board(deck[13 * p + 10 : 13 * p + 13], deck[13 * p + 5 : 13 * p + 10], deck[13 * p : 13 * p + 5])
            for p in range(players)
        ]
        score_boards(boards, rules)


def main() -> None:
    """Parse the options, run once to warm up, then time the run and print the rate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="pineapple", choices=["classic", "turbo", "pineapple"])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    rules = Rules.preset(options.variant).with_settings({"players": options.players})
    play(rules, 200, options.seed)
    start = time.perf_counter()
    play(rules, options.hands, options.seed)
    elapsed = time.perf_counter() - start
    rate = options.hands / elapsed
    start = time.perf_counter()
    floor(rules, options.hands, options.seed)
    bare = time.perf_counter() - start
    print(
        f"{options.variant}, {options.players} players: {options.hands} hands in {elapsed:.2f} s "
        f"= {rate:,.0f} hands/s (target 2,000 for 3-player pineapple)"
    )
    print(
        f"reference, same run: the same hands dealt and their final boards scored, no play: {bare:.2f} s "
        f"({elapsed / bare:.1f}x: the rest is listing, checking and applying every action)"
    )


if __name__ == "__main__":
    main()
