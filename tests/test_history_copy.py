"""A seat's copy of a hand history: no deck, other seats' discards face-down, still checked."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from ofc.cli.app import main
from ofc.engine.hand import Hand
from ofc.formats.history import HandHistory, check_copy, read, replay, write, write_text
from ofc.rules.cards import format_card
from ofc.rules.errors import HistoryError
from ofc.rules.rulebook import Rules


def played(seed: int, preset: str = "pineapple", players: int = 2) -> Hand:
    hand = Hand(Rules.preset(preset).with_settings({"players": players}), button=0, seed=seed)
    rng = random.Random(seed)
    while not hand.is_over:
        seat = hand.to_act[0]
        hand.apply(rng.choice(hand.legal_actions(seat)), 1)
    return hand


def discards(hand: Hand, seat: int) -> list[str]:
    actions = [record.action for record in hand.private_record().actions]
    return [format_card(card) for action in actions if action.seat == seat for card in action.discards]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_copy_hides_other_discards_and_the_deck(seed: int) -> None:
    hand = played(seed, players=3)
    text = write_text(hand, ["ann", "bob", "cat"], viewer=1)
    document = json.loads(text)
    assert document["viewer"] == 1
    assert document["deck"] is None
    others = discards(hand, 0) + discards(hand, 2)
    assert len(others) == 8  # four pineapple streets, one face-down discard each
    for card in others:
        assert f'"{card}"' not in text
    own = discards(hand, 1)
    assert len(own) == 4
    history = read(text)
    mine = [format_card(c) for r in history.records if r.action.seat == 1 for c in r.action.discards]
    assert mine == own
    assert sum(history.hidden) == 8
    assert [n for r, n in zip(history.records, history.hidden, strict=True) if r.action.seat == 1] == [0] * 5


def test_copy_checks_to_the_same_result_as_the_full_replay() -> None:
    hand = played(5)
    copy = read(write_text(hand, viewer=0))
    result = check_copy(copy)
    assert result is not None
    assert hand.result is not None
    assert result.to_dict() == hand.result.to_dict()
    assert read(write(hand)).viewer is None


def test_copy_cannot_be_dealt_again() -> None:
    copy = read(write_text(played(5), ["ann", "bob"], viewer=0))
    with pytest.raises(HistoryError, match="ann's copy of the hand: it holds no deck"):
        replay(copy)
    with pytest.raises(HistoryError, match="already a seat's copy"):
        copy.copy_for(1)
    with pytest.raises(HistoryError, match="no seat 2"):
        HandHistory.of(played(5)).copy_for(2)


def test_tampered_copies_are_refused() -> None:
    hand = played(7)
    document = write(hand, viewer=0)
    tampered = json.loads(json.dumps(document))
    tampered["result"]["players"][0]["points"] += 1
    with pytest.raises(HistoryError, match="says points"):
        check_copy(read(tampered))
    with_deck = dict(document, deck=write(hand)["deck"])
    with pytest.raises(HistoryError, match="must not hold the deck"):
        read(with_deck)
    swapped = json.loads(json.dumps(document))
    first = swapped["actions"][0]["place"][0]
    first[1] = "top" if first[1] != "top" else "bottom"
    with pytest.raises(HistoryError):
        check_copy(read(swapped))
    full = json.loads(json.dumps(write(hand)))
    full["actions"][1]["hidden_discards"] = 1
    with pytest.raises(HistoryError, match="only a seat's copy may leave discards face-down"):
        read(full)
    bad_viewer = dict(document, viewer=5)
    with pytest.raises(HistoryError, match="'viewer' must be null or a seat from 0 to 1"):
        read(bad_viewer)


def test_replay_command_prints_a_copy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = played(9)
    path = tmp_path / "copy.json"
    path.write_text(write_text(hand, ["ann", "bot"], viewer=0), encoding="utf-8")
    main(["replay", str(path)])
    out = capsys.readouterr().out
    assert "ann's copy: other seats' discards stay face-down" in out
    assert out.count("discarded 1 card face-down") == 4
    for card in discards(hand, 1):
        assert card not in out  # a discarded card is on no board, so it is nowhere in the copy
    for card in discards(hand, 0):
        assert f"discarded {card}" in out
    assert "Showdown" in out
