"""The pro bot's ``safety``: each candidate's share of fouled play-outs, and ranking by it."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest

from ofc.bots import make_bot
from ofc.bots.arrays import after_action, kernel_rules, playouts
from ofc.bots.base import legal_actions
from ofc.bots.pro import ProBot, charge, pro_kernel, street_index
from ofc.bots.pro_style import CAREFUL, CLASSIC, PLAIN, Style
from ofc.engine.hand import Hand
from ofc.fast.boards import fouls
from ofc.fast.rollout import Playouts
from ofc.fast.settle import fantasy_rules_array
from ofc.rules.cards import parse_cards, rank_of
from ofc.rules.errors import BotError
from ofc.rules.rulebook import Rules


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
    _means, _spread, shares, _balance = bot.sample(job, kernel, weights, None, 25, time.perf_counter())
    fouled = [float(f) for f in fouls(list(boards))]
    assert fouled == [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    assert list(shares[:, 0]) == fouled
    assert all(not fantasy_top(board[:3]) for board in boards)  # so every foul here is a plain one
    assert list(shares[:, 1]) == fouled


def fantasy_top(top: Sequence[int]) -> bool:
    """Whether a finished top row enters fantasy: trips, or a pair of queens or better (worked by hand)."""
    ranks = Counter(rank_of(card) for card in top)
    return max(ranks.values()) == 3 or any(n == 2 and rank >= 10 for rank, n in ranks.items())


def finished(text: str) -> list[int]:
    """A finished board from its 13 cards, top first."""
    return list(parse_cards(text))


def test_a_foul_with_a_fantasy_top_is_a_foul_but_not_a_plain_one() -> None:
    # heads-up pineapple, the other seat finished, no deal left: every play-out is the same showdown
    rules = Rules.preset("pineapple")
    other = finished("2c 3d 4h  5c 5d 6h 7s 8c  9d 9h Tc Ts Jd")
    mine = [
        finished("Qc Qd 2d  3c 4d 6c 8d As  Kc Kd Kh 4c 4s"),  # QQ on top over a middle of ace high: fouls
        finished("Ac Ad Ah  3s 4s 6s 8s Js  2h 2s 3h 6d 7c"),  # trips on top over a flush: the middle beats the bottom
        finished("8h 8s 2s  3c 4d 6c 7d Ks  Kc Kd Kh 4c Qh"),  # 88 on top over king high: a plain foul
        finished("Jc 7h 2d  3c 3s 6c 8d As  Kc Kd Kh 4c 4s"),  # stands: J high < a pair of threes < a full house
    ]
    assert [fantasy_top(board[:3]) for board in mine] == [True, True, False, False]
    assert [float(f) for f in fouls(np.array(mine, dtype=np.int64))] == [1.0, 1.0, 1.0, 0.0]
    job = Playouts(
        me=0,
        boards=np.array([mine[3], other], dtype=np.int64),
        counts=np.array([[3, 5, 5], [3, 5, 5]], dtype=np.int64),
        cand_boards=np.array(mine, dtype=np.int64),
        cand_counts=np.array([[3, 5, 5]] * 4, dtype=np.int64),
        pool=np.zeros(0, dtype=np.int64),
        burn=0,
        player=np.zeros(0, dtype=np.int64),
        cards=np.zeros(0, dtype=np.int64),
        discards=np.zeros(0, dtype=np.int64),
        fantasy=np.zeros(0, dtype=np.bool_),
        in_row=np.zeros(2, dtype=np.int64),
        fantasy_rules=fantasy_rules_array(rules),
    )
    bot = ProBot(rollouts=3, seconds=None, seed=1)
    kernel = kernel_rules(rules, 12.0)
    _means, _spread, shares, _balance = bot.sample(
        job, kernel, bot.weights.for_variant("pineapple"), None, 3, time.perf_counter()
    )
    assert shares.tolist() == [[1.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]]
    plain = Style(plain_safety=10.0, plain_from=2)
    assert charge(plain, 2, shares).tolist() == [0.0, 0.0, 10.0, 0.0]
    assert charge(plain, 1, shares).tolist() == [0.0, 0.0, 0.0, 0.0]  # before plain_from: no charge
    both = Style(safety=4.0, safety_from=3, plain_safety=10.0)
    assert charge(both, 3, shares).tolist() == [4.0, 4.0, 14.0, 0.0]
    assert charge(both, 2, shares).tolist() == [0.0, 0.0, 10.0, 0.0]
    # pineapple's default style: 45 a foul from street 3, 20 more a plain foul from street 2
    careful = ProBot().style("pineapple")
    assert charge(careful, 3, shares).tolist() == [45.0, 45.0, 65.0, 0.0]
    assert charge(careful, 2, shares).tolist() == [0.0, 0.0, 20.0, 0.0]
    assert charge(careful, 1, shares).tolist() == [0.0, 0.0, 0.0, 0.0]
    # the charges are per opponent: two opponents double them, like the fantasy price
    assert charge(careful, 3, shares, 2).tolist() == [90.0, 90.0, 130.0, 0.0]
    assert charge(careful, 2, shares, 3).tolist() == [0.0, 0.0, 60.0, 0.0]


def test_safety_ranks_by_the_foul_share_and_reports_the_plain_mean() -> None:
    hand = Hand(Rules.preset("pineapple"), button=1, seed=2)
    view = hand.view(driven(hand, 7))
    # a fantasy price given is the one reported too, so each value is the mean ranked by
    plain = ProBot(rollouts=40, seconds=None, candidates=10, seed=2, safety=0.0, plain_safety=0.0, fantasy_value=18.0)
    safe = ProBot(
        rollouts=40, seconds=None, candidates=10, seed=2, safety=1e6, safety_from=1, plain_safety=0.0,
        fantasy_value=18.0,
    )  # fmt: skip
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
    # each choice keeps the score it was ranked by: the mean less the charge, best first
    assert [c.score for c in plain.last_choices] == [c.value for c in plain.last_choices]
    assert [c.score for c in safe.last_choices] == [c.value - 1e6 * (c.foul or 0.0) for c in safe.last_choices]
    assert [c.score for c in safe.last_choices] == sorted((c.score for c in safe.last_choices), reverse=True)


def test_safety_is_a_pro_option_of_points() -> None:
    bot = make_bot("pro:safety=6")
    assert isinstance(bot, ProBot)
    # an option given replaces the variant's default; the others keep it
    assert bot.style("pineapple") == Style(6.0, 3, 20.0, 2, 18.0, "own")
    assert bot.style("classic") == Style(6.0, 2, playouts="own")
    assert bot.style("turbo") == Style(safety=6.0)
    with pytest.raises(BotError, match="safety"):
        make_bot("pro:safety=-1")
    with pytest.raises(BotError, match="no option 'safety'"):
        make_bot("mc:safety=6")
    late = make_bot("pro:safety=10,safety_from=3")
    assert isinstance(late, ProBot)
    assert late.style("turbo") == Style(safety=10.0, safety_from=3)
    with pytest.raises(BotError, match="safety_from"):
        make_bot("pro:safety=10,safety_from=0")
    plain = make_bot("pro:safety=0,plain_safety=0,fantasy=12")
    assert isinstance(plain, ProBot)
    assert plain.style("pineapple") == Style(0.0, 3, 0.0, 2, 12.0, "own")  # ranks by the mean
    with pytest.raises(BotError, match="plain_safety"):
        make_bot("pro:plain_safety=-2")
    with pytest.raises(BotError, match="plain_from"):
        make_bot("pro:plain_from=14")


def test_each_variant_has_its_default_style() -> None:
    bot = ProBot()
    assert bot.style("pineapple") == CAREFUL == Style(45.0, 3, 20.0, 2, 18.0, "own")
    assert bot.style("classic") == CLASSIC == Style(safety=7.0, safety_from=2, playouts="own")
    assert bot.style("turbo") == PLAIN == Style()
    assert bot.fantasy_value == bot.weights.fantasy_value  # the price analysis uses is the weights' own
    given = ProBot(fantasy_value=9.0, plain_from=3)
    assert given.style("pineapple") == Style(45.0, 3, 20.0, 3, 9.0, "own")
    assert given.style("classic") == Style(7.0, 2, 0.0, 3, 9.0, "own")
    assert given.style("turbo") == Style(plain_from=3, fantasy_value=9.0)


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
    plain = ProBot(rollouts=40, seconds=None, candidates=10, seed=2, safety=0.0, plain_safety=0.0, fantasy_value=18.0)
    late = ProBot(
        rollouts=40, seconds=None, candidates=10, seed=2, safety=1e6, safety_from=safety_from, plain_safety=0.0,
        fantasy_value=18.0,
    )  # fmt: skip
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


def test_three_handed_scores_carry_the_charge_once_per_opponent() -> None:
    hand = Hand(Rules.preset("pineapple").with_settings({"players": 3}), button=2, seed=5)
    view = hand.view(driven(hand, 7))
    bot = ProBot(
        rollouts=40, seconds=None, candidates=10, seed=2, safety=2.0, safety_from=1, plain_safety=0.0,
        fantasy_value=18.0,
    )  # fmt: skip
    bot.decide(view)
    choices = bot.last_choices
    assert len({c.foul for c in choices}) > 1  # the shares differ: the charge is tested
    # two points a fouled share, against each of the two opponents
    assert [c.score for c in choices] == [c.value - 4.0 * (c.foul or 0.0) for c in choices]
    assert [c.score for c in choices] == sorted((c.score for c in choices), reverse=True)
