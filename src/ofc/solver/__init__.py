"""The exact fantasyland solver (``ofc.solver.fantasy``) and the worth of a repeat fantasy.

The solver's names load on first use (PEP 562), so ``DEFAULT_STAY_VALUE`` can be read without
loading numba.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from ofc.solver.fantasy import (
        FantasySolution,
        check_deal,
        max_fantasy_cards,
        solve_fantasy,
        solve_fantasy_top,
        warm_up,
    )

DEFAULT_STAY_VALUE: Final = 12.0
"""Points a repeat fantasy is worth by default: a fantasy hand's worth, estimated by simulation (docs/solver.md)."""

_FANTASY_NAMES: Final = frozenset(
    {"FantasySolution", "check_deal", "max_fantasy_cards", "solve_fantasy", "solve_fantasy_top", "warm_up"}
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


def __getattr__(name: str) -> Any:
    """Load the solver's module on first use."""
    if name in _FANTASY_NAMES:
        return getattr(importlib.import_module("ofc.solver.fantasy"), name)
    raise AttributeError(f"module 'ofc.solver' has no attribute {name!r}")
