"""A training run: rounds of self-play and fitting per variant, then the weights file.

Round 0 plays the static evaluation; each later round plays the value fitted in the round
before (policy iteration), on fresh chunks. The final round's fit is shipped. Every chunk's
deals derive from (seed, variant, round, chunk), so a run is reproducible from its seed
whatever the workers or cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ofc.bots.pro_weights import VARIANTS, ProWeights
from ofc.engine.deals import derive_seed
from ofc.train import TRAIN_FANTASY
from ofc.train.cluster import run_tasks
from ofc.train.fit import FOUL_PENALTY, TrainError, fit_stages
from ofc.train.selfplay import F64, Records, selfplay_chunk

CHUNK_HANDS = 2000
DEFAULT_FANTASY = TRAIN_FANTASY
"""Points a fantasy entry adds to a training target: the worth of a fantasy hand in pineapple,
estimated by simulation (``benchmarks/bench_bots.py --part stay``)."""

Log = Callable[[str], None]


def train(
    variants: Sequence[str],
    *,
    hands: int,
    rounds: int,
    seed: int,
    workers: int = 1,
    cluster: str | None = None,
    fantasy_value: float = DEFAULT_FANTASY,
    alpha: float = 1.0,
    foul_penalty: float = FOUL_PENALTY,
    hidden: int = 0,
    pool_rounds: bool = False,
    log: Log | None = None,
) -> ProWeights:
    """Train the value of each variant from ``hands`` heads-up self-play hands per round.

    ``hidden`` ReLU units per stage join the linear model (0: linear only; ``fit_stages``).
    With ``pool_rounds`` each round's fit uses the records of every round so far, not only its
    own: a value fitted to one careful policy's hands alone under-prices the boards that policy
    rescues, and the next greedy policy then fouls more (docs/pro.md).
    """
    for variant in variants:
        if variant not in VARIANTS:
            raise TrainError(
                "unknown variant {variant!r}: choose from {names}", variant=variant, names=", ".join(VARIANTS)
            )
    if hands < 1 or rounds < 1:
        raise TrainError(
            "--hands and --rounds must be at least 1 (got {hands} and {rounds})", hands=hands, rounds=rounds
        )
    out: dict[str, F64] = {}
    for variant in variants:
        weights: F64 | None = None
        kept: list[Records] = []
        for round_ in range(rounds):
            chunks = -(-hands // CHUNK_HANDS)
            sizes = [min(CHUNK_HANDS, hands - c * CHUNK_HANDS) for c in range(chunks)]
            run_seed = derive_seed(seed, VARIANTS.index(variant), round_)
            args = [(variant, 2, run_seed, c, size, weights, fantasy_value) for c, size in enumerate(sizes)]
            parts: list[Records] = run_tasks(selfplay_chunk, args, cluster=cluster, workers=workers)
            kept = [*kept, *parts] if pool_rounds else parts
            records = Records.join(kept)
            weights, scores = fit_stages(records, alpha, foul_penalty, hidden, run_seed)
            if log is not None:
                mean = float(records.target[records.stage == 13].mean()) if len(records.target) else 0.0
                r2 = ", ".join(f"{s}:{r:.2f}" for s, r in sorted(scores.items()))
                log(f"{variant} round {round_}: {len(records.target)} records, final mean {mean:+.2f}, R^2 {r2}")
        assert weights is not None
        out[variant] = weights
    return ProWeights(out, fantasy_value)
