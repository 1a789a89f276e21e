"""``ofc keep``: a book kept hand by hand from the command line, its JSON, its errors (status 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ofc.cli.app import main
from support.keep_books import (
    PINEAPPLE_BUTTONS,
    PINEAPPLE_FANTASY,
    PINEAPPLE_FOULED,
    PINEAPPLE_HANDS,
    PINEAPPLE_MONEY,
    PINEAPPLE_POINTS,
    PINEAPPLE_SETTLEMENT,
    PINEAPPLE_TOTALS,
    classic_book,
    pineapple_book,
)


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(args)
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def assignments(hand: dict[str, str]) -> list[str]:
    return [f"{name}={board}" for name, board in hand.items()]


def test_keep_a_pineapple_match_hand_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = str(tmp_path / "game.json")
    code, out, err = run(
        ["keep", "new", book, "ann", "bob", "cat", "--rules", "pineapple", "--set", "point_value=0.5", "--button=ann"],
        capsys,
    )
    assert (code, err) == (0, "")
    assert "Next: hand 1, button ann, order of play bob, cat, ann." in out
    for number, hand in enumerate(PINEAPPLE_HANDS):
        code, out, err = run(["keep", "add", book, *assignments(hand)], capsys)
        assert (code, err) == (0, ""), err
        assert f"hand {number + 1}: pineapple, american scoring, button {PINEAPPLE_BUTTONS[number]}" in out
    assert "DEAD" not in out
    assert "The match is over after 5 hands." in out
    assert "ann pays bob 2" in out
    assert "ann pays cat 1" in out
    code, out, err = run(["keep", "score", book, "--json"], capsys)
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert [hand["points"] for hand in result["hands"]] == PINEAPPLE_POINTS
    assert [hand["button"] for hand in result["hands"]] == PINEAPPLE_BUTTONS
    assert [hand["fantasy"] for hand in result["hands"]] == PINEAPPLE_FANTASY
    assert [hand["fouled"] for hand in result["hands"]] == PINEAPPLE_FOULED
    assert result["totals"] == {"points": PINEAPPLE_TOTALS, "money": PINEAPPLE_MONEY}
    assert result["settlement"] == PINEAPPLE_SETTLEMENT
    assert result["match_over"] is True
    # A sixth hand is refused and the book is left as it was.
    before = Path(book).read_text()
    code, out, err = run(["keep", "add", book, *assignments(PINEAPPLE_HANDS[0])], capsys)
    assert code == 2
    assert err == "ofc: error: hand 6: the match is over after 5 hands; start a new book\n"
    assert Path(book).read_text() == before
    # The next book: same players and rules, the button one seat on from cat's (refused
    # while the old match is not over).
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(json.dumps(pineapple_book(2)))
    code, out, err = run(["keep", "new", str(tmp_path / "early.json"), "--after", str(unfinished)], capsys)
    assert code == 2
    assert err == f"ofc: error: the match of {unfinished} is not over yet: finish it (or start a book with names)\n"
    following = str(tmp_path / "next.json")
    code, out, err = run(["keep", "new", following, "--after", book], capsys)
    assert (code, err) == (0, "")
    assert json.loads(Path(following).read_text())["button"] == "ann"


def test_score_reads_a_whole_book_from_stdin_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "classic.json"
    path.write_text(json.dumps(classic_book()))
    code, out, err = run(["keep", "score", str(path)], capsys)
    assert (code, err) == (0, "")
    assert "dan pays cat 2.5" not in out
    assert "dan pays cat 10" in out
    assert "out: loss limit" in out
    assert "(was -18)" in out


def test_edit_and_delete_rescore_later_hands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(pineapple_book(3)))
    # Hand 3 with bob's board fouled instead of dead scores the same (see test_keep).
    code, out, err = run(["keep", "edit", str(path), "3", "bob=Ac Ad 2d / Kd Ks 3c 4c 5c / Qd Qs 7h 8c 9s"], capsys)
    assert (code, err) == (0, "")
    stored = json.loads(path.read_text())
    assert stored["hands"][2]["bob"]["top"] == "Ac Ad 2d"
    assert stored["hands"][2]["ann"]["top"] == "7c 7d 2h"
    code, out, err = run(["keep", "delete", str(path)], capsys)
    assert (code, err) == (0, "")
    assert len(json.loads(path.read_text())["hands"]) == 2
    code, out, err = run(["keep", "show", str(path)], capsys)
    assert "Next: hand 3, button bob, order of play cat, ann, bob." in out
    code, out, err = run(["keep", "edit", str(path), "7", "bob=dead"], capsys)
    assert (code, err) == (2, "ofc: error: there is no hand 7: the book holds 2 hands\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            [
                "ann=Kc 7d 2h / 9c 9d 4h 5s 6c / Jc Jd Jh 3s 8c",
                "bob=dead",
                "cat=Kc 8d 3h / Tc Td 4c 5d 7s / 2c 2d 2s 6d",
            ],
            "cat, bottom row: needs 5 cards, got 4",
        ),
        (["ann=Kc 7d / 9c 9d 4h 5s 6c / Jc Jd Jh 3s 8c", "bob=dead", "cat=dead"], "ann, top row: needs 3 cards, got 2"),
        (["zed=dead"], "unknown player 'zed' (players: ann, bob, cat)"),
        (
            [
                "ann=Kc 7d 2h / 9c 9d 4h 5s 6c / Jc Jd Jh 3s 8c",
                "bob=Kc 8d 3h / Tc Td 4c 5d 7s / 2c 2d 2s 6d 6h",
                "cat=dead",
            ],
            "hand 1: card Kc is entered for both ann and bob",
        ),
        (["ann"], "expected NAME=BOARD (or NAME=dead), got 'ann'"),
    ],
)
def test_bad_hands_exit_2_and_change_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(pineapple_book(0)))
    before = path.read_text()
    code, out, err = run(["keep", "add", str(path), *args], capsys)
    assert (code, out) == (2, "")
    assert err == f"ofc: error: {message}\n"
    assert path.read_text() == before


def test_keep_alone_prints_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["keep"], capsys)
    assert (code, err) == (0, "")
    assert "new" in out
    assert "score" in out


def test_a_book_file_that_does_not_parse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"players": ["ann", ')
    code, _, err = run(["keep", "show", str(path)], capsys)
    assert code == 2
    assert err.startswith(f"ofc: error: {path} is not valid JSON")
    code, _, err = run(["keep", "new", str(path), "ann", "bob"], capsys)
    assert (code, err) == (2, f"ofc: error: {path} exists: choose another file or pass --force\n")
