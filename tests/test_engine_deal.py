"""The engine's chance step: a hand whose caller deals (``caller_deals=True``, ``deal_due``, ``deal``).

Worked by hand from RULES.md and ``ofc.engine.deals``: with the button on seat 0, seat 1 (left of
the button) is dealt first; classic deals five cards, then one per street; pineapple five, then
three (one discarded). A refused deal leaves the hand exactly as it was.
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ofc.engine.actions import Action
from ofc.engine.deals import Deal
from ofc.engine.hand import Hand
from ofc.rules.cards import Card, Deck, parse_cards
from ofc.rules.errors import (
    CardAlreadyDealt,
    DealError,
    NoDealDue,
    NotYourTurn,
    SetupError,
    WrongDealSize,
)
from ofc.rules.rulebook import Rules

CLASSIC = Rules.preset("classic")
PINEAPPLE = Rules.preset("pineapple")


def test_a_classic_hand_dealt_by_its_caller_step_by_step() -> None:
    hand = Hand(CLASSIC, button=0, caller_deals=True)
    assert hand.caller_deals
    assert hand.deal_due == Deal(seat=1, street=0, cards=5, discards=0, fantasy=False)
    assert hand.to_act == ()
    assert len(hand.legal_actions(1)) == 0
    assert hand.deal(parse_cards("Ah Kh Qh Jh Th")) == Deal(1, 0, 5, 0, False)
    assert hand.deal_due == Deal(0, 0, 5, 0, False)
    assert hand.to_act == ()  # seat 1 waits for seat 0's first five, as when the hand deals itself
    hand.deal(parse_cards("2c 3c 4c 5c 6c"))
    assert hand.deal_due is None
    assert hand.to_act == (1,)
    assert hand.view(1).cards == parse_cards("Ah Kh Qh Jh Th")
    hand.apply(Action.of(1, bottom="Ah Kh Qh Jh Th"), 0)
    assert hand.to_act == (0,)  # seat 0 already holds its five
    hand.apply(Action.of(0, bottom="2c 3c 4c 5c 6c"), 0)
    assert hand.deal_due == Deal(1, 1, 1, 0, False)
    assert hand.to_act == ()
    hand.deal(parse_cards("9d"))
    assert hand.to_act == (1,)
    assert hand.view(1).cards == parse_cards("9d")
    assert hand.private_record().deck[:11] == parse_cards("Ah Kh Qh Jh Th 2c 3c 4c 5c 6c 9d")


def test_each_refused_deal_is_named() -> None:
    with pytest.raises(NoDealDue, match=r"^this hand deals its own cards: the caller cannot deal$"):
        Hand(CLASSIC, button=0, seed=1).deal(parse_cards("2c 3c 4c 5c 6c"))
    with pytest.raises(SetupError, match=r"^a hand whose caller deals the cards takes no deck and no seed$"):
        Hand(CLASSIC, button=0, seed=1, caller_deals=True)
    hand = Hand(PINEAPPLE, button=0, caller_deals=True)
    with pytest.raises(WrongDealSize, match=r"^seat 1 is due 5 cards, not 4$"):
        hand.deal(parse_cards("2c 3c 4c 5c"))
    with pytest.raises(CardAlreadyDealt, match=r"^the deal holds 2c twice$"):
        hand.deal(parse_cards("2c 3c 4c 5c") + parse_cards("2c"))
    with pytest.raises(DealError, match=r"^52 is not a card \(a card is a number from 0 to 51\)$"):
        hand.deal([0, 1, 2, 3, 52])
    with pytest.raises(DealError, match=r"^'2c 3c' is not a card"):
        hand.deal(["2c 3c", 1, 2, 3, 4])  # type: ignore[list-item]
    with pytest.raises(DealError, match=r"^a deal is a list of cards, not '2c3c4c5c6c'$"):
        hand.deal("2c3c4c5c6c")  # type: ignore[arg-type]
    with pytest.raises(NotYourTurn, match=r"^seat 1 cannot act yet: seat 1's cards are to be dealt first$"):
        hand.apply(Action.of(1, bottom="2c 3c 4c 5c 6c"), 0)
    hand.deal(parse_cards("2c 3c 4c 5c 6c"))
    with pytest.raises(CardAlreadyDealt, match=r"^4c has been dealt already in this hand$"):
        hand.deal(parse_cards("2d 3d 4c 5d 6d"))
    hand.deal(parse_cards("2d 3d 4d 5d 6d"))
    with pytest.raises(NoDealDue, match=r"^no deal is due now: seat 1 is to act$"):
        hand.deal(parse_cards("2h 3h 4h"))
    hand.apply(Action.of(1, bottom="2c 3c 4c 5c 6c"), 0)
    hand.apply(Action.of(0, bottom="2d 3d 4d 5d 6d"), 0)
    with pytest.raises(WrongDealSize, match=r"^seat 1 is due 3 cards, not 1$"):
        hand.deal(parse_cards("2h"))
    classic = Hand(CLASSIC, button=1, caller_deals=True)
    classic.deal(parse_cards("2c 3c 4c 5c 6c"))
    classic.deal(parse_cards("2d 3d 4d 5d 6d"))
    classic.apply(Action.of(0, bottom="2c 3c 4c 5c 6c"), 0)
    classic.apply(Action.of(1, bottom="2d 3d 4d 5d 6d"), 0)
    with pytest.raises(WrongDealSize, match=r"^seat 0 is due 1 card, not 2$"):
        classic.deal(parse_cards("2h 3h"))


def test_a_deal_starts_the_clocks_at_the_hands_time() -> None:
    hand = Hand(CLASSIC, button=0, caller_deals=True, now=100)
    hand.deal(parse_cards("2c 3c 4c 5c 6c"))
    hand.advance(130)  # no clock runs while a deal is due
    assert not hand.clock(1).running
    hand.deal(parse_cards("2d 3d 4d 5d 6d"))
    assert hand.clock(1).deadline == Decimal(130) + CLASSIC.hand_seconds + CLASSIC.time_bank_seconds
    assert not hand.clock(0).running


def play_alike(auto: Hand, dealt: Hand, rng: random.Random) -> None:
    """Play ``auto`` at random; ``dealt`` is dealt the same cards and plays the same actions: they agree."""
    order = auto.private_record().deck
    while not auto.is_over:
        while dealt.deal_due is not None:
            due = dealt.deal_due
            taken = _dealt_count(dealt)
            assert dealt.deal(order[taken : taken + due.cards]) == due
        assert dealt.to_act == auto.to_act
        for seat in range(auto.rules.players):
            assert dealt.view(seat) == auto.view(seat)
        seat = auto.to_act[0]
        action = rng.choice(auto.legal_actions(seat))
        auto.apply(action, 0)
        dealt.apply(action, 0)
    assert dealt.is_over
    assert dealt.result == auto.result
    used = _dealt_count(dealt)
    record = dealt.private_record().deck
    assert record[:used] == order[:used]
    assert record[used:] == tuple(sorted(record[used:]))  # the cards never dealt follow in ascending order


def _dealt_count(hand: Hand) -> int:
    """Cards dealt so far: the leading part of the deck a caller-dealt hand records."""
    view = hand.view(None)
    return sum(sum(map(len, seat.rows)) + seat.hidden + seat.holding + seat.discarded for seat in view.seats)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(["classic", "pineapple", "turbo"]),
    players=st.integers(2, 3),
    button=st.integers(0, 2),
    seed=st.integers(0, 2**32),
    fantasy=st.booleans(),
)
def test_a_hand_dealt_by_its_caller_plays_as_the_hand_that_deals_itself(
    variant: str, players: int, button: int, seed: int, fantasy: bool
) -> None:
    rules = Rules.preset(variant).with_settings({"players": players})
    deals = sorted(rules.fantasy_deals)
    seats = (deals[0],) + (0,) * (players - 1) if fantasy and deals else ()
    button %= players
    auto = Hand(rules, button=button, seed=seed, fantasy=seats)
    dealt = Hand(rules, button=button, fantasy=seats, caller_deals=True)
    play_alike(auto, dealt, random.Random(seed))


def snapshot(hand: Hand) -> object:
    """Everything a hand shows: views of every seat and a spectator, the record, clocks and counters."""
    players = range(hand.rules.players)
    return (
        [hand.view(seat) for seat in [*players, None]],
        hand.private_record(),
        [hand.clock(seat) for seat in players],
        hand.deal_due,
        hand.to_act,
        hand.actions_taken,
        hand.is_over,
        hand.result,
        hand.now,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(["classic", "pineapple"]),
    seed=st.integers(0, 2**32),
    stop=st.integers(0, 40),
    picks=st.lists(st.integers(-2, 60), max_size=6),
)
def test_a_refused_deal_changes_nothing(variant: str, seed: int, stop: int, picks: list[int]) -> None:
    rng = random.Random(seed)
    hand = Hand(Rules.preset(variant), button=seed % 2, caller_deals=True)
    deck = list(range(52))
    rng.shuffle(deck)
    steps = 0
    while not hand.is_over and steps < stop:
        due = hand.deal_due
        if due is not None:
            hand.deal([deck.pop() for _ in range(due.cards)])
        else:
            seat = hand.to_act[0]
            hand.apply(rng.choice(hand.legal_actions(seat)), 0)
        steps += 1
    dealt = set(hand.private_record().deck[: 52 - len(deck)])
    before = snapshot(hand)
    due = hand.deal_due
    cards: list[Card] = [pick if pick < 52 else deck[pick % len(deck)] for pick in picks]
    valid = (
        due is not None
        and len(cards) == due.cards
        and len(set(cards)) == len(cards)
        and all(0 <= card < 52 and card not in dealt for card in cards)
    )
    if valid:
        assert hand.deal(cards) == due
        return
    with pytest.raises(DealError):
        hand.deal(cards)
    assert snapshot(hand) == before
    with pytest.raises(DealError):
        hand.check_deal(cards)
    assert snapshot(hand) == before


def test_undo_takes_back_the_deals_made_after_the_action() -> None:
    hand = Hand(PINEAPPLE, button=0, caller_deals=True)
    hand.deal(parse_cards("2c 3c 4c 5c 6c"))
    hand.deal(parse_cards("2d 3d 4d 5d 6d"))
    hand.apply(Action.of(1, bottom="2c 3c 4c 5c 6c"), 0)
    before = snapshot(hand)
    hand.apply(Action.of(0, bottom="2d 3d 4d 5d 6d"), 0)
    hand.deal(parse_cards("7c 8c 9c"))
    assert hand.undo() == Action.of(0, bottom="2d 3d 4d 5d 6d")
    assert snapshot(hand) == before
    hand.apply(Action.of(0, middle="2d 3d 4d 5d 6d"), 0)
    assert hand.deal_due == Deal(1, 1, 3, 1, False)
    hand.deal(parse_cards("7c 8c 9c"))  # dealt again after the undo
    assert hand.view(1).cards == parse_cards("7c 8c 9c")


def test_a_clone_is_dealt_apart_and_the_record_replays() -> None:
    hand = Hand(CLASSIC, button=0, caller_deals=True)
    hand.deal(parse_cards("2c 3c 4c 5c 6c"))
    copy = hand.clone()
    copy.deal(parse_cards("2d 3d 4d 5d 6d"))
    assert hand.deal_due == Deal(0, 0, 5, 0, False)
    assert copy.deal_due is None
    hand.deal(parse_cards("Ah Kh Qh Jh Th"))
    rng = random.Random(3)
    actions: list[Action] = []
    deck = [card for card in range(52) if card not in hand.private_record().deck[:10]]
    while not hand.is_over:
        due = hand.deal_due
        if due is not None:
            hand.deal([deck.pop() for _ in range(due.cards)])
            continue
        action = rng.choice(hand.legal_actions(hand.to_act[0]))
        actions.append(action)
        hand.apply(action, 0)
    replay = Hand(CLASSIC, button=0, deck=Deck(order=hand.private_record().deck))
    for action in actions:
        replay.apply(action, 0)
    assert replay.result == hand.result
    with pytest.raises(NoDealDue, match=r"^the hand is over: no card is to be dealt$"):
        hand.deal(parse_cards("2h"))
