"""The discrete action space: sizes and numbers worked out by hand; the mask is exactly the legal set."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.env.encoding import action_mask, action_space_size, decode, encode, street_codes
from ofc.rules.cards import ALL_CARDS, Deck, parse_cards
from ofc.rules.errors import ActionError
from ofc.rules.rulebook import Rules
from support.twins import Position, positions

PINEAPPLE = Rules.preset("pineapple")


def stacked(cards: str) -> Deck:
    top = parse_cards(cards)
    return Deck(order=top + tuple(c for c in ALL_CARDS if c not in top))


def test_street_sizes_worked_by_hand() -> None:
    assert street_codes(5, 0).size == 3**5 == 243  # first deal
    assert street_codes(3, 1).size == 3 * 3**2 == 27  # pineapple: discard one of 3, rows of 2
    assert street_codes(1, 0).size == 3  # classic street
    assert street_codes(4, 0).size == 3**4 == 81  # turbo street
    for preset in ("classic", "turbo", "pineapple"):
        assert action_space_size(Rules.preset(preset)) == 243


def pineapple_street() -> Hand:
    """Seat 1 (first to act, button 0) set five; seat 0 too; seat 1 now holds Kh 2c 5d."""
    hand = Hand(PINEAPPLE, button=0, deck=stacked("Ah Kd 3d Th Td  9c 3c 4c 5c 6c  Kh 2c 5d"))
    hand.apply(Action.of(1, top="Ah Kd 3d", middle="Th Td"), 0)
    hand.apply(Action.of(0, bottom="9c 3c 4c 5c 6c"), 0)
    return hand


def test_pineapple_numbers_worked_by_hand() -> None:
    # Held sorted: 2c (0), 5d (13), Kh (46). Number = discarded position * 9 + rows of the kept
    # two in base 3, the lower card first. 5 = 0 * 9 + 1 * 3 + 2: discard 2c, 5d middle, Kh bottom.
    view = pineapple_street().view(1)
    assert decode(view, 5) == Action.of(1, middle="5d", bottom="Kh", discard="2c")
    # 9 * 2 + 3 * 1 + 2 = 23: discard Kh, 2c middle, 5d bottom.
    assert decode(view, 23) == Action.of(1, middle="2c", bottom="5d", discard="Kh")
    assert encode(view, Action.of(1, middle="2c", bottom="5d", discard="Kh")) == 23
    # The top row is full (Ah Kd 3d): every number sending a card to the top is masked.
    mask = action_mask(view)
    legal = [n for n in range(27) if mask[n]]
    assert legal == [n for n in range(27) if (n % 9) // 3 != 0 and n % 3 != 0]
    assert len(legal) == 3 * 4
    assert not mask[27:].any()
    with pytest.raises(ActionError, match="action 2 puts 1 card in the top row, which has room for 0"):
        decode(view, 2)  # discard 2c, 5d top, Kh bottom
    with pytest.raises(ActionError, match="not one of the 27 numbers"):
        decode(view, 27)


def test_first_deal_number_worked_by_hand() -> None:
    # Seat 1 holds Ah Kd 3d Th Td, sorted 3d (5), Td (33), Th (34), Kd (45), Ah (50).
    # 0 1 2 0 2 in base 3 = 0*81 + 1*27 + 2*9 + 0*3 + 2 = 47: 3d top, Td middle, Th bottom,
    # Kd top, Ah bottom.
    hand = Hand(PINEAPPLE, button=0, deck=stacked("Ah Kd 3d Th Td"))
    view = hand.view(1)
    assert decode(view, 47) == Action.of(1, top="3d Kd", middle="Td", bottom="Th Ah")
    # Four or five cards on top are masked: 5 * 2 + 1 = 11 of the 243 numbers.
    assert int(action_mask(view).sum()) == 243 - 11


def test_no_mask_for_a_seat_not_to_act() -> None:
    hand = pineapple_street()
    assert not action_mask(hand.view(0)).any()
    with pytest.raises(ActionError, match="seat 0 has no street cards"):
        decode(hand.view(0), 2)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_mask_numbers_are_exactly_the_legal_actions(case: tuple[Position, int, random.Random]) -> None:
    position, _, _ = case
    hand = position.hand()
    if hand.is_over:
        return
    seat = hand.to_act[0]
    view = hand.view(seat)
    if view.in_fantasy:
        assert not action_mask(view).any()  # the solver sets fantasy hands
        return
    numbers = [int(n) for n in np.flatnonzero(action_mask(view))]
    actions = [decode(view, n) for n in numbers]
    assert sorted(map(str, actions)) == sorted(map(str, hand.legal_actions(seat)))
    assert len(set(actions)) == len(actions)
    assert [encode(view, action) for action in actions] == numbers
