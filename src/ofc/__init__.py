"""Open Face Chinese Poker: rules, scoring, engine, solver, bots and faces."""

from __future__ import annotations

__version__ = "0.1.0"
