"""Settling one hand when some players cannot pay in full, and the running ledger.

A hand's result is a pairwise matrix: ``vs[i][j]`` is what player ``i`` wins from ``j``
(antisymmetric). A player ``i`` with a cap ``caps[i]`` may lose at most that much net in the
hand (the rest of a loss limit, or the chips in front of them). ``cap_losses`` reduces the
payments of the players who would lose more:

- A capped player still collects in full what their debtors owe them (a player who lost to
  others is never affected by someone else's cap), and pays their creditors exactly what they
  collect plus their cap, shared pro rata to what each creditor was owed. Their net for the
  hand is then exactly ``-cap``.
- A capped player collects less when one of their own debtors is capped, which may in turn
  cap them. The payout ratios ``r`` (1 for a player who pays in full) therefore form the
  greatest fixed point of ``r[i] = min(1, (collected(r) + cap[i]) / owed[i])``. It is found
  exactly: start with everybody paying in full; while someone's net is below their cap, add
  them to the capped set and solve the capped players' linear equations with fractions.

Every payment scales a term of the matrix, so the result stays antisymmetric: zero-sum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ofc.rules.errors import MatchError

Matrix = tuple[tuple[Fraction, ...], ...]
Number = int | Fraction | Decimal


def amount_text(value: Number) -> str:
    """An exact amount as short text: ``12``, ``-3.5``, ``3.33`` (two places when inexact)."""
    number = Fraction(value)
    if number.denominator == 1:
        return str(number.numerator)
    text = f"{float(number):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class Settlement:
    """What each player actually wins from each other player in one hand."""

    vs: Matrix
    capped: frozenset[int]
    """Players whose payments were reduced: they lost exactly their cap."""

    @property
    def points(self) -> tuple[Fraction, ...]:
        """Net result per player; they sum to zero."""
        return tuple(sum(row, Fraction(0)) for row in self.vs)


def as_matrix(vs: Sequence[Sequence[Number]]) -> Matrix:
    """``vs`` as exact fractions, checked square and antisymmetric."""
    size = len(vs)
    matrix = tuple(tuple(Fraction(value) for value in row) for row in vs)
    for i, row in enumerate(matrix):
        if len(row) != size:
            raise MatchError(
                "result row of player {i} has {n_row} entries, expected {size}", i=i, n_row=len(row), size=size
            )
    for i, row in enumerate(matrix):
        if row[i] != 0:
            raise MatchError("player {i} wins {amount} from themself", i=i, amount=row[i])
        for j, value in enumerate(row):
            if value != -matrix[j][i]:
                raise MatchError(
                    "result is not zero-sum: player {i} wins {value} from player {j} but player {j} wins "
                    "{back} from player {i}",
                    i=i,
                    value=value,
                    j=j,
                    back=matrix[j][i],
                )
    return matrix


def cap_losses(vs: Sequence[Sequence[Number]], caps: Sequence[Number | None]) -> Settlement:
    """Settle a hand so that no player ``i`` loses more than ``caps[i]`` (``None``: no cap).

    Every cap must be positive. See the module docstring for the algorithm.
    """
    matrix = as_matrix(vs)
    size = len(matrix)
    if len(caps) != size:
        raise MatchError("{n_caps} caps given for {size} players", n_caps=len(caps), size=size)
    limits = [None if cap is None else Fraction(cap) for cap in caps]
    for i, cap in enumerate(limits):
        if cap is not None and cap <= 0:
            raise MatchError("player {i} has nothing left to lose (cap {cap})", i=i, cap=cap)
    owed = [sum((-v for v in row if v < 0), Fraction(0)) for row in matrix]
    ratio = [Fraction(1)] * size
    capped: list[int] = []
    while True:
        short = [
            i
            for i, cap in enumerate(limits)
            if cap is not None and i not in capped and _net(matrix, ratio, owed, i) < -cap
        ]
        if not short:
            break
        capped.extend(short)
        ratio = _solve_ratios(matrix, owed, limits, sorted(capped))
    paid = tuple(
        tuple(value * ratio[j] if value > 0 else value * ratio[i] for j, value in enumerate(row))
        for i, row in enumerate(matrix)
    )
    return Settlement(paid, frozenset(capped))


def _net(matrix: Matrix, ratio: Sequence[Fraction], owed: Sequence[Fraction], i: int) -> Fraction:
    collected = sum((v * ratio[k] for k, v in enumerate(matrix[i]) if v > 0), Fraction(0))
    return collected - ratio[i] * owed[i]


def _solve_ratios(
    matrix: Matrix, owed: Sequence[Fraction], limits: Sequence[Fraction | None], capped: list[int]
) -> list[Fraction]:
    """Ratios making every capped player's net exactly ``-cap``; the others pay in full.

    For capped ``i``: ``owed[i] * r[i] - sum(vs[i][k] * r[k], k capped debtor of i)
    = cap[i] + sum(vs[i][k], k uncapped debtor of i)``. With positive caps the system is
    non-singular (a group of capped players owing nobody outside it would gain in total).
    """
    index = {seat: row for row, seat in enumerate(capped)}
    system: list[list[Fraction]] = []
    for i in capped:
        cap = limits[i]
        assert cap is not None
        equation = [Fraction(0)] * (len(capped) + 1)
        equation[index[i]] = owed[i]
        equation[-1] = cap
        for k, value in enumerate(matrix[i]):
            if value > 0 and k in index:
                equation[index[k]] -= value
            elif value > 0:
                equation[-1] += value
        system.append(equation)
    solution = _gauss(system)
    ratio = [Fraction(1)] * len(matrix)
    for seat, value in zip(capped, solution, strict=True):
        ratio[seat] = value
    return ratio


def _gauss(system: list[list[Fraction]]) -> list[Fraction]:
    """Solve a square linear system given as augmented rows, exactly."""
    size = len(system)
    rows = [row[:] for row in system]
    for col in range(size):
        pivot = next(r for r in range(col, size) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[r][-1] / rows[r][r] for r in range(size)]


def zero_matrix(size: int) -> Matrix:
    """A ``size`` x ``size`` matrix of zeros."""
    return tuple((Fraction(0),) * size for _ in range(size))


def add_matrices(a: Matrix, b: Matrix) -> Matrix:
    """The element-wise sum of two matrices of the same shape."""
    rows = zip(a, b, strict=True)
    return tuple(tuple(x + y for x, y in zip(ra, rb, strict=True)) for ra, rb in rows)


@dataclass(frozen=True)
class Ledger:
    """Running totals of a match in points and money, per seat and per pair of seats.

    Points are exact fractions (pro-rata sharing may split a point); money is points times
    ``point_value``, also exact, so both stay zero-sum.
    """

    point_value: Fraction
    pairwise: Matrix
    """``pairwise[i][j]``: points seat ``i`` has won from seat ``j`` so far."""

    @staticmethod
    def empty(seats: int, point_value: Number) -> Ledger:
        """A ledger of ``seats`` seats with nothing recorded."""
        return Ledger(Fraction(point_value), zero_matrix(seats))

    def plus(self, hand: Matrix) -> Ledger:
        """This ledger with one more hand's pairwise points (seat-indexed) added."""
        return Ledger(self.point_value, add_matrices(self.pairwise, hand))

    @property
    def points(self) -> tuple[Fraction, ...]:
        """Net points per seat."""
        return tuple(sum(row, Fraction(0)) for row in self.pairwise)

    @property
    def money(self) -> tuple[Fraction, ...]:
        """Net money per seat."""
        return tuple(points * self.point_value for points in self.points)

    def money_between(self, seat: int, other: int) -> Fraction:
        """Money ``seat`` has won from ``other`` so far."""
        return self.pairwise[seat][other] * self.point_value
