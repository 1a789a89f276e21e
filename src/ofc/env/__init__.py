"""Research environments over the engine: PettingZoo, Gymnasium and OpenSpiel (``pip install -e ".[env]"``).

``ofc.env.pettingzoo_env(...)`` (AEC), ``ofc.env.parallel_env(...)`` (parallel) and
``ofc.env.SeatEnv(...)`` are loaded on first use, so the
action encoding (``ofc.env.encoding``) works without the optional packages; ``import
ofc.env.spiel`` registers the OpenSpiel game ``python_ofc``; importing ``ofc.env`` registers
``ofc/Seat-v0`` with Gymnasium. See docs/environments.md.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SEAT_ENV_ID", "SeatEnv", "parallel_env", "pettingzoo_env"]

SEAT_ENV_ID = "ofc/Seat-v0"


def _register() -> None:
    """Register ``ofc/Seat-v0`` with Gymnasium when it is installed (the env itself loads on make)."""
    try:
        import gymnasium
    except ImportError:  # the env extra is not installed
        return
    if SEAT_ENV_ID not in gymnasium.registry:
        gymnasium.register(id=SEAT_ENV_ID, entry_point="ofc.env.seat:SeatEnv")


_register()


def __getattr__(name: str) -> Any:
    if name == "pettingzoo_env":
        from ofc.env.aec import pettingzoo_env

        return pettingzoo_env
    if name == "parallel_env":
        from ofc.env.parallel import parallel_env

        return parallel_env
    if name == "SeatEnv":
        from ofc.env.seat import SeatEnv

        return SeatEnv
    raise AttributeError(f"module 'ofc.env' has no attribute {name!r}")
