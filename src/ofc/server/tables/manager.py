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
import json
import logging
import random
from typing import Any

from ofc.server.db.storage import DAMAGED, EXPIRED, FINISHED, Storage
from ofc.server.db.work import Database, StorageUnavailable
from ofc.server.decisions.advice import advise
from ofc.server.decisions.workers import DecisionPool
from ofc.server.net.protocol import (
    Act,
    Hello,
    Hint,
    Ping,
    Solve,
    Sync,
    error_message,
)
from ofc.server.net.ratelimit import Limiter, RateLimited
from ofc.server.tables.agents import BotFactory
from ofc.server.tables.game import DeckSource, PlayError, TableGame, secure_deck
from ofc.server.tables.lobby import Lobby
from ofc.server.tables.replay import restore_or_keep
from ofc.server.tables.runtime import Connection as Connection
from ofc.server.tables.runtime import Runtime as Runtime
from ofc.server.tables.runtime import Settings as Settings
from ofc.server.tables.runtime import token_hash as token_hash
from ofc.server.tables.timekeeping import Clock

log = logging.getLogger("ofc.server")


class TableManager(Lobby):
    """All tables of one server: the lobby's requests (``Lobby``), clocks, bots and messages."""

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
        super().__init__()
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

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Restore every unfinished table (on a thread) and start its clock; list the last finished ones."""
        now, pause, decks = self.clock.now(), self.settings.pause, self.decks
        rows = await asyncio.to_thread(self.store.load_tables, unfinished=True)
        for game in await asyncio.to_thread(lambda: [restore_or_keep(r, self.store, pause, decks, now) for r in rows]):
            game.deferred = True
            self._add(game)
        recent = await asyncio.to_thread(self.store.recent_finished, self.settings.recent_listed)
        self.recent = {row.id: TableGame.from_row(row, self.store, pause, decks).public() for row in recent}

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
            action, _ = await self.pool.run(runtime.game.id, "act", runtime.bots[seat], None, view, owner)
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
            await advise(self.pool, connection, message, view, self.settings.hint_bot)
