"""``Hand.view``: exactly what each seat and a spectator see, worked out by hand."""

from __future__ import annotations

from typing import Any

import pytest

from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.rules.cards import ALL_CARDS, Deck, format_card, parse_cards
from ofc.rules.errors import ActionError, NoSuchSeat
from ofc.rules.rulebook import Rules

RULES = Rules.preset("pineapple").with_settings({"hand_seconds": 10, "time_bank_seconds": 5})


def stacked(cards: str) -> Deck:
    top = parse_cards(cards)
    return Deck(order=top + tuple(c for c in ALL_CARDS if c not in top))


def hand_after_fantasy_set() -> Hand:
    """Seat 0 (button) plays a 14-card fantasy and sets first, at 2 s; seat 1 places its five at 6 s."""
    deck = stacked("Ah Kd 3d Th Td  Qh Qd Qc 9h 9d 9c 3s 4s As Ks Js 8s 2s 7c  5c 6s 2h")
    hand = Hand(RULES, button=0, deck=deck, fantasy=(14, 0))
    hand.apply(Action.of(0, top="Qh Qd 4s", middle="9h 9d 9c Qc 3s", bottom="As Ks Js 8s 2s", discard="7c"), 2)
    hand.apply(Action.of(1, top="Ah Kd 3d", middle="Th Td"), 6)
    return hand


def seat(number: int, fantasy: int, rows: tuple[list[str], list[str], list[str]], **counts: Any) -> dict[str, Any]:
    top, middle, bottom = rows
    in_row = 1 if fantasy else 0  # a fantasy seat here plays its first fantasy in a row
    return {
        "seat": number,
        "fantasy": fantasy,
        "fantasy_in_row": in_row,
        "top": top,
        "middle": middle,
        "bottom": bottom,
        **counts,
    }


# Seat 0's board is face-down until the showdown: 13 hidden, 1 discarded; it spent 2 s of its
# 10. Seat 1's clock started only when seat 0 had set (2 s); it spent 4 s on its five cards and
# holds its second street (dealt at 6 s): 6 s of hand clock left, out at 6 + 6 + 5 = 17.
FANTASY_HIDDEN = seat(
    0, 14, ([], [], []), hidden=13, holding=0, discarded=1, done=True,
    clock={"hand": "8", "bank": "5", "running": False, "deadline": None},
)  # fmt: skip
STREET_SEAT = seat(
    1, 0, (["Ah", "Kd", "3d"], ["Th", "Td"], []), hidden=0, holding=3, discarded=0, done=False,
    clock={"hand": "6", "bank": "5", "running": True, "deadline": "17"},
)  # fmt: skip
# The public history: the fantasy set face-down (13 hidden, 1 discarded), then seat 1's five.
HISTORY = [
    {"seat": 0, "top": [], "middle": [], "bottom": [], "discards": [], "discarded": 1, "hidden": 13,
     "time": "2", "automatic": False},
    {"seat": 1, "top": ["Ah", "Kd", "3d"], "middle": ["Th", "Td"], "bottom": [], "discards": [], "discarded": 0,
     "hidden": 0, "time": "6", "automatic": False},
]  # fmt: skip


def test_street_seat_sees_its_cards_and_only_counts_of_the_fantasy_board() -> None:
    view = hand_after_fantasy_set().view(1).to_dict()
    assert view.pop("rules") == RULES.to_dict()
    assert view == {
        "seat": 1, "button": 0, "street": 1, "to_act": [1], "now": "6",
        "cards": ["5c", "6s", "2h"], "discards": [],
        "seats": [FANTASY_HIDDEN, STREET_SEAT], "result": None, "history": HISTORY,
        "start": "0", "starting_banks": ["5", "5"],
    }  # fmt: skip


def test_spectator_sees_public_facts_only() -> None:
    view = hand_after_fantasy_set().view(None).to_dict()
    view.pop("rules")
    assert view == {
        "seat": None, "button": 0, "street": 1, "to_act": [1], "now": "6",
        "cards": [], "discards": [], "seats": [FANTASY_HIDDEN, STREET_SEAT], "result": None,
        "history": HISTORY, "start": "0", "starting_banks": ["5", "5"],
    }  # fmt: skip


def test_fantasy_seat_sees_its_own_board_and_discard() -> None:
    view = hand_after_fantasy_set().view(0)
    assert view.discards == parse_cards("7c")
    assert view.cards == ()
    own = view.seats[0]
    assert own.rows == (parse_cards("Qh Qd 4s"), parse_cards("Qc 9h 9d 9c 3s"), parse_cards("As Ks Js 8s 2s"))
    assert own.hidden == 0
    assert view.seats[1].to_dict() == {**STREET_SEAT, "holding": 3}


def test_before_the_fantasy_sets_others_see_how_many_cards_it_holds() -> None:
    deck = stacked("Ah Kd 3d Th Td  Qh Qd Qc 9h 9d 9c 3s 4s As Ks Js 8s 2s 7c")
    hand = Hand(RULES, button=0, deck=deck, fantasy=(14, 0))
    other = hand.view(1)
    assert other.seats[0].holding == 14
    assert other.seats[0].hidden == 0
    assert other.cards == parse_cards("Ah Kd 3d Th Td")
    assert other.to_act == (0,)  # the fantasy seat sets first


def test_the_showdown_reveals_boards_but_never_discards() -> None:
    hand = hand_after_fantasy_set()
    hand.advance(100)
    view = hand.view(None)
    assert view.result is not None
    assert view.seats[0].rows[0] == parse_cards("Qh Qd 4s")
    assert view.seats[0].hidden == 0
    assert view.seats[1].discarded == 4
    assert view.discards == ()
    text = str(view.to_dict())
    assert "'7c'" not in text  # seat 0's fantasy discard
    assert view.to_dict()["result"] == view.result.to_dict()
    street_discards = [format_card(card) for card in hand.view(1).discards]
    assert street_discards == ["2h", "3c", "4d", "5h"]  # the last card of each street, automatically
    for viewer in (None, 0):
        text = str(hand.view(viewer).to_dict())
        assert [card for card in street_discards if f"'{card}'" in text] == []
    assert "'7c'" not in str(hand.view(1).to_dict())


def test_view_shortcuts_for_the_seat_to_act() -> None:
    hand = Hand(Rules.preset("pineapple"), button=1, seed=5, fantasy=(14, 0))

    def shortcuts(seat: int | None) -> tuple[bool, bool, tuple[int, int, int], int]:
        view = hand.view(seat)
        return (view.may_act, view.in_fantasy, view.rooms, view.discards_due)

    assert shortcuts(0) == (True, True, (3, 5, 5), 1)
    assert shortcuts(1) == (False, False, (3, 5, 5), 0)  # waits for the fantasy seat
    assert shortcuts(None) == (False, False, (0, 0, 0), 0)
    normal = hand.view(1)
    assert hand.view(None).mine is None
    assert normal.mine is normal.seats[1]


def test_view_update_reads_what_changed_worked_by_hand() -> None:
    # The hand above: seat 0 sets its fantasy face-down (action 0), seat 1 places its five
    # (action 1) and now holds 5c 6s 2h. Seat 1 read up to action 1 sees only its own five;
    # from 0 it also sees the fantasy set as 13 face-down cards and 1 discard (HISTORY).
    hand = hand_after_fantasy_set()
    update = hand.view_update(1, 1)
    assert (update.seat, update.street, update.to_act, update.seen, update.over) == (1, 1, (1,), 2, False)
    assert update.cards == parse_cards("5c 6s 2h")
    assert update.holding == (0, 3)
    assert [seen.to_dict() for seen in update.history] == HISTORY[1:]
    assert [seen.to_dict() for seen in hand.view_update(1, 0).history] == HISTORY
    assert hand.view_update(1, 2).history == ()
    # Seat 0 sees its own board and its 7c discard; once the hand is over (advance to 100 s:
    # seat 1 is placed automatically) the board shows to seat 1 too, discard still hidden.
    own = hand.view_update(0, 0).history[0]
    assert (own.hidden, own.discards, len(own.placements)) == (0, parse_cards("7c"), 13)
    hand.advance(100)
    shown = hand.view_update(1, 0)
    assert shown.over
    assert (shown.history[0].hidden, shown.history[0].discards, len(shown.history[0].placements)) == (0, (), 13)
    assert shown.seen == hand.actions_taken == 6  # the set, seat 1's five, and four automatic streets


def test_view_update_names_a_bad_seat_or_start() -> None:
    hand = hand_after_fantasy_set()
    with pytest.raises(NoSuchSeat, match="no seat 2 at this table of 2"):
        hand.view_update(2, 0)
    for since in (3, -1, True, "0"):
        with pytest.raises(ActionError, match=f"there are 2 actions to read, so none from number {since!r}"):
            hand.view_update(1, since)  # type: ignore[arg-type]
