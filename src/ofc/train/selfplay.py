"""Self-play records in chunks: each chunk is reproducible from the run seed and its number."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ofc.bots.arrays import kernel_rules
from ofc.engine.deals import derive_seed
from ofc.fast.pro_rollout import selfplay
from ofc.fast.pro_value import N_FEATURES, POINT_SCALE, STAGES, STATIC
from ofc.fast.rollout import SEED_MASK
from ofc.fast.settle import fantasy_rules_array
from ofc.rules.rulebook import Rules

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Records:
    """Decision records: board features, the stage (cards on the board) and the outcome."""

    x: F64
    stage: I64
    target: F64

    @staticmethod
    def join(parts: list[Records]) -> Records:
        """The records of ``parts`` in order."""
        return Records(
            np.concatenate([p.x for p in parts]) if parts else np.zeros((0, N_FEATURES)),
            np.concatenate([p.stage for p in parts]) if parts else np.zeros(0, dtype=np.int64),
            np.concatenate([p.target for p in parts]) if parts else np.zeros(0),
        )


def static_weights() -> F64:
    """Weights that value a board by the static evaluation alone (undoing its feature's ``POINT_SCALE``)."""
    weights = np.zeros((STAGES, N_FEATURES), dtype=np.float64)
    weights[:, STATIC] = POINT_SCALE
    return weights


def training_rules(variant: str, players: int = 2) -> Rules:
    """The preset of ``variant`` at a table of ``players``."""
    rules = Rules.preset(variant)
    return rules if rules.players == players else rules.with_settings({"players": players})


def selfplay_chunk(
    variant: str,
    players: int,
    seed: int,
    chunk: int,
    hands: int,
    weights: F64 | None,
    fantasy_value: float,
    explore: float = 0.1,
    learned_seats: int | None = None,
) -> Records:
    """``hands`` self-play hands of chunk ``chunk``.

    Seats in the bit mask ``learned_seats`` (default: all when ``weights`` is given, none
    otherwise) place by the learned value, the others by the static evaluation.
    """
    seats = (0 if weights is None else (1 << players) - 1) if learned_seats is None else learned_seats
    rules = training_rules(variant, players)
    kernel = kernel_rules(rules, fantasy_value * (players - 1))
    streets = rules.spec.streets
    cards = np.array([s.cards for s in streets], dtype=np.int64)
    discards = np.array([s.discards for s in streets], dtype=np.int64)
    size = hands * players * len(streets)
    x = np.zeros((size, N_FEATURES), dtype=np.float64)
    stage = np.zeros(size, dtype=np.int64)
    target = np.zeros(size, dtype=np.float64)
    t = kernel.tables
    use = weights if weights is not None else static_weights()
    written = selfplay(
        derive_seed(seed, chunk) & SEED_MASK, hands, players, cards, discards, kernel.params, use,
        seats, explore, fantasy_rules_array(rules),
        t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, t.top, t.middle, t.bottom,
        x, stage, target,
    )  # fmt: skip
    return Records(x[:written], stage[:written], target[:written])
