"""The pro value's features of a board as the tests compute them (shared by the pro test modules)."""

from __future__ import annotations

import numpy as np

from ofc.bots.arrays import kernel_rules
from ofc.fast.pro_value import N_FEATURES, board_mask, features, live_counts
from ofc.rules.cards import parse_cards
from ofc.rules.rulebook import Rules


def feature_vector(board: np.ndarray, counts: np.ndarray, rules: Rules, seen: str = "") -> np.ndarray:
    """The ``N_FEATURES`` features of ``board`` for a seat that has also seen the cards ``seen``."""
    kernel = kernel_rules(rules, 12.0)
    t = kernel.tables
    rank_live = np.zeros(13, dtype=np.int64)
    suit_live = np.zeros(4, dtype=np.int64)
    known = board_mask(board, counts)
    for card in parse_cards(seen):
        known |= 1 << card
    unseen = live_counts(known, rank_live, suit_live)
    out = np.zeros(N_FEATURES)
    features(board, counts, rank_live, suit_live, unseen, kernel.params,
             t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, t.top, t.middle, t.bottom, out)  # fmt: skip
    return out
