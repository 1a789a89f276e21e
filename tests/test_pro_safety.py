"""The pro bot's ``safety``: each candidate's share of fouled play-outs, and ranking by it."""

from __future__ import annotations

import time

import numpy as np
import pytest

from ofc.bots import make_bot
from ofc.bots.arrays import after_action, playouts
from ofc.bots.base import legal_actions
from ofc.bots.pro import ProBot, pro_kernel, street_index
from ofc.errors import BotError
from ofc.fast.boards import fouls
from ofc.hand import Hand
from ofc.rules import Rules


def driven(hand: Hand, placed: int) -> int:
    """Play ``hand`` by the heuristic bot until the seat to act has ``placed`` cards; that seat."""
    bot = make_bot("heuristic")
    while True:
        seat = hand.to_act[0]
        if sum(len(row) for row in hand.view(seat).seats[seat].rows) >= placed:
            return seat
        hand.apply(bot.act(hand.view(seat)), 0)


def test_a_sampled_last_street_fouls_in_every_play_out_or_in_none() -> None:
    # three-handed pineapple, the first seat on the last street: two seats still to place, so
    # the values are sampled; each finished board's foul share is its own foul, 1 or 0
    hand = Hand(Rules.preset("pineapple").with_settings({"players": 3}), button=2, seed=2)
    seat = driven(hand, 11)
    view = hand.view(seat)
    rows = view.seats[seat].rows
    built = [after_action(rows, action) for action in legal_actions(view)]
    boards = np.array([b for b, _ in built], dtype=np.int64)
    counts = np.array([c for _, c in built], dtype=np.int64)
    bot = ProBot(rollouts=25, seconds=None, seed=1)
    job = playouts(view, boards, counts)
    kernel = pro_kernel(view, bot.fantasy_value)
    weights = bot.weights.for_variant("pineapple")
    _means, _spread, _final, shares = bot.sample(job, kernel, weights, None, 25, time.perf_counter())
    fouled = [float(f) for f in fouls(list(boards))]
    assert fouled == [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    assert list(shares) == fouled


def test_safety_ranks_by_the_foul_share_and_reports_the_plain_mean() -> None:
    hand = Hand(Rules.preset("pineapple"), button=1, seed=2)
    view = hand.view(driven(hand, 7))
    plain = ProBot(rollouts=40, seconds=None, candidates=10, seed=2)
    safe = ProBot(rollouts=40, seconds=None, candidates=10, seed=2, safety=1e6)
    plain.decide(view)
    decision = safe.decide(view)
    # the same seed plays the same play-outs: the same means and foul shares, ranked otherwise
    assert {c.action: (c.value, c.foul) for c in plain.last_choices} == {
        c.action: (c.value, c.foul) for c in safe.last_choices
    }
    assert [c.value for c in plain.last_choices] == sorted((c.value for c in plain.last_choices), reverse=True)
    shares = [c.foul for c in safe.last_choices]
    assert all(share is not None for share in shares)  # every candidate was played out
    keys = [(c.foul or 0.0, -c.value) for c in safe.last_choices]
    assert keys == sorted(keys)
    assert len(set(shares)) > 2  # the shares differ: the ranking is tested
    assert all(round(share * 40) == pytest.approx(share * 40) for share, _ in keys)  # whole play-outs of 40
    assert decision.action == safe.last_choices[0].action
    assert decision.value == safe.last_choices[0].value  # the mean, without the charge


def test_safety_is_a_pro_option_of_points() -> None:
    bot = make_bot("pro:safety=6")
    assert isinstance(bot, ProBot)
    assert bot.safety == 6.0
    assert ProBot().safety == 0.0  # by default the plain mean ranks
    with pytest.raises(BotError, match="safety"):
        make_bot("pro:safety=-1")
    with pytest.raises(BotError, match="no option 'safety'"):
        make_bot("mc:safety=6")
    late = make_bot("pro:safety=10,safety_from=3")
    assert isinstance(late, ProBot)
    assert (late.safety, late.safety_from, ProBot().safety_from) == (10.0, 3, 1)
    with pytest.raises(BotError, match="safety_from"):
        make_bot("pro:safety=10,safety_from=0")


def test_street_index_counts_the_streets_a_board_has_placed() -> None:
    pineapple, classic = Rules.preset("pineapple"), Rules.preset("classic")
    # pineapple places 5, then 2 of 3 four times: streets start at 0, 5, 7, 9 and 11 cards
    assert [street_index(pineapple, placed) for placed in (0, 5, 7, 9, 11)] == [0, 1, 2, 3, 4]
    # classic places 5, then one card a street: street k (from 0) starts at k + 4 cards
    assert [street_index(classic, placed) for placed in (0, 5, 6, 12)] == [0, 1, 2, 8]


@pytest.mark.parametrize(("safety_from", "charged"), [(3, True), (4, False)])
def test_the_charge_starts_with_the_street_safety_from(safety_from: int, charged: bool) -> None:
    hand = Hand(Rules.preset("pineapple"), button=1, seed=2)
    view = hand.view(driven(hand, 7))  # 7 cards placed: the third street's decision
    plain = ProBot(rollouts=40, seconds=None, candidates=10, seed=2)
    late = ProBot(rollouts=40, seconds=None, candidates=10, seed=2, safety=1e6, safety_from=safety_from)
    plain.decide(view)
    late.decide(view)
    safest = [(c.foul or 0.0, -c.value) for c in late.last_choices]
    assert len({c.foul for c in plain.last_choices}) > 2  # the shares differ: the order tells the ranking
    if charged:
        assert safest == sorted(safest)
        assert late.last_choices != plain.last_choices
    else:
        assert late.last_choices == plain.last_choices


def test_the_exact_last_street_gives_each_board_its_own_foul() -> None:
    # heads-up, the last seat to act: every placement priced exactly; fouled boards last, foul 1
    hand = Hand(Rules.preset("pineapple"), button=0, seed=1)
    seat = driven(hand, 11)
    view = hand.view(seat)
    bot = ProBot(rollouts=10, seconds=None, seed=1)
    bot.decide(view)
    assert bot.last_exact
    rows = view.seats[seat].rows
    shares = [c.foul or 0.0 for c in bot.last_choices]
    assert None not in [c.foul for c in bot.last_choices]
    expected = [float(fouls([after_action(rows, c.action)[0]])[0]) for c in bot.last_choices]
    assert shares == expected
    assert shares == sorted(shares)
    assert 0.0 in shares  # a board that stands
    assert 1.0 in shares  # and one that fouls: the test tells them apart
