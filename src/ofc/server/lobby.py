"""The lobby side of the table manager: creating, joining, leaving and listing tables.

Every table not finished is in memory. A finished table stays a while (at most
``Settings.finished_kept`` of them, the least recently used nobody watches leaving first)
and is loaded again from the database when someone opens it, asks for its rematch or its
hands; the lobby lists the unfinished tables and the last ``Settings.recent_listed``
finished ones, so neither memory nor the lobby grows with the tables ever played.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import hmac
import secrets
from fractions import Fraction
from typing import Any

from ofc.errors import OfcError
from ofc.match import check_join, join_cost
from ofc.rules import Rules
from ofc.server import tourney
from ofc.server.agents import BotFactory
from ofc.server.dbwork import Database
from ofc.server.game import DeckSource, PlayError, TableGame
from ofc.server.protocol import CreateTable, JoinTable, LeaveTable
from ofc.server.ratelimit import Limiter
from ofc.server.replay import restore_or_keep
from ofc.server.runtime import Runtime, Settings, token_hash
from ofc.server.storage import FINISHED, MATCH, TOURNAMENT, WAITING, Storage
from ofc.server.timekeeping import Clock
from ofc.server.workers import check_budget


class Lobby(abc.ABC):
    """Tables by id, what the lobby lists, and the requests that seat players."""

    store: Storage
    db: Database
    clock: Clock
    settings: Settings
    decks: DeckSource
    bot_factory: BotFactory
    tables: dict[int, Runtime]
    limiter: Limiter

    def __init__(self) -> None:
        self.recent: dict[int, dict[str, Any]] = {}
        """The lobby entries of the last finished tables, by id, oldest first."""
        self._finished: dict[int, None] = {}
        """The finished tables in memory, least recently used first."""
        self._loading = asyncio.Lock()
        self._players: dict[str, tuple[asyncio.Lock, int]] = {}
        """Per player joining (lower-case name): a lock (the stake check and the seat taken together) and its users."""

    async def create(self, request: CreateTable) -> dict[str, Any]:
        """Create a table; raises ``OfcError`` for bad rules or bot specs."""
        rules = Rules.preset(request.preset).with_settings({**request.settings, "players": request.seats})
        bots = list(request.bots) or [None] * request.seats
        if len(bots) != request.seats:
            raise OfcError(
                "bots must list {seats} entries (a spec or null per seat), not {n_bots}",
                seats=request.seats,
                n_bots=len(bots),
            )
        for spec in bots:
            if spec is not None:
                check_budget(self.bot_factory(spec, None), spec)
        if request.kind == TOURNAMENT:
            tourney.check_rules(rules)
        elif None in bots and rules.loss_limit is None:
            rules = rules.with_settings({"loss_limit": self.settings.loss_limit})  # every person's seat holds a stake
        return (await self._open(request.name, rules, bots, request.kind)).public()

    async def _open(self, name: str, rules: Rules, bots: list[str | None], kind: str = MATCH) -> TableGame:
        """Store and open a new table (started at once when only bots sit at it)."""
        add = self.store.add_table
        table_id = await self.db.write(add, name, rules.to_dict(), bots, kind, retry_for=self.db.request_seconds)
        pause, decks = self.settings.pause, self.decks
        game = TableGame(table_id, name, rules, bots, self.store, pause=pause, decks=decks, kind=kind)
        game.deferred = True
        runtime = self._add(game)
        if not game.open_seats:
            async with runtime.lock:
                await self._start(runtime)
        return game

    async def rematch(self, table_id: int) -> dict[str, Any]:
        """The table for a rematch of a finished match: same name, rules and bots, seats open again.

        Opened by the first request; later ones get the same table, and the old table's
        connections are told its number (``rematch`` in their state). Raises ``PlayError``.
        """
        runtime = await self.load(table_id)
        async with runtime.lock:
            game = runtime.game
            if game.status != FINISHED:
                raise PlayError(
                    "table {table} is still playing: a rematch comes after the match",
                    code="not_finished",
                    table=table_id,
                )
            if game.rematch is not None:
                with contextlib.suppress(PlayError):  # a rematch table that is gone: another is opened
                    return (await self.load(game.rematch)).game.public()
            bots = [info.bot for info in game.seats]
            opened = await self._open(game.name, game.rules, bots, game.kind)
            game.open_rematch(opened.id)
            await self._flush(runtime)
            self._changed(runtime)
            return opened.public()

    async def leave(self, table_id: int, request: LeaveTable) -> dict[str, Any]:
        """Free the seat of ``request.token`` before the match starts; the table as listed."""
        runtime = await self.load(table_id)
        async with runtime.lock:
            game = runtime.game
            seat = game.seat_of(token_hash(request.token))
            if seat is None:
                raise PlayError("that token holds no seat at table {table}", code="bad_token", table=table_id)
            game.check_leave()
            retry_for = self.db.request_seconds
            await self.db.write(self.store.free_seat, table_id, seat, game.stake(), retry_for=retry_for)
            game.leave(seat, stored=True)
            for connection in runtime.connections:
                if connection.seat == seat:
                    connection.seat = None
            self._changed(runtime)
            return game.public()

    def listing(self) -> list[dict[str, Any]]:
        """The lobby: every table not finished, and the last ``settings.recent_listed`` finished ones."""
        live = [rt.game.public() for rt in self.tables.values() if rt.game.status != FINISHED]
        return sorted(live + list(self.recent.values()), key=lambda table: int(table["id"]))

    def note_finished(self, runtime: Runtime) -> None:
        """Note a table whose match is over (lock held): listed among the recent ones, kept in memory a while."""
        table_id = runtime.game.id
        if table_id in self._finished:
            self._finished[table_id] = self._finished.pop(table_id)  # the most recently used now
            return
        self.recent[table_id] = runtime.game.public()
        while len(self.recent) > self.settings.recent_listed:
            del self.recent[next(iter(self.recent))]
        self._finished[table_id] = None
        self._evict()

    def _evict(self) -> None:
        """Let the least recently used finished tables nobody needs leave memory (the database keeps them)."""
        while len(self._finished) > self.settings.finished_kept:
            idle = next((i for i in self._finished if not self._needed(i)), None)
            if idle is None:
                return  # every finished table in memory is watched or unsettled: they go later
            del self._finished[idle]
            runtime = self.tables.pop(idle, None)
            if runtime is not None and runtime.task is not None:
                runtime.task.cancel()

    def _needed(self, table_id: int) -> bool:
        """Whether a finished table must stay: someone watches it, or its settlement is not stored yet."""
        runtime = self.tables.get(table_id)
        return runtime is not None and (bool(runtime.connections) or not runtime.game.settled)

    async def load(self, table_id: int) -> Runtime:
        """The table's runtime, a finished table loaded from the database on demand; ``PlayError`` ``no_table``."""
        runtime = self.tables.get(table_id)
        if runtime is None:
            async with self._loading:  # one load at a time: never two runtimes for a table
                runtime = self.tables.get(table_id) or await self._load(table_id)
        if runtime.game.status == FINISHED:
            self.note_finished(runtime)
        return runtime

    async def _load(self, table_id: int) -> Runtime:
        row = await self.db.read(self.store.load_table, table_id)
        if row is None:
            raise PlayError("there is no table {table}", code="no_table", table=table_id)
        now, pause, decks = self.clock.now(), self.settings.pause, self.decks
        game = await self.db.read(restore_or_keep, row, self.store, pause, decks, now)
        game.deferred = True
        return self._add(game)

    async def join(self, table_id: int, request: JoinTable, address: str = "") -> dict[str, Any]:
        """Sit a player; returns the seat and its token. Raises ``PlayError`` or ``OfcError``.

        A player's joins run one at a time, so two tables cannot both count the same free balance.
        """
        key = request.name.lower()
        lock, users = self._players.get(key, (asyncio.Lock(), 0))
        self._players[key] = (lock, users + 1)
        try:
            async with lock:
                return await self._join(table_id, request, address)
        finally:
            lock, users = self._players[key]
            if users == 1:
                del self._players[key]
            else:
                self._players[key] = (lock, users - 1)

    async def _join(self, table_id: int, request: JoinTable, address: str) -> dict[str, Any]:
        runtime = await self.load(table_id)
        async with runtime.lock:
            game = runtime.game
            if game.status != WAITING or not game.open_seats:
                raise PlayError("table {table} has no open seat", code="table_full", table=table_id)
            seat = request.seat if request.seat is not None else game.open_seats[0]
            game.check_open(seat, request.name)
            known = await self.db.read(self.store.balance, request.name)
            key = await self._check_key(request, address, known=known is not None)
            balance = self.settings.start_balance if known is None else known
            if game.kind == TOURNAMENT:
                tourney.check_buy_in(seat, request.name, balance, game.rules, self.held(request.name))
            else:
                check_join(seat, balance, game.rules, held=self.held(request.name))
            retry_for = self.db.request_seconds
            key_hash = key and token_hash(key)
            start = self.settings.start_balance
            await self.db.write(self.store.ensure_player, request.name, start, key_hash, retry_for=retry_for)
            token = secrets.token_urlsafe(24)
            take = self.store.take_seat
            await self.db.write(
                take, table_id, seat, request.name, token_hash(token), game.stake(), retry_for=retry_for
            )
            game.sit(seat, request.name, token_hash(token), stored=True)
            if not game.open_seats:
                await self._start(runtime)
        answer = {"table": table_id, "seat": seat, "token": token, "name": request.name}
        return answer | ({"player_key": key} if key else {})

    def held(self, name: str) -> Fraction:
        """What ``name`` has at stake in unsettled matches: each one's loss limit times its point value.

        A finished match holds until its settlement is stored in the balance (``TableGame.settled``).

        Joining needs the balance less this, so a balance always covers every loss its matches
        can still bring (a match with a person's seat always has a loss limit; one stored by an
        older version without it holds nothing), and a tournament's buy-in has already left it.
        """
        costs = (
            join_cost(rt.game.rules)
            for rt in self.tables.values()
            if rt.game.kind == MATCH and not rt.game.settled and rt.game.has_player(name)
        )
        return sum((Fraction(cost) for cost in costs if cost is not None), Fraction(0))

    async def _check_key(self, request: JoinTable, address: str, *, known: bool) -> str | None:
        """A new key for a new name; for a ``known`` name, its key must be given. Raises ``PlayError``.

        Wrong keys count against the name's and the address's limits (``RateLimited`` once spent).
        """
        if not known:
            return secrets.token_urlsafe(18)
        stored = await self.db.read(self.store.key_hash, request.name)
        if stored is not None:
            self.check_key(request.name, address, request.key, stored)
        return None

    def check_key(self, name: str, address: str, key: str | None, stored: str) -> None:
        """Raise ``RateLimited`` when guessing ``name``'s key must wait, ``bad_key`` when ``key`` is wrong."""
        self.limiter.check("key_name", name.lower())
        self.limiter.check("key_address", address)
        if key is None or not hmac.compare_digest(token_hash(key), stored):
            self.limiter.spend("key_name", name.lower())
            self.limiter.spend("key_address", address)
            raise PlayError(
                "the name {name} is taken: its player key is needed to play as it", code="bad_key", name=name
            )

    @abc.abstractmethod
    def _add(self, game: TableGame) -> Runtime:
        """Keep a table in memory and start its clock."""

    @abc.abstractmethod
    async def _start(self, runtime: Runtime) -> None:
        """Start a table's match (lock held)."""

    @abc.abstractmethod
    async def _flush(self, runtime: Runtime) -> None:
        """Store the table's pending writes (lock held)."""

    @abc.abstractmethod
    def _changed(self, runtime: Runtime) -> None:
        """Tell the table's connections (lock held)."""
