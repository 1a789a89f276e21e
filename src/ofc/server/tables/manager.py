"""The table manager: the lobby's requests, and every table's lock, clock task, bots and connections.

Each table has one ``asyncio.Lock``; everything that reads or changes its game runs under
it. A clock task per table sleeps until the table's next deadline (or until woken by a
change) and then brings the game up to time, so automatic placement happens on the server
whether or not anyone is connected. Bots decide on the ``DecisionPool``; their actions go
through the same checked, stored path as a person's. Storage work runs on ``Database``'s threads.

The lobby creates, joins, leaves and lists tables. Every table not finished is in memory. A
finished table stays a while (at most ``Settings.finished_kept`` of them, the least recently
used nobody watches leaving first) and is loaded again from the database when someone opens
it, asks for its rematch or its hands; the lobby lists the unfinished tables and the last
``Settings.recent_listed`` finished ones, so neither memory nor the lobby grows with the
tables ever played.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import json
import logging
import random
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

from ofc.engine.clock import time_text
from ofc.rules.errors import OfcError
from ofc.rules.rulebook import Rules
from ofc.rules.terms import Phrase
from ofc.series.match import check_join
from ofc.server.db.leases import LeaseLost, Leases
from ofc.server.db.schema import MOST_ID
from ofc.server.db.storage import (
    DAMAGED,
    EXPIRED,
    FINISHED,
    MATCH,
    PLAYING,
    TOURNAMENT,
    WAITING,
    Admission,
    Fence,
    Sitter,
    Storage,
    TableRow,
)
from ofc.server.db.work import Database, StorageUnavailable
from ofc.server.decisions.advice import advise
from ofc.server.decisions.workers import DecisionPool, check_budget
from ofc.server.net.protocol import (
    Act,
    CreateTable,
    Hello,
    Hint,
    JoinTable,
    LeaveTable,
    Ping,
    ProtocolError,
    Solve,
    Sync,
    error_message,
    parse_message,
)
from ofc.server.net.ratelimit import WHAT, Limiter, RateLimited, check
from ofc.server.tables import tournament as tourney
from ofc.server.tables.agents import BotFactory
from ofc.server.tables.cluster import Cluster, Elsewhere
from ofc.server.tables.game import STAND_IN, DeckSource, PlayError, TableGame, secure_deck
from ofc.server.tables.runtime import Connection as Connection
from ofc.server.tables.runtime import Runtime as Runtime
from ofc.server.tables.runtime import Settings as Settings
from ofc.server.tables.runtime import token_hash as token_hash
from ofc.server.tables.timekeeping import Clock

log = logging.getLogger("ofc.server")

T = TypeVar("T")


class _Later:
    """A hint's answers, kept to be sent once the table is released."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        """Keep ``message``."""
        self.messages.append(message)


class TableManager:
    """All tables of one server: the lobby's requests, clocks, bots and messages."""

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
        """Rate limits (the app sets the server's: ``ofc.server.net.ratelimit``)."""
        self.recent: dict[int, dict[str, Any]] = {}
        """The lobby entries of the last finished tables, by id, oldest first."""
        self._finished: dict[int, None] = {}
        """The finished tables in memory, least recently used first."""
        self._loading = asyncio.Lock()
        self._players: dict[str, tuple[asyncio.Lock, int]] = {}
        """Per player joining (lower-case name): a lock (the stake check and the seat taken together) and its users."""
        self.node = settings.node
        self.leases = Leases(store.engine)
        self.cluster: Cluster | None = None
        """The bus to the other servers on this database (None: this process serves alone)."""
        self._keeper: asyncio.Task[None] | None = None
        self._others: list[dict[str, Any]] = []
        """The lobby entries of the unfinished tables other nodes run (refreshed by the keeper)."""
        self._other_entries: dict[int, tuple[tuple[str, ...], dict[str, Any]]] = {}
        """The tables in ``_others``: each one's stored lobby mark and its lobby entry, by table."""
        self.renewals = 0
        self.takeovers = 0
        self.actions_stored = 0
        self.bot_decisions = 0
        self.warming_since: Decimal | None = None
        """Server time since which the decision workers warm (None: warm, hands are dealt)."""
        self._held_warming: set[int] = set()
        """Tables held until the workers are warm (a restored hand's clocks stand still meanwhile)."""

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Restore every unfinished table (on a thread) and start its clock; list the last finished ones."""
        now, pause, decks = self.clock.now(), self.settings.pause, self.decks
        rows = await asyncio.to_thread(self.store.load_tables, unfinished=True)
        restore = functools.partial(TableGame.restore_or_damaged, store=self.store, pause=pause, decks=decks, now=now)
        claim = functools.partial(self.leases.claim, node=self.node, seconds=self.settings.lease_seconds)
        claimed = await asyncio.to_thread(lambda: [(row, epoch) for row in rows if (epoch := claim(row.id))])
        for game, held in await asyncio.to_thread(lambda: [(restore(row), epoch) for row, epoch in claimed]):
            game.deferred = True
            self._add(game, held)
        recent = await asyncio.to_thread(self.store.recent_finished, self.settings.recent_listed)
        self.recent = {row.id: TableGame.from_row(row, self.store, pause, decks).public() for row in recent}
        if self.cluster is not None:
            await self.cluster.start()
        self._keeper = asyncio.get_running_loop().create_task(self._keep())

    # ------------------------------------------------------------------ leases

    async def _keep(self) -> None:
        """Renew this node's leases, drop the tables it lost, take over orphaned ones, for as long as it runs."""
        while not self._stopping:
            try:
                held = await asyncio.to_thread(self.leases.renew, self.node, self.settings.lease_seconds)
                self.renewals += 1
                for table, runtime in list(self.tables.items()):
                    if runtime.epoch is not None and held.get(table) != runtime.epoch:
                        await self.lost(runtime)
                for table in await asyncio.to_thread(self.leases.orphans):
                    if table not in self.tables and await self.take_over(table):
                        self.takeovers += 1
                if self.cluster is not None:
                    await self.cluster.check_relays()
                    await self._refresh_others()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the leases could not be kept this time; trying again")
            await self._scan_after(self.settings.lease_seconds / 3)

    async def _scan_after(self, seconds: float) -> None:
        """Wait ``seconds``, or less when another node hands its tables over."""
        wake = self.cluster.scan if self.cluster is not None else None
        if wake is None:
            await asyncio.sleep(seconds)
            return
        wake.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await wake.wait()

    async def take_over(self, table_id: int) -> bool:
        """Claim an unfinished table no live node runs and rebuild it from the database; whether it came here."""
        async with self._loading:
            if table_id in self.tables:
                return False
            row = await self.db.read(self.store.load_table, table_id)
            if row is None or row.status in (FINISHED, EXPIRED):
                return False
            epoch = await asyncio.to_thread(self.leases.claim, table_id, self.node, self.settings.lease_seconds)
            if epoch is None:
                return False
            game = await self._rebuilt(row)
            game.deferred = True
            self._add(game, epoch)
            log.info("node %s took table %s over (epoch %s)", self.node, table_id, epoch)
            return True

    async def lost(self, runtime: Runtime) -> None:
        """Forget a table whose lease another node holds now: its clock stops, its clients reconnect there."""
        if self.tables.get(runtime.game.id) is not runtime:
            return
        log.warning("node %s lost table %s to another node", self.node, runtime.game.id)
        del self.tables[runtime.game.id]
        runtime.epoch = None
        if runtime.task is not None:
            runtime.task.cancel()
        for connection in list(runtime.connections):
            connection.outbox.put_nowait(None)
        if self.cluster is not None:
            self.cluster.drop_clients(runtime)

    def _fenced(self, runtime: Runtime, call: Callable[..., T]) -> Callable[..., T]:
        """``call`` made under this node's lease on the table (``LeaseLost`` once another node holds it)."""
        if runtime.epoch is None:
            return call
        fence = Fence(runtime.game.id, self.node, runtime.epoch)

        def fenced(*args: Any, **kwargs: Any) -> T:
            with Storage.fenced(fence):
                return call(*args, **kwargs)

        return fenced

    async def _write(self, runtime: Runtime, call: Callable[..., T], *args: Any, retry_for: float | None = None) -> T:
        """One write of the table's, fenced by its lease; a lost lease drops the table (``PlayError`` ``moved``)."""
        try:
            return await self.db.write(self._fenced(runtime, call), *args, retry_for=retry_for)
        except LeaseLost:
            await self.lost(runtime)
            raise PlayError("the table moved to another server: reconnect", code="moved") from None

    async def _refresh_others(self) -> None:
        """The lobby entries of the unfinished tables that other nodes run, from the database: each
        table's mark read, and only the tables whose mark changed loaded and rebuilt."""
        marks = await self.db.read(self.store.lobby_marks)
        others = {table: mark for table, mark in marks.items() if table not in self.tables}
        known = self._other_entries
        kept = {table: known[table] for table, mark in others.items() if table in known and known[table][0] == mark}
        changed = [table for table in others if table not in kept]
        rows = await self.db.read(self.store.load_tables_of, changed) if changed else []
        pause, decks = self.settings.pause, self.decks
        self._other_entries = kept | {
            row.id: (others[row.id], TableGame.from_row(row, self.store, pause, decks).public())
            for row in rows
            if row.status not in (FINISHED, EXPIRED)  # over since its mark was read: gone next time
        }
        self._others = [entry for _, entry in self._other_entries.values()]

    async def _flush(self, runtime: Runtime) -> None:
        """Store the table's pending writes, in order, retrying until they are stored (lock held).

        A write the database refuses for good (not a passing fault) marks the table damaged.
        """
        try:
            await self.db.write_all([self._fenced(runtime, write) for write in runtime.game.take_pending()])
        except StorageUnavailable:
            raise
        except LeaseLost:
            await self.lost(runtime)
            raise PlayError("the table moved to another server: reconnect", code="moved") from None
        except Exception:
            log.exception("table %s: a write was refused: the table is marked damaged", runtime.game.id)
            runtime.game.status = DAMAGED
            raise StorageUnavailable("table {table} could not be stored", table=runtime.game.id) from None

    async def _bring_to_time(self, runtime: Runtime) -> bool:
        """Placements for seats out of time and the next deal, stored, then told (lock held).

        Also stores what an earlier refused action's check brought about. Returns whether anything changed.
        """
        if await self.expire_if_due(runtime):
            return True
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
        await self._write(runtime, self.store.add_action, *checked.where, checked.row, retry_for=retry_for)
        action = game.apply_act(checked, self.clock.now())
        self.actions_stored += 1
        await self._flush(runtime)
        return action

    async def stop(self) -> None:
        """Stop every clock and bot task (waiting at most a few seconds for them)."""
        self._stopping = True
        tasks = [rt.task for rt in self.tables.values() if rt.task is not None] + list(self._tasks)
        if self._keeper is not None:
            tasks.append(self._keeper)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=5)
        with contextlib.suppress(Exception):  # the tables go to the other nodes at once
            await asyncio.to_thread(self.leases.release, self.node)
        if self.cluster is not None:
            await self.cluster.stop()

    # ------------------------------------------------------------------ warming up

    def warming(self) -> Decimal | None:
        """Seconds the decision workers have been warming so far (None: warm)."""
        if self.warming_since is None:
            return None
        return max(Decimal(0), self.clock.now() - self.warming_since)

    def start_warming(self) -> None:
        """No hand is dealt and no clock runs until ``now_serving`` (the workers are warming)."""
        self.warming_since = self.clock.now()

    async def now_serving(self) -> None:
        """The workers are warm: the full tables deal their first hands, the held ones go on, everyone is told."""
        self.warming_since = None
        for runtime in list(self.tables.values()):
            async with runtime.lock:
                game = runtime.game
                if game.id in self._held_warming:
                    self._held_warming.discard(game.id)
                    game.time.release(self.clock.now())
                if game.status == WAITING and not game.open_seats:
                    await self._start(runtime)
                else:
                    self._changed(runtime)

    def _to_act(self, runtime: Runtime, seat: int) -> bool:
        """Whether table ``seat`` has to act in the hand being played."""
        hand = runtime.game.hand
        hand_seat = runtime.game.hand_seat(seat)
        return hand is not None and not hand.is_over and hand_seat is not None and hand_seat in hand.to_act

    async def _held_past(self, runtime: Runtime, seat: int, budget: float, work: Awaitable[T]) -> tuple[T, Decimal]:
        """``work``'s answer and the seconds the table was held for it.

        Past ``budget`` seconds, while table ``seat`` still has to act, the table's time stands
        still until ``work`` ends: the time the server takes beyond its budget runs no clock.
        """
        task = asyncio.ensure_future(work)
        since: Decimal | None = None
        try:
            done, _ = await asyncio.wait({task}, timeout=budget)
            if not done:
                async with runtime.lock:
                    await self._bring_to_time(runtime)
                    if self._to_act(runtime, seat):
                        since = self.clock.now()
                        runtime.game.time.hold(since)
                        self._changed(runtime)  # the seats see every clock stopped
            answer = await task
        finally:
            task.cancel()
            if since is not None:
                async with runtime.lock:
                    runtime.game.time.release(self.clock.now())
                    self._changed(runtime)
        return answer, max(Decimal(0), self.clock.now() - since) if since is not None else Decimal(0)

    def _add(self, game: TableGame, epoch: int | None = None) -> Runtime:
        runtime = Runtime(game, epoch=epoch)
        if self.warming_since is not None and game.status == PLAYING and game.id not in self._held_warming:
            game.time.hold(self.clock.now())  # a restored hand waits for the warm workers, its clocks stopped
            self._held_warming.add(game.id)
        for seat, info in enumerate(game.seats):
            if info.played_by is not None:
                runtime.bots[seat] = info.played_by
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

    async def _start(self, runtime: Runtime) -> None:
        """Deal the full table's first hand (lock held); while the workers warm, it waits for ``now_serving``."""
        game = runtime.game
        if self.warming_since is not None:
            self._changed(runtime)
            return
        game.start(self._rng.randrange(len(game.seats)), self.clock.now())
        await self._flush(runtime)
        self._changed(runtime)

    # ------------------------------------------------------------------ changes

    def _changed(self, runtime: Runtime) -> None:
        """Tell every connection the new state, set bots going and re-arm the clock (lock held)."""
        states: dict[int | None, str] = {}
        for connection in list(runtime.connections):
            if connection.seat not in states:
                states[connection.seat] = json.dumps(self.state(runtime, connection.seat))
            connection.outbox.put_nowait(states[connection.seat], state=True)
        self._kick_bots(runtime)
        runtime.wake.set()
        if runtime.game.status == FINISHED:
            self.note_finished(runtime)

    def state(self, runtime: Runtime, seat: int | None) -> dict[str, Any]:
        """The table's ``state`` for ``seat`` (lock held), each person's seat saying whether it is connected.

        ``connected`` is true while a connection speaks for the seat, false when none does, and
        null for a bot's seat or one a bot plays since its person left.
        """
        state = runtime.game.state(seat)
        warming = self.warming()
        state["warming"] = None if warming is None else time_text(warming.quantize(Decimal(1)))
        online = {connection.seat for connection in runtime.connections}
        for entry, info in zip(state["table"]["seats"], runtime.game.seats, strict=True):
            person = info.player is not None and info.stand_in is None
            entry["connected"] = (entry["seat"] in online) if person else None
        return state

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
        """Decide and act for a bot seat; a failed decision is tried again after a pause (1, 2, 4... 30 s)."""
        again = False
        try:
            await asyncio.sleep(self.settings.bot_delay)
            async with runtime.lock:
                await self._bring_to_time(runtime)
                view = runtime.game.view(seat)
            if view is None or view.seat not in view.to_act:
                return
            owner = (runtime.game.id, seat)
            decision = self.pool.run(runtime.game.id, "act", runtime.bots[seat], None, view, owner)
            (action, _), _ = await self._held_past(runtime, seat, self.settings.bot_budget, decision)
            self.bot_decisions += 1
            async with runtime.lock:
                runtime.busy.discard(seat)
                data = action.to_dict()
                await self._store_act(runtime, seat, data["place"], data["discard"], bot=True)
                runtime.failures.pop(seat, None)
                self._changed(runtime)
        except PlayError as error:
            log.info("table %s: bot at seat %s: %s", runtime.game.id, seat, error)
        except Exception:
            failures = runtime.failures[seat] = runtime.failures.get(seat, 0) + 1
            pause = min(2.0 ** (failures - 1), 30.0)
            log.exception("table %s: bot at seat %s failed; trying again in %g s", runtime.game.id, seat, pause)
            await asyncio.sleep(pause)  # the seat stays busy meanwhile
            again = True
        finally:
            runtime.busy.discard(seat)
        if again:
            runtime.wake.set()  # the clock task sets the bot going again

    async def _clock(self, runtime: Runtime) -> None:
        """Bring the table to time at each deadline; logs and outlives every error (retried after a pause)."""
        pause = 0.05
        while not self._stopping and runtime.game.status != EXPIRED:
            runtime.wake.clear()
            try:
                async with runtime.lock:
                    if await self._bring_to_time(runtime):
                        runtime.wake.clear()
                    else:
                        self._kick_bots(runtime)
                    times = (runtime.game.wake_time(), self.expiry(runtime.game))  # a deadline, the next deal, expiry
                    due = min((t for t in times if t is not None), default=None)
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
        """Forget a connection; when it spoke for a seat, the table is told the seat is disconnected."""
        runtime.connections.discard(connection)
        if connection.seat is not None:
            self._spawn(self._tell_presence(runtime))

    async def _tell_presence(self, runtime: Runtime) -> None:
        """Send the table's state again (a seat's connection came or went)."""
        async with runtime.lock:
            if runtime.game.id in self.tables:
                self._changed(runtime)

    def _seat(self, runtime: Runtime, connection: Connection, token: str) -> int:
        seat = runtime.game.seat_of(token_hash(token))
        if seat is None:
            raise PlayError("this token holds no seat at this table", code="bad_token")
        if connection.seat is not None and connection.seat != seat:
            raise PlayError("this connection speaks for seat {seat}", code="bad_token", seat=connection.seat)
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
            connection.send(error_message(error.code, str(error), message.id, error))
        except StorageUnavailable as error:
            connection.send(error_message(error.code, str(error), message.id, error))

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
                arrived = seat is not None and connection.seat != seat
                connection.seat = seat
                name = None if seat is None else game.seats[seat].name
                connection.send({"type": "welcome", "id": message.id, "table": game.id, "seat": seat, "name": name})
                if arrived:
                    self._changed(runtime)  # the others see the seat connected
                else:
                    connection.send(self.state(runtime, seat))
            elif isinstance(message, Sync):
                connection.send(self.state(runtime, connection.seat))
            elif isinstance(message, Act):
                seat = self._seat(runtime, connection, message.token)
                game.check_playing(seat)
                connection.seat = seat
                place = [list(pair) for pair in message.place]
                action = await self._store_act(runtime, seat, place, list(message.discard))
                connection.send({"type": "ack", "id": message.id, "action": action.to_dict()})
                self._changed(runtime)
                return
            else:
                seat = self._seat(runtime, connection, message.token)
                game.check_playing(seat)
                if not game.hints:
                    raise PlayError(
                        "table {table} is played without hints: neither hints nor the solver can be asked for",
                        code="no_hints",
                        table=game.id,
                    )
                view = game.view(seat)
        if isinstance(message, Hint | Solve):
            assert seat is not None
            later = _Later()
            advice = advise(self.pool, later, message, view, self.settings.hint_bot)
            _, held = await self._held_past(runtime, seat, self.settings.hint_budget, advice)
            for answer in later.messages:  # saying how long the table was held for it
                connection.send(answer | ({"held": time_text(held.quantize(Decimal("0.1")))} if held else {}))

    # ------------------------------------------------------------------ the lobby

    async def create(self, request: CreateTable, address: str = "") -> dict[str, Any]:
        """Create a table; raises ``OfcError`` for bad rules or bot specs.

        With ``request.sit``, the player sits down in the same step: every check of a join
        runs first, then the table and the seat are stored in one transaction, so a refusal
        leaves no table behind. The answer then carries ``joined`` (what a join answers).
        """
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
        if request.sit is None:
            return (await self._open(request.name, rules, bots, request.kind, request.hints)).public()
        sit = request.sit
        async with self._player_lock(sit.name):
            return await self._open_seated(request, rules, bots, sit, address)

    async def _open_seated(
        self, request: CreateTable, rules: Rules, bots: list[str | None], sit: JoinTable, address: str
    ) -> dict[str, Any]:
        seat = sit.seat if sit.seat is not None else next((i for i, bot in enumerate(bots) if bot is None), -1)
        if seat not in range(len(bots)) or bots[seat] is not None:
            raise PlayError("seat {seat} of the new table is a bot's", code="seat_taken", seat=max(seat, 0))
        stake = tourney.buy_in(rules) if request.kind == TOURNAMENT else Fraction(0)
        key, token = await self._admit(seat, sit, address, rules, request.kind)
        sitter = Sitter(seat, sit.name, token_hash(token), self.settings.start_balance, key and token_hash(key), stake)
        admit = self.admission(seat, sit.name, rules, request.kind)
        game = await self._open(request.name, rules, bots, request.kind, request.hints, sitter, admit)
        joined = {"table": game.id, "seat": seat, "token": token, "name": sit.name}
        return game.public() | {"joined": joined | ({"player_key": key} if key else {})}

    async def _open(
        self,
        name: str,
        rules: Rules,
        bots: list[str | None],
        kind: str = MATCH,
        hints: bool = True,
        sitter: Sitter | None = None,
        admit: Admission | None = None,
    ) -> TableGame:
        """Store and open a new table, with ``sitter`` seated (started at once when every seat is taken)."""
        now = self.clock.now()
        options = {"hints": hints}
        lease = (self.node, self.settings.lease_seconds)
        add = functools.partial(
            self.store.add_table, options=options, since=time_text(now), sitter=sitter, lease=lease, admit=admit
        )
        pause, decks = self.settings.pause, self.decks
        async with self._loading:  # stored, claimed and in memory before the keeper could take it for an orphan
            table_id = await self.db.write(add, name, rules.to_dict(), bots, kind, retry_for=self.db.request_seconds)
            game = TableGame(table_id, name, rules, bots, self.store, pause=pause, decks=decks, kind=kind, hints=hints)
            game.waiting_since = now
            if sitter is not None:
                game.sit(sitter.seat, sitter.player, sitter.token_hash, stored=True)
            game.deferred = True
            runtime = self._add(game, 1)
        if not game.open_seats:
            async with runtime.lock:
                await self._start(runtime)
        return game

    async def rematch(self, table_id: int) -> dict[str, Any]:
        """``rematch_here``, on the node that runs the table."""
        return await self._where_it_runs(table_id, "rematch", {"table_id": table_id}, self.rematch_here)

    async def rematch_here(self, table_id: int) -> dict[str, Any]:
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
                    return (await self.snapshot(game.rematch)).public()
            bots = [info.bot for info in game.seats]
            opened = await self._open(game.name, game.rules, bots, game.kind, game.hints)
            game.open_rematch(opened.id)
            await self._flush(runtime)
            self._changed(runtime)
            return opened.public()

    async def leave(self, table_id: int, request: LeaveTable) -> dict[str, Any]:
        """``leave_here``, on the node that runs the table."""
        arguments = {"table_id": table_id, "request": request.model_dump()}
        return await self._where_it_runs(table_id, "leave", arguments, self.leave_here)

    async def leave_here(self, table_id: int, request: LeaveTable | dict[str, Any]) -> dict[str, Any]:
        """Free the seat of ``request.token`` before the match starts; the table as listed.

        Once the match has started, the seat is handed to the ``heuristic`` bot for the rest of
        the match instead: it stays the person's, with their stake held and its result settled
        into their balance at the end.
        """
        request = LeaveTable.model_validate(request)
        runtime = await self.load(table_id)
        async with runtime.lock:
            game = runtime.game
            seat = game.seat_of(token_hash(request.token))
            if seat is None:
                raise PlayError("that token holds no seat at table {table}", code="bad_token", table=table_id)
            await self._bring_to_time(runtime)
            game.check_leave(seat)
            retry_for = self.db.request_seconds
            if game.status == WAITING:
                now = self.clock.now()
                alone = all(info.player is None for i, info in enumerate(game.seats) if i != seat)
                since = time_text(now) if alone else None
                free = self.store.free_seat
                await self._write(runtime, free, table_id, seat, game.stake(), since, retry_for=retry_for)
                game.leave(seat, stored=True)
                game.waiting_since = now if alone else game.waiting_since
                for connection in runtime.connections:
                    if connection.seat == seat:
                        connection.seat = None
            else:
                await self._write(runtime, self.store.hand_over_seat, table_id, seat, STAND_IN, retry_for=retry_for)
                runtime.bots[seat] = game.hand_over(seat, stored=True)
                runtime.failures.pop(seat, None)
            self._changed(runtime)
            return game.public()

    def expiry(self, game: TableGame) -> Decimal | None:
        """When (server time) a waiting table with nobody seated expires (None: it does not)."""
        if game.status != WAITING or not game.empty:
            return None
        if game.waiting_since is None:
            game.waiting_since = self.clock.now()  # stored by an older version: counted from now
        return game.waiting_since + self.settings.waiting_expiry

    async def expire_if_due(self, runtime: Runtime) -> bool:
        """Expire the waiting table when its time has come (lock held): stored, told, out of the lobby."""
        due = self.expiry(runtime.game)
        if due is None or self.clock.now() < due:
            return False
        if await self._write(runtime, self.store.expire_table, runtime.game.id):
            runtime.game.status = EXPIRED
            self._changed(runtime)
            self.tables.pop(runtime.game.id, None)
        return True

    def listing(self) -> list[dict[str, Any]]:
        """The lobby: every table not finished, and the last ``settings.recent_listed`` finished ones."""
        now = self.clock.now()
        live = [
            rt.game.public()
            for rt in self.tables.values()
            if rt.game.status not in (FINISHED, EXPIRED) and (self.expiry(rt.game) or now + 1) > now
        ]
        # a match just over whose last writes are still being stored is not noted yet: the newest finished
        unnoted = [
            rt.game.public()
            for rt in self.tables.values()
            if rt.game.status == FINISHED and rt.game.id not in self._finished
        ]
        finished = (list(self.recent.values()) + unnoted)[-self.settings.recent_listed :]
        elsewhere = [entry for entry in self._others if entry["id"] not in self.tables]
        return sorted(live + elsewhere + finished, key=lambda table: int(table["id"]))

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
        if not 0 < table_id <= MOST_ID:  # nor asked of the database: its integer columns stop there
            raise PlayError("there is no table {table}", code="no_table", table=table_id)
        runtime = self.tables.get(table_id)
        if runtime is None:
            async with self._loading:  # one load at a time: never two runtimes for a table
                runtime = self.tables.get(table_id) or await self._load(table_id)
        if runtime.game.status == FINISHED:
            self.note_finished(runtime)
        return runtime

    async def _load(self, table_id: int) -> Runtime:
        """Load a table: a finished one to read; an unfinished one by claiming its lease (``Elsewhere`` if taken)."""
        row = await self.db.read(self.store.load_table, table_id)
        if row is None:
            raise PlayError("there is no table {table}", code="no_table", table=table_id)
        epoch = None
        if row.status not in (FINISHED, EXPIRED):
            epoch = await asyncio.to_thread(self.leases.claim, table_id, self.node, self.settings.lease_seconds)
            if epoch is None:
                lease = await asyncio.to_thread(self.leases.lease, table_id)
                raise Elsewhere(table_id, lease.owner if lease is not None else "", lease.epoch if lease else 0)
            row = await self.db.read(self.store.load_table, table_id)  # as stored under the new lease
            assert row is not None
        game = await self._rebuilt(row)
        game.deferred = True
        return self._add(game, epoch)

    async def snapshot(self, table_id: int) -> TableGame:
        """The table as stored, to read: this node's own game, or one rebuilt from the database (``no_table``)."""
        if not 0 < table_id <= MOST_ID:  # nor asked of the database: its integer columns stop there
            raise PlayError("there is no table {table}", code="no_table", table=table_id)
        runtime = self.tables.get(table_id)
        if runtime is not None:
            return runtime.game
        row = await self.db.read(self.store.load_table, table_id)
        if row is None:
            raise PlayError("there is no table {table}", code="no_table", table=table_id)
        return await self._rebuilt(row)

    async def _rebuilt(self, row: TableRow) -> TableGame:
        """The table of ``row`` replayed from the database (on a reader thread), its clocks going on from now."""
        now, pause, decks = self.clock.now(), self.settings.pause, self.decks
        restore = functools.partial(TableGame.restore_or_damaged, pause=pause, decks=decks, now=now)
        return await self.db.read(restore, row, self.store)

    async def receive(self, runtime: Runtime, connection: Connection, text: str) -> None:
        """One message of a connection's stream, as sent: refused when malformed, else answered."""
        try:
            message = parse_message(text)
        except ProtocolError as error:
            connection.send(error_message(error.code, str(error)))
            return
        if isinstance(message, Hint | Solve):
            self._advising(runtime, connection, message)
        else:
            await self.handle(runtime, connection, message)

    def _advising(self, runtime: Runtime, connection: Connection, message: Hint | Solve) -> None:
        """Work out a hint or a solution beside the connection's other messages (one at a time, so many a minute)."""
        if connection.advising is not None and not connection.advising.done():
            connection.send(error_message("busy", "a hint for this connection is still being worked out", message.id))
            return
        try:
            check(connection.hints, Phrase(WHAT["hint"]))
        except RateLimited as error:
            connection.send(error_message(error.code, str(error), message.id) | {"retry_after": error.retry_after})
            return
        if connection.hints is not None:
            connection.hints.spend()
        connection.advising = asyncio.get_running_loop().create_task(self.handle(runtime, connection, message))

    @contextlib.asynccontextmanager
    async def _player_lock(self, name: str) -> AsyncIterator[None]:
        """Hold the player's lock: a player's joins run one at a time (one free balance counted once)."""
        key = name.lower()
        lock, users = self._players.get(key, (asyncio.Lock(), 0))
        self._players[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._players[key]
            if users == 1:
                del self._players[key]
            else:
                self._players[key] = (lock, users - 1)

    async def join(self, table_id: int, request: JoinTable, address: str = "") -> dict[str, Any]:
        """``join_here``, on the node that runs the table."""
        arguments = {"table_id": table_id, "request": request.model_dump(), "address": address}
        return await self._where_it_runs(table_id, "join", arguments, self.join_here)

    async def _where_it_runs(
        self,
        table_id: int,
        operation: str,
        arguments: dict[str, Any],
        here: Callable[..., Any],
    ) -> dict[str, Any]:
        """Run a lobby request here, or on the node that runs the table (over the bus)."""
        try:
            answer: dict[str, Any] = await here(**arguments)
            return answer
        except Elsewhere as elsewhere:
            if self.cluster is None or not elsewhere.owner:
                raise PlayError(
                    "table {table} is run by another server that this one cannot reach", code="moved", table=table_id
                ) from None
            return await self.cluster.call(elsewhere.owner, operation, arguments)

    async def join_here(self, table_id: int, request: JoinTable | dict[str, Any], address: str = "") -> dict[str, Any]:
        """Sit a player; returns the seat and its token. Raises ``PlayError`` or ``OfcError``.

        A player's joins run one at a time, so two tables cannot both count the same free balance.
        """
        request = JoinTable.model_validate(request)
        async with self._player_lock(request.name):
            return await self._join(table_id, request, address)

    async def _admit(
        self, seat: int, request: JoinTable, address: str, rules: Rules, kind: str
    ) -> tuple[str | None, str]:
        """Check that ``request.name`` may sit at ``seat`` of a table with these rules; a new name's key and a token.

        The balance check is made again in the transaction that takes the seat (``admission``),
        where it holds across servers.
        """
        known = await self.db.read(self.store.balance, request.name)
        key = await self._check_key(request, address, known=known is not None)
        held = await self.db.read(self.store.held, request.name)
        self.admission(seat, request.name, rules, kind)(known, held)
        return key, secrets.token_urlsafe(24)

    def admission(self, seat: int, name: str, rules: Rules, kind: str) -> Admission:
        """The balance check of ``name`` sitting at ``seat``: a match's loss limit, or a tournament's buy-in.

        What the player's other unsettled matches hold is not free: a balance always covers every
        loss its matches can still bring (a match with a person's seat always has a loss limit),
        and a tournament's buy-in has already left it.
        """
        start = self.settings.start_balance

        def check(balance: Fraction | None, held: Fraction) -> None:
            have = start if balance is None else balance
            if kind == TOURNAMENT:
                tourney.check_buy_in(seat, name, have, rules, held)
            else:
                check_join(seat, have, rules, held=held)

        return check

    async def _join(self, table_id: int, request: JoinTable, address: str) -> dict[str, Any]:
        runtime = await self.load(table_id)
        async with runtime.lock:
            game = runtime.game
            await self.expire_if_due(runtime)
            if game.status == EXPIRED:
                raise PlayError(
                    "table {table} has expired: nobody sat at it for a while", code="expired", table=table_id
                )
            if game.status != WAITING or not game.open_seats:
                raise PlayError("table {table} has no open seat", code="table_full", table=table_id)
            seat = request.seat if request.seat is not None else game.open_seats[0]
            game.check_open(seat, request.name)
            key, token = await self._admit(seat, request, address, game.rules, game.kind)
            retry_for = self.db.request_seconds
            key_hash = key and token_hash(key)
            start = self.settings.start_balance
            await self.db.write(self.store.ensure_player, request.name, start, key_hash, retry_for=retry_for)
            take = functools.partial(
                self.store.take_seat, admit=self.admission(seat, request.name, game.rules, game.kind)
            )
            await self._write(
                runtime, take, table_id, seat, request.name, token_hash(token), game.stake(), retry_for=retry_for
            )
            game.sit(seat, request.name, token_hash(token), stored=True)
            if not game.open_seats:
                await self._start(runtime)
            else:
                self._changed(runtime)
        answer = {"table": table_id, "seat": seat, "token": token, "name": request.name}
        return answer | ({"player_key": key} if key else {})

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
