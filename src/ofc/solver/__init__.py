"""Solvers: the exact fantasyland solver (and, later, placement values for bots)."""

from __future__ import annotations

from ofc.solver.fantasy import (
    DEFAULT_STAY_VALUE,
    FantasySolution,
    check_deal,
    max_fantasy_cards,
    solve_fantasy,
    warm_up,
)

__all__ = [
    "DEFAULT_STAY_VALUE",
    "FantasySolution",
    "check_deal",
    "max_fantasy_cards",
    "solve_fantasy",
    "warm_up",
]
