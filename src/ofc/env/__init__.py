"""Research environments over the engine: PettingZoo, Gymnasium and OpenSpiel (``pip install -e ".[env]"``).

``ofc.env.pettingzoo_env(...)`` and ``ofc.env.SeatEnv(...)`` are loaded on first use, so the
action encoding (``ofc.env.encoding``) works without the optional packages; ``import
ofc.env.spiel`` registers the OpenSpiel game ``python_ofc``. See docs/environments.md.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SeatEnv", "pettingzoo_env"]


def __getattr__(name: str) -> Any:
    if name == "pettingzoo_env":
        from ofc.env.aec import pettingzoo_env

        return pettingzoo_env
    if name == "SeatEnv":
        from ofc.env.seat import SeatEnv

        return SeatEnv
    raise AttributeError(f"module 'ofc.env' has no attribute {name!r}")
