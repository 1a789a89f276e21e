"""Shared checks for the environment tests: the showdown's points recomputed from the final boards."""

from __future__ import annotations

from ofc.scoring import Board, score_boards
from ofc.view import HandView


def scored_points(view: HandView) -> tuple[int, ...]:
    """``ofc.scoring.score_boards`` on the boards a finished hand shows (the ``ofc score`` scoring)."""
    assert view.result is not None
    boards = [Board(*seat.rows) for seat in view.seats]
    streaks = [seat.fantasy_in_row for seat in view.seats]
    return score_boards(boards, view.rules, streaks).points
