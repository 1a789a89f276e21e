"""Loss capping (loss limit and table stakes) worked out by hand, and the running ledger."""
# Exact numbers (Fraction, Decimal) are compared with int literals on purpose:
# mypy: disable-error-code="comparison-overlap"

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ofc.rules.errors import MatchError
from ofc.series.ledger import Ledger, add_matrices, as_matrix, cap_losses, zero_matrix


def antisymmetric(upper: dict[tuple[int, int], int], size: int) -> list[list[int]]:
    """A result matrix from ``{(i, j): what i wins from j}`` for i < j."""
    vs = [[0] * size for _ in range(size)]
    for (i, j), value in upper.items():
        vs[i][j], vs[j][i] = value, -value
    return vs


def test_no_caps_leaves_the_result_alone() -> None:
    vs = antisymmetric({(0, 1): 6, (0, 2): -4, (1, 2): 2}, 3)
    settled = cap_losses(vs, [None, None, None])
    assert settled.vs == as_matrix(vs)
    assert settled.points == (2, -4, 2)
    assert settled.capped == frozenset()


def test_a_loss_within_the_cap_is_paid_in_full() -> None:
    vs = antisymmetric({(0, 1): -6, (0, 2): -4}, 3)
    settled = cap_losses(vs, [10, None, None])
    assert settled.points == (-10, 6, 4)
    assert settled.capped == frozenset()


def test_shortfall_is_shared_pro_rata_among_the_creditors() -> None:
    # Seat 0 owes 6 to seat 1 and 9 to seat 2 (15) but may lose only 10: 10 * 6/15 = 4 and
    # 10 * 9/15 = 6. Seat 2 still pays seat 1 its 3 in full.
    vs = antisymmetric({(0, 1): -6, (0, 2): -9, (1, 2): 3}, 3)
    settled = cap_losses(vs, [10, None, None])
    assert settled.vs == as_matrix([[0, -4, -6], [4, 0, 3], [6, -3, 0]])
    assert settled.points == (-10, 7, 3)
    assert settled.capped == frozenset({0})


def test_fractional_shares_stay_exact() -> None:
    # Owes 7 and 8 (15), cap 10: 14/3 and 16/3.
    vs = antisymmetric({(0, 1): -7, (0, 2): -8}, 3)
    settled = cap_losses(vs, [10, None, None])
    assert settled.vs[1][0] == Fraction(14, 3)
    assert settled.vs[2][0] == Fraction(16, 3)
    assert settled.points == (-10, Fraction(14, 3), Fraction(16, 3))


def test_a_capped_player_keeps_what_they_win_from_others() -> None:
    # Seat 0 wins 2 from seat 2 and owes 12 to seat 1: net -10, cap 6. Seat 2 pays its 2 in
    # full, so seat 0 can pay seat 1 exactly 2 + 6 = 8.
    vs = antisymmetric({(0, 1): -12, (0, 2): 2, (1, 2): 4}, 3)
    settled = cap_losses(vs, [6, None, None])
    assert settled.vs == as_matrix([[0, -8, 2], [8, 0, 4], [-2, -4, 0]])
    assert settled.points == (-6, 12, -6)


def test_two_players_capped_in_one_hand() -> None:
    # Seats 0 and 1 both owe seat 2 (6 and 8) with caps 3 and 4; seat 3 wins 2 from seat 2.
    vs = antisymmetric({(0, 2): -6, (1, 2): -8, (2, 3): -2}, 4)
    settled = cap_losses(vs, [3, 4, None, None])
    assert settled.points == (-3, -4, 5, 2)
    assert settled.vs[2][0] == 3
    assert settled.vs[2][1] == 4
    assert settled.capped == frozenset({0, 1})


def test_a_cap_can_cascade_to_the_creditor() -> None:
    # Seat 0 owes 10 to seat 1, who owes 10 to seat 2 (net 0 at face value). Seat 0 may lose
    # 4, so seat 1 collects only 4 and would lose 6 > its cap 5: seat 1 pays 4 + 5 = 9.
    vs = antisymmetric({(0, 1): -10, (1, 2): -10}, 3)
    settled = cap_losses(vs, [4, 5, None])
    assert settled.vs == as_matrix([[0, -4, 0], [4, 0, -9], [0, 9, 0]])
    assert settled.points == (-4, -5, 9)
    assert settled.capped == frozenset({0, 1})


def test_a_cycle_of_capped_players_is_solved_exactly() -> None:
    # 0 owes 1, 1 owes 2, 2 owes 0 (4 each) and each owes seat 3 ten; caps 3. By symmetry every
    # ratio r solves 14 r = 4 r + 3, r = 3/10: each pays 6/5 round the cycle and 3 to seat 3.
    vs = antisymmetric({(0, 1): -4, (1, 2): -4, (0, 2): 4, (0, 3): -10, (1, 3): -10, (2, 3): -10}, 4)
    settled = cap_losses(vs, [3, 3, 3, None])
    assert settled.points == (-3, -3, -3, 9)
    assert settled.vs[1][0] == Fraction(6, 5)
    assert settled.vs[3][2] == 3


def test_the_winner_is_never_capped() -> None:
    vs = antisymmetric({(0, 1): 30}, 2)
    assert cap_losses(vs, [1, 1]).points == (1, -1)


@pytest.mark.parametrize(
    ("vs", "caps", "message"),
    [
        ([[0, 1], [-2, 0]], [None, None], "not zero-sum: player 0 wins 1"),
        ([[0, 1], [-1]], [None, None], "player 1 has 1 entries, expected 2"),
        ([[1, 0], [0, 0]], [None, None], "player 0 wins 1 from themself"),
        ([[0, 1], [-1, 0]], [None], "1 caps given for 2 players"),
        ([[0, 1], [-1, 0]], [0, None], "player 0 has nothing left to lose"),
    ],
)
def test_bad_input_is_refused(vs: list[list[int]], caps: list[int | None], message: str) -> None:
    with pytest.raises(MatchError, match=message):
        cap_losses(vs, caps)


def test_ledger_keeps_points_and_money_per_seat_and_pair() -> None:
    ledger = Ledger.empty(3, Decimal("0.25"))
    assert ledger.points == (0, 0, 0)
    hand = as_matrix([[0, Fraction(-14, 3), -6], [Fraction(14, 3), 0, 3], [6, -3, 0]])
    ledger = ledger.plus(hand).plus(hand)
    assert ledger.points == (Fraction(-64, 3), Fraction(46, 3), 6)
    assert ledger.money == (Fraction(-16, 3), Fraction(23, 6), Fraction(3, 2))
    assert ledger.money_between(1, 0) == Fraction(7, 3)
    assert ledger.pairwise[2][1] == -6


def test_matrix_helpers() -> None:
    assert zero_matrix(2) == ((0, 0), (0, 0))
    assert add_matrices(as_matrix([[0, 1], [-1, 0]]), as_matrix([[0, 2], [-2, 0]])) == ((0, 3), (-3, 0))


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[list[int]], list[Fraction | None]]:
    size = draw(st.integers(2, 4))
    upper = {(i, j): draw(st.integers(-40, 40)) for i in range(size) for j in range(i + 1, size)}
    caps = [draw(st.one_of(st.none(), st.fractions(Fraction(1, 3), 30, max_denominator=6))) for _ in range(size)]
    return antisymmetric(upper, size), caps


@settings(max_examples=300, deadline=None)
@given(hands())
def test_capping_is_zero_sum_and_respects_every_cap(
    hand: tuple[list[list[int]], list[Fraction | None]],
) -> None:
    vs, caps = hand
    settled = cap_losses(vs, caps)
    assert sum(settled.points) == 0
    for i, cap in enumerate(caps):
        if cap is not None:
            assert settled.points[i] >= -cap
        if i in settled.capped:
            assert cap is not None, f"seat {i} was capped without a cap"
            assert settled.points[i] == -cap
        for j in range(len(vs)):
            assert settled.vs[i][j] == -settled.vs[j][i]
            original = vs[i][j]
            assert 0 <= settled.vs[i][j] / original <= 1 if original else settled.vs[i][j] == 0
            if original < 0 and i not in settled.capped:
                assert settled.vs[i][j] == original
