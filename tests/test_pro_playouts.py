"""The pro bot's play-out policy: the learned value (the default), the static evaluation, or each for some seats."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ofc.bots import make_bot
from ofc.bots.arrays import after_action, playouts
from ofc.bots.pro import EVERY_SEAT, ProBot, learned_seats, run_playouts
from ofc.bots.pro_style import Style
from ofc.engine.hand import Hand
from ofc.fast.rollout import play_out
from ofc.rules.errors import BotError
from ofc.rules.rulebook import Rules


def test_playouts_is_a_pro_option_naming_the_policy() -> None:
    bot = make_bot("pro:playouts=Static")
    assert isinstance(bot, ProBot)
    assert bot.style("classic") == Style(safety=7.0, safety_from=2, playouts="static")
    assert bot.style("pineapple").playouts == "static"
    assert bot.style("pineapple").safety == 45.0  # the other fields keep the variant's default
    assert ProBot().style("turbo").playouts == "learned"
    assert ProBot().style("pineapple").playouts == ProBot().style("classic").playouts == "own"
    with pytest.raises(BotError, match="playouts must be learned, static or own, got 'greedy'"):
        make_bot("pro:playouts=greedy")
    with pytest.raises(BotError, match="no option 'playouts'"):
        make_bot("mc:playouts=static")


@pytest.mark.parametrize("preset", ["classic", "pineapple"])
def test_static_playouts_are_the_static_rollouts_on_the_same_shuffles(preset: str) -> None:
    # play-out i depends on the seed and i alone, and with the learned policy off the pro loop is
    # the one mc plays out with: the same 40 play-outs sum to the same points, bit for bit
    hand = Hand(Rules.preset(preset), button=1, seed=5)
    seat = hand.to_act[0]
    view = hand.view(seat)
    bot = ProBot(rollouts=40, seconds=None, candidates=4, seed=3, playouts="static")
    bot.decide(view)
    kernel = bot.ranking_kernel(view)
    weights = bot.weights.for_variant(preset)
    seed = random.Random(3).getrandbits(31)
    rows = view.seats[seat].rows
    differs = False
    for choice in bot.last_choices:
        board, counts = after_action(rows, choice.action)
        job = playouts(view, board.reshape(1, 13), counts.reshape(1, 3))
        static, squares = np.zeros(1), np.zeros(1)
        run_playouts(job, kernel, weights, 0, 40, seed, static, squares, learned=0)
        reference = np.zeros(1)
        play_out(job, 0, 40, seed, kernel.params, kernel.tables, reference)
        assert static[0] == reference[0]
        assert choice.score == pytest.approx(static[0] / 40, abs=1e-9)  # the first street: no charge
        learned, squares = np.zeros(1), np.zeros(1)
        run_playouts(job, kernel, weights, 0, 40, seed, learned, squares)
        differs |= learned[0] != static[0]
    assert differs  # the default policy plays the same shuffles differently


def test_learned_seats_masks_the_seats_that_play_out_by_the_learned_value() -> None:
    assert learned_seats("learned", 1) == EVERY_SEAT
    assert learned_seats("own", 0) == 0b1
    assert learned_seats("own", 2) == 0b100
    assert learned_seats("static", 1) == 0


def test_own_playouts_leave_the_others_to_the_static_evaluation() -> None:
    # three-handed, the first seat to finish its board: only the two others still place, so
    # with its own seat alone learned the play-outs are the static ones, bit for bit
    hand = Hand(Rules.preset("pineapple").with_settings({"players": 3}), button=0, seed=1)
    bot = make_bot("heuristic")
    while sum(len(row) for row in hand.view(hand.to_act[0]).seats[hand.to_act[0]].rows) < 11:
        hand.apply(bot.act(hand.view(hand.to_act[0])), 0)
    seat = hand.to_act[0]
    view = hand.view(seat)
    pro = ProBot(rollouts=30, seconds=None)
    kernel = pro.ranking_kernel(view)
    weights = pro.weights.for_variant("pineapple")
    pro.decide(view)  # its choices, boards that stand first
    built = [after_action(view.seats[seat].rows, choice.action) for choice in pro.last_choices[:6]]
    job = playouts(view, np.array([b for b, _ in built]), np.array([c for _, c in built]))
    assert job.me == seat
    assert seat not in set(job.player.tolist())  # its board is finished by the candidates
    assert len(set(job.player.tolist())) == 2
    sums: dict[str, np.ndarray] = {}
    for policy in ("own", "static", "learned"):
        sums[policy], squares = np.zeros(len(built)), np.zeros(len(built))
        run_playouts(job, kernel, weights, 0, 30, 8, sums[policy], squares, learned=learned_seats(policy, seat))
    assert np.array_equal(sums["own"], sums["static"])
    assert not np.array_equal(sums["learned"], sums["static"])
