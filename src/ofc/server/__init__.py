"""The game server: lobby, tables, clocks, storage and the WebSocket protocol (``ofc serve``)."""

from __future__ import annotations

from ofc.server.app import create_app

__all__ = ["create_app"]
