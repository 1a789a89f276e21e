"""Matches: button and match length with fantasies, loss limit, money, join check, errors."""
# Exact numbers (Fraction, Decimal) are compared with int literals on purpose:
# mypy: disable-error-code="comparison-overlap"

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc.rules.cards import parse_cards
from ofc.rules.errors import BalanceError, MatchError
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import Board, ScoreSheet, score_boards
from ofc.series.match import Match, can_join, check_join, join_cost
from support.sheets import sheet


def quiet(size: int, earned: Mapping[int, int] | None = None, seats: Sequence[int] = ()) -> ScoreSheet:
    """A drawn hand of ``size`` players; ``earned`` maps seats (of ``seats``) to fantasy deals."""
    order = list(seats) or list(range(size))
    cards = [(earned or {}).get(seat, 0) for seat in order]
    return sheet([[0] * size for _ in range(size)], cards)


Seen = list[tuple[int, tuple[int, ...], tuple[int, ...]]]


def play(match: Match, earned_by_hand: Sequence[Mapping[int, int]]) -> Seen:
    """Play drawn hands until the match ends; hand ``k`` grants ``earned_by_hand[k]``.

    Returns (button, fantasy deals, fantasy_in_row) per hand.
    """
    seen: Seen = []
    while not match.finished:
        plan = match.next_deal()
        earned = earned_by_hand[plan.hand] if plan.hand < len(earned_by_hand) else {}
        seen.append((plan.button, plan.fantasy, plan.fantasy_in_row))
        match.record(quiet(len(plan.seats), earned, plan.seats))
    return seen


# ---------------------------------------------------------------- match length and button


@pytest.mark.parametrize(
    ("players", "button", "buttons"),
    [(2, 0, [0, 1]), (2, 1, [1, 0]), (3, 2, [2, 0, 1]), (4, 1, [1, 2, 3, 0])],
)
def test_without_fantasy_the_button_goes_round_once(players: int, button: int, buttons: list[int]) -> None:
    match = Match(Rules.of(players=players), button=button)
    assert [b for b, _, _ in play(match, [])] == buttons
    assert len(match.hands) == players


def test_a_fantasy_hand_keeps_the_button_and_lengthens_the_match() -> None:
    # Seat 1 earns fantasy in hand 0 (button 0); it plays hand 1 in fantasy with the button
    # still on seat 0 (the order of play of the hand before); the button then moves to seat 1
    # for hand 2, which closes the circle: 2 players + 1 fantasy hand = 3 hands.
    match = Match(Rules.of(players=2), button=0)
    assert play(match, [{1: 13}]) == [
        (0, (0, 0), (0, 0)),
        (0, (0, 13), (0, 1)),
        (1, (0, 0), (0, 0)),
    ]


def test_with_button_moves_a_fantasy_hand_does_not_lengthen_the_match() -> None:
    match = Match(Rules.of(players=2, button_on_fantasy="moves"), button=0)
    assert play(match, [{1: 13}]) == [(0, (0, 0), (0, 0)), (1, (0, 13), (0, 1))]


def test_three_players_one_fantasy_adds_one_hand() -> None:
    # RULES.md's worked example: button 0, seat 2 earns in hand 0: buttons 0, 0 (fantasy), 1, 2.
    match = Match(Rules.of(players=3), button=0)
    assert [b for b, _, _ in play(match, [{2: 13}])] == [0, 0, 1, 2]


def test_three_players_a_repeat_fantasy_keeps_the_button_twice() -> None:
    # Seat 2 earns in hands 0 and 1: hands 1 and 2 are fantasy hands, both on button 0.
    match = Match(Rules.of(players=3), button=0)
    seen = play(match, [{2: 13}, {2: 13}])
    assert [(b, in_row[2]) for b, _, in_row in seen] == [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0)]


def test_a_fantasy_earned_in_the_last_hand_is_still_played() -> None:
    # The circle closes after hand 1 (button 1), but seat 0 earned fantasy there: hand 2 is
    # dealt, the button staying on seat 1; seat 0 repeats in hand 2 (in a row: 1) and plays
    # hand 3 as its second fantasy in a row; the repeat earned there is beyond the limit of 2.
    match = Match(Rules.of(players=2), button=0)
    assert play(match, [{}, {0: 13}, {0: 13}, {0: 13}]) == [
        (0, (0, 0), (0, 0)),
        (1, (0, 0), (0, 0)),
        (1, (13, 0), (1, 0)),
        (1, (13, 0), (2, 0)),
    ]


def test_a_fantasy_earned_in_an_extra_hand_is_played_too() -> None:
    # Hand 2 is an extra fantasy hand for seat 0; seat 1 earns fantasy in it, so hand 3 is
    # dealt with seat 1 in fantasy.
    match = Match(Rules.of(players=2), button=0)
    assert play(match, [{}, {0: 13}, {1: 13}]) == [
        (0, (0, 0), (0, 0)),
        (1, (0, 0), (0, 0)),
        (1, (13, 0), (1, 0)),
        (1, (0, 13), (0, 1)),
    ]


def test_with_button_moves_the_last_hand_fantasy_is_still_played() -> None:
    match = Match(Rules.of(players=2, button_on_fantasy="moves"), button=0)
    assert [b for b, _, _ in play(match, [{}, {0: 13}])] == [0, 1, 1]


@pytest.mark.parametrize(
    ("max_in_row", "earning", "streaks"),
    [(1, 2, [0, 1, 0]), (2, 3, [0, 1, 2, 0]), (3, 4, [0, 1, 2, 3, 0]), (None, 5, [0, 1, 2, 3, 4, 5, 0])],
)
def test_repeat_fantasies_stop_at_fantasy_max_in_row(max_in_row: int | None, earning: int, streaks: list[int]) -> None:
    # Seat 1 earns fantasy in hands 0 .. earning - 1; with a limit that includes the last hand of
    # its streak (a sheet that ignores the limit: the match enforces it); without a limit the
    # streak ends when it stops earning. Each fantasy hand keeps the button of hand 0 (seat 0);
    # the first normal hand after the streak moves it to seat 1 and closes the circle.
    match = Match(Rules.of(players=2, fantasy_max_in_row=max_in_row), button=0)
    seen = play(match, [{1: 13}] * earning)
    assert [in_row[1] for _, _, in_row in seen] == streaks
    assert [b for b, _, _ in seen] == [0] * (len(streaks) - 1) + [1]


def test_with_fantasy_off_nobody_plays_fantasy() -> None:
    match = Match(Rules.of(players=3, fantasy=False), button=0)
    seen = play(match, [{0: 13, 1: 13, 2: 13}] * 3)
    assert seen == [(b, (0, 0, 0), (0, 0, 0)) for b in (0, 1, 2)]


def test_four_players_with_overlapping_fantasies_and_a_repeat() -> None:
    # Button 3. Hand 0: seat 0 earns. Hand 1 (button still 3, seat 0 in fantasy): seat 0 repeats
    # and seat 1 earns. Hand 2 (button still 3, both in fantasy): nothing earned (seat 0 would be
    # beyond the limit anyway). Hands 3-5 are normal with the button on 0, 1, 2.
    match = Match(Rules.of(players=4), button=3)
    assert play(match, [{0: 13}, {0: 13, 1: 13}, {0: 13}]) == [
        (3, (0, 0, 0, 0), (0, 0, 0, 0)),
        (3, (13, 0, 0, 0), (1, 0, 0, 0)),
        (3, (13, 13, 0, 0), (2, 1, 0, 0)),
        (0, (0, 0, 0, 0), (0, 0, 0, 0)),
        (1, (0, 0, 0, 0), (0, 0, 0, 0)),
        (2, (0, 0, 0, 0), (0, 0, 0, 0)),
    ]


def test_pineapple_progressive_deal_sizes_are_carried_over() -> None:
    rules = Rules.preset("pineapple-progressive").with_settings({"players": 3})
    match = Match(rules, button=0)
    seen = play(match, [{1: 16, 2: 15}, {1: 14}])
    assert [fantasy for _, fantasy, _ in seen] == [(0, 0, 0), (0, 16, 15), (0, 14, 0), (0, 0, 0), (0, 0, 0)]


def test_the_plan_lists_the_acting_order() -> None:
    plan = Match(Rules.of(players=4), button=2).next_deal()
    assert plan.seats == (0, 1, 2, 3)
    assert plan.order == (3, 0, 1, 2)
    assert plan.index(3) == 3
    with pytest.raises(MatchError, match="seat 5 is not dealt in hand 0"):
        plan.index(5)


def test_random_button_uses_the_given_generator() -> None:
    rules = Rules.of(players=4)
    assert Match.random_button(rules, random.Random(11)) == random.Random(11).randrange(4)


def test_real_score_sheets_carry_fantasy() -> None:
    # Seat 0 makes QQ on top (fantasy, +7 royalty) against seat 1's fouled board.
    rules = Rules.of(players=2)
    qq = Board(parse_cards("Qh Qd 2c"), parse_cards("Ah Kh 9h 5h 3h"), parse_cards("As Ks Qs Js Ts"))
    foul = Board(parse_cards("Ac Ad 3c"), parse_cards("4c 5d 7s 8s 9d"), parse_cards("2d 3d 4d 6c 7c"))
    match = Match(rules, button=1)
    first = match.record(score_boards([qq, foul], rules))
    assert first.points == (6 + 7 + 8 + 15, -36)
    plan = match.next_deal()
    assert (plan.button, plan.fantasy, plan.fantasy_in_row) == (1, (13, 0), (1, 0))  # fantasy keeps the button


# ---------------------------------------------------------------- ledger and loss limit


def test_money_follows_a_non_integer_point_value() -> None:
    match = Match(Rules.of(players=3, point_value="0.35"), button=0)
    match.record(sheet([[0, 6, -4], [-6, 0, 2], [4, -2, 0]]))
    record = match.record(sheet([[0, -3, 1], [3, 0, 5], [-1, -5, 0]]))
    assert record.money == (Fraction(-7, 10), Fraction(14, 5), Fraction(-21, 10))
    assert match.ledger.points == (0, 4, -4)
    assert match.ledger.money == (0, Fraction(7, 5), Fraction(-7, 5))
    assert match.ledger.money_between(1, 2) == Fraction(49, 20)


def test_two_players_the_loser_is_capped_and_the_match_ends() -> None:
    match = Match(Rules.of(players=2, loss_limit=10, point_value="0.5"), button=0)
    match.record(sheet([[0, -6], [6, 0]]))
    record = match.record(sheet([[0, -8], [8, 0]]))
    assert record.points == (-4, 4)
    assert record.capped == frozenset({0})
    assert record.left == (0,)
    assert match.ledger.points == (-10, 10)
    assert match.ledger.money == (-5, 5)
    assert match.finished


def test_loss_limit_with_three_players_then_two_play_on() -> None:
    # Hand 0: seat 0 owes 6 and 9 (15), capped at 10: pays 4 and 6; seats 1 and 2 settle
    # their own 3 in full. Seat 0 leaves; the button moves from 1 to 2, which closes the
    # circle of the seats still playing after hand 1.
    match = Match(Rules.of(players=3, loss_limit=10), button=1)
    record = match.record(sheet([[0, -6, -9], [6, 0, 3], [9, -3, 0]]))
    assert record.points == (-10, 7, 3)
    assert record.left == (0,)
    plan = match.next_deal()
    assert (plan.seats, plan.button, plan.order, plan.button_index) == ((1, 2), 2, (1, 2), 1)
    match.record(sheet([[0, 2], [-2, 0]]))
    assert match.finished
    assert match.ledger.points == (-10, 9, 1)
    assert [h.plan.button for h in match.hands] == [1, 2]


def test_two_players_capped_in_one_hand_of_a_match() -> None:
    # Running: seat 0 -7, seat 1 -6, seat 2 +8, seat 3 +5 (limit 10). Hand 1: seats 0 and 1
    # owe seat 2 six and eight, seat 3 wins 2 from seat 2. Seat 0 may still lose 3, seat 1 4.
    match = Match(Rules.of(players=4, loss_limit=10), button=0)
    match.record(sheet([[0, 0, -4, -3], [0, 0, -4, -2], [4, 4, 0, 0], [3, 2, 0, 0]]))
    record = match.record(sheet([[0, 0, -6, 0], [0, 0, -8, 0], [6, 8, 0, -2], [0, 0, 2, 0]]))
    assert record.points == (-3, -4, 5, 2)
    assert record.capped == frozenset({0, 1})
    assert record.left == (0, 1)
    assert match.ledger.points == (-10, -10, 13, 7)
    assert match.finished is False
    assert match.next_deal().seats == (2, 3)


def test_a_capped_player_who_also_wins_collects_in_full() -> None:
    # Seat 0 is at -4 (limit 10, may lose 6): wins 2 from seat 2, owes 12 to seat 1.
    match = Match(Rules.of(players=3, loss_limit=10), button=0)
    match.record(sheet([[0, -4, 0], [4, 0, 0], [0, 0, 0]]))
    record = match.record(sheet([[0, -12, 2], [12, 0, 4], [-2, -4, 0]]))
    assert record.vs[0] == (0, -8, 2)
    assert record.points == (-6, 12, -6)
    assert match.ledger.points == (-10, 16, -6)
    assert record.left == (0,)


def test_reaching_the_limit_exactly_leaves_without_capping() -> None:
    match = Match(Rules.of(players=3, loss_limit=10), button=0)
    record = match.record(sheet([[0, -4, -6], [4, 0, 0], [6, 0, 0]]))
    assert record.capped == frozenset()
    assert record.left == (0,)
    assert match.next_deal().seats == (1, 2)


def test_the_button_moves_off_a_seat_that_leaves_even_in_a_fantasy_hand() -> None:
    # Hand 0 (button 0): seat 0 loses 10 to seat 1 and leaves; seat 1 earns fantasy. The
    # fantasy hand would keep the button, but its seat is gone: it moves on to seat 1.
    match = Match(Rules.of(players=3, loss_limit=10), button=0)
    record = match.record(sheet([[0, -10, 0], [10, 0, 0], [0, 0, 0]], [0, 13, 0]))
    assert record.left == (0,)
    plan = match.next_deal()
    assert (plan.seats, plan.button, plan.fantasy) == ((1, 2), 1, (13, 0))


def test_extra_hands_go_on_without_a_seat_that_leaves() -> None:
    # Circle 0, 1, 2; seat 0 earns fantasy in the closing hand. In the extra hand (button on 2)
    # seat 0 loses its 10 and leaves while seat 1 earns fantasy: one more hand for seats 1, 2.
    match = Match(Rules.of(players=3, loss_limit=10), button=0)
    for _ in range(2):
        match.record(quiet(3))
    match.record(quiet(3, {0: 13}))
    plan = match.next_deal()
    assert (plan.button, plan.fantasy) == (2, (13, 0, 0))
    record = match.record(sheet([[0, 0, -10], [0, 0, 0], [10, 0, 0]], [13, 13, 0]))
    assert record.left == (0,)
    plan = match.next_deal()
    assert (plan.seats, plan.button, plan.fantasy, plan.fantasy_in_row) == ((1, 2), 2, (13, 0), (1, 0))
    match.record(quiet(2))
    assert match.finished
    assert len(match.hands) == 5


def test_a_button_seat_leaving_in_the_closing_hand_passes_the_button_on_for_extra_hands() -> None:
    match = Match(Rules.of(players=3, loss_limit=10), button=0)
    for _ in range(2):
        match.record(quiet(3))
    match.record(sheet([[0, 0, 10], [0, 0, 0], [-10, 0, 0]], [13, 0, 0]))
    plan = match.next_deal()
    assert (plan.seats, plan.button, plan.fantasy) == ((0, 1), 0, (13, 0))
    match.record(quiet(2))
    assert match.finished


def test_the_match_ends_when_the_closing_hand_leaves_no_fantasy() -> None:
    match = Match(Rules.of(players=3, loss_limit=10), button=0)
    for _ in range(2):
        match.record(quiet(3))
    match.record(sheet([[0, 0, 10], [0, 0, 0], [-10, 0, 0]]))
    assert match.finished


# ---------------------------------------------------------------- balances and joining


def test_join_check() -> None:
    rules = Rules.of(loss_limit=50, point_value="0.2")
    assert join_cost(rules) == Decimal(10)
    assert can_join(10, rules)
    assert not can_join(Decimal("9.99"), rules)
    with pytest.raises(BalanceError, match=r"seat 1: balance 9.99 does not cover .* \(10.0 needed\)"):
        check_join(1, Decimal("9.99"), rules)
    assert can_join(-5, Rules())
    assert join_cost(Rules()) is None


def test_balances_are_checked_and_follow_the_money() -> None:
    rules = Rules.of(players=2, loss_limit=10, point_value=2)
    with pytest.raises(BalanceError, match="seat 1: balance 19"):
        Match(rules, button=0, balances={0: 20, 1: 19})
    with pytest.raises(MatchError, match="no balance given for seat 1"):
        Match(rules, button=0, balances={0: 20})
    with pytest.raises(MatchError, match="3 balances given for 2 seats"):
        Match(rules, button=0, balances=[20, 20, 20])
    match = Match(rules, button=0, balances=[Decimal(25), 20])
    match.record(sheet([[0, 3], [-3, 0]]))
    assert match.balances == (31, 14)
    assert Match(rules, button=0).balances is None


# ---------------------------------------------------------------- time banks


def test_time_banks_carry_over_the_match() -> None:
    match = Match(Rules.of(players=3, time_bank_seconds=60), button=0)
    assert match.next_deal().time_banks == (60, 60, 60)
    match.record(quiet(3), [Decimal("42.5"), 60, 0])
    assert match.next_deal().time_banks == (Decimal("42.5"), 60, 0)
    match.record(quiet(3))
    assert match.time_banks == (Decimal("42.5"), 60, 0)


# ---------------------------------------------------------------- refused calls


def _bad_calls() -> list[tuple[ScoreSheet, list[int] | None, str]]:
    return [
        (quiet(2), None, r"dealt 3 seats \[0, 1, 2\] but the score sheet has 2 players"),
        (sheet([[0, 1, 0], [-2, 0, 0], [0, 0, 0]]), None, "seat 0 wins 1 from seat 1, seat 1 wins -2"),
        (sheet([[0, 0, 0], [0, 0, 0], [0, 0, 0]], [0, -1, 0]), None, "seat 1: fantasy deal -1"),
        (
            sheet([[0, 0, 0], [0, 0, 0], [0, 0, 0]], [0, 15, 0]),
            None,
            r"seat 1: no fantasy deal has 15 cards under these rules \(13\)",
        ),
        (quiet(3), [50, 61, 0], "seat 1: time bank left 61 is outside 0..60"),
        (quiet(3), [60, 60], "needs 3 time banks"),
    ]


@pytest.mark.parametrize(("bad", "banks", "message"), _bad_calls())
def test_a_bad_record_raises_and_changes_nothing(bad: ScoreSheet, banks: list[int] | None, message: str) -> None:
    match = Match(Rules.of(players=3, time_bank_seconds=60, loss_limit=5), button=0)
    match.record(sheet([[0, 2, 0], [-2, 0, 0], [0, 0, 0]], [13, 0, 0]), [50, 60, 60])
    plan, ledger = match.next_deal(), match.ledger
    with pytest.raises(MatchError, match=message):
        match.record(bad, banks)
    assert match.next_deal() == plan
    assert match.ledger == ledger
    assert len(match.hands) == 1


def test_progressive_deal_sizes_are_accepted_and_others_refused() -> None:
    rules = Rules.preset("pineapple-progressive")
    match = Match(rules, button=0)
    with pytest.raises(MatchError, match=r"no fantasy deal has 13 cards under these rules \(14, 15, 16, 17\)"):
        match.record(quiet(2, {0: 13}))
    match.record(quiet(2, {0: 17}))
    assert match.next_deal().fantasy == (17, 0)


def test_recording_after_the_end_is_refused() -> None:
    match = Match(Rules.of(players=2), button=0)
    play(match, [])
    with pytest.raises(MatchError, match="the match is over after 2 hands"):
        match.record(quiet(2))
    with pytest.raises(MatchError, match="over"):
        match.next_deal()


def test_a_bad_button_or_sheet_type_is_refused() -> None:
    with pytest.raises(MatchError, match="button seat 2 is not a seat of a 2-player table"):
        Match(Rules.of(players=2), button=2)
    with pytest.raises(MatchError, match="expected a ScoreSheet, got list"):
        Match(Rules.of(players=2), button=0).record([])  # type: ignore[arg-type]


# ---------------------------------------------------------------- properties


@st.composite
def match_scripts(draw: st.DrawFn) -> tuple[Rules, int, list[tuple[list[list[int]], list[int]]]]:
    players = draw(st.integers(2, 4))
    limit = draw(st.sampled_from([None, 5, 12, Decimal("7.5")]))
    rules = Rules.of(players=players, loss_limit=limit, fantasy_max_in_row=draw(st.sampled_from([1, 2, 3])))
    hands = []
    for _ in range(12):
        vs = [[0] * players for _ in range(players)]
        for i in range(players):
            for j in range(i + 1, players):
                vs[i][j] = draw(st.integers(-20, 20))
                vs[j][i] = -vs[i][j]
        hands.append((vs, [draw(st.sampled_from([0, 0, 13])) for _ in range(players)]))
    return rules, draw(st.integers(0, players - 1)), hands


@settings(max_examples=150, deadline=None)
@given(match_scripts())
def test_ledger_is_zero_sum_and_no_one_loses_more_than_the_limit(
    script: tuple[Rules, int, list[tuple[list[list[int]], list[int]]]],
) -> None:
    rules, button, hands = script
    match = Match(rules, button=button)
    for vs, earned in hands:
        if match.finished:
            break
        seats = match.next_deal().seats
        record = match.record(sheet([[vs[i][j] for j in seats] for i in seats], [earned[i] for i in seats]))
        assert sum(record.points) == 0
        assert sum(match.ledger.points) == 0
        assert sum(match.ledger.money) == 0
        for seat, total in enumerate(match.ledger.points):
            if rules.loss_limit is not None:
                assert total >= -rules.loss_limit
                assert (seat in match.active) == (total > -rules.loss_limit)
    assert len(match.hands) <= 12


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 4),
    st.sampled_from(["stays", "moves"]),
    st.sampled_from([1, 2, None]),
    st.lists(st.lists(st.sampled_from([0, 0, 0, 13]), min_size=4, max_size=4), max_size=12),
)
def test_the_button_goes_round_once_and_extra_hands_need_a_fantasy(
    players: int, on_fantasy: str, max_in_row: int | None, earned: list[list[int]]
) -> None:
    rules = Rules.of(players=players, button_on_fantasy=on_fantasy, fantasy_max_in_row=max_in_row)
    start = players - 1
    seen = play(Match(rules, button=start), [dict(enumerate(row)) for row in earned])
    steps = [(button - start) % players for button, _, _ in seen]
    assert steps == sorted(steps)
    assert sorted(set(steps)) == list(range(players))
    stays = on_fantasy == "stays"
    played = [any(fantasy) for _, fantasy, _ in seen]
    for k in range(len(seen) - 1):
        if steps[k] < players - 1:  # a fantasy hand keeps the button of the hand before it
            assert (steps[k + 1] == steps[k]) == (played[k + 1] and stays)
    last = steps.index(players - 1)
    for k in range(last + 1, len(seen)):  # hands after the circle are there for a fantasy
        assert played[k]


def test_a_repeat_fantasy_has_the_repeat_size() -> None:
    """Progressive pineapple: a repeat is 14 cards whatever the board; a sheet saying 16 is refused."""
    rules = Rules.preset("pineapple-progressive")
    match = Match(rules, button=0)
    match.record(quiet(2, {1: 16}))
    assert match.next_deal().fantasy == (0, 16)
    with pytest.raises(MatchError, match="seat 1: a repeat fantasy deals 14 cards under these rules, not 16"):
        match.record(quiet(2, {1: 16}))
    assert match.next_deal().fantasy == (0, 16)  # nothing changed
    match.record(quiet(2, {1: 14}))
    assert match.next_deal().fantasy == (0, 14)
