"""Simulations: duplicate seating, statistics worked out by hand, an end-to-end run."""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

import pytest

import ofc.sim.simulate
from ofc.bots import Decision, HeuristicBot
from ofc.cli.app import main
from ofc.engine.actions import Action
from ofc.engine.deals import derive_seed
from ofc.engine.hand import Hand
from ofc.engine.view import HandView
from ofc.rules.errors import RulesError
from ofc.rules.rulebook import Rules
from ofc.series.session import Session, play_hand
from ofc.sim.simulate import (
    Tally,
    block_count,
    fantasy_gain,
    fantasy_gain_chunk,
    mean_ci95,
    play_block,
    rotation_seats,
    simulate,
    summarise,
)


class Recorder:
    """A heuristic bot that notes the first five cards of every hand it plays."""

    def __init__(self, name: str, log: list[tuple[str, int, tuple[int, ...]]]) -> None:
        self.name = name
        self.log = log
        self.inner = HeuristicBot()

    def decide(self, view: HandView) -> Decision:
        assert view.seat is not None
        if view.street == 0 and not view.seats[view.seat].fantasy:
            self.log.append((self.name, view.seat, tuple(sorted(view.cards))))
        return self.inner.decide(view)

    def act(self, view: HandView) -> Action:
        return self.decide(view).action


def test_duplicate_seating_replays_the_same_decks_rotated(monkeypatch: pytest.MonkeyPatch) -> None:
    log: list[tuple[str, int, tuple[int, ...]]] = []
    seeds: list[int | None] = []
    deal = Session.deal

    def spy_deal(self: Session, **kwargs: Any) -> Any:
        seeds.append(kwargs.get("seed"))
        return deal(self, **kwargs)

    monkeypatch.setattr(Session, "deal", spy_deal)
    monkeypatch.setattr(ofc.sim.simulate, "make_bot", lambda spec, seed=None: Recorder(spec, log))
    rules = Rules.preset("classic").with_settings({"players": 3, "fantasy": "off"})
    ofc.sim.simulate.warm_up(rules, ["a", "b", "c"])
    log.clear()
    result = play_block(rules, ["a", "b", "c"], seed=7, block=2)
    # three rotations of a three-hand match, each on the block's three deck seeds
    block_seeds = [derive_seed(7, 2, hand) for hand in range(3)]
    assert seeds == block_seeds * 3
    assert result.deals == 3
    assert [t.hands for t in result.tallies] == [9, 9, 9]
    # in rotation r bot b sits in seat (b + r) % 3, and a seat's cards do not depend on who sits there
    per_rotation = [log[i : i + 9] for i in range(0, 27, 9)]
    for rotation, entries in enumerate(per_rotation):
        for name, seat, _ in entries:
            assert seat == ("abc".index(name) + rotation) % 3
    cards_by_seat = [sorted((seat, cards) for _, seat, cards in entries) for entries in per_rotation]
    assert cards_by_seat[0] == cards_by_seat[1] == cards_by_seat[2]
    assert sum(t.points for t in result.tallies) == 0


def test_rotation_seats() -> None:
    assert rotation_seats(3, 0) == (0, 1, 2)
    assert rotation_seats(3, 1) == (2, 0, 1)
    assert rotation_seats(3, 2) == (1, 2, 0)
    assert rotation_seats(2, 1) == (1, 0)


def test_mean_and_interval_worked_by_hand() -> None:
    # blocks won 10, -2 and 4 points over 2 hands each: 12 / 6 = 2 points a hand;
    # residuals x - 2h are 6, -6, 0: sum of squares 72, / (3 * 2) = 12, sqrt 3.4641016, / 2 hands
    mean, ci = mean_ci95([10, -2, 4], [2, 2, 2])
    assert mean == 2.0
    assert ci == pytest.approx(1.959963984540054 * math.sqrt(12) / 2, rel=1e-12)
    assert ci == pytest.approx(3.3947572, rel=1e-6)


def test_interval_with_uneven_blocks() -> None:
    # 9 points over 3 hands and -1 over 2: mean 8 / 5 = 1.6; residuals 9 - 4.8 = 4.2, -1 - 3.2 = -4.2
    mean, ci = mean_ci95([9, -1], [3, 2])
    assert mean == pytest.approx(1.6)
    assert ci == pytest.approx(1.959963984540054 * math.sqrt((4.2**2 * 2) / 2) / 2.5, rel=1e-12)


def test_interval_needs_two_blocks() -> None:
    assert mean_ci95([5], [2]) == (2.5, math.inf)
    assert mean_ci95([], []) == (0.0, 0.0)


def test_summary_rates() -> None:
    one = Tally(points=12, hands=4, fouls=1, normal_hands=3, entries=1, fantasy_hands=1, stays=1,
                normal_points=2, fantasy_points=10, decisions=10, seconds=1.0, slowest=0.3)  # fmt: skip
    two = Tally(points=-4, hands=4, fouls=2, normal_hands=4, entries=0, decisions=10, seconds=3.0,
                slowest=0.5, normal_points=-4)  # fmt: skip
    stats = summarise("x", [one, two])
    assert stats.points_per_hand == 1.0
    assert stats.foul_rate == 3 / 8
    assert stats.fantasy_rate == 1 / 7
    assert stats.stay_rate == 1.0
    assert stats.decision_seconds == 0.2
    assert stats.decision_max == 0.5
    assert stats.fantasy_gain == pytest.approx(10 - (-2 / 7))
    assert stats.hands == 8


def test_block_count_and_seeds() -> None:
    assert block_count(1, 2) == 2
    assert block_count(2000, 2) == 1000
    assert block_count(7, 3) == 3
    # the documented definition: the first 8 bytes of sha256("1:2:3"), big-endian, shifted right once
    digest = hashlib.sha256(b"1:2:3").digest()
    assert derive_seed(1, 2, 3) == int.from_bytes(digest[:8], "big") >> 1
    assert derive_seed(1, 2, 3) != derive_seed(1, 2, 4)
    assert derive_seed(12, 3) != derive_seed(1, 23)  # parts are separated, not run together
    assert 0 <= derive_seed(5) < 2**63


def test_simulation_is_reproducible_and_zero_sum() -> None:
    rules = Rules.preset("pineapple")
    first = simulate(rules, ["heuristic", "random"], 4, seed=3)
    again = simulate(rules, ["heuristic", "random"], 4, seed=3)
    assert [b.points_per_hand for b in first.bots] == [b.points_per_hand for b in again.bots]
    assert first.bots[0].points_per_hand == -first.bots[1].points_per_hand
    assert first.blocks == 2
    assert first.deals >= 4


def test_workers_give_the_same_result() -> None:
    rules = Rules.preset("turbo")
    bots = ["mc:rollouts=3,candidates=3", "heuristic"]
    alone = simulate(rules, bots, 4, seed=9, workers=1)
    shared = simulate(rules, bots, 4, seed=9, workers=2)
    assert [b.points_per_hand for b in alone.bots] == [b.points_per_hand for b in shared.bots]
    assert alone.deals == shared.deals


def test_tiny_simulation_end_to_end_json(capsys: pytest.CaptureFixture[str]) -> None:
    main(["simulate", "--rules", "pineapple", "--bots", "mc:rollouts=2,candidates=2,random",
          "--hands", "2", "--seed", "4", "--workers", "1", "--json"])  # fmt: skip
    document = json.loads(capsys.readouterr().out)
    assert set(document) == {"bots", "hands"}
    assert isinstance(document["hands"], int)
    assert document["hands"] >= 2
    assert [bot["name"] for bot in document["bots"]] == ["mc:rollouts=2,candidates=2", "random"]
    keys = {
        "name",
        "points_per_hand",
        "ci95",
        "foul_rate",
        "fantasy_rate",
        "stay_rate",
        "decision_seconds",
        "decision_max_seconds",
    }
    for bot in document["bots"]:
        assert set(bot) == keys
        assert all(isinstance(bot[k], float) for k in keys - {"name"})
    assert document["bots"][0]["points_per_hand"] == -document["bots"][1]["points_per_hand"]


def test_text_output_names_every_bot(capsys: pytest.CaptureFixture[str]) -> None:
    main(["simulate", "--rules", "classic", "--bots", "heuristic,random,random", "--hands", "3", "--seed", "1",
          "--workers", "1"])  # fmt: skip
    out = capsys.readouterr().out
    assert "heuristic" in out
    assert out.count("random") == 2
    assert "seed 1" in out


def test_fantasy_gain_is_fantasy_minus_normal_points_on_the_same_deck() -> None:
    rules = Rules.preset("pineapple")
    gains = fantasy_gain_chunk(rules, "heuristic", "heuristic", 4, range(3))
    expected = []
    for deal in range(3):
        deck = derive_seed(4, deal)
        points = []
        for fantasy in (14, 0):
            hand = Hand(rules, button=1, seed=deck, fantasy=(fantasy, 0))
            play_hand(hand, [HeuristicBot(), HeuristicBot()])
            assert hand.result is not None
            points.append(hand.result.points[0])
        expected.append(float(points[0] - points[1]))
    assert gains == expected
    mean, ci = fantasy_gain(rules, "heuristic", "heuristic", 3, seed=4, chunk=2)
    assert mean == pytest.approx(sum(expected) / 3)
    assert ci > 0


def test_fantasy_gain_needs_fantasy() -> None:
    with pytest.raises(RulesError, match="fantasy is off"):
        fantasy_gain(Rules.preset("classic").with_settings({"fantasy": "off"}), "random", "random", 2, seed=1)
