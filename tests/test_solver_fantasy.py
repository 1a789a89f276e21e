"""``solve_fantasy``: hand-worked answers, stay settings, input checks and invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc.fast.fantasy import solve_kernel
from ofc.rules.cards import format_cards, parse_cards
from ofc.rules.errors import CardError, RulesError
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import meets_stay, royalties
from ofc.solver import DEFAULT_STAY_VALUE, FantasySolution, max_fantasy_cards, solve_fantasy, warm_up

PINEAPPLE = Rules.preset("pineapple")
CLASSIC = Rules.preset("classic")
PROGRESSIVE = Rules.preset("pineapple-progressive")
ROYAL = "Kc Kd Kh Ts Js Qs Ks As 2h 4h 6h 8h Th"
QUADS = "2c 2d 2h 2s 3c Ah Kh Qh Jh 9h Qc Qd 4s"


def rows(solution: FantasySolution) -> tuple[str, str, str, str]:
    board = solution.board
    return tuple(format_cards(cards) for cards in (board.top, board.middle, board.bottom, solution.discards))  # type: ignore[return-value]


def test_trips_flush_royal_american() -> None:
    solution = solve_fantasy(parse_cards(ROYAL), PINEAPPLE)
    assert rows(solution) == ("Kc Kd Kh", "2h 4h 6h 8h Th", "Ts Js Qs Ks As", "")
    assert (solution.royalties.top, solution.royalties.middle, solution.royalties.bottom) == (21, 8, 25)
    assert solution.stays is True
    assert solution.value == 54 + 12.0  # royalties + the default stay value


def test_trips_flush_royal_classic_table() -> None:
    solution = solve_fantasy(parse_cards(ROYAL), CLASSIC)
    assert solution.royalties.total == 21 + 8 + 15
    assert solution.value == 44 + 12.0


def test_fourteen_cards_discard_one() -> None:
    solution = solve_fantasy(parse_cards(ROYAL + " 3c"), PINEAPPLE)
    assert rows(solution) == ("Kc Kd Kh", "2h 4h 6h 8h Th", "Ts Js Qs Ks As", "3c")
    assert solution.value == 54 + 12.0


def test_quads_stay_and_stronger_bottom_breaks_the_tie() -> None:
    # 2222 with the 4 or with the 3 pays the same; the stronger bottom (4 kicker) wins.
    solution = solve_fantasy(parse_cards(QUADS), PINEAPPLE)
    assert rows(solution) == ("3c Qc Qd", "9h Jh Qh Kh Ah", "2c 2d 2h 2s 4s", "")
    assert (solution.royalties.total, solution.stays, solution.value) == (25, True, 25 + 12.0)


def test_staying_on_top_trips_beats_more_royalties() -> None:
    rules = PINEAPPLE.with_settings({"fantasy_stay": "top_trips"})
    solution = solve_fantasy(parse_cards(QUADS), rules)
    assert rows(solution) == ("2c 2d 2s", "3c 4s Qc Qd Qh", "2h 9h Jh Kh Ah", "")
    assert (solution.royalties.total, solution.stays, solution.value) == (16, True, 28.0)
    cheap = solve_fantasy(parse_cards(QUADS), rules, stay_value=8.0)
    assert (cheap.royalties.total, cheap.stays, cheap.value) == (25, False, 25.0)


@pytest.mark.parametrize(
    ("rules", "can_stay"),
    [
        (PINEAPPLE, False),
        (PINEAPPLE.with_settings({"fantasy": "off"}), True),
        (PINEAPPLE.with_settings({"fantasy_stay": "none"}), True),
    ],
)
def test_no_stay_means_plain_royalties(rules: Rules, can_stay: bool) -> None:
    solution = solve_fantasy(parse_cards(QUADS), rules, can_stay=can_stay)
    assert (solution.royalties.total, solution.stays, solution.value) == (25, False, 25.0)


def test_zero_stay_value_still_reports_the_stay() -> None:
    solution = solve_fantasy(parse_cards(QUADS), PINEAPPLE, stay_value=0)
    assert (solution.stays, solution.value) == (True, 25.0)


def test_default_stay_value() -> None:
    assert DEFAULT_STAY_VALUE == 12.0


@pytest.mark.parametrize(
    ("preset", "most"),
    [("classic", 13), ("turbo", 13), ("pineapple", 14), ("pineapple-progressive", 17)],
)
def test_max_fantasy_cards(preset: str, most: int) -> None:
    assert max_fantasy_cards(Rules.preset(preset)) == most


@pytest.mark.parametrize(
    ("rules", "count", "message"),
    [
        (PINEAPPLE, 12, "13 to 14 cards .* got 12"),
        (PINEAPPLE, 15, "13 to 14 cards .* got 15"),
        (CLASSIC, 14, "13 to 13 cards .* got 14"),
        (PROGRESSIVE, 18, "13 to 17 cards .* got 18"),
    ],
)
def test_wrong_number_of_cards(rules: Rules, count: int, message: str) -> None:
    with pytest.raises(CardError, match=message):
        solve_fantasy(list(range(count)), rules)


@pytest.mark.parametrize("bad", [52, -1, True, "Ah"])
def test_not_a_card(bad: object) -> None:
    with pytest.raises(CardError, match="not a card"):
        solve_fantasy([*range(12), bad], PINEAPPLE)  # type: ignore[list-item]


def test_card_twice() -> None:
    with pytest.raises(CardError, match="card 2c appears twice"):
        solve_fantasy([0, *range(13)], PINEAPPLE)


@pytest.mark.parametrize("worth", [-1.0, float("nan"), float("inf")])
def test_bad_stay_value(worth: float) -> None:
    with pytest.raises(RulesError, match="stay value"):
        solve_fantasy(list(range(13)), PINEAPPLE, stay_value=worth)


def test_order_of_the_deal_does_not_matter() -> None:
    rng = random.Random(3)
    for _ in range(30):
        deal = rng.sample(range(52), 17)
        shuffled = rng.sample(deal, len(deal))
        assert solve_fantasy(deal, PROGRESSIVE) == solve_fantasy(shuffled, PROGRESSIVE)


def test_warm_up_solves_the_largest_deal_of_the_rules() -> None:
    # warm_up solves cards 0, 3, 6, ... (2c 2s 3h 4d ...): 13 of them for classic, 17 for
    # progressive pineapple; it must leave nothing behind that changes a later solve.
    deal = tuple(range(0, 3 * 17, 3))
    before = solve_fantasy(deal, PROGRESSIVE)
    warm_up()
    warm_up(PROGRESSIVE)
    assert solve_kernel.signatures  # the search kernel is compiled (or loaded from the cache)
    assert solve_fantasy(deal, PROGRESSIVE) == before
    assert len(before.discards) == 4
    assert not before.keys.fouled


@settings(max_examples=150, deadline=None)
@given(
    deal=st.lists(st.integers(0, 51), min_size=13, max_size=17, unique=True),
    worth=st.sampled_from([0.0, 2.5, 10.0, 40.0]),
    can_stay=st.booleans(),
)
def test_answer_is_live_and_valued_by_the_core(deal: list[int], worth: float, can_stay: bool) -> None:
    solution = solve_fantasy(deal, PROGRESSIVE, stay_value=worth, can_stay=can_stay)
    assert not solution.keys.fouled
    assert sorted(solution.board.cards + solution.discards) == sorted(deal)
    assert royalties(solution.board, PROGRESSIVE) == solution.royalties
    assert solution.stays == (can_stay and meets_stay(solution.keys, PROGRESSIVE))
    assert solution.value == solution.royalties.total + (worth if solution.stays else 0.0)
