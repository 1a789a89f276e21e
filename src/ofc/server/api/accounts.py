"""Accounts that travel: sign in with a player key on any browser (docs/protocol.md).

``POST /api/players/{name}/signin`` with ``{"key"}`` checks the key against the stored hash
and answers the player's balance and the tables where the player holds a seat. The key
itself is never stored; a wrong key is ``403 bad_key``, an unknown name ``404 no_player``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ofc.server.db.storage import Storage
from ofc.server.net.ratelimit import RateLimited, client_address
from ofc.server.tables.decks import PlayError
from ofc.server.tables.manager import TableManager
from ofc.server.tables.money import money_text


class SignIn(BaseModel):
    """The body of a sign-in: the player key the first join returned."""

    model_config = ConfigDict(extra="forbid")
    key: str = Field(min_length=1, max_length=200)


def _refusal(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def player_tables(manager: TableManager, name: str) -> list[dict[str, Any]]:
    """The listed tables (lobby form) where a person's seat carries ``name``."""
    mine: list[dict[str, Any]] = []
    for table in manager.listing():
        seats = [seat["seat"] for seat in table["seats"] if seat["bot"] is None and seat["name"] == name]
        if seats:
            mine.append(table | {"your_seats": seats})
    return mine


def accounts_router(store: Storage, manager: TableManager) -> APIRouter:
    """The sign-in route over the server's storage and tables."""
    router = APIRouter()

    @router.post("/api/players/{name}/signin", response_model=None)
    async def sign_in(name: str, request: SignIn, http: Request) -> dict[str, Any] | JSONResponse:
        """The player's balance and tables, for the holder of the player's key (wrong keys are rate limited)."""
        known = await manager.db.read(store.known_name, name)  # names are unique regardless of case
        balance = None if known is None else await manager.db.read(store.balance, known)
        if known is None or balance is None:
            return _refusal("no_player", f"there is no player {name!r}", 404)
        name = known
        stored = await manager.db.read(store.key_hash, name)
        try:
            manager.check_key(name, client_address(http), request.key, stored or "")
        except RateLimited:
            raise
        except PlayError:
            return _refusal("bad_key", f"that is not the player key of {name}", 403)
        return {
            "name": name,
            "balance": money_text(balance),
            "tables": player_tables(manager, name),
        }

    return router
