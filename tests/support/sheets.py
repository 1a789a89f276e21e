"""Hand-made score sheets for the match and tournament tests (keys and royalties unused)."""

from __future__ import annotations

from collections.abc import Sequence

from ofc.rules.scoring import PlayerScore, RowKeys, Royalties, ScoreSheet


def sheet(vs: Sequence[Sequence[int]], fantasy: Sequence[int] | None = None) -> ScoreSheet:
    """A score sheet with the given results ``vs[i][j]`` and fantasy deals."""
    earned = fantasy if fantasy is not None else [0] * len(vs)
    return ScoreSheet(
        tuple(
            PlayerScore(RowKeys(0, 0, 0), Royalties(), cards, tuple(row)) for row, cards in zip(vs, earned, strict=True)
        )
    )
