"""Time the engine operations search code leans on, against replaying the hand, in one run.

For seeded 3-player pineapple hands stopped half-way (after 8 actions) it times:
- ``clone()`` against rebuilding the same hand by replaying its actions from the deal (the
  only way to copy a hand before ``clone`` existed); target: clone at least 20x faster;
- ``apply`` + ``undo`` of one legal action;
- ``determinize(view, rng)`` for the seat to act.

    .venv/bin/python benchmarks/bench_search.py [--hands 300] [--repeat 20]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from ofc.engine.determinize import determinize
from ofc.engine.hand import Hand
from ofc.rules.cards import Deck
from ofc.rules.rulebook import Rules

RULES = Rules.preset("pineapple").with_settings({"players": 3})


def half_played(seed: int) -> Hand:
    """A seeded hand after 8 random legal actions."""
    hand = Hand(RULES, button=seed % 3, seed=seed)
    rng = random.Random(seed)
    for _ in range(8):
        hand.apply(rng.choice(hand.legal_actions(hand.to_act[0])), 1)
    return hand


def replayed(hand: Hand) -> Hand:
    """The same hand rebuilt from its private record: dealt again, every action applied again."""
    record = hand.private_record()
    copy = Hand(hand.rules, button=hand.button, deck=Deck(order=record.deck), now=hand.start_time)
    for step in record.actions:
        copy.apply(step.action, step.time)
    return copy


def per_call(hands: list[Hand], work: Callable[[Hand], object], repeat: int) -> float:
    """Seconds per call of ``work`` over every hand, best of three rounds of ``repeat`` calls each."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            for hand in hands:
                work(hand)
        best = min(best, (time.perf_counter() - start) / (repeat * len(hands)))
    return best


def apply_undo(hand: Hand) -> None:
    hand.apply(hand.legal_actions(hand.to_act[0])[0], 2)
    hand.undo()


def main() -> None:
    """Time each operation and print it with its ratio to the replay."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=20)
    options = parser.parse_args()
    hands = [half_played(seed) for seed in range(options.hands)]
    assert all(replayed(hand).private_record().actions == hand.private_record().actions for hand in hands)
    rng = random.Random(0)
    replay = per_call(hands, replayed, options.repeat)
    clone = per_call(hands, Hand.clone, options.repeat)
    undo = per_call(hands, apply_undo, options.repeat)
    drawn = per_call(hands, lambda hand: determinize(hand.view(hand.to_act[0]), rng), max(1, options.repeat // 4))
    print(f"3-player pineapple, {options.hands} hands after 8 actions, best of 3 rounds")
    print(f"  replay from the deal (reference)  {replay * 1e6:8.1f} us")
    print(f"  clone()                           {clone * 1e6:8.1f} us   {replay / clone:5.1f}x faster (target 20x)")
    print(f"  apply + undo                      {undo * 1e6:8.1f} us   {replay / undo:5.1f}x faster")
    print(f"  determinize(view, rng)            {drawn * 1e6:8.1f} us   {replay / drawn:5.2f}x the replay")


if __name__ == "__main__":
    main()
