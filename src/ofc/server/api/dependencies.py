"""What the routes need, as FastAPI dependencies over ``app.state`` (set by ``create_app``).

The table manager, the storage, the keep store, the settings and the server's readiness; and
the one who asks where a route authenticates: a player by name and player key
(``signed_in``), a seated player by the seat's token (``seat_holder``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any

from fastapi import Depends
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from ofc.server.api.refusals import Refusal
from ofc.server.db.keep_store import KeepStore
from ofc.server.db.storage import Storage
from ofc.server.net.ratelimit import RateLimited, client_address
from ofc.server.settings import ServerSettings
from ofc.server.tables.decks import PlayError
from ofc.server.tables.game import TableGame
from ofc.server.tables.manager import TableManager, token_hash

ANALYSES_KEPT = 500
"""Finished hands' analyses kept in memory (the least recently asked leave first)."""


@dataclass
class Health:
    """Whether the server is ready: tables restored and the decision workers warm."""

    ready: bool = False


@dataclass
class Analyses:
    """Finished hands' analyses by (table, hand, player), the least recently asked first."""

    kept: OrderedDict[tuple[int, int, str], dict[str, Any]] = field(default_factory=OrderedDict)

    def get(self, key: tuple[int, int, str]) -> dict[str, Any] | None:
        """The analysis worked out before (now the most recently asked), or None."""
        if key not in self.kept:
            return None
        self.kept.move_to_end(key)
        return self.kept[key]

    def put(self, key: tuple[int, int, str], answer: dict[str, Any]) -> None:
        """Keep ``answer``; the least recently asked leave past ``ANALYSES_KEPT``."""
        self.kept[key] = answer
        while len(self.kept) > ANALYSES_KEPT:
            self.kept.popitem(last=False)


class BookLocks:
    """One lock per keep book: a book's changes run one at a time."""

    def __init__(self) -> None:
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    @contextmanager
    def held(self, code: str) -> Iterator[None]:
        """Hold the lock of book ``code``."""
        with self._guard:
            lock = self._locks.setdefault(code, threading.Lock())
        with lock:
            yield


def get_settings(connection: HTTPConnection) -> ServerSettings:
    """The server's settings."""
    settings: ServerSettings = connection.app.state.settings
    return settings


def get_manager(connection: HTTPConnection) -> TableManager:
    """The table manager (the lobby, every table, the database's threads, the decision pool)."""
    manager: TableManager = connection.app.state.manager
    return manager


def get_store(connection: HTTPConnection) -> Storage:
    """The tables' and players' storage."""
    store: Storage = connection.app.state.store
    return store


def get_keep(connection: HTTPConnection) -> KeepStore:
    """The keep page's score books."""
    keep: KeepStore = connection.app.state.keep
    return keep


def get_book_locks(connection: HTTPConnection) -> BookLocks:
    """The keep books' locks."""
    locks: BookLocks = connection.app.state.book_locks
    return locks


def get_health(connection: HTTPConnection) -> Health:
    """The server's readiness."""
    health: Health = connection.app.state.health
    return health


def get_analyses(connection: HTTPConnection) -> Analyses:
    """The analyses kept."""
    analyses: Analyses = connection.app.state.analyses
    return analyses


Settings = Annotated[ServerSettings, Depends(get_settings)]
Manager = Annotated[TableManager, Depends(get_manager)]
Store = Annotated[Storage, Depends(get_store)]
Keep = Annotated[KeepStore, Depends(get_keep)]
Locks = Annotated[BookLocks, Depends(get_book_locks)]
Ready = Annotated[Health, Depends(get_health)]
Kept = Annotated[Analyses, Depends(get_analyses)]


class SignIn(BaseModel):
    """The body of a sign-in: the player key the first join returned."""

    model_config = ConfigDict(extra="forbid")
    key: str = Field(min_length=1, max_length=200)


class SeatToken(BaseModel):
    """The seat's token: only a seated player gets the hands, as that seat may see them."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200)


@dataclass(frozen=True)
class Player:
    """A player who proved the player key: the stored name and balance."""

    name: str
    balance: Fraction


@dataclass(frozen=True)
class SeatHolder:
    """A seated player: the table (loaded if finished), the seat and its name."""

    game: TableGame
    seat: int

    @property
    def name(self) -> str:
        """The seat's player name."""
        return self.game.seats[self.seat].name


async def signed_in(name: str, request: SignIn, connection: HTTPConnection, manager: Manager, store: Store) -> Player:
    """The player ``name`` for the holder of its key (404 ``no_player``, 403 ``bad_key``, wrong keys rate limited)."""
    known = await manager.db.read(store.known_name, name)  # names are unique regardless of case
    balance = None if known is None else await manager.db.read(store.balance, known)
    if known is None or balance is None:
        raise Refusal(404, "no_player", f"there is no player {name!r}")
    stored = await manager.db.read(store.key_hash, known)
    try:
        manager.check_key(known, client_address(connection), request.key, stored or "")
    except RateLimited:
        raise
    except PlayError:
        raise Refusal(403, "bad_key", f"that is not the player key of {known}") from None
    return Player(known, balance)


async def seat_holder(table_id: int, request: SeatToken, manager: Manager) -> SeatHolder:
    """The table and the seat the token holds (404 ``no_table``, 403 ``bad_token``)."""
    try:
        game = await manager.snapshot(table_id)
    except PlayError as error:
        raise Refusal.of(404, error.code, error) from None
    seat = game.seat_of(token_hash(request.token))
    if seat is None:
        raise Refusal(403, "bad_token", "this token holds no seat at this table")
    return SeatHolder(game, seat)


SignedIn = Annotated[Player, Depends(signed_in)]
Seated = Annotated[SeatHolder, Depends(seat_holder)]
