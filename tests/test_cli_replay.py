"""``ofc replay FILE``: a hand worked out by hand, printed street by street."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ofc.cli.app import main
from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.formats import history
from ofc.rules.cards import ALL_CARDS, Deck, parse_cards
from ofc.rules.rulebook import Rules


def stacked(cards: str) -> Deck:
    top = parse_cards(cards)
    return Deck(order=top + tuple(c for c in ALL_CARDS if c not in top))


def fantasy_hand() -> Hand:
    """Pineapple, clocks 10 + 5 s. Ann (button) plays a 14-card fantasy and sets first, at 2 s;
    bob's clock starts then: he spends 2 s on his five and 5 s on street 2, so street 3 (from
    9 s) runs out at 9 + 3 + 5 = 17 s and his automatic placements foul: ann scoops +6 and 13
    royalties."""
    rules = Rules.preset("pineapple").with_settings({"hand_seconds": 10, "time_bank_seconds": 5})
    deck = stacked("Ah Kd 3d Th Td  Qh Qd Qc 9h 9d 9c 3s 4s As Ks Js 8s 2s 7c  5c 6s 2h  7s Jh 8h  Ac Kc 2d  Qs Jc 3c")
    hand = Hand(rules, button=0, deck=deck, fantasy=(14, 0))
    hand.apply(Action.of(0, top="Qh Qd 4s", middle="9h 9d 9c Qc 3s", bottom="As Ks Js 8s 2s", discard="7c"), 2)
    hand.apply(Action.of(1, top="Ah Kd 3d", middle="Th Td"), 4)
    hand.apply(Action.of(1, middle="5c 6s", discard="2h"), 9)
    hand.advance(30)
    return hand


EXPECTED = """\
pineapple, 2 players, american scoring
seats: ann, bob; button: ann
deck: shuffled (no seed)
fantasy: ann is dealt 14 cards

Fantasy hands (set first, face-down until the showdown)
  ann  fantasy: top Qh Qd 4s | middle Qc 9h 9d 9c 3s | bottom As Ks Js 8s 2s; discarded 7c  (at 2 s)

Street 1 (5 cards: place 5)
  bob  top Ah Kd 3d | middle Th Td  (at 4 s)

Street 2 (3 cards: place 2, discard 1)
  bob  middle 6s 5c; discarded 2h  (at 9 s)

Street 3 (3 cards: place 2, discard 1)
  bob  bottom Jh 7s; discarded 8h  (at 17 s, automatic: out of time)

Street 4 (3 cards: place 2, discard 1)
  bob  bottom Ac Kc; discarded 2d  (at 17 s, automatic: out of time)

Street 5 (3 cards: place 2, discard 1)
  bob  middle Jc | bottom Qs; discarded 3c  (at 17 s, automatic: out of time)

Showdown
  ann  top    Qh Qd 4s       Pair, queens, royalty 7
       middle Qc 9h 9d 9c 3s Trips, nines, royalty 2
       bottom As Ks Js 8s 2s Flush, ace high, royalty 4
       royalties 13
  bob  top    Ah Kd 3d       High card, ace
       middle Th Td 6s 5c Jc Pair, tens
       bottom Jh 7s Ac Kc Qs High card, ace
       FOULED, royalties 0

Points
  ann  +19 pts  (+19 vs bob)
  bob  -19 pts  (-19 vs ann)
"""


def test_replay_prints_the_hand_street_by_street(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.json"
    path.write_text(history.write_text(fantasy_hand(), ["ann", "bob"]), encoding="utf-8")
    main(["replay", str(path)])
    assert capsys.readouterr().out == EXPECTED


def test_replay_reads_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(history.write(fantasy_hand()))))
    main(["replay", "-"])
    out = capsys.readouterr().out
    assert out.splitlines()[1] == "seats: seat 0, seat 1; button: seat 0"
    assert out.endswith("  seat 1  -19 pts  (-19 vs seat 0)\n")


def test_seeded_unfinished_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = Hand(Rules.preset("classic"), button=1, seed=12)
    hand.apply(Action.of(0, bottom=hand.view(0).cards), 3)
    path = tmp_path / "hand.json"
    path.write_text(history.write_text(hand), encoding="utf-8")
    main(["replay", str(path)])
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == "deck: seed 12"
    assert lines[-1] == "The hand is not finished."
    assert lines[-4] == "Street 1 (5 cards: place 5)"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "ofc: error: {path} is not valid JSON: Expecting property name enclosed in double quotes at line 1"),
        ("[]", "ofc: error: a hand history must be a JSON object"),
        (
            '{"format": "ofc-hand-history", "version": 7}',
            "ofc: error: unsupported hand history version 7: this reads 1 and 2",
        ),
    ],
)
def test_bad_files_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SystemExit) as caught:
        main(["replay", str(path)])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err == message.format(path=path) + "\n"


def test_a_tampered_result_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = history.write(fantasy_hand(), ["ann", "bob"])
    document["result"]["players"][1]["points"] = 5  # type: ignore[index]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["replay", str(path)])
    assert capsys.readouterr().err == ("ofc: error: the history's result for bob says points 5, the replay gives -19\n")
