"""A pairwise result split into its parts (rows, scoop, royalties) for the keeper's screen.

The engine's ``score_boards`` decides the points; this only explains them, and checks that
its parts add up to the engine's figure.
"""

from __future__ import annotations

from dataclasses import dataclass

from ofc.rules.errors import MatchError
from ofc.rules.rulebook import Rules
from ofc.rules.scoring import PlayerScore


@dataclass(frozen=True)
class PairResult:
    """What one player won from another: per row, the scoop bonus and the royalty difference."""

    rows: tuple[int, int, int]
    """Top, middle, bottom."""
    scoop: int
    royalties: int

    @property
    def total(self) -> int:
        """Everything added up (the engine's pairwise result)."""
        return sum(self.rows) + self.scoop + self.royalties


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def pair_result(mine: PlayerScore, theirs: PlayerScore, their_index: int, rules: Rules) -> PairResult:
    """``mine`` against ``theirs`` (at ``their_index`` of the sheet), split into its parts."""
    per_row = rules.row_points
    if mine.fouled and theirs.fouled:
        return _checked(PairResult((0, 0, 0), 0, 0), mine, their_index)
    signs: tuple[int, ...]
    if mine.fouled or theirs.fouled:
        signs = (-1 if mine.fouled else 1,) * 3
    else:
        a, b = mine.keys, theirs.keys
        signs = (_sign(a.top - b.top), _sign(a.middle - b.middle), _sign(a.bottom - b.bottom))
    rows = (signs[0] * per_row, signs[1] * per_row, signs[2] * per_row)
    scoop = rules.scoop_bonus * (1 if min(signs) == 1 else -1 if max(signs) == -1 else 0)
    royalties = mine.royalties.total - theirs.royalties.total
    return _checked(PairResult(rows, scoop, royalties), mine, their_index)


def _checked(result: PairResult, mine: PlayerScore, their_index: int) -> PairResult:
    if result.total != mine.vs[their_index]:
        raise MatchError(
            "pairwise parts add up to {total}, the engine says {engine}",
            total=result.total,
            engine=mine.vs[their_index],
        )
    return result
