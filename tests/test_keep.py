"""The score book: hand-worked pineapple, classic (loss limit) and turbo books, edits, errors."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from ofc.keep import Book, BookError, Keeping, replay
from ofc.keep.document import book_document, read_book, score_document
from ofc.rules.rulebook import Rules
from support.keep_books import (
    CLASSIC_BUTTONS,
    CLASSIC_MONEY,
    CLASSIC_POINTS,
    CLASSIC_SETTLEMENT,
    CLASSIC_TOTALS,
    PINEAPPLE_BUTTONS,
    PINEAPPLE_FANTASY,
    PINEAPPLE_FOULED,
    PINEAPPLE_HANDS,
    PINEAPPLE_MONEY,
    PINEAPPLE_POINTS,
    PINEAPPLE_SETTLEMENT,
    PINEAPPLE_TOTALS,
    TURBO_BUTTONS,
    TURBO_FANTASY,
    TURBO_POINTS,
    classic_book,
    pineapple_book,
    turbo_book,
)


def keep(document: dict[str, Any]) -> Keeping:
    return replay(read_book(document))


def test_pineapple_match_of_five_hands_with_a_fantasy_and_a_dead_hand() -> None:
    keeping = keep(pineapple_book())
    assert [dict(hand.points) for hand in keeping.hands] == PINEAPPLE_POINTS
    assert [hand.button for hand in keeping.hands] == PINEAPPLE_BUTTONS
    assert [hand.fantasy for hand in keeping.hands] == PINEAPPLE_FANTASY
    assert [hand.fouled for hand in keeping.hands] == PINEAPPLE_FOULED
    assert keeping.over
    assert keeping.points == PINEAPPLE_TOTALS
    assert keeping.money == PINEAPPLE_MONEY
    document = score_document(keeping)
    assert document["settlement"] == PINEAPPLE_SETTLEMENT
    assert document["next"] == {"button": None, "fantasy": {}}
    assert document["match_over"] is True


def test_pineapple_hand_one_in_parts() -> None:
    hand = keep(pineapple_book(1)).hands[0]
    # ann v bob: bob wins every row (1 each), scoop +3 more, royalties 0 - 6.
    part = hand.pair("ann", "bob")
    assert (part.rows, part.scoop, part.royalties, part.total) == ((-1, -1, -1), -3, -6, -12)
    # bob v cat: top and middle cat, bottom bob, royalties 6 - 7.
    part = hand.pair("bob", "cat")
    assert (part.rows, part.scoop, part.royalties, part.total) == ((-1, -1, 1), 0, -1, -2)
    assert hand.line("cat").royalties.to_dict() == {"top": 7, "middle": 0, "bottom": 0, "total": 7}
    assert hand.earned == {"cat": 14}
    assert hand.order == ("bob", "cat", "ann")


def test_pineapple_book_hand_by_hand_says_what_comes_next() -> None:
    # After hand 1 cat earned fantasy: hand 2 keeps the button (ann), cat is dealt 14.
    after_one = keep(pineapple_book(1))
    assert (after_one.next_button, after_one.next_fantasy) == ("ann", {"cat": 14})
    assert after_one.next_order == ("bob", "cat", "ann")
    assert after_one.settlement()[0].payer == "ann"
    after_four = keep(pineapple_book(4))
    # The circle is closed after hand 4 but ann's fantasy is still played, the button on cat.
    assert not after_four.over
    assert (after_four.next_button, after_four.next_fantasy) == ("cat", {"ann": 14})
    # Running totals after 4 hands: ann -25 -5 +24 +33 = 27, bob 10 -15 -24 -17 = -46, cat 19.
    assert after_four.points == {"ann": 27, "bob": -46, "cat": 19}


def test_a_dead_hand_scores_exactly_as_a_fouled_board() -> None:
    # Hand 3 with bob's board fouled (AA on top over KK in the middle) instead of dead.
    fouled = "Ac Ad 2d / Kd Ks 3c 4c 5c / Qd Qs 7h 8c 9s"
    document = pineapple_book()
    document["hands"] = [dict(hand) for hand in PINEAPPLE_HANDS]
    document["hands"][2]["bob"] = fouled
    keeping = keep(document)
    assert [dict(hand.points) for hand in keeping.hands] == PINEAPPLE_POINTS
    assert keeping.hands[2].fouled == ["bob"]
    assert not keeping.hands[2].entries["bob"].dead


def test_classic_four_players_loss_limit_cuts_and_removes_a_player() -> None:
    keeping = keep(classic_book())
    assert [dict(hand.points) for hand in keeping.hands] == CLASSIC_POINTS
    assert [hand.button for hand in keeping.hands] == CLASSIC_BUTTONS
    assert keeping.hands[1].fantasy == {"cat": 13}
    assert keeping.hands[1].fouled == ["dan"]
    assert keeping.hands[0].fouled == ["dan"]
    assert keeping.hands[2].names == ("ann", "bob", "cat")
    assert keeping.left == ["dan"]
    assert keeping.over
    assert keeping.points == CLASSIC_TOTALS
    assert keeping.money == CLASSIC_MONEY
    assert score_document(keeping)["settlement"] == CLASSIC_SETTLEMENT
    # dan owed 6 to each in hand 2 before the cap: the parts show the uncapped result.
    assert keeping.hands[1].pair("ann", "dan").total == 6


def test_a_player_who_left_cannot_be_entered() -> None:
    document = classic_book(2)
    document["hands"] = [*document["hands"], {"ann": "dead", "bob": "dead", "cat": "dead", "dan": "dead"}]
    with pytest.raises(BookError, match="hand 3: dan left the match at the loss limit"):
        keep(document)


def test_turbo_repeat_fantasy_up_to_the_limit() -> None:
    keeping = keep(turbo_book())
    assert [dict(hand.points) for hand in keeping.hands] == TURBO_POINTS
    assert [hand.button for hand in keeping.hands] == TURBO_BUTTONS
    assert [hand.fantasy for hand in keeping.hands] == TURBO_FANTASY
    # Hand 3 meets the stay rule but is the second fantasy in a row: the sheet grants nothing.
    assert keeping.hands[2].earned == {}
    assert keeping.over
    assert keeping.points == {"ann": 71, "bob": -71}
    assert keeping.money == {"ann": 142, "bob": -142}
    assert score_document(keeping)["settlement"] == [{"from": "bob", "to": "ann", "amount": 142}]


def _edit(document: dict[str, Any], index: int, **entries: str) -> dict[str, Any]:
    hands = [dict(hand) for hand in document["hands"]]
    hands[index] |= entries
    return document | {"hands": hands}


def test_editing_a_past_hand_rescores_everything_after_it() -> None:
    # Turbo hand 2 with bob dead: ann +6 and her royalties 39 = +45 (a dead hand has none).
    # Totals: ann 3 + 45 + 37 - 6 = 79.
    edited = keep(_edit(turbo_book(), 1, bob="dead"))
    assert [hand.points["ann"] for hand in edited.hands] == [3, 45, 37, -6]
    assert edited.points == {"ann": 79, "bob": -79}
    assert [hand.button for hand in edited.hands] == TURBO_BUTTONS


def test_an_edit_that_rewires_the_fantasies_and_buttons() -> None:
    # ann has JJ on top in hand 1 (6, like bob's full house): +2 rows, no fantasy. Hand 2 is then
    # a normal hand on ann's button; her 777 on top enters fantasy (hand 3, button kept: ann),
    # her 555 there stays (hand 4, the second in a row, button ann). Points 2, 37, 37, -6.
    keeping = keep(_edit(turbo_book(), 0, ann="Jc Jd 5h / Ks Kh 8h 8s 4d / As Ah Ad 7c 3c"))
    assert [hand.points["ann"] for hand in keeping.hands] == [2, 37, 37, -6]
    assert [hand.button for hand in keeping.hands] == ["bob", "ann", "ann", "ann"]
    assert [hand.fantasy for hand in keeping.hands] == [{}, {}, {"ann": 13}, {"ann": 13}]
    assert keeping.over


def test_an_edit_that_ends_the_match_earlier_is_refused() -> None:
    # Without KK on top in pineapple hand 4 (K high instead) ann earns no fantasy: the match is
    # over after hand 4, so the book's hand 5 no longer fits.
    document = _edit(pineapple_book(), 3, ann="Kc Jd 2h / Ac Ad 3c 4d 5s / 6c 6d 6h 7c 7d")
    with pytest.raises(BookError, match="hand 5: the match is over after 4 hands"):
        keep(document)


def test_pineapple_edit_of_hand_one_changes_the_fantasy_that_follows() -> None:
    # cat drops to 99 on top in hand 1 (4 in royalties, no fantasy): ann v cat -6 - 4 = -10,
    # bob v cat: rows -1, royalties 6 - 4 -> +1. ann -22, bob +13, cat +9. Hand 2 is then a
    # normal hand with the button moved on to bob; its points do not change.
    book = read_book(pineapple_book(2))
    hands = list(book.hands)
    hands[0] = dict(hands[0]) | book.read_hand({"cat": "9h 9s 5h / Ks Kh 8h 8s 4d / As Ah Ad 7c 3c"})
    keeping = replay(book.with_hands(hands))
    assert [hand.button for hand in keeping.hands] == ["ann", "bob"]
    assert keeping.hands[1].fantasy == {}
    assert keeping.hands[0].points == {"ann": -22, "bob": 13, "cat": 9}
    assert keeping.hands[1].points == {"ann": -5, "bob": -15, "cat": 20}
    assert keeping.next_fantasy == {"cat": 14}


def test_a_hand_after_the_end_is_refused_and_a_new_book_moves_the_button_on() -> None:
    document = pineapple_book()
    document["hands"] = [*document["hands"], PINEAPPLE_HANDS[0]]
    with pytest.raises(BookError, match="hand 6: the match is over after 5 hands"):
        keep(document)
    following = keep(pineapple_book()).next_book()
    # The last hand's button was cat: the next book starts with the button one seat on, on ann.
    assert following.players == ("ann", "bob", "cat")
    assert following.players[following.button] == "ann"
    assert following.hands == ()
    assert following.rules == read_book(pineapple_book()).rules


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (
            {
                "ann": "Kc 7d 2h / 9c 9d 4h 5s 6c / Jc Jd Jh 3s 8c",
                "bob": "Kc 8d 3h / Tc Td 4c 5d 7s / 2c 2d 2s 6d 6h",
                "cat": "dead",
            },
            "card Kc is entered for both ann and bob",
        ),
        ({"ann": "Kc 7d / 9c 9d 4h 5s 6c / Jc Jd Jh 3s 8c"}, "ann, top row: needs 3 cards, got 2"),
        ({"zed": "dead"}, "unknown player 'zed'"),
        ({"ann": "dead", "bob": "dead"}, "no board for cat"),
        (
            {"ann": "Kc 7d 2h / 9c 9d 4h 5s 6c / Jc Jd Jh 3s 8c / Qs", "bob": "dead", "cat": "dead"},
            "ann discards 4 a hand, not 1",
        ),
        (
            {"ann": "dead", "bob": "dead", "cat": "Qc Xd 5h / Ks Kh 8h 8s 4d / As Ah Ad 7c 3c"},
            "cat, top row: cannot read 'Xd': 'X' is neither",
        ),
        ({"ann": "Kc 7d 2h | 9c 9d 4h 5s 6c"}, "write the board as 'top / middle / bottom'"),
    ],
)
def test_bad_entries_name_the_fault(hand: dict[str, str], message: str) -> None:
    book = read_book(pineapple_book(0))
    with pytest.raises(BookError, match=message):
        replay(book.with_hands([book.read_hand(hand)]))


def test_a_fantasy_board_must_come_from_the_fantasy_deal() -> None:
    # cat plays hand 2 in fantasy with 14 cards: 13 on the board, so exactly 1 discard.
    book = read_book(pineapple_book(1))
    two = dict(PINEAPPLE_HANDS[1])
    with pytest.raises(BookError, match="cat plays fantasy with 14 cards, so discards 1, not 2") as caught:
        replay(book.with_hands([*book.hands, book.read_hand(two | {"cat": two["cat"] + " / 3d 3c"})]))
    assert caught.value.field == "cat.discards"
    keeping = replay(book.with_hands([*book.hands, book.read_hand(two | {"cat": two["cat"] + " / 3d"})]))
    assert keeping.hands[1].points == {"ann": -5, "bob": -15, "cat": 20}
    # A discard that is on another board is a card used twice.
    with pytest.raises(BookError, match="card 2s is entered for both ann and cat"):
        replay(book.with_hands([*book.hands, book.read_hand(two | {"cat": two["cat"] + " / 2s"})]))


def test_book_setup_errors() -> None:
    rules = Rules.preset("pineapple")
    with pytest.raises(BookError, match="pineapple is played by 2-3 players, got 4"):
        Book.new(rules, ["a", "b", "c", "d"], "a")
    with pytest.raises(BookError, match="two players are called 'ann'"):
        Book.new(rules, ["ann", "Ann"], "ann")
    with pytest.raises(BookError, match="unknown player 'zed'"):
        Book.new(rules, ["ann", "bob"], "zed")
    with pytest.raises(BookError, match="may not hold"):
        Book.new(rules, ["ann=1", "bob"], "bob")


def test_the_book_document_round_trips() -> None:
    book = read_book(classic_book())
    document = book_document(book)
    assert document["format"] == "ofc-keep"
    assert document["version"] == 1
    assert document["button"] == "ann"
    assert document["rules"]["loss_limit"] == 40
    assert document["rules"]["point_value"] == "0.25"
    assert document["hands"][0]["dan"] == "dead"
    assert document["hands"][0]["ann"] == {"top": "Kc 7d 2h", "middle": "9c 9d 4h 5s 6c", "bottom": "Jc Jd Jh 3s 8c"}
    again = read_book(document)
    assert again == book
    assert replay(again).points == CLASSIC_TOTALS


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "a book is a JSON object"),
        ({"players": ["a", "b"], "button": "a", "extra": 1}, "unknown key 'extra'"),
        ({"players": ["a", "b"]}, '"button" is missing'),
        ({"players": "a b", "button": "a"}, '"players" must be a list'),
        ({"players": ["a", "b"], "button": "a", "version": 2}, "book version 1, not 2"),
        ({"players": ["a", "b"], "button": "a", "rules": "poker"}, "unknown preset 'poker'"),
        ({"players": ["a", "b"], "button": "a", "hands": [{"a": "dead", "c": "dead"}]}, "hand 1: unknown player 'c'"),
    ],
)
def test_bad_book_documents(document: Any, message: str) -> None:
    with pytest.raises(BookError, match=message):
        read_book(document)


def test_amounts_that_do_not_end_are_rounded_in_the_document() -> None:
    from ofc.keep.document import amount

    assert amount(Fraction(5, 2)) == 2.5
    assert amount(Fraction(10, 3)) == 3.33
    assert amount(Fraction(-8)) == -8
