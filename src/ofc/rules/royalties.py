"""Royalty tables and row points of the two scoring systems, as data (RULES.md "Royalties")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ofc.rules.ranking import Category
from ofc.rules.variants import Scoring


@dataclass(frozen=True)
class RoyaltyTable:
    """Royalties of one scoring system, as data.

    ``bottom`` and ``middle`` are indexed by ``Category``; the royal flush has its own entry.
    ``top_pair`` and ``top_trips`` are indexed by the rank index (0 = deuce .. 12 = ace).
    """

    name: str
    bottom: tuple[int, ...]
    bottom_royal: int
    middle: tuple[int, ...]
    middle_royal: int
    top_pair: tuple[int, ...]
    top_trips: tuple[int, ...]


def _royalty_table(name: str, quads: int, straight_flush: int, royal: int) -> RoyaltyTable:
    bottom = [0] * len(Category)
    bottom[Category.STRAIGHT] = 2
    bottom[Category.FLUSH] = 4
    bottom[Category.FULL_HOUSE] = 6
    bottom[Category.QUADS] = quads
    bottom[Category.STRAIGHT_FLUSH] = straight_flush
    middle = [2 * value for value in bottom]
    middle[Category.TRIPS] = 2
    top_pair = (0,) * 4 + tuple(range(1, 10))  # 66 = 1 .. AA = 9
    top_trips = tuple(range(10, 23))  # 222 = 10 .. AAA = 22
    return RoyaltyTable(name, tuple(bottom), royal, tuple(middle), 2 * royal, top_pair, top_trips)


ROYALTY_TABLES: Mapping[Scoring, RoyaltyTable] = {
    Scoring.CLASSIC: _royalty_table("classic", quads=8, straight_flush=10, royal=15),
    Scoring.AMERICAN: _royalty_table("american", quads=10, straight_flush=15, royal=25),
}

ROW_POINTS: Mapping[Scoring, int] = {Scoring.CLASSIC: 2, Scoring.AMERICAN: 1}
SCOOP_BONUS: Mapping[Scoring, int] = {Scoring.CLASSIC: 0, Scoring.AMERICAN: 3}
"""Extra points for winning all three rows (american: +6 in all instead of +3)."""
