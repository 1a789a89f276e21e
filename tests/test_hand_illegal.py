"""Illegal actions, worked out by hand: each raises its own error and changes nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal

import pytest

from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.rules.cards import ALL_CARDS, Deck, parse_card, parse_cards
from ofc.rules.errors import (
    ActionError,
    CardNotHeld,
    ClockError,
    DuplicateCard,
    HandOver,
    NoSuchSeat,
    NotYourTurn,
    OutOfTime,
    RowFull,
    UnknownRow,
    WrongDiscardCount,
    WrongPlacementCount,
)
from ofc.rules.rows import Row
from ofc.rules.rulebook import Rules

CLASSIC2 = Rules.preset("classic")
PINEAPPLE2 = Rules.preset("pineapple")


def stacked(cards: str) -> Deck:
    top = parse_cards(cards)
    return Deck(order=top + tuple(c for c in ALL_CARDS if c not in top))


# Seat 1 acts first (button 0). Pineapple: seat 1 holds 2c..6c, seat 0 holds 2d..6d.
PINE_DECK = "2c 3c 4c 5c 6c  2d 3d 4d 5d 6d  7c 8c 9c  7d 8d 9d  Tc Jc Qc"


def pineapple_start() -> Hand:
    return Hand(PINEAPPLE2, button=0, deck=stacked(PINE_DECK))


def pineapple_street2() -> Hand:
    """Seat 1 placed three on top and two in the middle; seat 0 all at the bottom."""
    hand = pineapple_start()
    hand.apply(Action.of(1, top="2c 3c 4c", middle="5c 6c"), 10)
    hand.apply(Action.of(0, bottom="2d 3d 4d 5d 6d"), 20)
    return hand  # seat 1 holds 7c 8c 9c at time 20


def classic_street2() -> Hand:
    hand = Hand(CLASSIC2, button=0, deck=stacked("2c 3c 4c 5c 6c  2d 3d 4d 5d 6d  7c 7d"))
    hand.apply(Action.of(1, bottom="2c 3c 4c 5c 6c"), 1)
    hand.apply(Action.of(0, bottom="2d 3d 4d 5d 6d"), 2)
    return hand  # seat 1 holds 7c, bottom full


def fantasy_start() -> Hand:
    return Hand(PINEAPPLE2, button=0, deck=stacked(PINE_DECK + " Ts Js Qs Ks"), fantasy=(14, 0))


def finished() -> Hand:
    hand = Hand(CLASSIC2, button=0, seed=4)
    step = 0
    while not hand.is_over:
        step += 1
        hand.apply(hand.legal_actions(hand.to_act[0])[0], step)
    return hand


def fantasy_set() -> Hand:
    hand = fantasy_start()
    hand.apply(hand.legal_actions(0)[0], 5)
    return hand


def fantasy_to_set_first() -> Hand:
    """Classic, seat 0 in fantasy: it sets before seat 1 may place its first five."""
    return Hand(CLASSIC2, button=0, seed=8, fantasy=(13, 0))


C = parse_card

CASES: list[tuple[str, Callable[[], Hand], Action, float, type[ActionError], str]] = [
    ("out of turn", pineapple_start, Action.of(0, bottom="2d 3d 4d 5d 6d"), 1,
     NotYourTurn, "seat 0 cannot act now: seat 1 is to act"),
    ("no such seat", pineapple_start, Action.of(2, bottom="2d"), 1,
     NoSuchSeat, "there is no seat 2 at this table of 2"),
    ("card not held", pineapple_start, Action.of(1, bottom="2c 3c 4c 5c Ah"), 1,
     CardNotHeld, "seat 1 does not hold Ah"),
    ("another seat's card", pineapple_start, Action.of(1, bottom="2c 3c 4c 5c 2d"), 1,
     CardNotHeld, "seat 1 does not hold 2d"),
    ("not a card", pineapple_start, Action(1, ((99, Row.TOP),)), 1,
     CardNotHeld, "seat 1 does not hold 99"),
    ("card used twice", pineapple_start, Action.of(1, top="2c", bottom="2c 3c 4c 5c"), 1,
     DuplicateCard, "seat 1 uses 2c twice"),
    ("placed and discarded", pineapple_street2, Action.of(1, middle="7c 8c", discard="7c"), 21,
     DuplicateCard, "seat 1 uses 7c twice"),
    ("four on top at the deal", pineapple_start, Action.of(1, top="2c 3c 4c 5c", middle="6c"), 1,
     RowFull, "seat 1's top row has room for 3 more cards, not 4"),
    ("top already full", pineapple_street2, Action.of(1, top="7c", middle="8c", discard="9c"), 21,
     RowFull, "seat 1's top row has room for 0 more cards, not 1"),
    ("bottom already full", classic_street2, Action.of(1, bottom="7c"), 3,
     RowFull, "seat 1's bottom row has room for 0 more cards, not 1"),
    ("no pineapple discard", pineapple_street2, Action.of(1, middle="7c 8c 9c"), 21,
     WrongDiscardCount, "seat 1 must discard 1 card, not 0"),
    ("two pineapple discards", pineapple_street2, Action.of(1, middle="7c", discard="8c 9c"), 21,
     WrongDiscardCount, "seat 1 must discard 1 card, not 2"),
    ("discard in classic", classic_street2, Action.of(1, discard="7c"), 3,
     WrongDiscardCount, "seat 1 must discard 0 cards, not 1"),
    ("a card left over", pineapple_start, Action.of(1, bottom="2c 3c 4c 5c"), 1,
     WrongPlacementCount, "seat 1 must place 5 cards, not 4: 6c is neither placed nor discarded"),
    ("row number 3", pineapple_start, Action(1, ((C("2c"), 3),)), 1,  # type: ignore[arg-type]
     UnknownRow, "seat 1: 3 is not a row (top, middle or bottom)"),
    ("row as text", pineapple_start, Action(1, ((C("2c"), "top"),)), 1,  # type: ignore[arg-type]
     UnknownRow, "seat 1: 'top' is not a row (top, middle or bottom)"),
    ("placements not a tuple", pineapple_start, Action(1, None), 1,  # type: ignore[arg-type]
     ActionError, "seat 1: placements must be a tuple of (card, row) pairs, not None"),
    ("a placement not a pair", pineapple_start, Action(1, ((C("2c"),),)), 1,  # type: ignore[arg-type]
     ActionError, "seat 1: a placement is a (card, row) pair, not (0,)"),
    ("discards not a tuple", pineapple_start, Action(1, (), None), 1,  # type: ignore[arg-type]
     ActionError, "seat 1: discards must be a tuple of cards, not None"),
    ("a bool for a card", pineapple_start, Action(1, ((True, Row.TOP),)), 1,
     CardNotHeld, "seat 1 does not hold True"),
    ("fantasy without discard", fantasy_start,
     Action.of(0, top="2c 3c 4c", middle="5c 6c 2d 3d 4d", bottom="5d 6d 7c 8c 9c Tc"), 1,
     WrongDiscardCount, "seat 0 must discard 1 card, not 0"),
    ("fantasy seat sets twice", fantasy_set, Action.of(0, bottom="2c"), 6,
     NotYourTurn, "seat 0 has already set its fantasy hand"),
    ("street seat waits for fantasy", fantasy_to_set_first, Action.of(1, bottom="2c"), 100,
     NotYourTurn, "seat 1 cannot act yet: fantasy seat 0 must set first"),
    ("after the end", finished, Action.of(0, bottom="2c"), 100,
     HandOver, "the hand is over: seat 0 cannot act"),
    ("time runs backwards", pineapple_street2, Action.of(1, top="", middle="7c 8c", discard="9c"), 19,
     ClockError, "time 19 is before the hand's time 20"),
    ("after the deadline", pineapple_street2, Action.of(1, middle="7c 8c", discard="9c"), 320.5,
     OutOfTime, "seat 1 ran out of time at 310; call advance(320.5) before acting at 320.5"),
]  # fmt: skip


def snapshot(hand: Hand) -> str:
    """Everything observable: every seat's view, the spectator's, the log and the clocks."""
    seats = list(range(hand.rules.players))
    views = [hand.view(seat).to_dict() for seat in [*seats, None]]
    log = [(r.action.to_dict(), str(r.time), r.automatic) for r in hand.private_record().actions]
    clocks = [hand.clock(seat).to_dict() for seat in seats]
    return json.dumps([views, log, clocks, str(hand.now), hand.to_act, hand.is_over])


@pytest.mark.parametrize(
    ("make", "action", "now", "error", "message"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_illegal_action_raises_and_changes_nothing(
    make: Callable[[], Hand], action: Action, now: float, error: type[ActionError], message: str
) -> None:
    hand = make()
    before = snapshot(hand)
    with pytest.raises(error) as caught:
        hand.apply(action, now)
    assert str(caught.value) == message
    assert type(caught.value) is error
    assert snapshot(hand) == before
    if error not in (ClockError, OutOfTime):
        assert not hand.is_legal(action)


def test_the_same_actions_are_legal_where_they_should_be() -> None:
    hand = pineapple_street2()
    action = Action.of(1, top="", middle="7c 8c", discard="9c")
    assert hand.is_legal(action)
    hand.apply(action, Decimal(310))  # exactly at the deadline: still in time
    assert hand.to_act == (0,)


def test_an_illegal_time_leaves_the_hand_as_it_was() -> None:
    hand = pineapple_street2()
    before = snapshot(hand)
    with pytest.raises(ClockError, match="a time must be a finite number, not 'NaN'"):
        hand.apply(Action.of(1, middle="7c 8c", discard="9c"), "NaN")  # type: ignore[arg-type]
    with pytest.raises(ClockError, match="a time must be a number, not True"):
        hand.advance(True)
    with pytest.raises(ClockError, match="time 3 is before the hand's time 20"):
        hand.advance(3)
    with pytest.raises(ClockError, match=r"a time must lie within 10\^18 seconds of 0, not '1e1000000'"):
        hand.advance("1e1000000")  # type: ignore[arg-type]
    assert snapshot(hand) == before


def test_a_time_too_far_out_is_refused_at_the_deal() -> None:
    """Clock sums at such a time would overflow the decimal context."""
    with pytest.raises(ClockError, match=r"a time must lie within 10\^18 seconds of 0, not '-1e19'"):
        Hand(Rules.preset("classic"), button=0, seed=1, now="-1e19")  # type: ignore[arg-type]
    far = Hand(Rules.preset("classic"), button=0, seed=1, now=10**18)
    assert far.clock(1).deadline == 10**18 + 300


def test_out_of_time_seat_is_placed_by_advance_and_then_not_to_act() -> None:
    hand = pineapple_street2()
    late = Action.of(1, middle="7c 8c", discard="9c")
    with pytest.raises(OutOfTime):
        hand.apply(late, 400)
    auto = hand.advance(400)
    assert auto == (Action.of(1, bottom="7c 8c", discard="9c"),)
    with pytest.raises(NotYourTurn, match="seat 1 cannot act now: seat 0 is to act"):
        hand.apply(late, 400)
