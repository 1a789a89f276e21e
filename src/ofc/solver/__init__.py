"""Solvers: the exact fantasyland solver (and, later, placement values for bots)."""

from __future__ import annotations

from ofc.fantasy_value import DEFAULT_STAY_VALUE
from ofc.solver.fantasy import (
    FantasySolution,
    check_deal,
    max_fantasy_cards,
    solve_fantasy,
    solve_fantasy_top,
    warm_up,
)

__all__ = [
    "DEFAULT_STAY_VALUE",
    "FantasySolution",
    "check_deal",
    "max_fantasy_cards",
    "solve_fantasy",
    "solve_fantasy_top",
    "warm_up",
]
