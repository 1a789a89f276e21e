"""The table manager: every table's lock, clock task, bots and connections.

Each table has one ``asyncio.Lock``; everything that reads or changes its game runs under
it. A clock task per table sleeps until the table's next deadline (or until woken by a
change) and then brings the game up to time, so automatic placement happens on the server
whether or not anyone is connected. Bots act from their seat's view in a worker thread and
their actions go through the same checked, stored path as a person's.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import secrets
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ofc.bots.base import Bot
from ofc.errors import OfcError
from ofc.match import check_join, join_cost
from ofc.rules import Rules
from ofc.server import tourney
from ofc.server.agents import HINT_BOT, BotFactory, fantasy_action
from ofc.server.game import DeckSource, PlayError, TableGame, secure_deck
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
from ofc.server.storage import FINISHED, MATCH, TOURNAMENT, WAITING, Storage
from ofc.server.timekeeping import Clock
from ofc.view import HandView

log = logging.getLogger("ofc.server")


def token_hash(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Connection:
    """One WebSocket: the seat it speaks for (None: spectator) and its queue of outgoing text."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for this connection."""
        self.outbox.put_nowait(json.dumps(message))


@dataclass
class Runtime:
    """A table's game with its lock, connections, clock task and bots."""

    game: TableGame
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    connections: set[Connection] = field(default_factory=set)
    bots: dict[int, Bot] = field(default_factory=dict)
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
    ) -> None:
        self.store = store
        self.clock = clock
        self.bot_factory = bot_factory
        self.settings = settings
        self.decks = decks
        self.tables: dict[int, Runtime] = {}
        self._rng = buttons or random.SystemRandom()
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopping = False

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Restore every stored table and start its clock."""
        for row in self.store.load_tables():
            try:
                game = TableGame.restore(
                    row, self.store, pause=self.settings.pause, decks=self.decks, now=self.clock.now()
                )
                self._add(game)
            except OfcError:
                log.exception("table %s cannot be restored from the database; it is left out", row.id)

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
                runtime.bots[seat] = self.bot_factory(info.bot, None)
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

    # ------------------------------------------------------------------ lobby

    def create(self, request: CreateTable) -> dict[str, Any]:
        """Create a table; raises ``OfcError`` for bad rules or bot specs."""
        rules = Rules.preset(request.preset).with_settings({**request.settings, "players": request.seats})
        bots = list(request.bots) or [None] * request.seats
        if len(bots) != request.seats:
            raise OfcError(f"bots must list {request.seats} entries (a spec or null per seat), not {len(bots)}")
        for spec in bots:
            if spec is not None:
                self.bot_factory(spec, None)
        if request.kind == TOURNAMENT:
            tourney.check_rules(rules)
        return self._open(request.name, rules, bots, request.kind).public()

    def _open(self, name: str, rules: Rules, bots: list[str | None], kind: str = MATCH) -> TableGame:
        """Store and open a new table (started at once when only bots sit at it)."""
        table_id = self.store.add_table(name, rules.to_dict(), bots, kind)
        pause, decks = self.settings.pause, self.decks
        game = TableGame(table_id, name, rules, bots, self.store, pause=pause, decks=decks, kind=kind)
        runtime = self._add(game)
        if not game.open_seats:
            self._start(runtime)
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
                game.open_rematch(self._open(game.name, game.rules, bots, game.kind).id)
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
            game.leave(seat)
            for connection in runtime.connections:
                if connection.seat == seat:
                    connection.seat = None
            self._changed(runtime)
            return game.public()

    def listing(self) -> list[dict[str, Any]]:
        """Every table as the lobby shows it."""
        return [rt.game.public() for rt in self.tables.values()]

    async def join(self, table_id: int, request: JoinTable) -> dict[str, Any]:
        """Sit a player; returns the seat and its token. Raises ``PlayError`` or ``OfcError``."""
        runtime = self.runtime(table_id)
        async with runtime.lock:
            game = runtime.game
            if game.status != WAITING or not game.open_seats:
                raise PlayError("table_full", f"table {table_id} has no open seat")
            seat = request.seat if request.seat is not None else game.open_seats[0]
            game.check_open(seat, request.name)
            known = self.store.balance(request.name)
            key = self._check_key(request, known=known is not None)
            balance = self.settings.start_balance if known is None else known
            if game.kind == TOURNAMENT:
                tourney.check_buy_in(seat, request.name, balance, game.rules, self.held(request.name))
            else:
                check_join(seat, balance, game.rules, held=self.held(request.name))
            self.store.ensure_player(request.name, self.settings.start_balance, key and token_hash(key))
            token = secrets.token_urlsafe(24)
            game.sit(seat, request.name, token_hash(token))
            if not game.open_seats:
                self._start(runtime)
        answer = {"table": table_id, "seat": seat, "token": token, "name": request.name}
        return answer | ({"player_key": key} if key else {})

    def held(self, name: str) -> Fraction:
        """What ``name`` has at stake in unfinished matches: each one's loss limit times its point value.

        Joining needs the balance less this; a match without a loss limit holds nothing, and a
        tournament's buy-in has already left the balance.
        """
        costs = (
            join_cost(rt.game.rules)
            for rt in self.tables.values()
            if rt.game.kind == MATCH and rt.game.status != FINISHED and rt.game.has_player(name)
        )
        return sum((Fraction(cost) for cost in costs if cost is not None), Fraction(0))

    def _check_key(self, request: JoinTable, *, known: bool) -> str | None:
        """A new key for a new name; for a ``known`` name, its key must be given. Raises ``PlayError``."""
        if not known:
            return secrets.token_urlsafe(18)
        stored = self.store.key_hash(request.name)
        if stored is not None and (request.key is None or token_hash(request.key) != stored):
            raise PlayError("bad_key", f"the name {request.name} is taken: its player key is needed to play as it")
        return None

    def runtime(self, table_id: int) -> Runtime:
        """The table's runtime; raises ``PlayError`` for an unknown table."""
        runtime = self.tables.get(table_id)
        if runtime is None:
            raise PlayError("no_table", f"there is no table {table_id}")
        return runtime

    def _start(self, runtime: Runtime) -> None:
        game = runtime.game
        game.start(self._rng.randrange(len(game.seats)), self.clock.now())
        self._changed(runtime)

    # ------------------------------------------------------------------ changes

    def _changed(self, runtime: Runtime) -> None:
        """Tell every connection the new state, set bots going and re-arm the clock (lock held)."""
        states: dict[int | None, str] = {}
        for connection in list(runtime.connections):
            if connection.seat not in states:
                states[connection.seat] = json.dumps(runtime.game.state(connection.seat))
            connection.outbox.put_nowait(states[connection.seat])
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
                runtime.game.sync(self.clock.now())
                view = runtime.game.view(seat)
            if view is None or view.seat not in view.to_act:
                return
            action = await asyncio.to_thread(runtime.bots[seat].act, view)
            async with runtime.lock:
                runtime.busy.discard(seat)
                data = action.to_dict()
                runtime.game.act(seat, data["place"], data["discard"], self.clock.now())
                self._changed(runtime)
        except PlayError as error:
            log.info("table %s: bot at seat %s: %s", runtime.game.id, seat, error)
        except Exception:
            log.exception("table %s: bot at seat %s failed", runtime.game.id, seat)
        finally:
            runtime.busy.discard(seat)

    async def _clock(self, runtime: Runtime) -> None:
        while not self._stopping:
            runtime.wake.clear()
            async with runtime.lock:
                if runtime.game.sync(self.clock.now()):
                    self._changed(runtime)
                    runtime.wake.clear()
                else:
                    self._kick_bots(runtime)
                due = runtime.game.wake_time()
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
        except PlayError as error:
            connection.send(error_message(error.code, str(error), message.id))

    async def _handle(
        self, runtime: Runtime, connection: Connection, message: Hello | Act | Hint | Solve | Sync | Ping
    ) -> None:
        game = runtime.game
        if isinstance(message, Ping):
            connection.send({"type": "pong", "id": message.id})
            return
        async with runtime.lock:
            if game.sync(self.clock.now()):
                self._changed(runtime)
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
                action = game.act(seat, place, list(message.discard), self.clock.now())
                connection.send({"type": "ack", "id": message.id, "action": action.to_dict()})
                self._changed(runtime)
                return
            else:
                seat = self._seat(runtime, connection, message.token)
                view = game.view(seat)
        if isinstance(message, Hint | Solve):
            await self._advise(connection, message, view)

    async def _advise(self, connection: Connection, message: Hint | Solve, view: HandView | None) -> None:
        if view is None or view.seat not in view.to_act:
            raise PlayError("not_your_turn", "there is nothing for this seat to decide now")
        try:
            if isinstance(message, Solve):
                if not view.seats[view.seat].fantasy:
                    raise PlayError("not_fantasy", "this seat is not playing a fantasy hand")
                action = await asyncio.to_thread(fantasy_action, view)
                connection.send({"type": "solution", "id": message.id, "action": action.to_dict()})
                return
            bot = self.bot_factory(HINT_BOT, None)
            decision = await asyncio.to_thread(bot.decide, view)
        except OfcError as error:
            if isinstance(error, PlayError):
                raise
            raise PlayError("unavailable", str(error)) from None
        value = None if decision.value is None else float(decision.value)
        choices = [{"action": c.action.to_dict(), "value": c.value} for c in getattr(bot, "last_choices", ())[:3]]
        connection.send(
            {"type": "hint", "id": message.id, "action": decision.action.to_dict(), "value": value, "choices": choices}
        )
