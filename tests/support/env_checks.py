"""Shared checks for the environment tests: the showdown's points recomputed from the final boards."""

from __future__ import annotations

from ofc.engine.view import HandView
from ofc.rules.scoring import Board, score_boards


def scored_points(view: HandView) -> tuple[int, ...]:
    """``ofc.rules.scoring.score_boards`` on the boards a finished hand shows (the ``ofc score`` scoring)."""
    assert view.result is not None
    boards = [Board(*seat.rows) for seat in view.seats]
    streaks = [seat.fantasy_in_row for seat in view.seats]
    return score_boards(boards, view.rules, streaks).points
