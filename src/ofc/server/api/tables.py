"""The lobby's routes: list, create, join, rematch and leave tables (docs/protocol.md, Lobby).

Answers keep only the keys the tables give: a key that is absent (``joined``, ``player_key``)
stays absent rather than null. A name used for the first time (joining, or creating a table
and sitting at it) may not be a reserved one (``RESERVED``: the bots' and the server's own,
in any case, spacing or punctuation: 400 ``reserved_name``) nor differ from an existing
player's only by case, spaces or punctuation (409 ``similar_name``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict
from sqlalchemy import func, select

from ofc.bots import BOT_NAMES
from ofc.rules.errors import BalanceError, OfcError
from ofc.server.api.dependencies import Manager, Store
from ofc.server.api.refusals import Refusal, refusals
from ofc.server.db.schema import players
from ofc.server.db.storage import Storage
from ofc.server.net.protocol import CreateTable, JoinTable, LeaveTable
from ofc.server.net.ratelimit import client_address
from ofc.server.tables.decks import PlayError


class Answer(BaseModel):
    """An answer of the API: its declared fields, and any the tables add later kept as they are."""

    model_config = ConfigDict(extra="allow")


class SeatEntry(Answer):
    """A seat as the lobby lists it."""

    seat: int
    name: str
    bot: str | None
    """The bot spec playing the seat (null: a person's seat)."""
    open: bool
    stand_in: str | None
    """The bot playing for a person who left the match (null: none)."""


class TableOptions(Answer):
    """A table's options."""

    hints: bool


class TableEntry(Answer):
    """A table as the lobby lists it."""

    id: int
    name: str
    kind: str
    """``match`` or ``tournament``."""
    status: str
    rules: dict[str, Any]
    """``Rules.to_dict()``: the variant and every setting."""
    options: TableOptions
    seats: list[SeatEntry]
    open_seats: list[int]


class Joined(Answer):
    """A seat taken: the table, the seat, its token and the stored name (``player_key`` for a new name)."""

    table: int
    seat: int
    token: str
    name: str
    player_key: str | None = None
    """Given once, when the name is first used (absent otherwise)."""


class CreatedTable(TableEntry):
    """A new table; with ``sit``, also what the join answered (absent otherwise)."""

    joined: Joined | None = None


class TableList(Answer):
    """The lobby: the tables not finished and the last finished ones."""

    tables: list[TableEntry]
    warming: int | None = None
    """Whole seconds the server's decision workers have been warming (absent: warm): no hand is dealt before."""


RESERVED = frozenset({"random", "heuristic", "mc", "pro", *BOT_NAMES, "house", "admin", "system", "server"})
"""Names no player may take: the bots' kinds and the server's own accounts."""


def folded(name: str) -> str:
    """A name regardless of case, spaces and punctuation (what two names that look alike share)."""
    return "".join(char for char in name.casefold() if char.isalnum())


def look_alikes(store: Storage, name: str) -> list[str]:
    """The stored players whose names differ from ``name`` only by case, spaces or punctuation."""
    wanted = folded(name)
    if not wanted:
        return []
    # letters in order with anything between: a superset the database narrows to, checked exactly here
    pattern = "%" + "%".join(char if char.isascii() else "" for char in wanted) + "%"
    with store.engine.connect() as db:
        found = db.execute(select(players.c.name).where(func.lower(players.c.name).like(pattern))).scalars()
        return sorted(other for other in found if folded(other) == wanted)


def check_name_rule(name: str, similar: list[str]) -> None:
    """Refuse a new name that is reserved or looks like ``similar``'s first (``PlayError``)."""
    if folded(name) in {folded(reserved) for reserved in RESERVED}:
        raise PlayError(
            "the name {name} is reserved for the server's bots and accounts: choose another",
            code="reserved_name",
            name=name,
        )
    if similar:
        raise PlayError(
            "the name {name} differs from the player {other} only by case, spaces or punctuation: choose another",
            code="similar_name",
            name=name,
            other=similar[0],
        )


async def check_new_name(manager: Manager, store: Store, name: str) -> None:
    """Refuse a name used for the first time that is reserved (400) or looks like an existing one (409)."""
    similar = await manager.db.read(look_alikes, store, name)
    try:
        check_name_rule(name, similar)
    except PlayError as error:
        raise Refusal.of(400 if error.code == "reserved_name" else 409, error.code, error, "name") from None


router = APIRouter(prefix="/api/tables", tags=["tables"], responses=refusals(503))


@router.get("", response_model=TableList, response_model_exclude_unset=True)
async def list_tables(manager: Manager) -> dict[str, Any]:
    """Every table with its seats and status, and whether the server is still warming up."""
    warming = manager.warming()
    return {"tables": manager.listing()} | ({} if warming is None else {"warming": int(warming)})


@router.post(
    "",
    status_code=201,
    response_model=CreatedTable,
    response_model_exclude_unset=True,
    responses=refusals(403, 404, 409, 429),
)
async def create_table(request: CreateTable, http: Request, manager: Manager, store: Store) -> dict[str, Any]:
    """Create a table from a preset, settings and bot seats (at most so many per client address and player).

    With ``sit``, the player sits down in the same step (the answer's ``joined``), or nothing is created.
    """
    address = client_address(http)
    asks = [("create", address, 1)]
    if request.sit is not None:
        asks.append(("create_person", request.sit.name.lower(), 1))
    await manager.limiter.take(manager.db, asks, spend=False)  # counted once created: a refused table is free
    if (sit := request.sit) is not None:
        known = await manager.db.read(store.known_name, sit.name)  # names are unique regardless of case
        if known is not None:
            request = request.model_copy(update={"sit": sit.model_copy(update={"name": known})})
        else:
            await check_new_name(manager, store, sit.name)
    try:
        table = await manager.create(request, address)
    except (PlayError, BalanceError):
        raise  # a refused seat: its own code (bad_key, balance...)
    except OfcError as error:
        raise Refusal.of(400, "bad_table", error) from None
    await manager.limiter.take(manager.db, asks, check=False)
    return table


@router.post(
    "/{table_id}/join",
    response_model=Joined,
    response_model_exclude_unset=True,
    responses=refusals(403, 404, 409, 410, 429),
)
async def join_table(
    table_id: int, request: JoinTable, http: Request, manager: Manager, store: Store
) -> dict[str, Any]:
    """Sit a player at an open seat; the answer holds the seat token."""
    known = await manager.db.read(store.known_name, request.name)  # names are unique regardless of case
    if known is not None:
        request = request.model_copy(update={"name": known})
    else:
        await check_new_name(manager, store, request.name)
    return await manager.join(table_id, request, client_address(http))


@router.post("/{table_id}/rematch", response_model=TableEntry, responses=refusals(404, 409))
async def rematch_table(table_id: int, manager: Manager) -> dict[str, Any]:
    """The table for a rematch of a finished match (opened by the first request)."""
    return await manager.rematch(table_id)


@router.post("/{table_id}/leave", response_model=TableEntry, responses=refusals(403, 404, 409))
async def leave_table(table_id: int, request: LeaveTable, manager: Manager) -> dict[str, Any]:
    """Give up a seat: before the match starts it is open again; after, a bot plays it to the end."""
    return await manager.leave(table_id, request)
