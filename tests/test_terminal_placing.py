"""The action being built at the terminal: placing, moving, taking back, and its checks."""

from __future__ import annotations

import pytest

from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.rules.cards import parse_card, parse_cards
from ofc.rules.rows import Row
from ofc.rules.rulebook import Rules
from ofc.terminal.commands import DISCARD, CommandError
from ofc.terminal.placing import Placing


def c(text: str) -> int:
    return parse_card(text)


def pineapple_street() -> Placing:
    """Three cards, one to discard; the top row has room for one card only."""
    return Placing(parse_cards("Ah Kd 7c"), (1, 5, 5), 1)


def test_place_build_and_action() -> None:
    placing = pineapple_street()
    placing.place(c("Ah"), Row.BOTTOM)
    placing.place(c("Kd"), Row.TOP)
    assert not placing.complete
    assert placing.unplaced == (c("7c"),)
    placing.place(c("7c"), DISCARD)
    assert placing.complete
    assert placing.action(2) == Action.of(2, top="Kd", bottom="Ah", discard="7c")


def test_placing_again_moves_the_card() -> None:
    placing = pineapple_street()
    placing.place(c("Ah"), Row.BOTTOM)
    placing.place(c("Ah"), Row.MIDDLE)
    assert placing.cards_in(Row.BOTTOM) == ()
    assert placing.cards_in(Row.MIDDLE) == (c("Ah"),)
    assert placing.target_of(c("Ah")) == Row.MIDDLE


def test_undo_last_named_and_clear() -> None:
    placing = pineapple_street()
    placing.place(c("Ah"), Row.BOTTOM)
    placing.place(c("Kd"), Row.MIDDLE)
    assert placing.undo() == c("Kd")
    placing.place(c("Kd"), Row.MIDDLE)
    assert placing.undo(c("Ah")) == c("Ah")
    assert placing.moves == [(c("Kd"), Row.MIDDLE)]
    placing.clear()
    assert placing.moves == []


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ([("Qs", Row.TOP)], "you do not hold Qs: your cards are Ah Kd 7c"),
        ([("Ah", Row.TOP), ("Kd", Row.TOP)], "the top row is full"),
        ([("Ah", DISCARD), ("Kd", DISCARD)], "you discard only 1 card now"),
    ],
)
def test_mistakes_are_refused_when_typed(steps: list[tuple[str, Row | str]], message: str) -> None:
    placing = pineapple_street()
    *ok, (card, target) = steps
    for text, where in ok:
        placing.place(c(text), where)  # type: ignore[arg-type]
    with pytest.raises(CommandError) as caught:
        placing.place(c(card), target)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_nothing_to_discard_and_nothing_to_undo() -> None:
    placing = Placing(parse_cards("Ah"), (3, 5, 5), 0)
    with pytest.raises(CommandError, match="nothing is discarded now: put every card into a row"):
        placing.place(c("Ah"), DISCARD)
    with pytest.raises(CommandError, match="nothing to take back: no card is placed yet"):
        placing.undo()
    assert placing.unplaced == (c("Ah"),)
    placing.place(c("Ah"), Row.TOP)
    with pytest.raises(CommandError, match="Kd is not placed, so there is nothing to take back"):
        placing.undo(c("Kd"))


def test_load_replaces_what_is_placed() -> None:
    placing = pineapple_street()
    placing.place(c("Ah"), Row.TOP)
    placing.load(Action.of(0, middle="Ah Kd", discard="7c"))
    assert placing.action(0) == Action.of(0, middle="Ah Kd", discard="7c")


def test_for_view_reads_rooms_and_discards() -> None:
    hand = Hand(Rules.preset("pineapple"), button=1, seed=11)
    hand.apply(Action.of(0, top="Jh", middle="6h 6d", bottom="3c 5s"), 1)
    hand.apply(Action.of(1, top="2s", middle="4h 4c", bottom="9s Ac"), 2)
    placing = Placing.for_view(hand.view(0))
    assert (placing.held, placing.rooms, placing.discards, placing.places) == (
        parse_cards("Th 5d 8c"),
        (2, 3, 3),
        1,
        2,
    )
    fantasy = Placing.for_view(Hand(Rules.preset("pineapple"), button=0, seed=5, fantasy=(0, 14)).view(1))
    assert (len(fantasy.held), fantasy.rooms, fantasy.discards) == (14, (3, 5, 5), 1)
    with pytest.raises(CommandError, match="a spectator has no cards to place"):
        Placing.for_view(hand.view(None))
