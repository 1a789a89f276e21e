"""``ofc solve fantasy``: human and JSON output, batches, and one-line errors with status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ofc.cli.app import main

ROYAL = "Kc Kd Kh Ts Js Qs Ks As 2h 4h 6h 8h Th"
QUADS = "2c 2d 2h 2s 3c Ah Kh Qh Jh 9h Qc Qd 4s"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(args)
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["solve", "fantasy", ROYAL + " 3c", "--json"], capsys)
    assert (code, err) == (0, "")
    document = json.loads(out)
    seconds = document.pop("seconds")
    assert document == {
        "top": ["Kc", "Kd", "Kh"],
        "middle": ["2h", "4h", "6h", "8h", "Th"],
        "bottom": ["Ts", "Js", "Qs", "Ks", "As"],
        "discards": ["3c"],
        "royalties": 54,
        "stays": True,
        "value": 54 + 12.0,
    }
    assert isinstance(seconds, float)
    assert seconds > 0  # how long it took is reported; how fast it is belongs to benchmarks/


def test_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", "fantasy", QUADS], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["top", "3c", "Qc", "Qd", "Pair,", "queens", "7"]
    assert lines[1].split() == ["middle", "9h", "Jh", "Qh", "Kh", "Ah", "Flush,", "ace", "high", "8"]
    assert lines[2].split() == ["bottom", "2c", "2d", "2h", "2s", "4s", "Quads,", "deuces", "10"]
    assert lines[3:7] == ["discards  -", "royalties 25", "stays     yes (a repeat is worth 12)", "value     37"]
    assert lines[7].startswith("time ")
    assert lines[7].endswith(" ms")


def test_settings_stay_value_and_no_stay(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["solve", "fantasy", QUADS, "--json", "--set", "fantasy_stay=top_trips"]
    assert json.loads(run(args, capsys)[1])["value"] == 28.0  # 16 royalties + the stay, 12
    assert json.loads(run([*args, "--stay-value", "8"], capsys)[1])["value"] == 25.0
    no_stay = json.loads(run([*args, "--no-stay"], capsys)[1])
    assert (no_stay["value"], no_stay["stays"]) == (25.0, False)
    classic = json.loads(run(["solve", "fantasy", QUADS, "--json", "--rules", "classic"], capsys)[1])
    assert (classic["royalties"], classic["value"]) == (23, 23 + 12.0)


def test_progressive_seventeen_cards(capsys: pytest.CaptureFixture[str]) -> None:
    deal = ROYAL + " 3c 3d 5s 7c"
    code, out, _ = run(["solve", "fantasy", deal, "--rules", "pineapple-progressive", "--json"], capsys)
    assert code == 0
    document = json.loads(out)
    assert (document["value"], document["discards"]) == (54 + 12.0, ["3c", "3d", "5s", "7c"])


def test_batch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deals.txt"
    path.write_text(f"{ROYAL}\n\n{QUADS}\n", encoding="utf-8")
    code, out, err = run(["solve", "fantasy", "--batch", str(path)], capsys)
    assert (code, err) == (0, "")
    documents = [json.loads(line) for line in out.splitlines()]
    assert [d["value"] for d in documents] == [54 + 12.0, 25 + 12.0]


def test_batch_error_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deals.txt"
    path.write_text(f"{ROYAL}\n{QUADS} 5c 6c\n", encoding="utf-8")
    code, out, err = run(["solve", "fantasy", "--batch", str(path)], capsys)
    assert code == 2
    rule = "a fantasy deal has 13 to 14 cards under these rules (pineapple, fantasy_cards=fixed)"
    assert err == f"ofc: error: {path} line 2: {rule}, got 15\n"
    assert len(out.splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([QUADS.replace("4s", "2c")], "card 2c appears twice"),
        ([QUADS.replace("4s", "4x")], "unknown card '4x'"),
        (["Ah Kh Qh"], "13 to 14 cards under these rules (pineapple, fantasy_cards=fixed), got 3"),
        ([QUADS + " 5c 6c"], "got 15"),
        ([QUADS + " 5c", "--rules", "classic"], "13 to 13 cards"),
        ([], "give either CARDS or --batch FILE"),
        ([QUADS, "--stay-value", "-1"], "stay value must be a finite number of points >= 0"),
        ([QUADS, "--set", "fantasy_stay=sometimes"], "setting fantasy_stay"),
        ([QUADS, "--rules", "nope"], "unknown preset 'nope'"),
    ],
)
def test_bad_input(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["solve", "fantasy", *args], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("ofc: error: ")
    assert message in err
    assert err.count("\n") == 1
