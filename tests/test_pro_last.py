"""The pro bot's exact last street: hand-worked positions (RULES.md; pineapple, american scoring).

Heads-up, button 1: seat 0 acts first on every street. Royalties (american): top 88 = 3, a
bottom straight 2, a bottom flush 4; a fouled hand has none, loses every row to a live hand and
is scooped (3 rows + 3 = 6), and two fouled hands score 0. No hand below reaches QQ on top, so
no fantasy enters the values.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc.bots import make_bot
from ofc.bots.arrays import after_action, board_array, kernel_rules
from ofc.bots.base import Decision, legal_actions
from ofc.bots.pro import ProBot
from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.fast.boards import fouls
from ofc.fast.placement import DISCARD, fits
from ofc.fast.pro_value import FOULED, learned_place
from ofc.rules.cards import ALL_CARDS, Deck, parse_cards
from ofc.rules.rulebook import Rules
from ofc.train.selfplay import static_weights

PINEAPPLE = Rules.preset("pineapple")

# Seat 0 ends top Kd Qd 7h (king high), middle Jd Jc 8h 8c 4s (two pair JJ88), bottom
# Ad Ac 9s 9d 2h (two pair AA99): live, no royalties.
SEAT0_FINISHED = [
    {"bottom": "Ad Ac 9s 9d 2h"},
    {"middle": "Jd Jc", "discard": "2s"},
    {"middle": "8h 8c", "discard": "3h"},
    {"middle": "4s", "top": "Kd", "discard": "6s"},
    {"top": "Qd 7h", "discard": "6h"},
]


def stacked(cards: str) -> Deck:
    top = parse_cards(cards)
    return Deck(order=top + tuple(c for c in ALL_CARDS if c not in top))


def play(deals: str, actions: list[dict[str, str]]) -> Hand:
    """A heads-up pineapple hand dealt ``deals`` in deal order and played by ``actions`` in turn order."""
    hand = Hand(PINEAPPLE, button=1, deck=stacked(deals))
    for spec in actions:
        hand.apply(Action.of(hand.to_act[0], **spec), 0)
    return hand


def seat1_to_finish(street3: str, street4: str, last: str) -> Hand:
    """Seat 1 (the button) to place ``last``: top 8s 8d Jh, middle Ts Tc 5s 5d 9h, bottom three cards.

    ``street3`` is Jh, a bottom card and the discard; ``street4`` two bottom cards and the discard.
    """
    s3, s4 = street3.split(), street4.split()
    seat1 = [
        {"middle": "Ts Tc 5s 5d 9h"},
        {"top": "8s 8d", "discard": "2d"},
        {"top": s3[0], "bottom": s3[1], "discard": s3[2]},
        {"bottom": f"{s4[0]} {s4[1]}", "discard": s4[2]},
    ]
    deals = (
        f"Ad Ac 9s 9d 2h  Ts Tc 5s 5d 9h  Jd Jc 2s  8s 8d 2d  8h 8c 3h  {street3}  4s Kd 6s  {street4}"
        f"  Qd 7h 6h  {last}"
    )
    order = [a for pair in zip(SEAT0_FINISHED[:4], seat1, strict=True) for a in pair] + [SEAT0_FINISHED[4]]
    return play(deals, order)


def choices(bot: ProBot) -> dict[str, float]:
    return {str(c.action): c.value for c in bot.last_choices}


def test_the_only_placement_that_does_not_foul_is_chosen_at_its_exact_value() -> None:
    # Seat 1's bottom is 2c 3s 4h; it holds 5h 6c Ks. 5h 6c make the straight 2-6 (above the
    # middle's two pair); Ks with either 5h or 6c leaves king high below two pair: a foul.
    # Straight: top 88J beats KQ7 (+1), middle TT55 loses to JJ88 (-1), bottom straight beats
    # AA99 (+1): +1, royalties 3 + 2 against 0: +6 in all. A foul: -6, royalties 0 - 0: -6.
    # Seat 0 is finished, so nothing is left to chance: one deal counted.
    hand = seat1_to_finish("Jh 2c 3d", "3s 4h 6d", "5h 6c Ks")
    bot = ProBot(seed=1)
    decision = bot.decide(hand.view(1))
    assert decision == Decision(Action.of(1, bottom="5h 6c", discard="Ks"), 6.0)
    assert bot.last_exact
    assert bot.last_rollouts == 1
    assert sorted(choices(bot).values()) == [-6.0, -6.0, 6.0]
    assert all(c.ci95 == 0.0 for c in bot.last_choices)
    hand.apply(decision.action, 0)
    assert hand.result is not None
    assert hand.result.sheet.players[1].points == 6


def test_two_live_placements_differ_by_their_royalty() -> None:
    # Seat 1's bottom is 3c 4c 7c; it holds 5h 6c Kc. 6c Kc: a club flush (4); 5h 6c: the
    # straight 3-7 (2); 5h Kc: king high, a foul. Both live boards win the bottom (and the top)
    # and lose the middle: +1 each. Flush 1 + (3 + 4) = 8, straight 1 + (3 + 2) = 6, foul -6.
    hand = seat1_to_finish("Jh 3c 3d", "4c 7c 6d", "5h 6c Kc")
    bot = ProBot(seed=1)
    decision = bot.decide(hand.view(1))
    assert decision == Decision(Action.of(1, bottom="6c Kc", discard="5h"), 8.0)
    assert choices(bot) == {
        str(Action.of(1, bottom="6c Kc", discard="5h")): 8.0,
        str(Action.of(1, bottom="5h 6c", discard="Kc")): 6.0,
        str(Action.of(1, bottom="5h Kc", discard="6c")): -6.0,
    }


def test_every_deal_left_to_the_opponent_is_counted() -> None:
    # Now seat 0 acts first on the last street with seat 1 still to place three cards. Seat 1
    # shows top Ah Ad Ac, middle 2c 7d 9h Js, bottom Kd Kh 3s 4s: one more card cannot lift the
    # middle above trips (2 7 9 J hold no straight or flush draw), so seat 1 fouls on every deal.
    # Seat 0 (top 8s 8d Jh, middle Ts Tc 5s 5d 9c, bottom 3c 4c 7c, holding 5h 6c Kc) then wins
    # 3 rows and the scoop (+6) plus its royalties: flush 6 + 3 + 4 = 13, straight 6 + 3 + 2 = 11;
    # a foul scores 0 against a foul. The unseen cards: 52 - 11 (seat 0's board) - 3 (its hand)
    # - 3 (its discards) - 11 (seat 1's board) = 24, so C(24, 3) = 2024 deals, each counted once.
    deals = "Ts Tc 5s 5d 9c  Ah Ad Ac Kd Kh  8s 8d 2d  2c 7d 2h  Jh 3c 3d  9h Js 6s  4c 7c 6d  3s 4s 6h  5h 6c Kc"
    actions = [
        {"middle": "Ts Tc 5s 5d 9c"},
        {"top": "Ah Ad Ac", "bottom": "Kd Kh"},
        {"top": "8s 8d", "discard": "2d"},
        {"middle": "2c 7d", "discard": "2h"},
        {"top": "Jh", "bottom": "3c", "discard": "3d"},
        {"middle": "9h Js", "discard": "6s"},
        {"bottom": "4c 7c", "discard": "6d"},
        {"bottom": "3s 4s", "discard": "6h"},
    ]
    hand = play(deals, actions)
    bot = ProBot(seed=1)
    decision = bot.decide(hand.view(0))
    assert bot.last_exact
    assert bot.last_rollouts == 2024
    assert choices(bot) == {
        str(Action.of(0, bottom="6c Kc", discard="5h")): 13.0,
        str(Action.of(0, bottom="5h 6c", discard="Kc")): 11.0,
        str(Action.of(0, bottom="5h Kc", discard="6c")): 0.0,
    }
    assert decision.value == 13.0


def reach_last_street(rules: Rules, seed: int, seat: int) -> Hand:
    """Heuristic play until ``seat`` holds its last street."""
    hand = Hand(rules, button=1, seed=seed)
    bot = make_bot("heuristic")
    last = len(rules.spec.streets) - 1
    while not (hand.street == last and hand.to_act[0] == seat):
        hand.apply(bot.act(hand.view(hand.to_act[0])), 0)
    return hand


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["pineapple", "turbo", "classic"]), st.integers(0, 1))
def test_the_last_street_never_fouls_when_a_live_placement_exists(seed: int, preset: str, seat: int) -> None:
    rules = Rules.preset(preset)
    hand = reach_last_street(rules, seed, seat)
    view = hand.view(seat)
    rows = view.seats[seat].rows
    boards = [after_action(rows, action)[0] for action in legal_actions(view)]
    can_live = not bool(fouls(boards).all())
    decision = ProBot(rollouts=4, seconds=None, seed=seed).decide(view)
    fouled = bool(fouls([after_action(rows, decision.action)[0]])[0])
    assert not (can_live and fouled)


def test_the_play_out_policy_never_fouls_its_last_placement_when_it_can_stand() -> None:
    # Board: top 8s 8d Jh, middle Ts Tc 5s 5d 9h (two pair), bottom 2c 3s 4h; dealt 5h 6c Ks,
    # one to discard. Only 5h 6c at the bottom (the straight 2-6) stands; Ks with 5h or 6c
    # leaves king high under two pair. Weights that pay 1000 points for a foul still do not
    # make the policy foul: a fouling finish is taken only when every finish fouls.
    kernel = kernel_rules(PINEAPPLE, 12.0)
    t = kernel.tables
    board, counts = board_array((parse_cards("8s 8d Jh"), parse_cards("Ts Tc 5s 5d 9h"), parse_cards("2c 3s 4h")))
    weights = static_weights()
    weights[13, FOULED] = 1000.0
    codes = np.zeros(3, dtype=np.int64)
    cards = np.array(parse_cards("5h 6c Ks"), dtype=np.int64)
    learned_place(board, counts, cards, 1, 0, kernel.params, weights, t.weight, t.bit, t.unsuited5, t.flush5,
                  t.unsuited3, t.top, t.middle, t.bottom, codes)  # fmt: skip
    assert codes.tolist() == [2, 2, DISCARD]
    assert not fouls(board[None, :])[0]


def test_fits_counts_the_legal_assignments() -> None:
    # Room: top 0, middle 1, bottom 2; three cards, one discarded. Legal: the discard is one of
    # the three cards (3 ways) and the other two go middle+bottom (2 ways) or bottom+bottom
    # (1 way): 3 * 3 = 9 of the 4^3 = 64 codes.
    counts = np.array([3, 4, 3], dtype=np.int64)
    room = np.zeros(3, dtype=np.int64)
    assert sum(fits(code, 4, 3, counts, 1, room) for code in range(64)) == 9
    # Without a discard (base 3) the three cards fill the three places: which card goes to the
    # middle, 3 ways.
    assert sum(fits(code, 3, 3, counts, 0, room) for code in range(27)) == 3


def test_a_fantasy_is_reported_at_the_weights_price_and_ranked_at_the_styles() -> None:
    # Seat 1 (the button, last to act; seat 0 is finished) shows top Qs 7d, middle Ks Kc 4c 4d 9s
    # (two pair), bottom Ah As Ad 2c (trips), and holds Qh 3h 5c: one card to the top, one to the
    # bottom. Seat 0: top Jh Td 2d (jack high), middle 8h 8c 6s 6d 3s (two pair), bottom the
    # straight 2-6 (royalty 2). Qh on top makes QQ7 (royalty 7) and a fantasy: seat 1 wins the
    # top and the middle, loses the bottom: +1, royalties 7 - 2: +6 points. Any other top (Q73,
    # Q75) is queen high: +1, royalties 0 - 2: -1 point, no fantasy. The values report the
    # fantasy at the weights' price; the score the choices are ranked by prices it at 18
    # (pineapple's careful style), so QQ7 scores 6 + 18 = 24.
    deals = (
        "2h 3d 4s 5h 6c  Ks Kc 4c 4d 9s  8h 8c 7h  Ah As Jc  6s 6d 7s  Ad 2c Js  3s Jh 8d  Qs 7d Tc  Td 2d 8s  Qh 3h 5c"
    )
    actions = [
        {"bottom": "2h 3d 4s 5h 6c"},
        {"middle": "Ks Kc 4c 4d 9s"},
        {"middle": "8h 8c", "discard": "7h"},
        {"bottom": "Ah As", "discard": "Jc"},
        {"middle": "6s 6d", "discard": "7s"},
        {"bottom": "Ad 2c", "discard": "Js"},
        {"middle": "3s", "top": "Jh", "discard": "8d"},
        {"top": "Qs 7d", "discard": "Tc"},
        {"top": "Td 2d", "discard": "8s"},
    ]
    hand = play(deals, actions)
    bot = ProBot(seed=1)
    decision = bot.decide(hand.view(1))
    assert bot.last_exact
    price = bot.weights.fantasy_value
    queens = {str(Action.of(1, top="Qh", bottom=low, discard=other)) for low, other in (("3h", "5c"), ("5c", "3h"))}
    assert {str(c.action): c.value for c in bot.last_choices} == {
        **dict.fromkeys(queens, 6.0 + price),
        **{str(Action.of(1, top=t, bottom=b, discard=d)): -1.0 for t, b, d in (
            ("3h", "Qh", "5c"), ("3h", "5c", "Qh"), ("5c", "Qh", "3h"), ("5c", "3h", "Qh"),
        )},
    }  # fmt: skip
    assert {str(c.action): c.score for c in bot.last_choices if str(c.action) in queens} == dict.fromkeys(queens, 24.0)
    assert str(decision.action) in queens
    assert decision.value == 6.0 + price
    hand.apply(decision.action, 0)
    assert hand.result is not None
    assert hand.result.sheet.players[1].points == 6
