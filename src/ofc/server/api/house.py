"""The house account: it backs the bots (buy-ins, prizes, match results) and keeps rounded-off cents."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from ofc.server.api.dependencies import Manager, Store
from ofc.server.api.refusals import refusals
from ofc.server.tables.money import money_text


class HouseBalance(BaseModel):
    """The house's balance (exact, as text)."""

    balance: str


router = APIRouter(prefix="/api/house", tags=["house"], responses=refusals(503))


@router.get("", response_model=HouseBalance)
async def house(manager: Manager, store: Store) -> dict[str, Any]:
    """The house account's balance."""
    balance = await manager.db.read(store.house_balance)
    return {"balance": money_text(balance)}
