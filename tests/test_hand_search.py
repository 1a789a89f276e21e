"""The engine as search code drives it: ``clone``, ``undo`` and determinization.

Random legal play in every variant and table size, with fantasy seats and clocks that run out:
- ``undo`` after ``apply`` (or after the automatic actions of ``advance``) restores a state
  equal in every observable way; a clone shares no mutable state with its original;
- ``determinize(view, rng)`` gives a hand whose view for that seat equals the view it was
  built from, whose hidden cards are drawn from the unseen ones, and which plays on legally;
- ``pending_deals`` accounts for every card dealt in the hand that the seat has not seen.
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings

from ofc.engine.actions import Action
from ofc.engine.deals import deal_sequence
from ofc.engine.determinize import determinize, pending_deals
from ofc.engine.hand import Hand
from ofc.rules.cards import Card
from ofc.rules.errors import DeterminizeError, NothingToUndo
from ofc.rules.rulebook import Rules
from test_hand_properties import CONFIGS, hands, knowable

Fingerprint = tuple[object, ...]


def fingerprint(hand: Hand) -> Fingerprint:
    """Everything observable about a hand: the private record, every view, clocks, banks, result."""
    players = hand.rules.players
    return (
        hand.private_record(),
        tuple(hand.view(seat) for seat in [*range(players), None]),
        tuple(hand.clock(seat) for seat in range(players)),
        hand.to_act,
        hand.street,
        hand.now,
        hand.time_banks,
        hand.is_over,
        hand.actions_taken,
        tuple(len(hand.legal_actions(seat)) for seat in range(players)),
    )


def step(hand: Hand, rng: random.Random, now: Decimal) -> None:
    """One random step: let time pass (perhaps placing automatically), then a random legal action."""
    hand.advance(now)
    if not hand.is_over:
        seat = rng.choice(hand.to_act)
        hand.apply(rng.choice(hand.legal_actions(seat)), now)


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_undo_restores_and_clones_are_independent(preset: str, players: int) -> None:
    @settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(hands(preset, players))
    def run(setup: tuple[Hand, int]) -> None:
        hand, policy = setup
        rng = random.Random(policy)
        now = hand.now
        while not hand.is_over:
            now += rng.choice([1, 2, 7, 45])
            before = fingerprint(hand)
            automatic = hand.advance(now)
            if automatic:  # undoing every automatic action restores the hand before advance
                passed = fingerprint(hand)
                assert [hand.undo() for _ in automatic] == list(reversed(automatic))
                assert fingerprint(hand) == before
                assert hand.advance(now) == automatic
                assert fingerprint(hand) == passed
            if hand.is_over:
                break
            before = fingerprint(hand)
            twin = hand.clone()
            seat = rng.choice(hand.to_act)
            action = rng.choice(hand.legal_actions(seat))
            hand.apply(action, now)
            assert fingerprint(twin) == before  # the original moved on; its clone did not
            after = fingerprint(hand)
            assert hand.undo() == action
            assert fingerprint(hand) == before
            hand.apply(action, now)
            assert fingerprint(hand) == after
            twin.apply(rng.choice(twin.legal_actions(seat)), now)
            twin.advance(now + 1000)  # the clone plays on to the end...
            assert fingerprint(hand) == after  # ...and the original is as it was

    run()


def test_undo_takes_back_exactly_the_last_action() -> None:
    rules = Rules.preset("pineapple").with_settings({"hand_seconds": 10, "time_bank_seconds": 5})
    hand = Hand(rules, button=0, seed=3, fantasy=(14, 0))
    with pytest.raises(NothingToUndo, match="there is no action to undo"):
        hand.undo()
    start = fingerprint(hand)
    auto = hand.advance(15)  # the fantasy seat runs out and is set automatically at 15
    assert len(auto) == 1
    assert hand.undo() == auto[0]
    assert fingerprint(hand) == start  # cards, clocks, turn and the time (0) as before
    hand.advance(15)
    while not hand.is_over:
        hand.apply(hand.legal_actions(hand.to_act[0])[0], 20)
    over = fingerprint(hand)
    last = hand.undo()
    assert not hand.is_over
    assert hand.result is None
    assert hand.to_act == (last.seat,)
    hand.apply(last, 20)
    assert fingerprint(hand) == over


def test_a_clone_is_far_cheaper_than_a_replay_and_equal() -> None:
    hand = Hand(Rules.preset("classic").with_settings({"players": 4}), button=2, seed=9)
    rng = random.Random(1)
    for _ in range(20):
        hand.apply(rng.choice(hand.legal_actions(hand.to_act[0])), 1)
    twin = hand.clone()
    assert fingerprint(twin) == fingerprint(hand)
    assert twin.private_record() == hand.private_record()
    twin.apply(twin.legal_actions(twin.to_act[0])[0], 2)
    assert twin.actions_taken == hand.actions_taken + 1


def known_deals(hand: Hand, seat: int) -> dict[Card, int]:
    """For every card ``seat`` has seen, the deal (chunk of the deck) it came in."""
    deck = hand.private_record().deck
    chunk_of: list[int] = []
    for number, deal in enumerate(deal_sequence(hand.rules, hand.button, hand.fantasy)):
        chunk_of.extend([number] * deal.cards)
    return {card: chunk_of[deck.index(card)] for card in knowable(hand, seat)}


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_determinized_hands_agree_with_the_view(preset: str, players: int) -> None:
    @settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(hands(preset, players))
    def run(setup: tuple[Hand, int]) -> None:
        hand, policy = setup
        rng = random.Random(policy)
        now = hand.now
        while True:
            for seat in range(players):
                view = hand.view(seat)
                drawn = determinize(view, random.Random(policy + seat))
                assert drawn.view(seat) == view
                assert known_deals(drawn, seat) == known_deals(hand, seat)
                assert drawn.view(seat).cards == view.cards  # held cards in their dealt order
                assert sorted(drawn.private_record().deck) == list(range(52))
                if not drawn.is_over:  # it plays on: one more legal step
                    step(drawn.clone(), rng, now + 1)
                check_pending(hand, seat)
            if hand.is_over:
                break
            now += rng.choice([1, 2, 7, 45])
            step(hand, rng, now)

    run()


def check_pending(hand: Hand, seat: int) -> None:
    """Cards the seat saw + others' street discards + pending deals = every card the hand deals."""
    view = hand.view(seat)
    total = sum(deal.cards for deal in deal_sequence(hand.rules, hand.button, hand.fantasy))
    # others' discards, except a face-down fantasy board's, which are part of its pending deal
    burnt = sum(s.discarded for s in view.seats if s.seat != seat and not s.hidden)
    pending = pending_deals(view)
    assert sum(deal.cards for deal in pending) + burnt + len(knowable(hand, seat)) == total
    assert all(deal.seat != seat or not view.cards or deal.street > view.street for deal in pending)


def test_determinization_draws_hidden_cards_from_the_unseen_ones() -> None:
    rules = Rules.preset("pineapple").with_settings({"players": 3})
    hand = Hand(rules, button=0, seed=4, fantasy=(0, 0, 14))
    hand.apply(hand.legal_actions(2)[5], 1)  # the fantasy seat sets face-down
    for _ in range(4):
        hand.apply(hand.legal_actions(hand.to_act[0])[0], 2)
    view = hand.view(1)
    seen = knowable(hand, 1)
    boards = set()
    for k in range(20):
        drawn = determinize(view, random.Random(k))
        fantasy_board = drawn.view(2).seats[2].rows  # the determinized seat 2 sees its own board
        cards = {card for row in fantasy_board for card in row}
        assert len(cards) == 13
        assert not cards & seen
        boards.add(frozenset(cards))
    assert len(boards) == 20  # 20 draws, 20 different hidden boards


def test_a_view_that_no_hand_could_give_is_refused() -> None:
    hand = Hand(Rules.preset("classic"), button=0, seed=1)
    hand.apply(hand.legal_actions(1)[0], 1)
    view = hand.view(0)
    forged = view.__class__(**{**{f: getattr(view, f) for f in view.__slots__}, "history": view.history * 2})
    with pytest.raises(DeterminizeError):
        determinize(forged, random.Random(0))
    action = Action.of(0, bottom=view.cards)
    assert hand.is_legal(action)  # the real hand is untouched


def test_a_clone_sets_every_slot_of_the_hand() -> None:
    hand = Hand(Rules.preset("turbo"), button=1, seed=2)
    twin = hand.clone()
    for name in Hand.__slots__:
        if name == "_clocks":  # clocks are mutable objects: equal readings, not the same objects
            assert [vars_of(c) for c in twin._clocks] == [vars_of(c) for c in hand._clocks]
            assert not set(map(id, twin._clocks)) & set(map(id, hand._clocks))
        else:
            assert getattr(twin, name) == getattr(hand, name), name


def vars_of(clock: object) -> tuple[object, ...]:
    return tuple(getattr(clock, name) for name in ("hand", "bank", "since"))
