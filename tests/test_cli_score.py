"""``ofc score`` and ``ofc rules``: output, JSON shape, and one-line errors with status 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ofc.cli.app import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "pineapple-table.json"

ANN = {"name": "ann", "top": "Qh Qd 2c", "middle": "9h 9d 9c 3s 4s", "bottom": "As Ks Js 8s 2s"}
BOB = {"name": "bob", "top": "Ah Kd 2d", "middle": "Th Td 5c 6s 7s", "bottom": "Ac Kc Qc Jc 3c"}
CAT = {"name": "cat", "top": "8c 8d 7h", "middle": "5h 5d 4h 4d 6h", "bottom": "Jh Jd 3h 3d 7c"}
DAN = {"name": "dan", "top": "Tc Ts Ad", "middle": "6c 6d Kh Qs 9s", "bottom": "2h 4c 5s 7d 8h"}


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], stdin: str | io.TextIOBase | None = None
) -> tuple[int, str, str]:
    if stdin is not None:
        sys.stdin = io.StringIO(stdin) if isinstance(stdin, str) else stdin
    try:
        main(args)
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, document: object) -> str:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def test_json_output_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["score", str(EXAMPLE), "--json"], capsys)
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "players": [
            {
                "name": "ann",
                "fouled": False,
                "royalties": {"top": 7, "middle": 2, "bottom": 4, "total": 13},
                "fantasy": 14,
                "points": 26,
                "vs": {"bob": 10, "cat": 16},
            },
            {
                "name": "bob",
                "fouled": False,
                "royalties": {"top": 0, "middle": 0, "bottom": 4, "total": 4},
                "fantasy": 0,
                "points": -10,
                "vs": {"ann": -10, "cat": 0},
            },
            {
                "name": "cat",
                "fouled": False,
                "royalties": {"top": 3, "middle": 0, "bottom": 0, "total": 3},
                "fantasy": 0,
                "points": -16,
                "vs": {"ann": -16, "bob": 0},
            },
        ]
    }


def test_rules_override_and_set(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, {"rules": "pineapple", "players": [ANN, BOB, CAT, DAN]})
    code, out, err = run(["score", path, "--rules", "classic", "--json"], capsys)
    assert (code, err) == (0, "")
    players = json.loads(out)["players"]
    assert [p["points"] for p in players] == [46, -2, -6, -38]
    assert players[3]["fouled"] is True
    assert players[3]["royalties"]["total"] == 0
    assert players[0]["fantasy"] == 13
    code, out, _ = run(["score", path, "--rules", "classic", "--set", "fantasy=off", "--json"], capsys)
    assert [p["fantasy"] for p in json.loads(out)["players"]] == [0, 0, 0, 0]


def test_set_applies_on_top_of_file_rules(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    document = {"rules": {"preset": "pineapple", "fantasy_cards": "progressive"}, "players": [ANN, BOB]}
    path = write(tmp_path, document)
    code, out, _ = run(["score", path, "--json"], capsys)
    assert code == 0
    assert json.loads(out)["players"][0]["fantasy"] == 14
    code, out, _ = run(["score", path, "--set", "fantasy_max_in_row=1", "--json"], capsys)
    assert code == 0
    assert json.loads(out)["players"][0]["fantasy"] == 14  # still progressive pineapple: QQ deals 14
    code, _, err = run(["score", path, "--set", "scoring=classic", "--json"], capsys)
    assert code != 0
    assert "setting scoring: classic scoring is not played in pineapple" in err


def test_rows_as_lists_and_stdin(capsys: pytest.CaptureFixture[str]) -> None:
    bob = dict(BOB, top=["Ah", "Kd", "2d"])
    document = json.dumps({"rules": "pineapple", "players": [ANN, bob]})
    code, out, _ = run(["score", "-", "--json"], capsys, stdin=document)
    assert code == 0
    assert [p["points"] for p in json.loads(out)["players"]] == [10, -10]


def test_fantasy_in_row(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, {"rules": "classic", "players": [dict(ANN, fantasy_in_row=1), BOB]})
    code, out, _ = run(["score", path, "--json"], capsys)
    assert code == 0
    assert json.loads(out)["players"][0]["fantasy"] == 0  # QQ does not keep fantasy


def test_readable_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, {"rules": "classic", "players": [ANN, BOB, CAT, DAN]})
    code, out, _ = run(["score", path], capsys)
    assert code == 0
    for text in ("Pair, queens", "Trips, nines", "Flush, ace high", "FOULED", "dan", "+46", "-38", "13 cards"):
        assert text in out


def test_names_are_printed_as_written_not_read_as_markup(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A name like '[/bold]' made rich raise MarkupError (a traceback); '[red]b' lost its text."""
    players = [dict(ANN, name="[/bold]"), dict(BOB, name="[red]b")]
    code, out, err = run(["score", write(tmp_path, {"players": players})], capsys)
    assert (code, err) == (0, "")
    assert out.count("[/bold]") == 3  # the boards, the results row and the results column
    assert out.count("[red]b") == 3


BAD_INPUTS = [
    ({"players": [dict(ANN, top="Qh Qd 1c"), BOB]}, "player 'ann', top row: unknown card '1c'"),
    ({"players": [dict(ANN, top="Qh Qd Qd"), BOB]}, "player 'ann', top row: card Qd appears twice"),
    ({"players": [ANN, dict(BOB, top="Qh Kd 2d")]}, "card Qh is on two boards"),
    ({"players": [dict(ANN, top="Qh Qd"), BOB]}, "player 'ann': the top row needs 3 cards, got 2"),
    ({"players": [dict(ANN, middle="9h 9d 9c 3s"), BOB]}, "the middle row needs 5 cards, got 4"),
    ({"players": [ANN]}, "a table needs at least 2 players, got 1"),
    ({"rules": "pineapple", "players": [ANN, BOB, CAT, DAN]}, "setting players: pineapple allows 2-3 players, not 4"),
    ({"rules": "omaha", "players": [ANN, BOB]}, "unknown preset 'omaha'"),
    ({"rules": {"preset": "classic", "colour": "red"}, "players": [ANN, BOB]}, "unknown setting 'colour'"),
    ({"rules": {"preset": "classic", "players": 3}, "players": [ANN, BOB]}, "setting players is 3 but 2"),
    ({"players": [dict(ANN, midle="x"), BOB]}, "player 1: unknown key 'midle'"),
    ({"players": [{"name": "ann", "top": "Qh Qd 2c", "middle": "9h 9d 9c 3s 4s"}, BOB]}, "the bottom row is missing"),
    ({"players": [dict(ANN, name="bob"), BOB]}, "two players are called 'bob'"),
    ({"players": "ann"}, '"players" must be a list'),
    ({"players": [ANN, BOB], "extra": 1}, "unknown key 'extra' at the top level"),
    ([1, 2], "expected a JSON object"),
    ({"players": [dict(ANN, top=7), BOB]}, "the top row must be a string or a list of cards"),
    ({"players": [dict(ANN, fantasy_in_row=-1), BOB]}, "fantasy_in_row must be a whole number"),
]


@pytest.mark.parametrize(("document", "message"), BAD_INPUTS)
def test_bad_input_exits_2_with_one_line(
    document: object, message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(["score", write(tmp_path, document)], capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("ofc: error: ")
    assert message in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "missing.json"], "cannot read missing.json"),
        (["score", str(EXAMPLE), "--rules", "holdem"], "unknown preset 'holdem'"),
        (["score", str(EXAMPLE), "--set", "players"], "expected KEY=VALUE"),
        (["score", str(EXAMPLE), "--set", "speed=3"], "unknown setting 'speed'"),
        (["score", str(EXAMPLE), "--set", "players=2"], "--set players=2 but the table has 3 players"),
        (["score", str(EXAMPLE), "--bogus"], "No such option: --bogus"),
        (["rules", "holdem"], "unknown preset 'holdem'"),
        (["frobnicate"], "No such command"),
    ],
)
def test_bad_arguments(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(args, capsys)
    assert code == 2
    assert err.count("\n") == 1
    assert message in err


def test_malformed_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["score", "-"], capsys, stdin="{not json")
    assert code == 2
    assert "standard input is not valid JSON" in err


@pytest.mark.parametrize("command", ["score", "replay"])
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "table.json is not valid JSON: it is nested too deeply"),
        ('{"players": ' + "1" * 5000 + "}", "table.json is not valid JSON: a number has too many digits"),
    ],
)
def test_json_the_parser_cannot_hold_is_one_line(
    command: str, text: str, message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "table.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = run([command, str(path)], capsys)
    assert (code, out) == (2, "")
    assert err == f"ofc: error: {tmp_path / message}\n"


@pytest.mark.parametrize("command", [["score", "-"], ["replay", "-"], ["solve", "fantasy", "--batch", "-"]])
def test_standard_input_that_is_not_utf8_is_one_line(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """In a UTF-8 locale standard input decodes strictly: a stray byte raised UnicodeDecodeError."""
    stdin = io.TextIOWrapper(io.BytesIO(b'{"players": "\xff"}'), encoding="utf-8", errors="strict")
    code, out, err = run(command, capsys, stdin=stdin)
    assert (code, out) == (2, "")
    assert err == "ofc: error: cannot read standard input: not UTF-8 text\n"


def test_real_process_has_no_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, {"players": [dict(ANN, top="Qh Qd Zz"), BOB]})
    done = subprocess.run([sys.executable, "-m", "ofc", "score", path], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert (
        done.stderr.strip() == "ofc: error: player 'ann', top row: unknown card 'Zz': expected a rank of "
        "23456789TJQKA (or 10) and a suit of cdhs"
    )


def test_a_table_set_to_pineapple_is_scored_american(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """No preset, only the variant: american scoring, so ann's 2-1 over bob is +1 (not +2), plus
    13 - 4 royalties, and her scoop of cat is 3 + 3 plus 13 - 3."""
    path = write(tmp_path, {"rules": {"variant": "pineapple", "players": 3}, "players": [ANN, BOB, CAT]})
    code, out, _ = run(["score", path, "--json"], capsys)
    assert code == 0
    assert [p["vs"] for p in json.loads(out)["players"]] == [
        {"bob": 10, "cat": 16},
        {"ann": -10, "cat": 0},
        {"ann": -16, "bob": 0},
    ]
    code, out, _ = run(["rules", "classic", "--set", "variant=pineapple", "--json"], capsys)
    assert json.loads(out)["settings"]["scoring"] == "american"


def test_rules_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "pineapple", "--json"], capsys)
    assert code == 0
    document = json.loads(out)
    assert document["settings"]["variant"] == "pineapple"
    assert document["settings"]["scoring"] == "american"
    assert document["royalties"]["bottom_middle"]["royal flush"] == {"bottom": 25, "middle": 50}
    assert document["royalties"]["bottom_middle"]["four of a kind"] == {"bottom": 10, "middle": 20}
    assert document["royalties"]["bottom_middle"]["trips"] == {"bottom": 0, "middle": 2}
    assert document["royalties"]["top"]["pair of sixes"] == 1
    assert document["royalties"]["top"]["trips, aces"] == 22
    assert "pair of fives" not in document["royalties"]["top"]
    code, out, _ = run(["rules", "classic"], capsys)
    assert code == 0
    assert "fantasy_max_in_row" in out
    assert "Royal flush" in out


def test_rules_command_with_override(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "classic", "--set", "fantasy_max_in_row=none", "--json"], capsys)
    assert code == 0
    assert json.loads(out)["settings"]["fantasy_max_in_row"] is None


def test_no_arguments_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([], capsys)
    assert code == 0
    assert "score" in out
