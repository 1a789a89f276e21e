"""The rollout kernels: exact values when nothing is left to chance, the sampled pool, greedy placement."""

from __future__ import annotations

import numpy as np
import pytest

from ofc.bots import make_bot
from ofc.bots.arrays import board_array, kernel_rules, playouts, unseen_cards
from ofc.bots.base import TUNED_FANTASY_VALUE
from ofc.engine.hand import Hand
from ofc.fast.placement import DISCARD, place
from ofc.rules.cards import parse_cards
from ofc.rules.rulebook import Rules


def play_until_last_decision(rules: Rules, seed: int) -> Hand:
    """Heuristic play until the button (acting last) holds its final street."""
    hand = Hand(rules, button=1, seed=seed)
    bot = make_bot("heuristic")
    last = len(rules.spec.streets) - 1
    while not (hand.street == last and hand.to_act == (1,)):
        hand.apply(bot.act(hand.view(hand.to_act[0])), 0)
    return hand


@pytest.mark.parametrize("preset", ["classic", "turbo", "pineapple"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_last_decision_value_is_the_exact_score(preset: str, seed: int) -> None:
    """With every other card placed, a play-out is the showdown itself: the value is exact."""
    rules = Rules.preset(preset)
    hand = play_until_last_decision(rules, seed)
    decision = make_bot("mc:rollouts=3,candidates=100", seed=seed).decide(hand.view(1))
    hand.apply(decision.action, 0)
    assert hand.result is not None
    me, them = hand.result.sheet.players[1], hand.result.sheet.players[0]
    # the bot prices a fantasy at its own value (not the solver's stay value)
    bonus = TUNED_FANTASY_VALUE * ((me.fantasy > 0) - (them.fantasy > 0))
    assert decision.value == me.points + bonus


def test_the_pool_is_every_card_the_view_does_not_show() -> None:
    rules = Rules.preset("pineapple")
    hand = Hand(rules, button=1, seed=6)
    bot = make_bot("heuristic")
    for _ in range(4):  # two streets each
        hand.apply(bot.act(hand.view(hand.to_act[0])), 0)
    view = hand.view(0)
    shown = set(view.cards) | set(view.discards)
    for seat in view.seats:
        for row in seat.rows:
            shown |= set(row)
    pool = unseen_cards(view)
    assert len(pool) == 52 - len(shown)
    assert not shown & set(pool)
    # the opponent's discard is not shown to seat 0: it is in the pool, and burnt by the play-outs
    assert hand.private_record().actions[3].action.discards[0] in pool
    board, counts = board_array(view.seats[0].rows)
    job = playouts(view, board[None, :], counts[None, :])
    assert job.burn == 1
    # seat 0 acts now; then seat 1 on this street, and both on the two streets left
    assert job.player.tolist() == [1, 0, 1, 0, 1]
    assert job.cards.tolist() == [3] * 5
    assert job.discards.tolist() == [1] * 5
    assert sum(job.cards) + job.burn <= len(pool)


def test_hidden_fantasy_boards_are_dealt_from_the_pool() -> None:
    rules = Rules.preset("pineapple").with_settings({"players": 3})
    hand = Hand(rules, button=2, seed=2, fantasy=(0, 0, 14))
    solver_bot = make_bot("heuristic")
    hand.apply(solver_bot.act(hand.view(2)), 0)  # the fantasy seat sets first
    view = hand.view(0)
    assert view.seats[2].hidden == 13
    board, counts = board_array(view.seats[0].rows)
    job = playouts(view, board[None, :], counts[None, :])
    assert job.player.tolist()[-1] == 2
    assert job.cards.tolist()[-1] == 14
    assert job.fantasy.tolist() == [False] * (len(job.player) - 1) + [True]
    assert job.in_row.tolist() == [0, 0, 1]  # seat 2 completes its first fantasy hand in a row
    assert len(unseen_cards(view)) == 52 - 5


def test_greedy_placement_keeps_the_flush_and_drops_the_junk() -> None:
    rules = Rules.preset("pineapple")
    kernel = kernel_rules(rules, TUNED_FANTASY_VALUE)
    board, counts = board_array((parse_cards("Kd"), parse_cards("9c 9h"), parse_cards("As Ts 5s 2s")))
    cards = np.array(parse_cards("Js 3d 4h"), dtype=np.int64)
    codes = place(board, counts, cards, 1, kernel.params, kernel.tables)
    assert codes.tolist()[0] == 2  # the spade completes the bottom flush
    assert DISCARD in codes.tolist()
    assert counts.tolist()[2] == 5
    assert sum(counts.tolist()) == 9


@pytest.mark.parametrize(
    ("rows", "card", "row"),
    [
        (("8c Qc 5s", "Ad Ac 9s 7d", "3c 4d 2d 2h"), "4s", 2),  # the middle 4s fouls on 33 of 40 cards
        (("As Ks", "2c 3d 7h 8s", "Tc Td Th 9s 9d"), "8d", 1),
        (("Qs 2c", "Kc Kd 5h 6s", "Tc Td Th 9s 9d"), "Qh", 0),  # fantasy, and never a foul
    ],
)
def test_classic_last_choice_avoids_the_likely_foul(rows: tuple[str, str, str], card: str, row: int) -> None:
    """With two places left, the heuristic prices each against every card that can still come."""
    kernel = kernel_rules(Rules.preset("classic"), TUNED_FANTASY_VALUE)
    board, counts = board_array(tuple(parse_cards(text) for text in rows))
    codes = place(board, counts, np.array(parse_cards(card), dtype=np.int64), 0, kernel.params, kernel.tables)
    assert codes.tolist() == [row]
