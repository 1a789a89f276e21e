"""Fit the value: one ridge regression per stage of the board (scikit-learn, the ``train`` extra).

Each stage's fit is a correction to the static evaluation (the regression fits the target
minus the static value), so the ridge penalty pulls towards the hand-tuned evaluation rather
than towards zero where the records say little.

The fitted value then pays ``foul_penalty`` points per unit of the estimated foul chance (the
``risk`` feature) on every unfinished board. Without it the value, played greedily, fouls far
more often than the static evaluation (13% against 5% in pineapple): a greedy choice among
many placements picks the ones whose value the fit over-estimates, and those are the risky
ones, since a linear model prices the chance of a foul poorly. The finished board's value
keeps its exact foul flag and needs no penalty."""

from __future__ import annotations

import numpy as np

from ofc.errors import OfcError
from ofc.fast.pro_value import FEATURE_NAMES, STAGES
from ofc.tool_defaults import TRAIN_FOUL_PENALTY
from ofc.train.selfplay import F64, Records, static_weights

MIN_RECORDS = 50
"""Stages with fewer records keep the static evaluation's weights."""
FOUL_PENALTY = TRAIN_FOUL_PENALTY
"""Points the value charges per unit of estimated foul chance on an unfinished board (``ofc
train --foul-penalty``): played greedily in heads-up pineapple 5 cuts the fouls from 13.2% to
4.4% (``benchmarks/bench_pro.py``), but the ``pro`` bot then loses points to its own
unpenalised weights (docs/pro.md)."""
RISK = FEATURE_NAMES.index("risk")


class TrainError(OfcError):
    """Training cannot run (a missing dependency or bad setting)."""


def fit_stages(
    records: Records, alpha: float = 1.0, foul_penalty: float = FOUL_PENALTY
) -> tuple[F64, dict[int, float]]:
    """Weights per stage fitted to the records (less the foul penalty), and each fitted stage's R^2."""
    try:
        from sklearn.linear_model import Ridge
    except ImportError:
        raise TrainError("ofc train needs scikit-learn: pip install -e '.[train]'") from None
    weights = static_weights()
    scores: dict[int, float] = {}
    for stage in range(STAGES):
        mask = records.stage == stage
        if int(mask.sum()) < MIN_RECORDS:
            continue
        x, y = records.x[mask], records.target[mask]
        prior = x @ weights[stage]
        model = Ridge(alpha=alpha, fit_intercept=False)
        model.fit(x, y - prior)
        weights[stage] = weights[stage] + np.asarray(model.coef_, dtype=np.float64)
        residual = y - x @ weights[stage]
        scores[stage] = float(1.0 - residual.var() / max(float(y.var()), 1e-12))
        if stage < STAGES - 1:
            weights[stage, RISK] -= foul_penalty
    return weights, scores
