"""The learned value as a greedy policy against the static evaluation it corrects, per variant.

Heads-up self-play on duplicate decks: each deck is played with the learned policy in seat 0
and the static one in seat 1, then with the seats swapped; the figure is the learned seat's
mean outcome (points plus the fantasy value when its board earns one, as in training) with a
95% interval, and both policies' foul and fantasy rates. Seconds of CPU per variant::

    .venv/bin/python benchmarks/bench_pro.py --hands 3000

The bot's own strength (with play-outs) is measured with ``ofc simulate`` (README).
"""

from __future__ import annotations

import argparse

import numpy as np

from ofc.bots.pro_weights import VARIANTS, shipped_weights
from ofc.fast.pro_value import FEATURE_NAMES
from ofc.train.selfplay import selfplay_chunk

FOULED = FEATURE_NAMES.index("fouled")
MADE = FEATURE_NAMES.index("fantasy_made")


def duel(variant: str, hands: int, seed: int) -> str:
    """One line: the learned seat's mean outcome and both seats' foul and fantasy rates."""
    weights = shipped_weights()
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


def main() -> None:
    """Parse the options and print one line per variant."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=99)
    args = parser.parse_args()
    for variant in VARIANTS:
        print(duel(variant, args.hands, args.seed))


if __name__ == "__main__":
    main()
