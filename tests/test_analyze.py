"""``ofc analyze``: the bot's own best moves cost 0, a planted foul is flagged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ofc.bots import make_bot
from ofc.bots.analysis import Analyzer, action_key
from ofc.bots.base import legal_actions
from ofc.cli.app import main
from ofc.engine.actions import Action
from ofc.engine.hand import Hand
from ofc.formats import history
from ofc.rules.errors import HistoryError
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import Board, is_fouled

ROLLOUTS = 60


def test_moves_that_are_the_analysers_own_best_lose_nothing() -> None:
    rules = Rules.preset("pineapple")
    analyser = Analyzer(rollouts=ROLLOUTS, seed=4)
    other = make_bot("heuristic")
    hand = Hand(rules, button=1, seed=21)
    while not hand.is_over:
        seat = hand.to_act[0]
        view = hand.view(seat)
        if seat == 0:
            choices, _, _ = analyser.price(view, hand.actions_taken)
            hand.apply(choices[0].action, 0)
        else:
            hand.apply(other.act(view), 0)
    reports = analyser.analyse(history.read(history.write(hand)), [0])
    assert [r.kind for r in reports] == ["street"] * 5
    for report in reports:
        assert report.loss == 0.0
        assert report.ci95 == 0.0
        assert not report.flagged
        assert action_key(report.choices[0].action) == action_key(report.played)


def fouling_last_street(seed: int) -> tuple[Hand, int] | None:
    """A heads-up pineapple hand where seat 0, on its last street, takes a placement that must
    foul while another legal placement does not; None if the deal offers no such choice."""
    rules = Rules.preset("pineapple")
    bot = make_bot("heuristic")
    hand = Hand(rules, button=1, seed=seed)
    planted = None
    while not hand.is_over:
        seat = hand.to_act[0]
        view = hand.view(seat)
        if seat == 0 and view.street == len(rules.spec.streets) - 1:
            fouls: list[Action] = []
            clean: list[Action] = []
            for action in legal_actions(view):
                rows = [list(r) for r in view.seats[0].rows]
                for card, row in action.placements:
                    rows[row].append(card)
                (fouls if is_fouled(Board(*map(tuple, rows))) else clean).append(action)
            if not fouls or not clean:
                return None
            planted = hand.actions_taken
            hand.apply(fouls[0], 0)
        else:
            hand.apply(bot.act(view), 0)
    assert planted is not None
    return hand, planted


def test_a_placement_that_must_foul_is_flagged() -> None:
    found = next(f for f in map(fouling_last_street, range(1, 60)) if f is not None)
    hand, planted = found
    assert hand.result is not None
    reports = Analyzer(rollouts=ROLLOUTS, seed=1).analyse(history.read(history.write(hand)), [0])
    by_index = {r.index: r for r in reports}
    blunder = by_index[planted]
    # A foul loses every row and the scoop (american scoring: 3 + 3 = 6 points against a
    # board that does not foul) and the royalties: the loss is several points, far from 0.
    assert blunder.flagged
    assert blunder.loss is not None
    assert blunder.ci95 is not None
    assert blunder.loss - blunder.ci95 > 2.0


def test_cli_analyze_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = Hand(Rules.preset("pineapple"), button=1, seed=8)
    bots = [make_bot("heuristic"), make_bot("heuristic")]
    while not hand.is_over:
        seat = hand.to_act[0]
        hand.apply(bots[seat].act(hand.view(seat)), 0)
    path = tmp_path / "hand.json"
    path.write_text(history.write_text(hand, ["ann", "bob"]), encoding="utf-8")
    main(["analyze", str(path), "--player", "bob", "--rollouts", "20", "--json"])
    document = json.loads(capsys.readouterr().out)
    assert {d["seat"] for d in document["decisions"]} == {1}
    assert len(document["decisions"]) == 5
    for item in document["decisions"]:
        assert item["loss"] >= 0
        assert len(item["top"]) == 3
        assert item["best_value"] >= item["played_value"]
    assert document["total_loss"] == pytest.approx(sum(d["loss"] for d in document["decisions"]))


def test_cli_refuses_a_seat_copy_on_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = Hand(Rules.preset("pineapple"), button=1, seed=8)
    bot = make_bot("heuristic")
    while not hand.is_over:
        seat = hand.to_act[0]
        hand.apply(bot.act(hand.view(seat)), 0)
    path = tmp_path / "copy.json"
    path.write_text(json.dumps(history.write(hand, viewer=0)), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        main(["analyze", str(path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "copy" in err[0]


def test_an_unknown_seat_is_named() -> None:
    hand = Hand(Rules.preset("pineapple"), button=1, seed=8)
    with pytest.raises(HistoryError, match="no seat 5 at a 2-seat table"):
        Analyzer(rollouts=4).analyse(history.read(history.write(hand)), [5])
