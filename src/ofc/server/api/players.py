"""Players: a player's balance, and accounts that travel (docs/protocol.md).

``POST /api/players/{name}/signin`` with ``{"key"}`` checks the key against the stored hash
and answers the player's balance and the tables where the player holds a seat. The key
itself is never stored; a wrong key is ``403 bad_key``, an unknown name ``404 no_player``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from ofc.server.api.dependencies import Manager, SignedIn, Store
from ofc.server.api.refusals import Refusal, refusals
from ofc.server.api.tables import TableEntry
from ofc.server.tables.manager import TableManager
from ofc.server.tables.money import money_text


class Balance(BaseModel):
    """A player's play-money balance (exact, as text)."""

    name: str
    balance: str


class PlayerTable(TableEntry):
    """A listed table where the player holds a seat: the lobby's entry and the player's seats."""

    your_seats: list[int]


class SignedInAnswer(Balance):
    """A signed-in player: the balance and the tables where the player holds a seat."""

    tables: list[PlayerTable]


def player_tables(manager: TableManager, name: str) -> list[dict[str, Any]]:
    """The listed tables (lobby form) where a person's seat carries ``name``."""
    mine: list[dict[str, Any]] = []
    for table in manager.listing():
        seats = [seat["seat"] for seat in table["seats"] if seat["bot"] is None and seat["name"] == name]
        if seats:
            mine.append(table | {"your_seats": seats})
    return mine


router = APIRouter(prefix="/api/players", tags=["players"], responses=refusals(404, 503))


@router.get("/{name}", response_model=Balance)
async def player(name: str, manager: Manager, store: Store) -> dict[str, Any]:
    """A player's play-money balance."""
    balance = await manager.db.read(store.balance, name)
    if balance is None:
        raise Refusal(404, "no_player", f"there is no player {name!r}")
    return {"name": name, "balance": money_text(balance)}


@router.post("/{name}/signin", response_model=SignedInAnswer, responses=refusals(403, 429))
async def sign_in(player: SignedIn, manager: Manager) -> dict[str, Any]:
    """The player's balance and tables, for the holder of the player's key (wrong keys are rate limited)."""
    return {"name": player.name, "balance": money_text(player.balance), "tables": player_tables(manager, player.name)}
