"""Fit the value: one ridge regression per stage of the board (scikit-learn, the ``train`` extra).

Each stage's fit is a correction to the static evaluation (the regression fits the target
minus the static value), so the ridge penalty pulls towards the hand-tuned evaluation rather
than towards zero where the records say little."""

from __future__ import annotations

import numpy as np

from ofc.errors import OfcError
from ofc.fast.pro_value import STAGES
from ofc.train.selfplay import F64, Records, static_weights

MIN_RECORDS = 50
"""Stages with fewer records keep the static evaluation's weights."""


class TrainError(OfcError):
    """Training cannot run (a missing dependency or bad setting)."""


def fit_stages(records: Records, alpha: float = 1.0) -> tuple[F64, dict[int, float]]:
    """Weights per stage fitted to the records, and each fitted stage's R^2 on its records."""
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
    return weights, scores
