"""The terminal's screens as exact text: the table, the showdown, the ledger, card colours."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from rich.text import Text

from ofc.engine.actions import Action
from ofc.engine.clock import ClockReading
from ofc.engine.hand import Hand
from ofc.rules.cards import parse_card
from ofc.rules.rows import Row
from ofc.rules.rulebook import Rules
from ofc.terminal import cardtext
from ofc.terminal.commands import DISCARD
from ofc.terminal.placing import Placing
from ofc.terminal.render import Table, board_lines, screen, street_line
from ofc.terminal.showdown import ledger_lines, showdown_lines

WIDTH = 80
FANTASY = Action.of(1, top="Qs Qc Tc", middle="Jh 8s 8d 4s 4d", bottom="As Ah Ad Ac Jc", discard="6h")
"""Seat 1's fantasy board for the 14 cards seed 5 deals it (button 0)."""


def pineapple_street_two() -> Hand:
    """Seed 11, button 1: ann (seat 0) holds 6h 3c 6d 5s Jh, bot 9s Ac 4h 4c 2s."""
    hand = Hand(Rules.preset("pineapple"), button=1, seed=11)
    hand.apply(Action.of(0, top="Jh", middle="6h 6d", bottom="3c 5s"), 10)
    hand.apply(Action.of(1, top="2s", middle="4h 4c", bottom="9s Ac"), 15)
    hand.advance(40)
    return hand


def test_table_screen_exact() -> None:
    hand = pineapple_street_two()
    view = hand.view(0)
    placing = Placing.for_view(view)
    placing.place(parse_card("Th"), Row.TOP)
    placing.place(parse_card("8c"), DISCARD)
    text = screen(view, Table(("ann", "bot"), 2, "ann +3, bot -3"), placing, [Text("a note")])
    assert text.plain == "\n".join(
        [
            "pineapple, 2 players, american scoring - hand 2",
            "match: ann +3, bot -3",
            "",
            "   ann                bot (D)",
            "   1:25 +3:00  to act 1:55 +3:00",
            "T  Jh Th*--           2s -- --",
            "M  6h 6d -- -- --     4h 4c -- -- --",
            "B  5s 3c -- -- --     Ac 9s -- -- --",
            "",
            "",
            "Street 2 of 5: place 2 cards, discard 1",
            "To place: 5d",
            "Placed: top Th | discard 8c",
            "a note",
        ]
    )


def test_opponent_sees_counts_and_own_discards_are_listed() -> None:
    hand = pineapple_street_two()
    hand.apply(Action.of(0, top="Th", middle="5d", discard="8c"), 41)
    view = hand.view(1)
    lines = [line.plain for line in board_lines(view, Table(("ann", "bot"), 1, ""), None)]
    assert lines == [
        "   ann                bot (D)",
        "   1:24 +3:00         1:55 +3:00  to act",
        "T  Jh Th --           2s -- --",
        "M  6h 6d 5d -- --     4h 4c -- -- --",
        "B  5s 3c -- -- --     Ac 9s -- -- --",
        "   disc 1",
    ]
    placing = Placing.for_view(hand.view(0))
    assert placing.held == ()
    own = screen(hand.view(0), Table(("ann", "bot"), 1, ""), None, []).plain
    assert own.endswith("Street 2 of 5: place 2 cards, discard 1\nYour discards: 8c")


def test_fantasy_board_is_face_down_until_the_showdown() -> None:
    hand = Hand(Rules.preset("pineapple"), button=0, seed=5, fantasy=(0, 14))
    hand.apply(FANTASY, 3)
    lines = [line.plain for line in board_lines(hand.view(0), Table(("ann", "bot"), 1, ""), None)]
    assert lines[2:] == [
        "T  -- -- --           ## ## ##",
        "M  -- -- -- -- --     ## ## ## ## ##",
        "B  -- -- -- -- --     ## ## ## ## ##",
        "                      fantasy 14 (set)",
    ]
    assert street_line(hand.view(0)).plain == "Street 1 of 5: place 5 cards"


def test_fantasy_street_line() -> None:
    hand = Hand(Rules.preset("pineapple"), button=0, seed=5, fantasy=(0, 14))
    assert street_line(hand.view(1)).plain == (
        "Fantasy: set 13 of your 14 cards, discard 1 (solve shows the solver's board)"
    )
    classic = Hand(Rules(), button=0, seed=5, fantasy=(13, 0))
    assert street_line(classic.view(0)).plain == "Fantasy: set all 13 cards (solve shows the solver's board)"


def test_a_set_fantasy_hand_says_so_while_the_others_play() -> None:
    """Once set, the fantasy player holds no cards: no "set 13 of your 0 cards, discard -13"."""
    hand = Hand(Rules.preset("pineapple"), button=0, seed=5, fantasy=(0, 14))
    hand.apply(FANTASY, 1)
    assert hand.to_act == (0,)
    assert street_line(hand.view(1)).plain == "Fantasy: your hand is set; the others play on"


def test_four_seats_fit_in_80_columns() -> None:
    hand = Hand(Rules.preset("classic").with_settings({"players": 4}), button=3, seed=2)
    names = ("a-very-long-name", "heuristic", "heuristic2", "mc")
    lines = board_lines(hand.view(0), Table(names, 1, ""), None)
    assert max(line.cell_len for line in lines) <= WIDTH - 1
    assert lines[0].plain == "   a-very-long~       heuristic          heuristic2         mc (D)"


def play_lowest_rows(hand: Hand) -> None:
    """Play every seat to the end: cards into the lowest row with room, extra cards discarded."""
    deals = 0
    while not hand.is_over:
        seat = hand.to_act[0]
        view = hand.view(seat)
        placing = Placing.for_view(view)
        rooms = list(placing.rooms)
        for card in view.cards[: placing.places]:
            row = next(r for r in (Row.BOTTOM, Row.MIDDLE, Row.TOP) if rooms[r] > 0)
            rooms[row] -= 1
            placing.place(card, row)
        for card in view.cards[placing.places :]:
            placing.place(card, DISCARD)
        hand.apply(placing.action(seat), 5 + deals)
        deals += 1


def test_showdown_and_ledger_exact() -> None:
    hand = Hand(Rules.preset("pineapple"), button=0, seed=5, fantasy=(0, 14))
    hand.apply(FANTASY, 3)
    play_lowest_rows(hand)
    lines = [line.plain for line in showdown_lines(hand.view(0), ("ann", "bot"), 3)]
    assert lines == [
        "Hand 3: showdown (american scoring)",
        "ann          top    Kd 5d 3d       High card, king",
        "-23 pts      middle Th 8h 7c 6s 2h High card, ten",
        "FOULED       bottom 9s 9c 7d 6d 5h Pair, nines",
        "             royalties 0; -23 vs bot",
        "bot          top    Qs Qc Tc       Pair, queens                    7",
        "+23 pts      middle Jh 8s 8d 4s 4d Two pair, eights and fours",
        "             bottom As Ah Ad Ac Jc Quads, aces                    10",
        "             royalties 17; +23 vs ann; fantasy next hand: 14 cards",
    ]
    halves = (Fraction(13, 2), Fraction(-13, 2))
    ledger = ledger_lines(("ann", "bot"), halves, (Fraction(13), Fraction(-13)), 2, Fraction(2))
    assert [line.plain for line in ledger] == [
        "Match after 2 hands: points (money at 2.00 a point)",
        "  ann +13/2 (+13.00), bot -13/2 (-13.00)",
    ]


def test_card_colours_and_pending_mark() -> None:
    hearts = cardtext.card(parse_card("Ah"))
    assert (hearts.plain, str(hearts.style)) == ("Ah", "red")
    pending = cardtext.card(parse_card("2c"), pending=True)
    assert pending.plain == "2c*"
    assert str(pending.style) == "green reverse"
    assert [str(cardtext.card(parse_card(f"K{s}")).style) for s in "cdhs"] == ["green", "blue", "red", "bold"]


def test_numbers() -> None:
    assert cardtext.clock(ClockReading(Decimal("119.2"), Decimal(180), True, None)) == "2:00 +3:00"
    assert cardtext.clock(ClockReading(Decimal(0), Decimal("0.5"), True, None)) == "0:00 +0:01"
    assert [cardtext.signed(v) for v in (12, -3, 0, Fraction(5, 2))] == ["+12", "-3", "0", "+5/2"]
    assert [cardtext.money(Fraction(v)) for v in (12, Fraction(-1, 3), 0)] == ["+12.00", "-0.33", "0.00"]
