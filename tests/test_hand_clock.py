"""Clocks and automatic placement, worked out by hand from RULES.md.

Unless said otherwise: hand clock 10 s, time bank 5 s, two seats, button 0 (seat 1 acts first).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ofc.engine.actions import Action, ActionRecord
from ofc.engine.clock import ClockReading
from ofc.engine.hand import Hand
from ofc.rules.cards import ALL_CARDS, Deck, parse_cards
from ofc.rules.rows import Row
from ofc.rules.rulebook import Rules

D = Decimal
QUICK = {"hand_seconds": 10, "time_bank_seconds": 5}
CLASSIC = Rules.preset("classic").with_settings(QUICK)
PINEAPPLE = Rules.preset("pineapple").with_settings(QUICK)

# Seat 1: four aces and Ks, then 2c 3d 4h 5s 7c 2d 3h 4c; seat 0: Kd Kh Kc Qs Qd, then
# 8c 8d 9c 9d Ts 6c 6d 7h (street cards alternate, seat 1 first).
AUTOPILOT = "As Ad Ac Ah Ks  Kd Kh Kc Qs Qd  2c 8c 3d 8d 4h 9c 5s 9d 7c Ts 2d 6c 3h 6d 4c 7h"


def stacked(cards: str) -> Deck:
    top = parse_cards(cards)
    return Deck(order=top + tuple(c for c in ALL_CARDS if c not in top))


def reading(hand: D | int, bank: D | int, deadline: D | int | None) -> ClockReading:
    return ClockReading(D(hand), D(bank), deadline is not None, None if deadline is None else D(deadline))


def test_the_first_seat_runs_out_at_hand_plus_bank() -> None:
    hand = Hand(CLASSIC, button=0, deck=stacked(AUTOPILOT))
    assert hand.clock(1) == reading(10, 5, 15)
    assert hand.clock(0) == reading(10, 5, None)
    assert hand.advance(D("14.9")) == ()
    assert hand.clock(1) == reading(0, D("0.1"), 15)
    assert hand.advance(15) == (Action.of(1, bottom="As Ad Ac Ah Ks"),)
    assert hand.private_record().actions == (ActionRecord(Action.of(1, bottom="As Ad Ac Ah Ks"), D(15), True),)
    assert hand.clock(1) == reading(0, 0, None)
    assert hand.clock(0) == reading(10, 5, 30)
    assert hand.time_banks == (D(5), D(0))


def test_a_whole_hand_on_autopilot() -> None:
    """Both seats out of time: lowest row with room, in the order the cards came."""
    hand = Hand(CLASSIC, button=0, deck=stacked(AUTOPILOT))
    actions = hand.advance(1000)
    assert len(actions) == 18
    # seat 1 runs out at 15, seat 0 (10 + 5 more) at 30; with nothing left, every later turn
    # runs out the moment it starts, at 30.
    assert [record.time for record in hand.private_record().actions] == [D(15)] + [D(30)] * 17
    assert all(record.automatic for record in hand.private_record().actions)
    result = hand.result
    assert result is not None
    assert result.boards[1].bottom == parse_cards("As Ah Ad Ac Ks")  # one action: high first
    assert result.boards[1].middle == parse_cards("2c 3d 4h 5s 7c")  # one card a street
    assert result.boards[1].top == parse_cards("2d 3h 4c")
    assert result.boards[0].bottom == parse_cards("Kh Kd Kc Qs Qd")
    assert result.boards[0].middle == parse_cards("8c 8d 9c 9d Ts")
    assert result.boards[0].top == parse_cards("6c 6d 7h")
    # seat 0 wins top (66 over 432) and middle, loses the bottom: +2; royalties 1 + 6 = 7
    # against seat 1's quads 8: -1. Net +1.
    assert result.points == (1, -1)
    assert result.time_banks == (D(0), D(0))
    assert hand.now == D(1000)


def test_a_turbo_hand_on_autopilot() -> None:
    """Turbo deals the same cards four at a time; each goes to the lowest row with room, in the
    order dealt, so the boards (and the score) are the classic autopilot's."""
    deck = "As Ad Ac Ah Ks  Kd Kh Kc Qs Qd  2c 3d 4h 5s  8c 8d 9c 9d  7c 2d 3h 4c  Ts 6c 6d 7h"
    hand = Hand(Rules.preset("turbo").with_settings(QUICK), button=0, deck=stacked(deck))
    actions = hand.advance(1000)
    assert actions == (
        Action.of(1, bottom="As Ad Ac Ah Ks"),
        Action.of(0, bottom="Kd Kh Kc Qs Qd"),
        Action.of(1, middle="2c 3d 4h 5s"),
        Action.of(0, middle="8c 8d 9c 9d"),
        Action.of(1, middle="7c", top="2d 3h 4c"),
        Action.of(0, middle="Ts", top="6c 6d 7h"),
    )
    assert [record.time for record in hand.private_record().actions] == [D(15)] + [D(30)] * 5
    result = hand.result
    assert result is not None
    assert result.points == (1, -1)


def test_hand_clock_first_then_the_bank() -> None:
    hand = Hand(CLASSIC, button=0, deck=stacked(AUTOPILOT))
    hand.apply(Action.of(1, top="As Ad Ac", middle="Ah Ks"), 12)  # 10 from the hand clock, 2 from the bank
    assert hand.clock(1) == reading(0, 3, None)
    assert hand.clock(0) == reading(10, 5, 27)
    hand.apply(Action.of(0, bottom="Kd Kh Kc Qs Qd"), 20)  # 8 s: hand clock 2 left
    assert hand.clock(0) == reading(2, 5, None)
    assert hand.clock(1) == reading(0, 3, 23)  # the hand clock does not refill between streets
    assert hand.advance(23) == (Action.of(1, bottom="2c"),)
    assert hand.clock(0) == reading(2, 5, 30)
    assert hand.time_banks == (D(5), D(0))


@pytest.mark.parametrize(
    ("first_five", "auto"),
    [
        ({"bottom": "2c 3c 4c 5c", "middle": "6c"}, {"bottom": "7c", "middle": "8c", "discard": "9c"}),
        ({"top": "2c 3c 4c", "middle": "5c 6c"}, {"bottom": "7c 8c", "discard": "9c"}),
        ({"middle": "2c 3c 4c 5c 6c"}, {"bottom": "7c 8c", "discard": "9c"}),
    ],
)
def test_pineapple_street_places_low_and_discards_the_last_card(
    first_five: dict[str, str], auto: dict[str, str]
) -> None:
    deck = stacked("2c 3c 4c 5c 6c  2d 3d 4d 5d 6d  7c 8c 9c")
    hand = Hand(PINEAPPLE, button=0, deck=deck)
    hand.apply(Action.of(1, **first_five), 1)
    hand.apply(Action.of(0, bottom="2d 3d 4d 5d 6d"), 2)
    assert hand.advance(16) == (Action.of(1, **auto),)
    assert hand.private_record().actions[-1].time == D(16)  # 9 s left on the hand clock + the 5 s bank from 2


def test_a_pineapple_hand_on_autopilot() -> None:
    hand = Hand(PINEAPPLE, button=0, seed=31)
    order = hand.private_record().deck
    hand.advance(1000)
    # seat 1's streets are the deck's cards 10-12, 16-18, 22-24 and 28-30
    streets = [order[10 + 6 * k : 13 + 6 * k] for k in range(4)]
    result = hand.result
    assert result is not None
    board = result.boards[1]
    assert sorted(board.bottom) == sorted(order[0:5])
    assert sorted(board.middle) == sorted(streets[0][:2] + streets[1][:2] + streets[2][:1])
    assert sorted(board.top) == sorted(streets[2][1:2] + streets[3][:2])
    assert [action.discards for action in (r.action for r in hand.private_record().actions) if action.seat == 1] == [
        (),
        *((street[2],) for street in streets),
    ]


def test_fantasy_is_filled_bottom_middle_top_and_extra_cards_discarded() -> None:
    hand = Hand(PINEAPPLE, button=0, seed=21, fantasy=(14, 0))
    held = hand.view(0).cards
    assert len(held) == 14
    assert held == hand.private_record().deck[5:19]  # seat 1's five come first in the order of play
    assert hand.clock(1) == reading(10, 5, None)  # the street seat waits, its clock stopped
    auto = hand.advance(15)
    # the fantasy seat runs out at 0 + 10 + 5 = 15 and is filled bottom, middle, top
    assert [action.seat for action in auto] == [0]
    rows = [Row.BOTTOM] * 5 + [Row.MIDDLE] * 5 + [Row.TOP] * 3
    assert auto[0] == Action(0, tuple(zip(held[:13], rows, strict=True)), held[13:])
    assert {card for card, row in auto[0].placements if row is Row.BOTTOM} == set(held[:5])
    # seat 1's clock starts at 15: out at 30, then of every later street at once
    assert hand.clock(1) == reading(10, 5, 30)
    assert [action.seat for action in hand.advance(30)] == [1] * 5
    assert hand.is_over
    assert [record.time for record in hand.private_record().actions] == [D(15)] + [D(30)] * 5


def test_progressive_fantasy_discards_all_extra_cards() -> None:
    rules = Rules.preset("pineapple-progressive").with_settings(QUICK)
    hand = Hand(rules, button=1, seed=5, fantasy=(17, 0))
    held = hand.view(0).cards
    auto = hand.advance(15)
    fantasy = next(action for action in auto if action.seat == 0)
    assert sorted(fantasy.discards) == sorted(held[13:])
    assert sorted(card for card, _ in fantasy.placements) == sorted(held[:13])


def test_street_clocks_start_when_the_fantasy_seats_have_set() -> None:
    hand = Hand(PINEAPPLE, button=0, seed=21, fantasy=(14, 0))
    assert hand.clock(0) == reading(10, 5, 15)
    hand.apply(hand.legal_actions(0)[0], 8)
    assert hand.clock(0) == reading(2, 5, None)
    assert hand.clock(1) == reading(10, 5, 23)  # started at 8 with 10 s + the 5 s bank
    assert hand.to_act == (1,)
    hand.apply(hand.legal_actions(1)[0], 9)
    assert hand.clock(1) == reading(9, 5, 23)  # its next street started at 9 with 9 s + bank


def test_default_clocks_read_mid_run() -> None:
    hand = Hand(Rules.preset("classic"), button=0, seed=3)
    hand.advance(150)
    assert hand.clock(1) == reading(0, 150, 300)
    assert hand.clock(0) == reading(120, 180, None)
    assert hand.clock(1).to_dict() == {"hand": "0", "bank": "150", "running": True, "deadline": "300"}


def test_banks_passed_in_set_the_deadlines() -> None:
    hand = Hand(CLASSIC, button=0, seed=3, time_banks=(D(0), D("2.5")), now=100)
    assert hand.clock(1) == reading(10, D("2.5"), D("112.5"))
    hand.advance(D("112.5"))
    assert hand.clock(0) == reading(10, 0, D("122.5"))
    assert hand.time_banks == (D(0), D(0))


def test_acting_exactly_at_the_deadline_is_in_time_and_advance_first_is_not() -> None:
    late = Hand(CLASSIC, button=0, deck=stacked(AUTOPILOT))
    late.advance(15)
    assert late.private_record().actions[0].automatic
    in_time = Hand(CLASSIC, button=0, deck=stacked(AUTOPILOT))
    in_time.apply(Action.of(1, top="As Ad Ac", middle="Ah Ks"), 15)
    assert not in_time.private_record().actions[0].automatic
    assert in_time.time_banks == (D(5), D(0))


def test_float_times_are_read_by_their_text() -> None:
    hand = Hand(CLASSIC, button=0, seed=3, now=0.1)
    hand.advance(0.3)
    assert hand.now == D("0.3")
    assert hand.clock(1) == reading(D("9.8"), 5, D("15.1"))


def test_advance_after_the_end_only_moves_time() -> None:
    hand = Hand(CLASSIC, button=0, deck=stacked(AUTOPILOT))
    hand.advance(100)
    assert hand.advance(200) == ()
    assert hand.now == D(200)
    assert len(hand.private_record().actions) == 18


def test_a_reading_later_spends_the_hand_clock_then_the_bank() -> None:
    reading = ClockReading(Decimal(5), Decimal(10), True, Decimal(115))
    assert reading.later(Decimal(3)) == ClockReading(Decimal(2), Decimal(10), True, Decimal(115))
    assert reading.later(Decimal(8)) == ClockReading(Decimal(0), Decimal(7), True, Decimal(115))
    assert reading.later(Decimal(20)) == ClockReading(Decimal(0), Decimal(0), True, Decimal(115))
    stopped = ClockReading(Decimal(5), Decimal(10), False, None)
    assert stopped.later(Decimal(3)) == stopped
