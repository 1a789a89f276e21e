"""The fast fantasy solver equals the brute-force reference, deal by deal, exactly."""

from __future__ import annotations

import random

import pytest

from ofc.rules.cards import Card
from ofc.rules.rulebook import Rules
from ofc.solver import solve_fantasy
from test_solver_reference import Answer, biased_deal, reference_solve

PINEAPPLE = Rules.preset("pineapple")
PROGRESSIVE = Rules.preset("pineapple-progressive")
SETTINGS: list[tuple[Rules, float, bool]] = [
    (Rules.preset("classic"), 10.0, True),
    (PINEAPPLE, 10.0, True),
    (PINEAPPLE, 4.0, True),
    (PINEAPPLE.with_settings({"fantasy_stay": "middle_full_house_plus,top_trips"}), 12.5, True),
    (PINEAPPLE.with_settings({"fantasy_stay": "middle_quads_plus"}), 30.0, True),
    (PINEAPPLE, 0.0, True),
    (PINEAPPLE, 10.0, False),
    (PINEAPPLE.with_settings({"fantasy": "off"}), 10.0, True),
    (PINEAPPLE.with_settings({"fantasy_stay": "none"}), 10.0, True),
    (PROGRESSIVE.with_settings({"fantasy_stay": "bottom_quads_plus"}), 100.0, True),
]


def solved(deal: list[Card], rules: Rules, stay_value: float, can_stay: bool) -> Answer:
    answer = solve_fantasy(deal, rules, stay_value=stay_value, can_stay=can_stay)
    board = answer.board
    assert sorted(board.cards + answer.discards) == sorted(deal)
    assert len(answer.discards) == len(deal) - 13
    return Answer(board.top, board.middle, board.bottom, answer.value, answer.stays)


def deals(seed: int, size: int, count: int) -> list[list[Card]]:
    rng = random.Random(seed)
    return [biased_deal(rng, size) if i % 2 else rng.sample(range(52), size) for i in range(count)]


@pytest.mark.parametrize("setting", range(len(SETTINGS)))
def test_thirteen_cards(setting: int) -> None:
    rules, stay_value, can_stay = SETTINGS[setting]
    for deal in deals(100 + setting, 13, 20):
        assert solved(deal, rules, stay_value, can_stay) == reference_solve(deal, rules, stay_value, can_stay)


@pytest.mark.slow
@pytest.mark.parametrize("setting", range(1, len(SETTINGS)))
def test_fourteen_cards(setting: int) -> None:
    rules, stay_value, can_stay = SETTINGS[setting]
    for deal in deals(200 + setting, 14, 23):
        assert solved(deal, rules, stay_value, can_stay) == reference_solve(deal, rules, stay_value, can_stay)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("size", "setting", "seed"),
    [(15, 9, 1), (15, 3, 2), (16, 9, 3), (16, 4, 4), (17, 9, 5), (17, 3, 6)],
)
def test_progressive_deals(size: int, setting: int, seed: int) -> None:
    rules, stay_value, can_stay = SETTINGS[setting]
    rules = rules.with_settings({"fantasy_cards": "progressive"})
    for deal in deals(seed, size, 1 if size == 17 else 2):
        assert solved(deal, rules, stay_value, can_stay) == reference_solve(deal, rules, stay_value, can_stay)
