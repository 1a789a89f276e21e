"""The table manager: every table's lock, clock task, bots and connections.

Each table has one ``asyncio.Lock``; everything that reads or changes its game runs under
it. A clock task per table sleeps until the table's next deadline (or until woken by a
change) and then brings the game up to time, so automatic placement happens on the server
whether or not anyone is connected. Bots decide on the ``DecisionPool``; their actions go
through the same checked, stored path as a person's. Storage work runs on ``Database``'s threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ofc.errors import OfcError
from ofc.match import check_join, join_cost
from ofc.rules import Rules
from ofc.server import tourney
from ofc.server.advice import advise
from ofc.server.agents import BotFactory
from ofc.server.dbwork import Database, StorageUnavailable
from ofc.server.game import DeckSource, PlayError, TableGame, secure_deck
from ofc.server.outbox import Outbox
from ofc.server.protocol import (
    Act,
    CreateTable,
    Hello,
    Hint,
    JoinTable,
    LeaveTable,
    Ping,
    Solve,
    Sync,
    error_message,
)
from ofc.server.ratelimit import Bucket, Limiter, RateLimited
from ofc.server.replay import restore_or_keep
from ofc.server.storage import DAMAGED, FINISHED, MATCH, TOURNAMENT, WAITING, Storage
from ofc.server.timekeeping import Clock
from ofc.server.workers import DecisionPool, check_budget

log = logging.getLogger("ofc.server")


def token_hash(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Connection:
    """One WebSocket: the seat it speaks for (None: spectator) and its outbox of outgoing text."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.advising: asyncio.Task[None] | None = None
        self.outbox = Outbox()
        self.hints: Bucket | None = None
        """The connection's own limit on hints (None: no limit)."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for this connection (a state replaces an unsent state)."""
        self.outbox.put_nowait(json.dumps(message), state=message.get("type") == "state")


@dataclass
class Runtime:
    """A table's game with its lock, connections, clock task and bots."""

    game: TableGame
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    connections: set[Connection] = field(default_factory=set)
    bots: dict[int, str] = field(default_factory=dict)
    busy: set[int] = field(default_factory=set)
    task: asyncio.Task[None] | None = None


@dataclass(frozen=True)
class Settings:
    """How the manager runs tables."""

    pause: Decimal = Decimal(3)
    """Seconds between a showdown and the next deal."""
    bot_delay: float = 0.5
    """Seconds a bot waits before acting, so people can follow."""
    start_balance: Fraction = Fraction(1000)
    """Play money a new player starts with."""
    loss_limit: Decimal = Decimal(200)
    """The loss limit (points) a match with a person's seat gets when it is created without one."""


class TableManager:
    """All tables of one server."""

    def __init__(
        self,
        store: Storage,
        clock: Clock,
        bot_factory: BotFactory,
        settings: Settings,
        decks: DeckSource = secure_deck,
        buttons: random.Random | None = None,
        db: Database | None = None,
        pool: DecisionPool | None = None,
    ) -> None:
        self.store = store
        self.db = db or Database()
        self.pool = pool or DecisionPool(bot_factory, processes=False)
        self.clock = clock
        self.bot_factory = bot_factory
        self.settings = settings
        self.decks = decks
        self.tables: dict[int, Runtime] = {}
        self._rng = buttons or random.SystemRandom()
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopping = False
        self.limiter = Limiter(clock, None)
        """Rate limits (the app sets the server's: ``ofc.server.ratelimit``)."""
        self._players: dict[str, tuple[asyncio.Lock, int]] = {}
        """Per player joining (lower-case name): a lock (the stake check and the seat taken together) and its users."""

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Restore every stored table (on a thread) and start its clock."""
        now, pause, decks = self.clock.now(), self.settings.pause, self.decks
        rows = await asyncio.to_thread(self.store.load_tables)
        for game in await asyncio.to_thread(lambda: [restore_or_keep(r, self.store, pause, decks, now) for r in rows]):
            game.deferred = True
            self._add(game)

    async def _flush(self, runtime: Runtime) -> None:
        """Store the table's pending writes, in order, retrying until they are stored (lock held).

        A write the database refuses for good (not a passing fault) marks the table damaged.
        """
        try:
            await self.db.write_all(runtime.game.take_pending())
        except StorageUnavailable:
            raise
        except Exception:
            log.exception("table %s: a write was refused: the table is marked damaged", runtime.game.id)
            runtime.game.status = DAMAGED
            raise StorageUnavailable(f"table {runtime.game.id} could not be stored") from None

    async def _bring_to_time(self, runtime: Runtime) -> bool:
        """Placements for seats out of time and the next deal, stored, then told (lock held).

        Also stores what an earlier refused action's check brought about. Returns whether anything changed.
        """
        if runtime.game.sync(self.clock.now()) or runtime.game.pending:
            await self._flush(runtime)
            self._changed(runtime)
            return True
        return False

    async def _store_act(self, runtime: Runtime, seat: int, place: Any, discard: Any, *, bot: bool = False) -> Any:
        """Check, store, then apply an action (lock held); a person's write is retried for a while only."""
        game = runtime.game
        try:
            checked = game.check_act(seat, place, discard, self.clock.now())
        except PlayError:
            await self._bring_to_time(runtime)  # what the check brought about (a hand timed out) is stored, told
            raise
        await self._flush(runtime)  # placements the check brought about come first
        retry_for = None if bot else self.db.request_seconds
        await self.db.write(self.store.add_action, *checked.where, checked.row, retry_for=retry_for)
        action = game.apply_act(checked, self.clock.now())
        await self._flush(runtime)
        return action

    async def stop(self) -> None:
        """Stop every clock and bot task (waiting at most a few seconds for them)."""
        self._stopping = True
        tasks = [rt.task for rt in self.tables.values() if rt.task is not None] + list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=5)

    def _add(self, game: TableGame) -> Runtime:
        runtime = Runtime(game)
        for seat, info in enumerate(game.seats):
            if info.bot is not None:
                runtime.bots[seat] = info.bot
        self.tables[game.id] = runtime
        runtime.task = asyncio.get_running_loop().create_task(self._clock(runtime))
        return runtime

    def _spawn(self, work: Any) -> None:
        if self._stopping:
            work.close()
            return
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def create(self, request: CreateTable) -> dict[str, Any]:
        """Create a table; raises ``OfcError`` for bad rules or bot specs."""
        rules = Rules.preset(request.preset).with_settings({**request.settings, "players": request.seats})
        bots = list(request.bots) or [None] * request.seats
        if len(bots) != request.seats:
            raise OfcError(f"bots must list {request.seats} entries (a spec or null per seat), not {len(bots)}")
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
        runtime = self.runtime(table_id)
        async with runtime.lock:
            game = runtime.game
            if game.status != FINISHED:
                raise PlayError("not_finished", f"table {table_id} is still playing: a rematch comes after the match")
            if game.rematch is None or game.rematch not in self.tables:
                bots = [info.bot for info in game.seats]
                game.open_rematch((await self._open(game.name, game.rules, bots, game.kind)).id)
                await self._flush(runtime)
                self._changed(runtime)
            assert game.rematch is not None
            return self.tables[game.rematch].game.public()

    async def leave(self, table_id: int, request: LeaveTable) -> dict[str, Any]:
        """Free the seat of ``request.token`` before the match starts; the table as listed."""
        runtime = self.runtime(table_id)
        async with runtime.lock:
            game = runtime.game
            seat = game.seat_of(token_hash(request.token))
            if seat is None:
                raise PlayError("bad_token", f"that token holds no seat at table {table_id}")
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
        """Every table as the lobby shows it."""
        return [rt.game.public() for rt in self.tables.values()]

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
        runtime = self.runtime(table_id)
        async with runtime.lock:
            game = runtime.game
            if game.status != WAITING or not game.open_seats:
                raise PlayError("table_full", f"table {table_id} has no open seat")
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
        """What ``name`` has at stake in unfinished matches: each one's loss limit times its point value.

        Joining needs the balance less this, so a balance always covers every loss its matches
        can still bring (a match with a person's seat always has a loss limit; one stored by an
        older version without it holds nothing), and a tournament's buy-in has already left it.
        """
        costs = (
            join_cost(rt.game.rules)
            for rt in self.tables.values()
            if rt.game.kind == MATCH and rt.game.status != FINISHED and rt.game.has_player(name)
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
            raise PlayError("bad_key", f"the name {name} is taken: its player key is needed to play as it")

    def runtime(self, table_id: int) -> Runtime:
        """The table's runtime; raises ``PlayError`` for an unknown table."""
        runtime = self.tables.get(table_id)
        if runtime is None:
            raise PlayError("no_table", f"there is no table {table_id}")
        return runtime

    async def _start(self, runtime: Runtime) -> None:
        game = runtime.game
        game.start(self._rng.randrange(len(game.seats)), self.clock.now())
        await self._flush(runtime)
        self._changed(runtime)

    # ------------------------------------------------------------------ changes

    def _changed(self, runtime: Runtime) -> None:
        """Tell every connection the new state, set bots going and re-arm the clock (lock held)."""
        states: dict[int | None, str] = {}
        for connection in list(runtime.connections):
            if connection.seat not in states:
                states[connection.seat] = json.dumps(runtime.game.state(connection.seat))
            connection.outbox.put_nowait(states[connection.seat], state=True)
        self._kick_bots(runtime)
        runtime.wake.set()

    def _kick_bots(self, runtime: Runtime) -> None:
        hand = runtime.game.hand
        if hand is None or hand.is_over:
            return
        for seat in runtime.bots:
            hand_seat = runtime.game.hand_seat(seat)
            if hand_seat is not None and hand_seat in hand.to_act and seat not in runtime.busy:
                runtime.busy.add(seat)
                self._spawn(self._bot_turn(runtime, seat))

    async def _bot_turn(self, runtime: Runtime, seat: int) -> None:
        try:
            await asyncio.sleep(self.settings.bot_delay)
            async with runtime.lock:
                await self._bring_to_time(runtime)
                view = runtime.game.view(seat)
            if view is None or view.seat not in view.to_act:
                return
            owner = (runtime.game.id, seat)
            action, _ = await self.pool.run(runtime.game.id, "act", runtime.bots[seat], None, view, owner)
            async with runtime.lock:
                runtime.busy.discard(seat)
                data = action.to_dict()
                await self._store_act(runtime, seat, data["place"], data["discard"], bot=True)
                self._changed(runtime)
        except PlayError as error:
            log.info("table %s: bot at seat %s: %s", runtime.game.id, seat, error)
        except Exception:
            log.exception("table %s: bot at seat %s failed", runtime.game.id, seat)
        finally:
            runtime.busy.discard(seat)

    async def _clock(self, runtime: Runtime) -> None:
        """Bring the table to time at each deadline; logs and outlives every error (retried after a pause)."""
        pause = 0.05
        while not self._stopping:
            runtime.wake.clear()
            try:
                async with runtime.lock:
                    if await self._bring_to_time(runtime):
                        runtime.wake.clear()
                    else:
                        self._kick_bots(runtime)
                    due = runtime.game.wake_time()
                pause = 0.05
            except Exception:
                log.exception("table %s: its clock failed; retrying in %.2f s", runtime.game.id, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)
                continue
            delay = None if due is None else max(0.0, float(due - self.clock.now())) + 0.002
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await runtime.wake.wait()

    # ------------------------------------------------------------------ messages

    def connect(self, runtime: Runtime, connection: Connection) -> None:
        """Add a connection (a spectator until it says hello with a token)."""
        runtime.connections.add(connection)

    def disconnect(self, runtime: Runtime, connection: Connection) -> None:
        """Forget a connection."""
        runtime.connections.discard(connection)

    def _seat(self, runtime: Runtime, connection: Connection, token: str) -> int:
        seat = runtime.game.seat_of(token_hash(token))
        if seat is None:
            raise PlayError("bad_token", "this token holds no seat at this table")
        if connection.seat is not None and connection.seat != seat:
            raise PlayError("bad_token", f"this connection speaks for seat {connection.seat}")
        return seat

    async def handle(
        self, runtime: Runtime, connection: Connection, message: Hello | Act | Hint | Solve | Sync | Ping
    ) -> None:
        """Answer one valid message; refusals become ``error`` messages and change nothing."""
        try:
            await self._handle(runtime, connection, message)
        except RateLimited as error:
            connection.send(error_message(error.code, str(error), message.id) | {"retry_after": error.retry_after})
        except PlayError as error:
            connection.send(error_message(error.code, str(error), message.id))
        except StorageUnavailable as error:
            connection.send(error_message(error.code, str(error), message.id))

    async def _handle(
        self, runtime: Runtime, connection: Connection, message: Hello | Act | Hint | Solve | Sync | Ping
    ) -> None:
        game = runtime.game
        if isinstance(message, Ping):
            connection.send({"type": "pong", "id": message.id})
            return
        async with runtime.lock:
            await self._bring_to_time(runtime)
            if isinstance(message, Hello):
                seat = None if message.token is None else self._seat(runtime, connection, message.token)
                connection.seat = seat
                name = None if seat is None else game.seats[seat].name
                connection.send({"type": "welcome", "id": message.id, "table": game.id, "seat": seat, "name": name})
                connection.send(game.state(seat))
            elif isinstance(message, Sync):
                connection.send(game.state(connection.seat))
            elif isinstance(message, Act):
                seat = self._seat(runtime, connection, message.token)
                connection.seat = seat
                place = [list(pair) for pair in message.place]
                action = await self._store_act(runtime, seat, place, list(message.discard))
                connection.send({"type": "ack", "id": message.id, "action": action.to_dict()})
                self._changed(runtime)
                return
            else:
                seat = self._seat(runtime, connection, message.token)
                view = game.view(seat)
        if isinstance(message, Hint | Solve):
            await advise(self.pool, connection, message, view)
