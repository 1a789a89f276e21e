"""Fit the value: one ridge regression per stage of the board (scikit-learn, the ``train`` extra).

Each stage's fit is a correction to the static evaluation (the regression fits the target
minus the static value), so the ridge penalty pulls towards the hand-tuned evaluation rather
than towards zero where the records say little.

The fitted value then pays ``foul_penalty`` points per unit of the estimated foul chance (the
``risk`` feature) on every unfinished board. Without it the value, played greedily, fouls far
more often than the static evaluation: a greedy choice among
many placements picks the ones whose value the fit over-estimates, and those are the risky
ones, since a linear model prices the chance of a foul poorly. The finished board's value
keeps its exact foul flag and needs no penalty."""

from __future__ import annotations

import warnings

import numpy as np

from ofc.fast.pro_value import FEATURE_NAMES, HIDDEN_BLOCK, N_FEATURES, STAGES
from ofc.rules.errors import OfcError
from ofc.train import TRAIN_FOUL_PENALTY
from ofc.train.selfplay import F64, Records, static_weights

MIN_RECORDS = 50
"""Stages with fewer records keep the static evaluation's weights."""
FOUL_PENALTY = TRAIN_FOUL_PENALTY
"""Points the value charges per unit of estimated foul chance on an unfinished board (``ofc
train --foul-penalty``): played greedily, the penalised value fouls far less, at a cost in
points to the ``pro`` bot; docs/pro.md says what the shipped weights use."""
RISK = FEATURE_NAMES.index("risk")
BIAS = FEATURE_NAMES.index("bias")
MLP_EPOCHS = 40
"""Epochs at most for a stage's hidden units (early stopping on a held-out tenth usually ends sooner)."""


class TrainError(OfcError):
    """Training cannot run (a missing dependency or bad setting)."""


def fit_stages(
    records: Records,
    alpha: float = 1.0,
    foul_penalty: float = FOUL_PENALTY,
    hidden: int = 0,
    seed: int = 0,
) -> tuple[F64, dict[int, float]]:
    """Weights per stage fitted to the records (less the foul penalty), and each fitted stage's R^2.

    With ``hidden`` above 0 each stage also gets that many ReLU units (``ofc.fast.pro_value.
    HIDDEN_BLOCK``) fitted to what the linear fit leaves unexplained.
    """
    try:
        from sklearn.linear_model import Ridge
    except ImportError:
        raise TrainError("ofc train needs scikit-learn: pip install -e '.[train]'") from None
    weights = np.zeros((STAGES, N_FEATURES + hidden * HIDDEN_BLOCK), dtype=np.float64)
    weights[:, :N_FEATURES] = static_weights()
    scores: dict[int, float] = {}
    for stage in range(STAGES):
        mask = records.stage == stage
        if int(mask.sum()) < MIN_RECORDS:
            continue
        x, y = records.x[mask], records.target[mask]
        linear = weights[stage, :N_FEATURES]
        model = Ridge(alpha=alpha, fit_intercept=False)
        model.fit(x, y - x @ linear)
        linear += np.asarray(model.coef_, dtype=np.float64)
        residual = y - x @ linear
        if hidden > 0:
            residual -= fit_units(x, residual, weights[stage], hidden, seed + stage)
        scores[stage] = float(1.0 - residual.var() / max(float(y.var()), 1e-12))
        if stage < STAGES - 1:
            linear[RISK] -= foul_penalty
    return weights, scores


def fit_units(x: F64, y: F64, row: F64, hidden: int, seed: int) -> F64:
    """Fit ``hidden`` ReLU units to ``y``, write them into the stage's ``row``; returns their fitted values.

    The network (scikit-learn ``MLPRegressor``) sees standardised features; the scaling and its
    biases are folded into the stored weights, so play needs only the raw features. Its output
    bias joins the linear part's ``bias`` weight.
    """
    from sklearn.neural_network import MLPRegressor

    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    live = scale > 1e-9
    z = (x[:, live] - mean[live]) / scale[live]
    net = MLPRegressor(
        hidden_layer_sizes=(hidden,), alpha=1e-3, batch_size=512, learning_rate_init=1e-3,
        max_iter=MLP_EPOCHS, early_stopping=True, n_iter_no_change=4, random_state=seed % 2**32,
    )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=UserWarning)  # ConvergenceWarning: the epoch cap is meant
        net.fit(z, y)
    inner = np.asarray(net.coefs_[0], dtype=np.float64)  # (live features, hidden)
    bias = np.asarray(net.intercepts_[0], dtype=np.float64)
    outer = np.asarray(net.coefs_[1], dtype=np.float64)[:, 0]
    for unit in range(hidden):
        at = N_FEATURES + unit * HIDDEN_BLOCK
        unit_in = np.zeros(N_FEATURES)
        unit_in[live] = inner[:, unit] / scale[live]
        unit_in[BIAS] += bias[unit] - float(unit_in @ mean)
        row[at : at + N_FEATURES] = unit_in
        row[at + N_FEATURES] = outer[unit]
    row[BIAS] += float(net.intercepts_[1][0])
    return np.asarray(net.predict(z), dtype=np.float64)
