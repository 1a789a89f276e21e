"""The web application: lobby routes, the table WebSocket and the browser client's files.

``create_app(db_url)`` builds everything one server needs; the clock, the bot factory, the
pause between hands, the bots' delay and the decks are injectable for tests and benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import random
from collections.abc import AsyncIterator
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from ofc.rules.errors import BalanceError, OfcError
from ofc.rules.terms import Phrase
from ofc.server.api.accounts import accounts_router
from ofc.server.api.catalogs import i18n_router
from ofc.server.api.histories import history_router
from ofc.server.api.keep import keep_router
from ofc.server.db.keep_store import KeepStore
from ofc.server.db.storage import Storage, default_url
from ofc.server.db.work import REQUEST_SECONDS, Database, StorageUnavailable
from ofc.server.decisions.workers import DecisionPool, default_size, warm_kernels
from ofc.server.net.limits import DoorLimits
from ofc.server.net.pacing import Pacer
from ofc.server.net.protocol import (
    CreateTable,
    Hint,
    JoinTable,
    LeaveTable,
    ProtocolError,
    Solve,
    error_fields,
    error_message,
    parse_message,
)
from ofc.server.net.ratelimit import RULES, WHAT, Limiter, RateLimited, Rule, check, client_address
from ofc.server.tables.agents import HINT_BOT, BotFactory, default_bot_factory
from ofc.server.tables.game import DeckSource, PlayError, secure_deck
from ofc.server.tables.manager import Connection, Runtime, Settings, TableManager
from ofc.server.tables.money import money_text
from ofc.server.tables.timekeeping import Clock, SystemClock

log = logging.getLogger("ofc.server")
WEB = Path(__file__).resolve().parent.parent / "web"
_STATUS = {"bad_key": 403, "no_table": 404, "no_player": 404}
_STATUS |= {"seat_taken": 409, "table_full": 409, "already_seated": 409, "not_finished": 409}
_STATUS |= {"bad_token": 403, "not_waiting": 409, "not_playing": 409, "left_seat": 409, "expired": 410}


def _refusal(code: str, message: str, status: int = 400, error: OfcError | None = None) -> JSONResponse:
    """An HTTP refusal; with ``error``, its language-neutral fields too (``error_fields``)."""
    body = {"code": code, "message": message, **error_fields(error)}
    return JSONResponse({"error": body}, status_code=status)


def create_app(
    db_url: str | None = None,
    *,
    clock: Clock | None = None,
    bot_factory: BotFactory = default_bot_factory,
    pause: float | Decimal = 3,
    bot_delay: float = 0.5,
    start_balance: int | Fraction = 1000,
    loss_limit: int | Decimal = 200,
    decks: DeckSource = secure_deck,
    buttons: random.Random | None = None,
    db_timeout: float | None = None,
    request_seconds: float = REQUEST_SECONDS,
    workers: int | None = None,
    processes: bool = True,
    rate_limits: dict[str, Rule] | None = RULES,
    finished_kept: int = 100,
    recent_listed: int = 20,
    waiting_expiry: float = 600,
    hint_bot: str = HINT_BOT,
    freeze_gc: bool = True,
) -> FastAPI:
    """The ``ofc serve`` application over the database at ``db_url`` (default: see storage).

    ``buttons`` draws each match's first button (default: the system's secure randomness).
    ``db_timeout`` bounds each database connect, statement and lock wait (default
    ``OFC_DB_TIMEOUT`` or 5 s); a person's request keeps retrying its write for
    ``request_seconds`` before it is refused. Bots, hints and the solver run on ``workers``
    worker processes (threads when ``processes`` is false: tests with stand-in bots).
    ``rate_limits`` replaces the limits of ``ofc.server.net.ratelimit`` (None: no limits). At most
    ``finished_kept`` finished tables stay in memory and the lobby lists the last
    ``recent_listed`` (see ``ofc.server.tables.lobby``). A waiting table with nobody seated expires after
    ``waiting_expiry`` seconds. Hints are the ``hint_bot``'s (a bot spec). A match
    with a person's seat created without a loss limit gets ``loss_limit`` points (see ofc.server.tables.money).
    ``freeze_gc``: once ready, freeze what start-up made out of the garbage collector (``warm_up``).
    """
    store = Storage(db_url or default_url(), db_timeout)
    settings = Settings(
        Decimal(str(pause)),
        bot_delay,
        Fraction(start_balance),
        Decimal(loss_limit),
        max(1, finished_kept),
        recent_listed,
        waiting_expiry=Decimal(str(waiting_expiry)),
        hint_bot=hint_bot,
    )
    db = Database(request_seconds=request_seconds)
    warm = functools.partial(warm_kernels) if processes else None
    pool = DecisionPool(bot_factory, workers or default_size(), processes=processes, warm=warm)
    clock = clock or SystemClock()
    manager = TableManager(store, clock, bot_factory, settings, decks, buttons, db, pool)
    manager.limiter = limiter = Limiter(clock, rate_limits)
    health = {"ready": False}

    async def warm_up() -> None:
        """Kernels compiled (or loaded) here first, then by each worker: only then is the server ready.

        Then the objects made so far are frozen out of the garbage collector: a full collection
        over them (about 170,000 objects once the kernels are loaded) takes about 130 ms, a pause of
        every table's updates; after ``gc.freeze`` it scans only what the server makes later.
        """
        try:
            if warm is not None:
                await asyncio.to_thread(warm)
            await pool.ready()
            if freeze_gc:
                gc.freeze()  # what start-up made (modules, numba, restored tables) is never scanned again
            health["ready"] = True
        except Exception:
            log.exception("the decision workers could not start")

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await manager.start()
        warming = asyncio.get_running_loop().create_task(warm_up())
        try:
            yield
        finally:
            warming.cancel()
            await manager.stop()  # bot turns cancelled first: a worker ended under a running job is no bot failure
            pool.close()
            db.close()
            store.close()

    app = FastAPI(title="ofc", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")
    app.add_middleware(DoorLimits)  # body limit and security headers; no API docs page (it needs a CDN)
    app.state.manager = manager
    app.state.store = store

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        problem = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(part) for part in problem.get("loc", ())[1:]) or "body"
        where = where.removeprefix("sit.")  # the player's fields of a table created with its player seated
        return _refusal("bad_request", f"{where}: {problem.get('msg')}", 422)

    @app.exception_handler(PlayError)
    async def _refused(_request: Request, error: PlayError) -> JSONResponse:
        """A lobby request the tables refuse: its code, with the matching HTTP status."""
        return _refusal(error.code, str(error), _STATUS.get(error.code, 400), error)

    @app.exception_handler(RateLimited)
    async def _limited(_request: Request, error: RateLimited) -> JSONResponse:
        """An attempt over a rate limit: 429, nothing changed, with when to try again."""
        body = {"error": {"code": error.code, "message": str(error), "retry_after": error.retry_after}}
        return JSONResponse(body, status_code=429, headers={"retry-after": str(error.retry_after)})

    @app.exception_handler(StorageUnavailable)
    async def _unavailable(_request: Request, error: StorageUnavailable) -> JSONResponse:
        """The database did not take the request in time: nothing changed, try again."""
        return _refusal(error.code, str(error), 503, error)

    @app.exception_handler(BalanceError)
    async def _short(_request: Request, error: BalanceError) -> JSONResponse:
        """A balance that cannot cover a table's loss limit or a tournament's buy-in."""
        return _refusal("balance", str(error), 409, error)

    @app.get("/api/health", response_model=None)
    async def healthy() -> dict[str, Any] | JSONResponse:
        """Whether the server is ready: tables restored and the bots' kernels warm (503 until then)."""
        if not health["ready"]:
            return JSONResponse({"ready": False}, status_code=503)
        return {"ready": True, "tables": len(manager.tables)}

    @app.get("/api/tables")
    async def list_tables() -> dict[str, Any]:
        """Every table with its seats and status."""
        return {"tables": manager.listing()}

    @app.post("/api/tables", status_code=201, response_model=None)
    async def create_table(request: CreateTable, http: Request) -> dict[str, Any] | JSONResponse:
        """Create a table from a preset, settings and bot seats (at most so many per client address).

        With ``sit``, the player sits down in the same step (the answer's ``joined``), or nothing is created.
        """
        address = client_address(http)
        limiter.check("create", address)
        if request.sit is not None:
            known = await db.read(store.known_name, request.sit.name)  # names are unique regardless of case
            if known is not None:
                request = request.model_copy(update={"sit": request.sit.model_copy(update={"name": known})})
        try:
            table = await manager.create(request, address)
        except (PlayError, BalanceError):
            raise  # a refused seat: its own code (bad_key, balance...)
        except OfcError as error:
            return _refusal("bad_table", str(error), 400, error)
        limiter.spend("create", address)
        return table

    @app.post("/api/tables/{table_id}/join", response_model=None)
    async def join_table(table_id: int, request: JoinTable, http: Request) -> dict[str, Any]:
        """Sit a player at an open seat; the answer holds the seat token."""
        known = await db.read(store.known_name, request.name)  # names are unique regardless of case
        if known is not None:
            request = request.model_copy(update={"name": known})
        return await manager.join(table_id, request, client_address(http))

    @app.post("/api/tables/{table_id}/rematch", response_model=None)
    async def rematch_table(table_id: int) -> dict[str, Any]:
        """The table for a rematch of a finished match (opened by the first request)."""
        return await manager.rematch(table_id)

    @app.post("/api/tables/{table_id}/leave", response_model=None)
    async def leave_table(table_id: int, request: LeaveTable) -> dict[str, Any]:
        """Give up a seat: before the match starts it is open again; after, a bot plays it to the end."""
        return await manager.leave(table_id, request)

    @app.get("/api/players/{name}", response_model=None)
    async def player(name: str) -> dict[str, Any] | JSONResponse:
        """A player's play-money balance."""
        balance = await db.read(store.balance, name)
        if balance is None:
            return _refusal("no_player", f"there is no player {name!r}", 404)
        return {"name": name, "balance": money_text(balance)}

    @app.get("/api/house", response_model=None)
    async def house() -> dict[str, Any]:
        """The house account: it backs the bots (buy-ins, prizes, match results) and keeps rounded-off cents."""
        balance = await db.read(store.house_balance)
        return {"balance": money_text(balance)}

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(socket: WebSocket, table_id: int) -> None:
        """The table's message stream: see docs/protocol.md."""
        await socket.accept()
        try:
            runtime = await manager.load(table_id)  # a finished table is loaded from the database on demand
        except (PlayError, StorageUnavailable) as error:
            await socket.send_json(error_message(error.code, str(error)))
            await socket.close(code=4404 if error.code == "no_table" else 1011)
            return
        await _serve(manager, runtime, socket)

    app.include_router(keep_router(KeepStore(store.engine)))  # the keep page: docs/keep.md
    app.include_router(accounts_router(store, manager))  # sign in with a player key
    app.include_router(history_router(store, manager))  # a seat's copies of finished hands
    app.include_router(i18n_router())  # the translation catalogs for the browser client
    app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app


def advising(manager: TableManager, runtime: Runtime, connection: Connection, message: Hint | Solve) -> None:
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
    connection.advising = asyncio.get_running_loop().create_task(manager.handle(runtime, connection, message))


async def _serve(manager: TableManager, runtime: Runtime, socket: WebSocket) -> None:
    """Read messages and write queued replies until the client goes away."""
    connection = Connection()
    connection.hints = manager.limiter.bucket("hint")
    manager.connect(runtime, connection)
    async with runtime.lock:
        connection.send(manager.state(runtime, None))

    async def writer() -> None:
        while (text := await connection.outbox.get()) is not None:
            await socket.send_text(text)
        if connection.outbox.overflowed:
            await socket.close(code=1008, reason="too slow: the messages sent were not read")

    sending = asyncio.get_running_loop().create_task(writer())
    pacer = Pacer()
    try:
        while True:
            # one message at a time, then the other connections' turn, and at most so many a
            # second: a client sending without pause cannot hold the loop (ofc.server.net.pacing)
            await pacer.turn()
            frame = await socket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                text = bytes(frame.get("bytes") or b"").decode("utf-8", errors="replace")
            try:
                message = parse_message(text)
            except ProtocolError as error:
                connection.send(error_message(error.code, str(error)))
                continue
            if isinstance(message, Hint | Solve):
                advising(manager, runtime, connection, message)
            else:
                await manager.handle(runtime, connection, message)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        manager.disconnect(runtime, connection)
        if connection.advising is not None:
            connection.advising.cancel()
        connection.outbox.put_nowait(None)
        sending.cancel()
