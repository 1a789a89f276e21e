"""The pro value's optional hidden units (their arithmetic, fit and weights file) and pooled training rounds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ofc.bots.arrays import board_array, kernel_rules
from ofc.bots.pro_weights import VARIANTS, ProWeights, read_weights
from ofc.cli.app import main
from ofc.engine.deals import derive_seed
from ofc.fast.pro_value import (
    BOARD_FEATURES,
    FEATURE_NAMES,
    HIDDEN_BLOCK,
    N_FEATURES,
    STAGES,
    hidden_units,
    learned_values,
    widen,
)
from ofc.fast.rollout import public_mask
from ofc.rules.cards import parse_cards
from ofc.rules.errors import BotError
from ofc.rules.rulebook import Rules
from ofc.train.fit import FOUL_PENALTY, fit_stages, fit_units
from ofc.train.run import train
from ofc.train.selfplay import Records, selfplay_chunk, static_weights
from support.pro_features import feature_vector

BIAS = FEATURE_NAMES.index("bias")
FOULED = FEATURE_NAMES.index("fouled")


def value_of(weights: np.ndarray, top: str, middle: str, bottom: str) -> float:
    b, c = board_array((parse_cards(top), parse_cards(middle), parse_cards(bottom)))
    kernel = kernel_rules(Rules.preset("pineapple"), 12.0)
    t = kernel.tables
    out = np.zeros(1)
    learned_values(b.reshape(1, 13), c.reshape(1, 3), 0, kernel.params, weights,
                   t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, t.top, t.middle, t.bottom, out)  # fmt: skip
    return float(out[0])


def test_hidden_units_add_their_relu_terms() -> None:
    # A finished fouled board (top KK beats the middle's pair of twos): the bias feature is 1
    # and the fouled feature is 1. Linear part: bias weight 1 -> 1.
    # Unit 0: input 2 on the bias -> pre-activation 2 > 0, output 3 -> +6.
    # Unit 1: input -1 on the bias -> pre-activation -1, cut to 0 -> +0 (output 5 unused).
    # Unit 2: input -1 on the bias and 4 on fouled -> 3 > 0, output -1 -> -3.
    # Value: 1 + 6 + 0 - 3 = 4; the linear columns alone give 1.
    weights = np.zeros((STAGES, N_FEATURES + 3 * HIDDEN_BLOCK))
    row = weights[13]
    row[BIAS] = 1.0
    units = [({BIAS: 2.0}, 3.0), ({BIAS: -1.0}, 5.0), ({BIAS: -1.0, FOULED: 4.0}, -1.0)]
    for unit, (inputs, output) in enumerate(units):
        at = N_FEATURES + unit * HIDDEN_BLOCK
        for feature, w in inputs.items():
            row[at + feature] = w
        row[at + N_FEATURES] = output
    cards = ("Kh Kd 2c", "2h 2d 5c 6s 7s", "As Ks Js 8s 3s")
    assert value_of(weights, *cards) == pytest.approx(4.0)
    assert value_of(np.ascontiguousarray(weights[:, :N_FEATURES]), *cards) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("columns", "units"),
    [(N_FEATURES, 0), (N_FEATURES + HIDDEN_BLOCK, 1), (N_FEATURES + 16 * HIDDEN_BLOCK, 16),
     (N_FEATURES + 2, -1), (N_FEATURES - 1, -1)],
)  # fmt: skip
def test_hidden_units_of_a_row_width(columns: int, units: int) -> None:
    assert hidden_units(columns) == units


def test_fitted_units_fold_the_scaling_into_the_stored_weights() -> None:
    # The network sees standardised features; the row must give the same values on raw ones.
    rng = np.random.default_rng(5)
    x = np.zeros((5000, N_FEATURES))  # the live-card columns stay 0: constant columns the fit must skip
    x[:, :BOARD_FEATURES] = rng.normal(size=(5000, BOARD_FEATURES)) * rng.uniform(0.1, 10.0, BOARD_FEATURES)
    x[:, :BOARD_FEATURES] += rng.normal(size=BOARD_FEATURES)
    x[:, BIAS] = 1.0
    x[:, FOULED] = 0.0  # a constant column the fit must skip
    y = 3.0 * np.maximum(x[:, 2] - x[:, 3], 0.0) - x[:, 4]
    row = np.zeros(N_FEATURES + 4 * HIDDEN_BLOCK)
    fitted = fit_units(x, y, row, 4, seed=0)
    by_row = x @ row[:N_FEATURES]
    for unit in range(4):
        at = N_FEATURES + unit * HIDDEN_BLOCK
        by_row += row[at + N_FEATURES] * np.maximum(x @ row[at : at + N_FEATURES], 0.0)
    assert np.allclose(by_row, fitted, atol=1e-9)
    assert np.all(row[N_FEATURES + FOULED :: HIDDEN_BLOCK][:4] == 0.0)
    assert np.all(row[N_FEATURES + N_FEATURES - 1 :: HIDDEN_BLOCK][:4] == 0.0)
    assert float(np.var(y - fitted)) < 0.8 * float(np.var(y))  # it learned something


def test_training_with_hidden_units_is_reproducible() -> None:
    first = train(["turbo"], hands=200, rounds=2, seed=3, hidden=2)
    again = train(["turbo"], hands=200, rounds=2, seed=3, hidden=2)
    weights = first.for_variant("turbo")
    assert weights.shape == (STAGES, N_FEATURES + 2 * HIDDEN_BLOCK)
    assert np.array_equal(weights, again.for_variant("turbo"))
    # turbo never has 7 cards on a board: that stage keeps the static weights and no units
    assert np.array_equal(weights[7, :N_FEATURES], static_weights()[7])
    assert not weights[7, N_FEATURES:].any()
    assert weights[5, N_FEATURES:].any()


def test_a_weights_file_with_hidden_units_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "w.npz"
    weights = np.arange(STAGES * (N_FEATURES + 2 * HIDDEN_BLOCK), dtype=np.float64).reshape(STAGES, -1)
    ProWeights({"pineapple": weights}, 12.0).save(path)
    assert np.array_equal(read_weights(path).for_variant("pineapple"), weights)
    np.savez(path, pineapple=np.zeros((STAGES, N_FEATURES + 2)), fantasy_value=np.float64(12))
    with pytest.raises(BotError, match=rf"pineapple has shape \({STAGES}, {N_FEATURES + 2}\)"):
        read_weights(path)


def test_cli_train_refuses_negative_hidden_units(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["train", "--variants", "turbo", "--hands", "10", "--workers", "1", "--hidden", "-1",
              "--out", "/nonexistent/x.npz"])  # fmt: skip
    assert exit_info.value.code == 2
    assert "--hidden must be at least 0, not -1" in capsys.readouterr().err


def test_pooled_rounds_fit_the_records_of_every_round() -> None:
    # Two rounds of 200 turbo hands (one chunk each): round 0 plays the static evaluation,
    # round 1 the value fitted to round 0; pooled, the last fit sees both rounds' records.
    pooled = train(["turbo"], hands=200, rounds=2, seed=3, pool_rounds=True).for_variant("turbo")
    alone = train(["turbo"], hands=200, rounds=2, seed=3).for_variant("turbo")
    seeds = [derive_seed(3, VARIANTS.index("turbo"), r) for r in range(2)]
    first = selfplay_chunk("turbo", 2, seeds[0], 0, 200, None, 12.0)
    weights, _ = fit_stages(first, foul_penalty=FOUL_PENALTY, seed=seeds[0])
    second = selfplay_chunk("turbo", 2, seeds[1], 0, 200, weights, 12.0)
    assert np.array_equal(pooled, fit_stages(Records.join([first, second]), seed=seeds[1])[0])
    assert np.array_equal(alone, fit_stages(second, seed=seeds[1])[0])
    assert not np.array_equal(pooled, alone)


def test_cli_train_passes_hidden_units_and_pooled_rounds(tmp_path: Path) -> None:
    out = tmp_path / "pro.npz"
    main(["train", "--variants", "turbo", "--hands", "100", "--rounds", "2", "--seed", "2", "--workers", "1",
          "--hidden", "2", "--pool-rounds", "--foul-penalty", "1", "--out", str(out)])  # fmt: skip
    expected = train(["turbo"], hands=100, rounds=2, seed=2, hidden=2, pool_rounds=True, foul_penalty=1.0)
    assert np.array_equal(read_weights(out).for_variant("turbo"), expected.for_variant("turbo"))


def test_weights_over_the_board_features_alone_are_widened_on_reading(tmp_path: Path) -> None:
    # A file written before the live-card features: 18 linear weights and 19 columns per unit.
    # Widened, each unit keeps its 18 input weights and its output weight, the live-card
    # features get 0, and every board keeps its value.
    rng = np.random.default_rng(7)
    narrow = rng.normal(size=(STAGES, BOARD_FEATURES + 2 * (BOARD_FEATURES + 1)))
    path = tmp_path / "old.npz"
    np.savez(path, pineapple=narrow, fantasy_value=np.float64(12))
    wide = read_weights(path).for_variant("pineapple")
    assert wide.shape == (STAGES, N_FEATURES + 2 * HIDDEN_BLOCK)
    assert np.array_equal(wide, widen(narrow))
    assert np.array_equal(wide[:, :BOARD_FEATURES], narrow[:, :BOARD_FEATURES])
    assert not wide[:, BOARD_FEATURES:N_FEATURES].any()
    second = N_FEATURES + HIDDEN_BLOCK
    assert np.array_equal(wide[:, second : second + BOARD_FEATURES], narrow[:, 37:55])
    assert np.array_equal(wide[:, second + N_FEATURES], narrow[:, 55])
    cards = ("Qh 5d", "9h 9d 4c", "As Ks")
    assert value_of(wide, *cards) == pytest.approx(value_of_narrow(narrow, *cards))


def value_of_narrow(narrow: np.ndarray, top: str, middle: str, bottom: str) -> float:
    """A board's value under weights over the 18 board features, computed in numpy."""
    b, c = board_array((parse_cards(top), parse_cards(middle), parse_cards(bottom)))
    x = feature_vector(b, c, Rules.preset("pineapple"))[:BOARD_FEATURES]
    row = narrow[int(c.sum())]
    total = float(row[:BOARD_FEATURES] @ x)
    for unit in range(2):
        at = BOARD_FEATURES + unit * (BOARD_FEATURES + 1)
        total += row[at + BOARD_FEATURES] * max(0.0, float(row[at : at + BOARD_FEATURES] @ x))
    return total


def test_the_cards_seen_elsewhere_change_the_outs_the_value_sees() -> None:
    # Weights that value a board by its top-row outs alone (times 44). Board Qh / 9h 9d / As Ks:
    # with nothing else seen, 3 live queens among 47 unseen cards: 2 * 3 / 47 * 44; with Qd and
    # Qc on another board (seen), 1 live queen among 45: 2 * 1 / 45 * 44.
    weights = np.zeros((STAGES, N_FEATURES))
    weights[5, FEATURE_NAMES.index("top_outs")] = 44.0
    b, c = board_array((parse_cards("Qh"), parse_cards("9h 9d"), parse_cards("As Ks")))
    kernel = kernel_rules(Rules.preset("pineapple"), 12.0)
    t = kernel.tables
    out = np.zeros(2)
    queens = sum(1 << card for card in parse_cards("Qd Qc"))
    for i, seen in enumerate((0, queens)):
        learned_values(b.reshape(1, 13), c.reshape(1, 3), seen, kernel.params, weights,
                       t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, t.top, t.middle, t.bottom,
                       out[i : i + 1])  # fmt: skip
    assert out.tolist() == pytest.approx([2 * 3 / 47 * 44, 2 * 1 / 45 * 44])


def test_a_hidden_fantasy_board_is_not_among_the_cards_seen() -> None:
    boards = np.zeros((2, 13), dtype=np.int64)
    counts = np.zeros((2, 3), dtype=np.int64)
    boards[0, :2], counts[0] = parse_cards("Ah Kd"), (2, 0, 0)
    boards[1, 3], counts[1] = parse_cards("2c")[0], (0, 1, 0)
    ace_king = sum(1 << card for card in parse_cards("Ah Kd"))
    assert public_mask(boards, counts, np.array([False, False])) == ace_king | 1 << parse_cards("2c")[0]
    assert public_mask(boards, counts, np.array([False, True])) == ace_king
