"""Tournaments: levels, table stakes in whole chips, eliminations, places and prizes."""
# Exact numbers (Fraction, Decimal) are compared with int literals on purpose:
# mypy: disable-error-code="comparison-overlap"

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc.rules.errors import MatchError, RulesError
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import ScoreSheet
from ofc.series.tournament import Finish, Tournament, bust_finishes, round_chips, split_prizes
from support.sheets import sheet


def pays(size: int, debts: dict[tuple[int, int], int]) -> ScoreSheet:
    """A sheet where ``debts[(a, b)]`` is what player ``a`` loses to player ``b``."""
    vs = [[0] * size for _ in range(size)]
    for (loser, winner), points in debts.items():
        vs[loser][winner], vs[winner][loser] = -points, points
    return sheet(vs)


def test_levels_rise_every_level_hands_and_the_last_persists() -> None:
    rules = Rules.of(players=2, level_hands=2, chips_per_point=(1, 2, 3), starting_chips=100)
    tournament = Tournament(rules, button=0)
    seen = []
    for _ in range(7):
        seen.append((tournament.level, tournament.chips_per_point))
        hand = tournament.record(pays(2, {(1, 0): 1}))
        assert (hand.level, hand.chips_per_point) == seen[-1]
    assert seen == [(0, 1), (0, 1), (1, 2), (1, 2), (2, 3), (2, 3), (2, 3)]
    assert tournament.chips == (115, 85)


def test_table_stakes_share_a_short_stack_pro_rata_in_whole_chips() -> None:
    # Seat 0 owes 8 and 4 points at 10 chips a point (120) but has 100: 200/3 and 100/3,
    # rounded by largest remainder to 67 and 33.
    rules = Rules.of(players=3, starting_chips=100, chips_per_point=(10,))
    tournament = Tournament(rules, button=0)
    hand = tournament.record(pays(3, {(0, 1): 8, (0, 2): 4}))
    assert hand.exact[1][0] == Fraction(200, 3)
    assert hand.exact[2][0] == Fraction(100, 3)
    assert hand.capped == frozenset({0})
    assert hand.won == (-100, 67, 33)
    assert hand.chips == tournament.chips == (0, 167, 133)
    assert hand.busted == (0,)
    assert tournament.finishes == {0: Finish(3)}
    assert tournament.next_deal().seats == (1, 2)


def test_an_odd_chip_goes_to_the_seat_left_of_the_button() -> None:
    # 25 chips owed as 20 + 20: 12.5 each; the button is on seat 1, so seat 2 acts first.
    rules = Rules.of(players=3, starting_chips=25, chips_per_point=(5,))
    tournament = Tournament(rules, button=1)
    assert tournament.record(pays(3, {(0, 1): 4, (0, 2): 4})).chips == (0, 37, 38)


def test_a_winning_player_is_unaffected_by_someone_elses_short_stack() -> None:
    rules = Rules.of(players=3, starting_chips=100, chips_per_point=(10,))
    tournament = Tournament(rules, button=0)
    hand = tournament.record(pays(3, {(0, 1): 12, (2, 1): 3}))
    assert hand.won == (-100, 130, -30)


def test_elimination_order_places_and_prizes() -> None:
    rules = Rules.of(players=4, starting_chips=100, chips_per_point=(1,), payouts=("0.5", "0.3", "0.2"))
    tournament = Tournament(rules, button=0)
    tournament.record(pays(4, {(0, 3): 40, (1, 3): 20}))
    assert tournament.chips == (60, 80, 100, 160)
    # Seats 0 and 1 bust together; seat 1 started the hand with more chips and finishes higher.
    hand = tournament.record(pays(4, {(0, 2): 70, (1, 2): 90}))
    assert hand.busted == (1, 0)
    assert tournament.chips == (0, 0, 240, 160)
    assert tournament.next_deal().seats == (2, 3)
    assert tournament.next_deal().button == 2
    with pytest.raises(MatchError, match="prizes are paid when one player is left; 2 are"):
        tournament.prizes()
    tournament.record(pays(2, {(1, 0): 200}))
    assert tournament.finished
    assert tournament.chips == (0, 0, 400, 0)
    assert tournament.finishes == {0: Finish(4), 1: Finish(3), 2: Finish(1), 3: Finish(2)}
    assert [h.plan.button for h in tournament.hands] == [0, 1, 2]
    assert tournament.prize_pool == 400
    assert tournament.prizes() == (0, 80, 200, 120)
    with pytest.raises(MatchError, match="the tournament is over after 3 hands"):
        tournament.record(pays(2, {}))


def test_equal_stacks_busting_together_share_places_and_prizes() -> None:
    rules = Rules.of(players=3, starting_chips=100, chips_per_point=(1,), payouts=("0.7", "0.3"))
    tournament = Tournament(rules, button=2)
    tournament.record(pays(3, {(0, 2): 150, (1, 2): 150}))
    assert tournament.finishes == {0: Finish(2, 2), 1: Finish(2, 2), 2: Finish(1)}
    assert tournament.prizes() == (45, 45, 210)


def test_a_three_way_split_rounds_down_to_the_cent_and_the_rest_goes_to_the_winner() -> None:
    rules = Rules.of(players=4, starting_chips=100, chips_per_point=(1,), payouts=("0.5", "0.3", "0.2"))
    tournament = Tournament(rules, button=0)
    tournament.record(pays(4, {(1, 0): 150, (2, 0): 150, (3, 0): 150}))
    assert tournament.prizes() == (Decimal("200.02"), Decimal("66.66"), Decimal("66.66"), Decimal("66.66"))


def test_button_and_fantasy_behave_as_in_a_match() -> None:
    tournament = Tournament(Rules.of(players=2, starting_chips=100), button=0)
    tournament.record(sheet([[0, 0], [0, 0]], [0, 13]))
    plan = tournament.next_deal()
    assert (plan.button, plan.fantasy, plan.fantasy_in_row) == (0, (0, 13), (0, 1))  # the fantasy hand keeps it
    tournament.record(sheet([[0, 0], [0, 0]]))
    assert tournament.next_deal().button == 1
    tournament.record(sheet([[0, 0], [0, 0]]))
    assert tournament.next_deal().button == 0


def test_fantasy_can_be_off_in_a_tournament() -> None:
    tournament = Tournament(Rules.of(players=2, fantasy=False), button=0)
    tournament.record(sheet([[0, 0], [0, 0]], [13, 13]))
    assert tournament.next_deal().fantasy == (0, 0)


def test_a_bad_record_changes_nothing() -> None:
    tournament = Tournament(Rules.of(players=3), button=0)
    plan = tournament.next_deal()
    with pytest.raises(MatchError, match="dealt 3 seats"):
        tournament.record(pays(2, {(0, 1): 5}))
    assert tournament.next_deal() == plan
    assert tournament.chips == (1000, 1000, 1000)
    assert tournament.hands == ()


def test_round_chips() -> None:
    exact = [Fraction(-100), Fraction(200, 3), Fraction(100, 3)]
    assert round_chips(exact, [0, 1, 2]) == (-100, 67, 33)
    assert round_chips([Fraction(-25), Fraction(25, 2), Fraction(25, 2)], [2, 0, 1]) == (-25, 12, 13)
    assert round_chips([Fraction(3), Fraction(-3)], [0, 1]) == (3, -3)
    with pytest.raises(MatchError, match="not whole chips"):
        round_chips([Fraction(1, 2), Fraction(0)], [0, 1])


def test_rounding_alone_never_knocks_a_player_out() -> None:
    """Seat 2 (10 chips) owes seat 0 five and seat 1 fifteen: capped, it pays 2.5 and 7.5.
    Seat 0 (3 chips) also owes seat 1 five, so it ends on exactly half a chip: the spare chip
    goes to it rather than to seat 1, who comes first in the acting order (button on seat 0)."""
    rules = Rules.of(players=3, starting_chips=100, chips_per_point=(1,))
    tournament = Tournament(rules, button=1)
    tournament.record(pays(3, {(0, 1): 97}))
    tournament.record(pays(3, {(2, 1): 90}))
    assert tournament.chips == (3, 287, 10)
    assert tournament.next_deal().order == (1, 2, 0)
    hand = tournament.record(pays(3, {(2, 0): 5, (2, 1): 15, (0, 1): 5}))
    assert hand.won == (-2, 12, -10)
    assert tournament.chips == (1, 299, 0)
    assert hand.busted == (2,)
    assert round_chips([Fraction(-5, 2), Fraction(25, 2), Fraction(-10)], [1, 2, 0]) == (-3, 13, -10)


def test_bust_finishes() -> None:
    assert bust_finishes([2, 0, 3], [50, 0, 80, 50], remaining=4) == {
        2: Finish(2),
        0: Finish(3, 2),
        3: Finish(3, 2),
    }


def test_split_prizes_pays_places_beyond_the_payouts_nothing() -> None:
    finishes = {0: Finish(3), 1: Finish(1), 2: Finish(2)}
    assert split_prizes(Decimal("10.01"), [Decimal("0.6"), Decimal("0.4")], finishes) == (
        0,
        Decimal("6.01"),
        Decimal("4.00"),
    )


@st.composite
def tournament_scripts(draw: st.DrawFn) -> tuple[Rules, int, list[list[list[int]]]]:
    players = draw(st.integers(2, 4))
    rules = Rules.of(
        players=players,
        starting_chips=draw(st.integers(1, 60)),
        level_hands=draw(st.integers(1, 3)),
        chips_per_point=draw(st.sampled_from([(1,), (1, 2, 5), (3, 7)])),
        payouts=("0.6", "0.4"),
    )
    hands = []
    for _ in range(25):
        vs = [[0] * players for _ in range(players)]
        for i in range(players):
            for j in range(i + 1, players):
                vs[i][j] = draw(st.integers(-9, 9))
                vs[j][i] = -vs[i][j]
        hands.append(vs)
    return rules, draw(st.integers(0, players - 1)), hands


@settings(max_examples=150, deadline=None)
@given(tournament_scripts())
def test_chips_are_conserved_and_nobody_goes_below_zero(script: tuple[Rules, int, list[list[list[int]]]]) -> None:
    rules, button, hands = script
    tournament = Tournament(rules, button=button)
    total = rules.starting_chips * rules.players
    for vs in hands:
        if tournament.finished:
            break
        seats = tournament.next_deal().seats
        tournament.record(sheet([[vs[i][j] for j in seats] for i in seats]))
        assert sum(tournament.chips) == total
        assert min(tournament.chips) >= 0
        assert set(tournament.active) == {seat for seat, chips in enumerate(tournament.chips) if chips > 0}
        assert set(tournament.finishes) >= set(range(rules.players)) - set(tournament.active)
    if tournament.finished:
        assert sorted(tournament.finishes) == list(range(rules.players))
        assert sum(tournament.prizes()) == tournament.prize_pool


def test_more_paid_places_than_entrants_is_refused() -> None:
    rules = Rules.preset("classic").with_settings({"payouts": "0.5,0.3,0.2"})
    with pytest.raises(RulesError, match="setting payouts: 3 places paid but 2 players"):
        Tournament(rules, button=0)
    four = rules.with_settings({"players": 4})
    assert Tournament(four, button=0).entrants == 4
    assert four.with_settings({"players": 2}).payouts == rules.payouts  # a hand's table may shrink
