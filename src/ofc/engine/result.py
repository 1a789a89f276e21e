"""The result of a finished hand: the boards, the score sheet and the time banks left."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from ofc.engine.clock import time_text
from ofc.rules.cards import format_card
from ofc.rules.ranking import hand_name
from ofc.rules.scoring import ROW_NAMES, Board, ScoreSheet


def board_dict(board: Board) -> dict[str, list[str]]:
    """A board as lists of card text per row."""
    return {name: [format_card(card) for card in board.row(name)] for name in ROW_NAMES}


@dataclass(frozen=True)
class HandResult:
    """The showdown: ``sheet`` from ``score_boards``, the final ``boards`` and ``time_banks``.

    ``time_banks[i]`` is what is left of seat ``i``'s match time bank, to carry into the
    next hand of the match.
    """

    boards: tuple[Board, ...]
    sheet: ScoreSheet
    time_banks: tuple[Decimal, ...]

    @property
    def points(self) -> tuple[int, ...]:
        """Net points per seat; they sum to zero."""
        return self.sheet.points

    def to_dict(self) -> dict[str, object]:
        """JSON-friendly form: ``{"players": [...]}``, one entry per seat in seat order."""
        return {"players": self.player_dicts()}

    def player_dicts(self) -> list[dict[str, object]]:
        """One JSON-friendly entry per seat, in seat order."""
        players: list[dict[str, object]] = []
        for seat, (board, line) in enumerate(zip(self.boards, self.sheet.players, strict=True)):
            players.append(
                {
                    "seat": seat,
                    "board": board_dict(board),
                    "hands": [hand_name(key) for key in (line.keys.top, line.keys.middle, line.keys.bottom)],
                    "fouled": line.fouled,
                    "royalties": line.royalties.to_dict(),
                    "fantasy": line.fantasy,
                    "vs": list(line.vs),
                    "points": line.points,
                    "time_bank": time_text(self.time_banks[seat]),
                }
            )
        return players


def hand_result(boards: tuple[Board, ...], sheet: ScoreSheet, time_banks: tuple[Decimal, ...]) -> HandResult:
    """``HandResult(boards, sheet, time_banks)`` set as its frozen ``__init__`` sets it, in less time (the
    engine makes one per hand)."""
    result: HandResult = object.__new__(HandResult)
    result.__dict__.update(boards=boards, sheet=sheet, time_banks=time_banks)
    return result
