"""``ofc.env.observation.to_array`` and ``information_state``: exact layouts worked out by hand,
and the property that a seat's observation follows exactly what it can see."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings

from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.env.observation import history_array, information_state, layout, observation_size, to_array
from ofc.rules.cards import ALL_CARDS, Deck, parse_cards
from ofc.rules.rulebook import Rules
from support.twins import Position, hidden_twin, positions, visible_change

PINEAPPLE = Rules.preset("pineapple")  # 2 players
CLASSIC = Rules.preset("classic")  # 2 players


def stacked(cards: str) -> Deck:
    top = parse_cards(cards)
    return Deck(order=top + tuple(c for c in ALL_CARDS if c not in top))


def test_layout_sizes_worked_by_hand() -> None:
    # pineapple, 3 players: own planes 5 x 52 = 260; two opponents' rows 2 x 3 x 52 = 312, so the
    # street block starts at 572 with 5 streets + done = 6 entries; button 578 (3 entries); seats
    # 581 (3 x 8); discards due 605; size 606. History: 3 seats x 5 streets x 4 planes x 52 = 3120.
    where = layout(Rules.preset("pineapple").with_settings({"players": 3}))
    assert (where.street, where.button, where.seats, where.due, where.size) == (572, 578, 581, 605, 606)
    assert where.history_size == 606 + 3120
    # classic, 2 players: 260 + 156 = 416; 9 streets + 1 -> button at 426; seats 428; due 444; 445.
    assert observation_size(CLASSIC) == 445
    # classic, 4 players: 260 + 3 x 156 = 728; +10 +4 +32 +1 = 775; history 4 x 9 x 4 x 52 = 7488 more.
    classic4 = layout(CLASSIC.with_settings({"players": 4}))
    assert (classic4.size, classic4.history_size) == (775, 775 + 7488)


def street_one_hand() -> Hand:
    """Pineapple, 2 seats, button 0: seat 1 sets Ah Kd 3d / Th Td, seat 0 puts 2c..6c at the bottom."""
    hand = Hand(PINEAPPLE, button=0, deck=stacked("Ah Kd 3d Th Td  2c 3c 4c 5c 6c  7h 8h 9h"))
    hand.apply(Action.of(1, top="Ah Kd 3d", middle="Th Td"), 0)
    hand.apply(Action.of(0, bottom="2c 3c 4c 5c 6c"), 0)
    return hand


def test_to_array_entries_worked_by_hand() -> None:
    # Cards are rank * 4 + suit (c d h s): Ah 50, Kd 45, 3d 5, Th 34, Td 33, 7h 22, 8h 26, 9h 30,
    # 2c 0, 3c 4, 4c 8, 5c 12, 6c 16. Seat 1 views: own top plane at 0, middle at 52, held at 156;
    # the opponent (seat 0) rows from 260, its bottom at 364. Street 1 -> 416 + 1; the button
    # (seat 0) is one seat left of the viewer -> 422 + 1. Seats block at 424: the viewer is to
    # act and holds 3 of 17; seat 0 all zero. Discards due: 1 of 4.
    array = to_array(street_one_hand().view(1))
    assert array.shape == (441,)
    assert array.dtype == np.float32
    ones = [50, 45, 5, 52 + 34, 52 + 33, 156 + 22, 156 + 26, 156 + 30, 364, 368, 372, 376, 380, 417, 423, 424]
    expected = np.zeros(441, dtype=np.float32)
    expected[ones] = 1.0
    expected[424 + 4] = 3 / 17
    expected[440] = 0.25
    assert np.array_equal(array, expected)


def test_information_state_text_worked_by_hand() -> None:
    # Placements are kept highest card first, so rows read in that order; held cards are sorted.
    text = information_state(street_one_hand().view(1))
    assert text == (
        "pineapple/2 | seat 1 button 0 street 1 act 1 | held 7h8h9h disc  | "
        "s0 f0.0 //6c5c4c3c2c #0 h0 x0 | s1 f0.0 AhKd3d/ThTd/ #0 h3 x0 || "
        "1@0:AhKd3d/ThTd/ 0@0://6c5c4c3c2c"
    )


def test_same_rows_in_another_order_are_told_apart() -> None:
    # Classic, button 0: seat 1 gets five cards, seat 0 five, then seat 1's street card.
    # A: seat 1 sets Ah / Kd Kc / Qs 2c, then 3d on top. B: Ah 3d / Kd Kc / Qs, then 2c at the
    # bottom. Both end with top Ah 3d, middle Kd Kc, bottom Qs 2c; seat 0 watched the order.
    def play(deal: str, street: str, first: Action, second: Action) -> Hand:
        hand = Hand(CLASSIC, button=0, deck=stacked(f"{deal} 5h 6h 7h 8h 9h {street} Jh"))
        hand.apply(first, 0)
        hand.apply(Action.of(0, bottom="5h 6h 7h 8h 9h"), 0)
        hand.apply(second, 0)
        return hand

    a = play("Ah Kd Kc Qs 2c", "3d", Action.of(1, top="Ah", middle="Kd Kc", bottom="Qs 2c"), Action.of(1, top="3d"))
    b = play("Ah Kd Kc Qs 3d", "2c", Action.of(1, top="Ah 3d", middle="Kd Kc", bottom="Qs"), Action.of(1, bottom="2c"))
    view_a, view_b = a.view(0), b.view(0)
    assert view_a.seats[1].rows == view_b.seats[1].rows
    assert np.array_equal(to_array(view_a), to_array(view_b))  # the position is the same
    assert information_state(view_a) != information_state(view_b)  # the history is not
    assert not np.array_equal(history_array(view_a), history_array(view_b))


def test_spectator_is_laid_out_from_seat_zero_without_private_planes() -> None:
    view = street_one_hand().view(None)
    array = to_array(view)
    assert not array[156 : 156 + 104].any()  # no held cards, no discards
    assert array[364 - 260 + 0] == 1.0  # seat 0's bottom plane is now the viewer's (offset 104): 2c


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_hidden_cards_never_change_a_seats_observation(case: tuple[Position, int, random.Random]) -> None:
    position, seat, rng = case
    view = position.hand().view(seat)
    twin = hidden_twin(position, seat, rng).hand().view(seat)
    assert np.array_equal(to_array(view), to_array(twin))
    assert np.array_equal(history_array(view), history_array(twin))
    assert information_state(view) == information_state(twin)
    changed = visible_change(position, seat, rng)
    if changed is not None:
        other = changed.hand().view(seat)
        assert not np.array_equal(to_array(view), to_array(other))
        assert information_state(view) != information_state(other)
