"""The hand engine: deal order, turns, legal actions, a whole hand worked out by hand."""

from __future__ import annotations

from decimal import Decimal
from math import comb

import pytest

from ofc.engine.actions import Action, ActionRecord
from ofc.engine.clock import ClockReading
from ofc.engine.hand import Hand
from ofc.engine.legal import LegalActions, _patterns
from ofc.rules.cards import ALL_CARDS, Deck, parse_card, parse_cards
from ofc.rules.errors import NoSuchSeat, NotYourTurn, SetupError, UnknownRow
from ofc.rules.rows import Row
from ofc.rules.rulebook import Rules

CLASSIC2 = Rules.preset("classic")
PINEAPPLE3 = Rules.preset("pineapple").with_settings({"players": 3})


def stacked(cards: str) -> Deck:
    """A deck whose first cards are ``cards``, the rest in index order."""
    top = parse_cards(cards)
    return Deck(order=top + tuple(c for c in ALL_CARDS if c not in top))


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


# The worked hand: seat 0 (button) scores QQ on top, trips in the middle, a flush at the bottom;
# seat 1 acts first (left of the button). Deal: seat 1's five, seat 0's five, then one card
# each per street, seat 1 first.
WORKED_DECK = "Ah Kd 3d Th Td  Qh Qd 2c 9h 9d  5c 9c 6s 3s 7s 4s Ac As Kc Ks Qc Js Jc 8s 3c 2s"


def play_worked_hand() -> Hand:
    hand = Hand(CLASSIC2, button=0, deck=stacked(WORKED_DECK))
    hand.apply(Action.of(1, top="Ah Kd 3d", middle="Th Td"), 1)
    hand.apply(Action.of(0, top="Qh Qd 2c", middle="9h 9d"), 2)
    streets = [("5c", "middle"), ("9c", "middle"), ("6s", "middle"), ("3s", "middle"),
               ("7s", "middle"), ("4s", "middle"), ("Ac", "bottom"), ("As", "bottom"),
               ("Kc", "bottom"), ("Ks", "bottom"), ("Qc", "bottom"), ("Js", "bottom"),
               ("Jc", "bottom"), ("8s", "bottom"), ("3c", "bottom"), ("2s", "bottom")]  # fmt: skip
    for step, (card, row) in enumerate(streets):
        seat = 1 - step % 2
        hand.apply(Action(seat, ((parse_card(card), Row.parse(row)),)), 3 + step)
    return hand


def test_worked_classic_hand_scores_as_by_hand() -> None:
    hand = play_worked_hand()
    assert hand.is_over
    result = hand.result
    assert result is not None
    # seat 0: QQ top (7) + trips middle (2) + flush bottom (4) = 13 royalties; seat 1: flush 4.
    # rows: seat 0 wins top and middle, loses the bottom (A K Q J 3 beats A K J 8 2): +2.
    assert [line.royalties.total for line in result.sheet.players] == [13, 4]
    assert result.points == (11, -11)
    assert [line.fantasy for line in result.sheet.players] == [13, 0]
    assert result.boards[0].top == cards("Qh Qd 2c")
    assert result.boards[1].bottom == cards("Ac Kc Qc Jc 3c")
    assert result.time_banks == (Decimal(180), Decimal(180))
    assert len(hand.private_record().actions) == 18
    assert hand.to_act == ()
    assert hand.street == 9


def test_first_deal_goes_to_everyone_in_order_of_play() -> None:
    hand = Hand(PINEAPPLE3, button=2, deck=stacked("2c 3c 4c 5c 6c 2d 3d 4d 5d 6d 2h 3h 4h 5h 6h"))
    assert hand.play_order == (0, 1, 2)
    assert hand.to_act == (0,)
    assert hand.view(0).cards == cards("2c 3c 4c 5c 6c")
    assert hand.view(1).cards == cards("2d 3d 4d 5d 6d")
    assert hand.view(2).cards == cards("2h 3h 4h 5h 6h")
    assert hand.street == 0


def test_street_cards_are_dealt_when_the_turn_comes() -> None:
    deck = stacked("2c 3c 4c 5c 6c 2d 3d 4d 5d 6d 7c 8c 9c 7d 8d 9d")
    hand = Hand(PINEAPPLE3.with_settings({"players": 2}), button=1, deck=deck)
    assert hand.play_order == (0, 1)
    hand.apply(Action.of(0, bottom="2c 3c 4c 5c 6c"), 5)
    assert hand.view(0).cards == ()
    hand.apply(Action.of(1, middle="2d 3d 4d 5d 6d"), 6)
    assert hand.to_act == (0,)
    assert hand.street == 1
    assert hand.view(0).cards == cards("7c 8c 9c")
    assert hand.view(1).cards == ()
    hand.apply(Action.of(0, top="7c 8c", discard="9c"), 7)
    assert hand.view(1).cards == cards("7d 8d 9d")
    assert hand.view(0).discards == cards("9c")


def test_fantasy_seats_set_first_and_street_seats_wait_with_their_clocks_stopped() -> None:
    # Button 0, so seat 1 would act first; it plays fantasy (14 cards) and must set before
    # seat 2 (then seat 0) plays the streets. RULES.md "Fantasyland", seeds 001 and 003.
    hand = Hand(PINEAPPLE3, button=0, seed=3, fantasy=(0, 14, 0))
    assert hand.play_order == (1, 2, 0)
    assert hand.to_act == (1,)
    assert len(hand.view(1).cards) == 14
    assert hand.view(1).seats[1].holding == 14
    assert hand.fantasy_in_row == (0, 1, 0)
    assert hand.clock(1).running
    assert not hand.clock(2).running
    five = hand.view(2).cards
    assert len(five) == 5
    with pytest.raises(NotYourTurn, match="seat 2 cannot act yet: fantasy seat 1 must set first"):
        hand.apply(Action.of(2, bottom=five), 3)
    assert hand.actions_taken == 0
    assert hand.to_act == (1,)
    assert len(hand.legal_actions(2)) == 0
    held = hand.view(1).cards
    hand.apply(
        Action(
            1,
            tuple(
                (card, Row.BOTTOM if i < 5 else Row.MIDDLE if i < 10 else Row.TOP) for i, card in enumerate(held[:13])
            ),
            held[13:],
        ),
        30,
    )
    assert hand.to_act == (2,)
    assert hand.clock(2) == ClockReading(Decimal(120), Decimal(180), True, Decimal(330))  # started at 30
    assert hand.view(2).seats[1].hidden == 13


@pytest.mark.parametrize(
    ("rules", "held", "rooms", "discards", "count"),
    [
        (CLASSIC2, 5, (3, 5, 5), 0, 3**5 - 11),  # no more than 3 on top: 243 - 10 - 1
        (CLASSIC2, 1, (1, 0, 4), 0, 2),
        (PINEAPPLE3, 3, (3, 5, 5), 1, 27),  # 3 discards x 3 x 3 rows
        (PINEAPPLE3, 3, (0, 5, 5), 1, 12),
        (PINEAPPLE3, 3, (1, 1, 0), 1, 6),  # last street: one each to top and middle
        (CLASSIC2, 4, (1, 3, 0), 0, 4),  # turbo's last street: choose the top card
        (CLASSIC2, 13, (3, 5, 5), 0, 72072),  # 13! / (3! 5! 5!)
        (CLASSIC2, 14, (3, 5, 5), 1, 14 * 72072),
        (CLASSIC2, 15, (3, 5, 5), 2, comb(15, 2) * 72072),
        (CLASSIC2, 17, (3, 5, 5), 4, 171_531_360),
    ],
)
def test_legal_action_counts(rules: Rules, held: int, rooms: tuple[int, int, int], discards: int, count: int) -> None:
    actions = LegalActions(0, tuple(range(held)), rooms, discards)
    assert len(actions) == count


def test_legal_actions_of_the_first_deal() -> None:
    hand = Hand(CLASSIC2, button=0, deck=stacked("2c 3c 4c 5c 6c"))
    actions = hand.legal_actions(1)
    assert len(actions) == 232
    assert actions[0] == Action(1, ((0, Row.TOP), (4, Row.TOP), (8, Row.TOP), (12, Row.MIDDLE), (16, Row.MIDDLE)))
    assert actions[-1] == Action.of(1, bottom="2c 3c 4c 5c 6c")
    assert all(hand.is_legal(action) for action in actions)
    assert len(set(actions)) == 232
    assert len(hand.legal_actions(0)) == 0


def test_unranking_matches_the_listed_order() -> None:
    """A 9-card exact fill is unranked; it must equal the listed patterns."""
    held = tuple(range(10, 19))
    unranked = LegalActions(2, held, (3, 5, 0), 1)
    listed = _patterns(9, 1, (3, 5, 0))
    assert len(unranked) == len(listed) == 9 * 56
    for index, (places, dropped) in enumerate(listed):
        want = Action(2, tuple((held[i], row) for i, row in places), tuple(held[i] for i in dropped))
        assert unranked[index] == want


def rows_of(action: Action) -> tuple[set[int], ...]:
    return tuple(set(action.row_cards(row)) for row in Row)


def test_fantasy_actions_index_both_ends() -> None:
    rules = Rules.preset("pineapple-progressive").with_settings({"players": 3})
    hand = Hand(rules, button=0, seed=9, fantasy=(0, 17, 0))
    held = hand.view(1).cards
    actions = hand.legal_actions(1)
    assert len(actions) == 171_531_360
    first, last = actions[0], actions[-1]
    assert set(first.discards) == set(held[:4])
    assert rows_of(first) == (set(held[4:7]), set(held[7:12]), set(held[12:]))
    assert set(last.discards) == set(held[-4:])
    assert rows_of(last) == (set(held[10:13]), set(held[5:10]), set(held[:5]))
    assert hand.is_legal(first)
    assert hand.is_legal(last)
    assert hand.is_legal(actions[123_456_789])
    assert first in actions
    assert len(actions[5:8]) == 3


def test_actions_are_equal_whatever_order_they_are_written_in() -> None:
    hand = Hand(CLASSIC2, button=0, deck=stacked("2c 3c 4c 5c 6c"))
    actions = hand.legal_actions(1)
    reordered = Action.of(1, bottom="6c 2c 5c 3c 4c")
    assert reordered == Action.of(1, bottom="2c 3c 4c 5c 6c")
    assert reordered.placements[0] == (parse_card("6c"), Row.BOTTOM)
    assert reordered in actions
    assert Action.of(1, top="2c 3c 4c 5c", bottom="6c") not in actions
    assert Action.of(1, bottom="2c 3c 4c 5c") not in actions
    assert Action.of(0, bottom="2c 3c 4c 5c 6c") not in actions
    card_text: object = "2c"  # not an Action: an action list never holds bare card text
    assert card_text not in actions


def test_membership_agrees_with_check_on_rows_written_as_ints() -> None:
    """``Hand.check`` takes 0, 1, 2 for the rows, and such an action equals its Row twin."""
    hand = Hand(CLASSIC2, button=0, deck=stacked("2c 3c 4c 5c 6c"))
    actions = hand.legal_actions(1)
    with_ints = Action(1, tuple((card, 2) for card in parse_cards("2c 3c 4c 5c 6c")))  # type: ignore[misc]
    assert hand.is_legal(with_ints)
    assert with_ints == Action.of(1, bottom="2c 3c 4c 5c 6c")
    assert with_ints in actions
    assert Action(1, tuple((card, 3) for card in parse_cards("2c 3c 4c 5c 6c"))) not in actions  # type: ignore[misc]


def test_legal_actions_indexing_errors() -> None:
    actions = LegalActions(0, (1, 2, 3), (3, 5, 5), 1)
    with pytest.raises(IndexError, match="seat 0 has 27 legal actions, no number 27"):
        actions[27]
    assert actions[-27] == actions[0]
    assert repr(actions) == "<LegalActions seat=0 count=27>"


def test_action_helpers() -> None:
    action = Action.of(2, top="Qh", bottom=[parse_card("9c")], discard="2d")
    assert action == Action(2, ((parse_card("Qh"), Row.TOP), (parse_card("9c"), Row.BOTTOM)), (parse_card("2d"),))
    assert str(action) == "seat 2: top Qh; bottom 9c; discard 2d"
    assert str(Action(0, ())) == "seat 0: nothing"
    assert action.to_dict() == {"seat": 2, "place": [["Qh", "top"], ["9c", "bottom"]], "discard": ["2d"]}
    assert Action.from_dict(action.to_dict()) == action
    assert action.row_cards(Row.BOTTOM) == (parse_card("9c"),)
    assert Row.parse(" Mid ") is Row.MIDDLE
    assert [row.size for row in Row] == [3, 5, 5]
    with pytest.raises(UnknownRow, match="unknown row 'side'"):
        Row.parse("side")


def test_log_records_actions_with_times() -> None:
    hand = Hand(CLASSIC2, button=0, deck=stacked(WORKED_DECK), now=Decimal("1.5"))
    action = Action.of(1, top="Ah Kd 3d", middle="Th Td")
    hand.apply(action, 2.25)
    assert hand.private_record().actions == (ActionRecord(action, Decimal("2.25"), False),)
    assert hand.now == Decimal("2.25")
    assert hand.start_time == Decimal("1.5")


def test_seeded_hands_are_reproducible_and_secure_ones_differ() -> None:
    assert Hand(CLASSIC2, button=0, seed=11).private_record().deck == Deck(11).order
    assert Hand(CLASSIC2, button=0, seed=11).private_record().seed == 11
    assert Hand(CLASSIC2, button=0).private_record().deck != Hand(CLASSIC2, button=0).private_record().deck
    assert Hand(CLASSIC2, button=0).private_record().seed is None


def test_fantasy_deal_sizes_come_from_the_rules() -> None:
    assert CLASSIC2.fantasy_deals == {13}
    assert PINEAPPLE3.fantasy_deals == {14}
    assert Rules.preset("pineapple-progressive").fantasy_deals == {14, 15, 16, 17}
    assert CLASSIC2.with_settings({"fantasy": "off"}).fantasy_deals == frozenset()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"button": 2}, "button must be a seat from 0 to 1, not 2"),
        ({"button": True}, "button must be a seat from 0 to 1, not True"),
        ({"button": 0, "seed": 1, "deck": Deck(1)}, "give a deck or a seed, not both"),
        ({"button": 0, "fantasy": (0,)}, "fantasy needs one entry per seat (2), got 1"),
        ({"button": 0, "fantasy": (14, 0)}, "seat 0 cannot be dealt 14 cards in fantasy: allowed 13"),
        ({"button": 0, "fantasy": (0, 13), "fantasy_in_row": (0, 0)},
         "seat 1 plays a fantasy hand, so fantasy_in_row cannot be 0"),
        ({"button": 0, "fantasy_in_row": (1, 0)}, "seat 0 plays a normal hand, so fantasy_in_row cannot be 1"),
        ({"button": 0, "time_banks": (Decimal(5), Decimal(-1))}, "seat 1's time bank cannot be negative (-1)"),
        ({"button": 0, "time_banks": (Decimal(5),)}, "time_banks needs one entry per seat (2), got 1"),
    ],
)  # fmt: skip
def test_setup_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SetupError) as caught:
        Hand(CLASSIC2, **kwargs)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_fantasy_off_refuses_fantasy_seats() -> None:
    with pytest.raises(SetupError, match=r"allowed none \(fantasy is off\)"):
        Hand(CLASSIC2.with_settings({"fantasy": "off"}), button=0, fantasy=(13, 0))


def test_views_and_clocks_need_real_seats() -> None:
    hand = Hand(CLASSIC2, button=0, seed=1)
    with pytest.raises(NoSuchSeat, match="there is no seat 2 at this table of 2"):
        hand.view(2)
    with pytest.raises(NoSuchSeat):
        hand.clock(-1)
    with pytest.raises(NoSuchSeat):
        hand.legal_actions(5)


def test_four_seats_act_left_of_the_button_first_on_every_street() -> None:
    hand = Hand(CLASSIC2.with_settings({"players": 4}), button=1, seed=4)
    acted = []
    while not hand.is_over:
        seat = hand.to_act[0]
        acted.append(seat)
        hand.apply(hand.legal_actions(seat)[0], len(acted))
    assert acted == [2, 3, 0, 1] * 9


def test_a_fantasy_seat_sets_first_and_is_skipped_in_the_street_order() -> None:
    # Button 1: order of play 2, 3, 0, 1; seat 3 plays fantasy, so it sets alone first and the
    # streets then go 2, 0, 1 for nine rounds (five-card deal + eight one-card streets).
    hand = Hand(CLASSIC2.with_settings({"players": 4}), button=1, seed=4, fantasy=(0, 0, 0, 13))
    assert hand.to_act == (3,)
    hand.apply(hand.legal_actions(3)[0], 1)
    acted = []
    while not hand.is_over:
        seat = hand.to_act[0]
        assert hand.to_act == (seat,)
        acted.append(seat)
        hand.apply(hand.legal_actions(seat)[0], 1 + len(acted))
    assert acted == [2, 0, 1] * 9


def acting(hand: Hand) -> tuple[int, ...]:
    """``hand.to_act`` read through a call: after ``assert hand.to_act == (0, 2)`` mypy keeps
    that narrowing past ``hand.apply`` (it cannot know ``apply`` changes it)."""
    return hand.to_act


def test_two_fantasy_seats_set_in_any_order_before_the_streets() -> None:
    hand = Hand(CLASSIC2.with_settings({"players": 3}), button=2, seed=5, fantasy=(13, 0, 13))
    assert acting(hand) == (0, 2)
    hand.apply(hand.legal_actions(2)[7], 1)
    assert acting(hand) == (0,)
    with pytest.raises(NotYourTurn, match="seat 1 cannot act yet: fantasy seat 0 must set first"):
        hand.check(Action.of(1, bottom=hand.view(1).cards))
    hand.apply(hand.legal_actions(0)[3], 2)
    assert acting(hand) == (1,)


def test_every_seat_in_fantasy_skips_the_streets() -> None:
    hand = Hand(CLASSIC2, button=1, seed=2, fantasy=(13, 13))
    assert hand.street == 9
    assert hand.to_act == (0, 1)
    for seat in (1, 0):
        hand.apply(hand.legal_actions(seat)[seat * 1000], 4)
    assert hand.is_over
    assert repr(hand) == "<Hand classic 2 seats, button 1: over>"
