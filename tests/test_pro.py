"""The pro bot: its learned value's features, its play in every variant, its weights, training."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc.bots import make_bot
from ofc.bots.arrays import after_action, board_array, kernel_rules, playouts
from ofc.bots.base import legal_actions
from ofc.bots.pro import ProBot, learned_seats, run_playouts
from ofc.bots.pro_weights import VARIANTS, read_weights, shipped_weights
from ofc.cli.app import main
from ofc.engine.hand import Hand
from ofc.fast.placement import place_best
from ofc.fast.pro_value import FEATURE_NAMES, N_FEATURES, STAGES, hidden_units, learned_place
from ofc.rules.cards import parse_cards
from ofc.rules.errors import BotError
from ofc.rules.rulebook import Rules
from ofc.series.session import play_hand
from ofc.train.fit import fit_stages
from ofc.train.run import train
from ofc.train.selfplay import selfplay_chunk, static_weights
from support.pro_features import feature_vector


def rules_of(preset: str, players: int) -> Rules:
    rules = Rules.preset(preset)
    return rules if rules.players == players else rules.with_settings({"players": players})


def board(top: str, middle: str, bottom: str) -> tuple[np.ndarray, np.ndarray]:
    return board_array((parse_cards(top), parse_cards(middle), parse_cards(bottom)))


def feature_map(top: str, middle: str, bottom: str, preset: str = "pineapple", seen: str = "") -> dict[str, float]:
    b, c = board(top, middle, bottom)
    out = feature_vector(b, c, Rules.preset(preset), seen)
    return dict(zip(FEATURE_NAMES, out.tolist(), strict=True))


def test_features_of_a_finished_fantasy_board() -> None:
    # RULES.md: QQ on top (pineapple entry), middle trips 999 beat the pair, bottom spade flush
    # beats trips: not fouled. Royalties (pineapple table): top QQ 7, middle trips 2, bottom
    # flush 4 = 13, scaled by 1/10 in the feature. A finished board's foul chance is 0.
    f = feature_map("Qh Qd 2c", "9h 9d 9c 3s 4s", "As Ks Js 8s 2s")
    assert f["bias"] == 1.0
    assert f["fouled"] == 0.0
    assert f["risk"] == 0.0
    assert f["fantasy_made"] == 1.0
    assert f["royalties"] == pytest.approx(1.3)
    assert f["top_pair_rank"] == pytest.approx(11 / 13)  # queen = rank index 10, +1
    # a finished board has no open row, so no outs
    assert [f[name] for name in FEATURE_NAMES[18:]] == [0.0] * 5


def test_live_card_features_count_the_outs_among_the_unseen_cards() -> None:
    # Board Qh / 9h 9d / As Ks; the seat has also seen Qd, 9c and 2s: 52 - 5 - 3 = 44 unseen.
    # Top: one queen, two free places; live queens Qc Qs: 2 * 2 / 44.
    # Middle: the nines, three free places; one live nine (9s): 3 * 1 / 44; not one suit: no flush outs.
    # Bottom: ace and king, three free places; 3 live aces + 3 live kings: 3 * 6 / 44; both spades,
    # 13 - 2 - 1 (2s seen) = 10 live spades: 3 * 10 / 44.
    f = feature_map("Qh", "9h 9d", "As Ks", seen="Qd 9c 2s")
    assert f["top_outs"] == pytest.approx(4 / 44)
    assert f["middle_pair_outs"] == pytest.approx(3 / 44)
    assert f["middle_flush_outs"] == 0.0
    assert f["bottom_pair_outs"] == pytest.approx(18 / 44)
    assert f["bottom_flush_outs"] == pytest.approx(30 / 44)
    # A jack on top is no fantasy draw: its outs are not counted; an empty row has none.
    g = feature_map("Jh", "", "As Ks")
    assert g["top_outs"] == 0.0
    assert g["middle_pair_outs"] == g["middle_flush_outs"] == 0.0
    assert g["bottom_pair_outs"] == pytest.approx(3 * 6 / 49)  # three cards on the board: 49 unseen


def test_features_of_a_fouled_board() -> None:
    # top AA beats the middle's KK: a foul (RULES.md), certain on a finished board
    f = feature_map("Ah Ad 2c", "Kh Kd 3c 4s 5s", "Qs Qc Jd 8s 7h")
    assert f["fouled"] == 1.0
    assert f["risk"] == 1.0


def test_features_of_an_empty_board_leave_fantasy_out_when_it_is_off() -> None:
    b, c = board("Qh", "", "")
    out = feature_vector(b, c, Rules.preset("pineapple").with_settings({"fantasy": "off"}))
    assert out[FEATURE_NAMES.index("fantasy_draw")] == 0.0
    assert out[FEATURE_NAMES.index("top_outs")] == 0.0


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(52)), st.sampled_from([(3, 1), (5, 0), (1, 0)]))
def test_static_weights_place_like_the_static_evaluation(deck: list[int], deal: tuple[int, int]) -> None:
    # weights (0, 10, 0, ...) value a board at 10 * (static / 10): the same best value as place_best
    m, discards = deal
    kernel = kernel_rules(Rules.preset("pineapple"), 12.0)
    t = kernel.tables
    b1, c1 = board_array((tuple(deck[:1]), tuple(deck[1:3]), tuple(deck[3:5])))
    b2, c2 = b1.copy(), c1.copy()
    cards = np.array(deck[5 : 5 + m], dtype=np.int64)
    codes = np.zeros(m, dtype=np.int64)
    args = (t.weight, t.bit, t.unsuited5, t.flush5, t.unsuited3, t.top, t.middle, t.bottom, codes)
    v_static = place_best(b1, c1, cards, discards, kernel.params, *args)
    v_learned = learned_place(b2, c2, cards, discards, 0, kernel.params, static_weights(), *args)
    assert v_learned == pytest.approx(v_static, abs=1e-9)
    assert int(c2.sum()) == int(c1.sum()) == 5 + m - discards


@pytest.mark.parametrize(
    ("preset", "players"), [("pineapple", 2), ("pineapple", 3), ("classic", 2), ("classic", 4), ("turbo", 3)]
)
def test_pro_plays_whole_hands_legally(preset: str, players: int) -> None:
    rules = rules_of(preset, players)
    bots = [make_bot("pro:rollouts=8", seed=1)] + [make_bot("heuristic") for _ in range(players - 1)]
    fantasy = (max(rules.fantasy_deals),) + (0,) * (players - 1)
    for deal in ((0,) * players, fantasy):
        hand = Hand(rules, button=players - 1, seed=5, fantasy=deal)
        play_hand(hand, bots)  # the engine rejects any illegal action
        assert hand.result is not None


def test_last_choices_are_ranked_and_the_decision_is_the_first() -> None:
    hand = Hand(Rules.preset("pineapple"), button=1, seed=9)
    bot = ProBot(rollouts=30, seconds=None, candidates=5, seed=2)
    view = hand.view(hand.to_act[0])
    decision = bot.decide(view)
    scores = [c.score for c in bot.last_choices]
    assert len(scores) == 5
    assert scores == sorted(scores, reverse=True)
    assert decision.action == bot.last_choices[0].action
    assert decision.value == bot.last_choices[0].value
    assert decision.action in set(legal_actions(view))
    assert bot.last_rollouts == 30


def test_each_candidate_is_played_on_the_same_shuffles_as_alone() -> None:
    # play-out i of a candidate depends on the seed and i only, so each candidate's 30 play-outs
    # among all five average exactly what 30 play-outs of that candidate alone give on the same
    # seed (pineapple's default: its own seat learned); the first draw of Random(2) seeds them
    hand = Hand(Rules.preset("pineapple"), button=1, seed=9)
    view = hand.view(hand.to_act[0])
    bot = ProBot(rollouts=30, seconds=None, candidates=5, seed=2)
    bot.decide(view)
    kernel = bot.ranking_kernel(view)
    weights = bot.weights.for_variant("pineapple")
    rows = view.seats[hand.to_act[0]].rows
    seed = random.Random(2).getrandbits(31)
    assert len(bot.last_choices) == 5
    for choice in bot.last_choices:
        b, c = after_action(rows, choice.action)
        job = playouts(view, b.reshape(1, 13), c.reshape(1, 3))
        sums, squares = np.zeros(1), np.zeros(1)
        run_playouts(job, kernel, weights, 0, 30, seed, sums, squares, learned=learned_seats("own", job.me))
        assert choice.score == pytest.approx(sums[0] / 30, abs=1e-9)  # the first street: no charge


def test_pro_is_reproducible_from_its_seed() -> None:
    hand = Hand(Rules.preset("pineapple"), button=1, seed=4)
    view = hand.view(hand.to_act[0])
    first = ProBot(rollouts=20, seconds=None, seed=7).decide(view)
    again = ProBot(rollouts=20, seconds=None, seed=7).decide(view)
    assert first == again


@pytest.mark.parametrize(
    ("spec", "message"),
    [("pro:seconds=0", "seconds"), ("pro:rollouts=0", "play-outs"), ("pro:depth=2", "no option 'depth'")],
)
def test_bad_pro_options_are_named(spec: str, message: str) -> None:
    with pytest.raises(BotError, match=message):
        make_bot(spec)


def test_shipped_weights_cover_every_variant() -> None:
    weights = shipped_weights()
    assert weights.fantasy_value > 0
    for variant in VARIANTS:
        stages, columns = weights.for_variant(variant).shape
        assert stages == STAGES
        # every variant ships 16 hidden units per stage (docs/pro.md, "Fourth session")
        assert hidden_units(columns) == 16


def test_a_bad_weights_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "w.npz"
    np.savez(path, pineapple=np.zeros((3, 3)), fantasy_value=np.float64(12))
    with pytest.raises(BotError, match=r"pineapple has shape \(3, 3\)"):
        read_weights(path)
    path.write_bytes(b"not a zip")
    with pytest.raises(BotError, match="cannot read pro weights"):
        read_weights(path)


def test_selfplay_records_every_decision_with_zero_sum_targets() -> None:
    # pineapple: 5 streets, so 2 seats x 5 decisions a hand; boards hold 5, 7, 9, 11, 13 cards.
    # With the fantasy worth 0, heads-up points are zero-sum: the two seats' targets add to 0.
    records = selfplay_chunk("pineapple", 2, seed=3, chunk=0, hands=20, weights=None, fantasy_value=0.0)
    assert records.x.shape == (200, N_FEATURES)
    assert sorted(set(records.stage.tolist())) == [5, 7, 9, 11, 13]
    per_hand = records.target.reshape(20, 5, 2)
    assert np.allclose(per_hand[:, 0, 0] + per_hand[:, 0, 1], 0.0)
    assert np.all(per_hand == per_hand[:, :1, :])  # one outcome per seat, on every record of the hand


def test_training_is_reproducible_from_its_seed() -> None:
    first = train(["turbo"], hands=200, rounds=2, seed=3)
    again = train(["turbo"], hands=200, rounds=2, seed=3)
    other = train(["turbo"], hands=200, rounds=2, seed=4)
    assert np.array_equal(first.for_variant("turbo"), again.for_variant("turbo"))
    assert not np.array_equal(first.for_variant("turbo"), other.for_variant("turbo"))
    # stages never reached in turbo (5, 9, 13 cards) keep the static weights
    assert np.array_equal(first.for_variant("turbo")[7], static_weights()[7])


def test_cli_train_writes_weights_and_keeps_other_variants(tmp_path: Path) -> None:
    out = tmp_path / "pro.npz"
    shipped_weights().save(out)
    before = read_weights(out)
    main(["train", "--variants", "turbo", "--hands", "100", "--rounds", "1", "--seed", "2", "--workers", "1",
          "--out", str(out)])  # fmt: skip
    after = read_weights(out)
    assert not np.array_equal(after.for_variant("turbo"), before.for_variant("turbo"))
    for variant in ("classic", "pineapple"):
        assert np.array_equal(after.for_variant(variant), before.for_variant(variant))


def test_cli_train_takes_the_foul_penalty(tmp_path: Path) -> None:
    # one round plays the static evaluation, so both runs fit the same records: the weights
    # differ only in the risk column, by the 5 - 2 = 3 points of the two penalties, at the
    # stages fitted below 13 cards (pineapple: 5, 7, 9, 11)
    runs = {}
    for penalty in ("2", "5"):
        out = tmp_path / f"p{penalty}.npz"
        main(["train", "--variants", "pineapple", "--hands", "100", "--rounds", "1", "--seed", "2",
              "--workers", "1", "--foul-penalty", penalty, "--out", str(out)])  # fmt: skip
        runs[penalty] = read_weights(out).for_variant("pineapple")
    difference = runs["2"] - runs["5"]
    risk = FEATURE_NAMES.index("risk")
    expected = np.zeros_like(difference)
    expected[[5, 7, 9, 11], risk] = 3.0
    assert np.allclose(difference, expected, atol=1e-9)


def test_cli_train_names_an_unknown_variant(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["train", "--variants", "omaha", "--hands", "10", "--workers", "1", "--out", "/nonexistent/x.npz"])
    assert exit_info.value.code == 2
    assert "unknown variant 'omaha'" in capsys.readouterr().err


def test_the_fit_charges_the_foul_penalty_on_unfinished_boards_only() -> None:
    # The same records fitted with penalties 0 and 5: the weights differ only in the risk
    # column, by exactly 5, and only at the stages fitted below 13 cards (pineapple: 5, 7, 9, 11).
    records = selfplay_chunk("pineapple", 2, seed=8, chunk=0, hands=60, weights=None, fantasy_value=12.0)
    plain, _ = fit_stages(records, foul_penalty=0.0)
    charged, _ = fit_stages(records, foul_penalty=5.0)
    risk = FEATURE_NAMES.index("risk")
    difference = plain - charged
    expected = np.zeros_like(difference)
    expected[[5, 7, 9, 11], risk] = 5.0
    assert np.allclose(difference, expected, atol=1e-12)


def test_played_out_values_reprice_each_fantasy_at_the_weights_price() -> None:
    # the first street (no charge): the careful style ranks by the mean with a fantasy at 18,
    # and reports it at the weights' 12. Heads-up a play-out's fantasy balance is 1 (the seat
    # enters), -1 (only the opponent does) or 0, so over 40 play-outs each score and value
    # differ by 6 points times a whole number of play-outs over 40
    hand = Hand(Rules.preset("pineapple"), button=1, seed=4)
    view = hand.view(hand.to_act[0])
    careful = ProBot(rollouts=40, seconds=None, candidates=10, seed=3)
    priced = ProBot(rollouts=40, seconds=None, candidates=10, seed=3, fantasy_value=18.0)
    careful.decide(view)
    priced.decide(view)
    assert careful.weights.fantasy_value == 12.0
    assert [(c.action, c.score) for c in careful.last_choices] == [(c.action, c.score) for c in priced.last_choices]
    assert [c.value for c in priced.last_choices] == [c.score for c in priced.last_choices]
    steps = [(c.score - c.value) * 40 / 6.0 for c in careful.last_choices]
    assert all(abs(k - round(k)) < 1e-9 for k in steps)
    assert any(round(k) != 0 for k in steps)  # some play-outs entered a fantasy: the repricing is tested
