"""``ofc tournament``: one bot tournament to the end, --json, --repeat, and bad input."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from rich.console import Console

from ofc.cli.app import main
from ofc.cli.tournament_cmd import level_lines, standings_table
from ofc.sim.tournaments import LevelPlayed, Standing, TournamentRun
from ofc.terminal.tournament import ordinal

FAST = ["--bots", "random,heuristic,random", "--set", "starting_chips=60", "--set", "level_hands=2"]


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    main(["tournament", *args])
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def test_json_places_hands_and_levels(capsys: pytest.CaptureFixture[str]) -> None:
    args = [*FAST, "--set", "payouts=0.7,0.3", "--seed", "3", "--json"]
    document = json.loads(run_cli(args, capsys))
    assert set(document) == {"places", "hands", "levels"}
    places = document["places"]
    assert [set(p) for p in places] == [{"name", "place", "prize", "hands_played", "out_in_hand"}] * 3
    assert sorted(p["name"] for p in places) == ["heuristic", "random", "random2"]
    assert [p["place"] for p in places] == sorted(p["place"] for p in places)
    # Three bots buy in for 100: the prizes, exact decimal text, add up to 300.00.
    assert sum(Decimal(p["prize"]) for p in places) == Decimal(300)
    winner = places[0]
    assert (winner["place"], winner["out_in_hand"], winner["hands_played"]) == (1, None, document["hands"])
    assert all(p["out_in_hand"] == p["hands_played"] for p in places[1:])
    levels = document["levels"]
    # Two hands a level at 5, 10, 15, ... chips a point (the pineapple preset's schedule).
    assert [level["level"] for level in levels] == list(range(1, len(levels) + 1))
    assert [level["chips_per_point"] for level in levels] == [5, 10, 15, 25, 40, 60, 100, 150, 250, 400][: len(levels)]
    assert all(level["hands"] == 2 for level in levels[:-1])
    assert sum(level["hands"] for level in levels) == document["hands"]
    # The same seed plays the same tournament.
    assert json.loads(run_cli(args, capsys)) == document


def test_text_shows_each_level_and_the_final_standings(capsys: pytest.CaptureFixture[str]) -> None:
    document = json.loads(run_cli([*FAST, "--seed", "8", "--json"], capsys))
    out = run_cli([*FAST, "--seed", "8"], capsys)
    lines = out.splitlines()
    assert lines[0] == "pineapple tournament, 3 players, buy-in 100.00, 60 chips, 2 hands a level, seed 8"
    assert [line.split(":")[0] for line in lines[1 : 1 + len(document["levels"])]] == [
        f"level {n:>2}" for n in range(1, len(document["levels"]) + 1)
    ]
    assert f"Final standings after {document['hands']} hands, prize pool 300.00" in out
    for place in document["places"]:
        assert f"{place['name']} out in hand {place['out_in_hand']}" in out or place["place"] == 1
        assert f"{ordinal(place['place'])}" in out


def test_level_lines_and_standings_worked_by_hand() -> None:
    # Two levels of 2 hands at 5 then 10 chips a point; bob busts in hand 3 and finishes 2nd.
    standings = (
        Standing("ann", 1, 1, 1, Decimal("140.00"), 3, None),
        Standing("bob", 0, 2, 1, Decimal("60.00"), 3, 3),
    )
    levels = (LevelPlayed(1, 5, 2, (130, 70), ()), LevelPlayed(2, 10, 1, (200, 0), (1,)))
    run = TournamentRun(0, Decimal(200), 3, standings, levels)
    assert level_lines(run) == [
        "level  1: 5 chips a point, 2 hands; chips ann 130, bob 70",
        "level  2: 10 chips a point, 1 hand; chips ann 200, bob 0; bob out in hand 3 (2nd)",
    ]
    console = Console(width=80, record=True, color_system=None)
    console.print(standings_table(run))
    text = console.export_text()
    assert "Final standings after 3 hands, prize pool 200.00" in text
    assert "│ 1st   │ ann │ 140.00 │            3 │           - │" in text
    assert "│ 2nd   │ bob │  60.00 │            3 │           3 │" in text
    assert run.to_dict() == {
        "places": [
            {"name": "ann", "place": 1, "prize": "140.00", "hands_played": 3, "out_in_hand": None},
            {"name": "bob", "place": 2, "prize": "60.00", "hands_played": 3, "out_in_hand": 3},
        ],
        "hands": 3,
        "levels": [{"level": 1, "chips_per_point": 5, "hands": 2}, {"level": 2, "chips_per_point": 10, "hands": 1}],
    }


def test_a_tie_for_a_place_is_shown_as_shared() -> None:
    standings = (
        Standing("ann", 0, 1, 1, Decimal("210.00"), 1, None),
        Standing("bob", 1, 2, 2, Decimal("45.00"), 1, 1),
        Standing("cat", 2, 2, 2, Decimal("45.00"), 1, 1),
    )
    run = TournamentRun(0, Decimal(300), 1, standings, (LevelPlayed(1, 1, 1, (300, 0, 0), (1, 2)),))
    assert level_lines(run) == [
        "level  1: 1 chip a point, 1 hand; chips ann 300, bob 0, cat 0; bob out in hand 1 (2nd-3rd (tied)); "
        "cat out in hand 1 (2nd-3rd (tied))"
    ]


def test_repeat_reports_prizes_and_places_whatever_the_workers(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--bots", "heuristic,random", "--set", "starting_chips=30", "--seed", "5", "--repeat", "6", "--json"]
    one = json.loads(run_cli([*args, "--workers", "1"], capsys))
    two = json.loads(run_cli([*args, "--workers", "2"], capsys))
    assert one == two
    assert (one["tournaments"], one["seed"], one["buy_in"]) == (6, 5, "100")
    assert [bot["name"] for bot in one["bots"]] == ["heuristic", "random"]
    # Two bots, winner takes all: the mean prizes add up to the pool of 200.
    assert sum(bot["mean_prize"] for bot in one["bots"]) == pytest.approx(200)
    for bot in one["bots"]:
        assert [p["place"] for p in bot["places"]] == [1, 2]
        assert sum(p["share"] for p in bot["places"]) == pytest.approx(1)
        assert all(p["ci95"][0] <= p["share"] <= p["ci95"][1] for p in bot["places"])
    text = run_cli(args[:-1], capsys)
    assert "6 tournaments, buy-in 100.00, seed 5" in text
    assert "1st (95% CI)" in text


BAD = [
    (["--bots", "random,robot"], "unknown bot 'robot': choose one of random, heuristic, mc"),
    (["--bots", "random"], "--bots: a tournament needs at least two bots, not 1"),
    (["--bots", "random,random,random,random"], "setting players: pineapple allows 2-3 players, not 4"),
    (["--bots", "random,random", "--set", "buy_in=-5"], "setting buy_in: must not be negative, got -5"),
    (["--bots", "random,random", "--set", "starting_chips=0"], "setting starting_chips"),
    (["--bots", "random,random", "--set", "chips_per_point=10,5"], "setting chips_per_point: levels must not decrease"),
    (["--bots", "random,random", "--set", "payouts=0.6,0.3"], "setting payouts: shares must add up to 1, not 0.9"),
    (["--bots", "random,random", "--set", "payouts=0.5,0.3,0.2"], "setting payouts: 3 places paid but 2 players"),
    (["--bots", "random,random", "--set", "blinds=5"], "unknown setting 'blinds'"),
    (["--bots", "random,random", "--repeat", "0"], "--repeat must be at least 1, not 0"),
    (["--bots", "random,random", "--workers", "0"], "--workers must be at least 1, not 0"),
    (["--bots", "random,random", "--rules", "omaha"], "unknown preset 'omaha'"),
    (["--bots", "random,random", "--seed", "-1"], "Invalid value for '--seed'"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_bad_input_exits_2_with_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["tournament", *args])
    assert done.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("ofc: error: ")
    assert message in lines[0]
