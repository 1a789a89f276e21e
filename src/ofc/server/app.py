"""The web application: its state, the API's routers, the table WebSocket and the browser client's files.

``create_app(settings)`` builds everything one server needs from ``ServerSettings``; the clock,
the bot factory, the decks and the first buttons are collaborators a test or benchmark may
replace. The routes live in ``ofc.server.api``, one router per resource, and reach the state
through ``ofc.server.api.dependencies``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import random
from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from prometheus_client import CollectorRegistry

from ofc.server.api import catalogs, health, histories, house, keep, metrics, players, table_socket, tables
from ofc.server.api.dependencies import Analyses, BookLocks, Health
from ofc.server.api.metrics import NodeFigures
from ofc.server.api.refusals import install_refusals
from ofc.server.db.keep_store import KeepStore
from ofc.server.db.storage import Storage, default_url
from ofc.server.db.work import Database
from ofc.server.decisions.ray_pool import RayPool
from ofc.server.decisions.workers import MAX_DECISION_SECONDS, DecisionPool, default_size, warm_kernels
from ofc.server.net.bus import Bus
from ofc.server.net.limits import DoorLimits
from ofc.server.net.ratelimit import Limiter
from ofc.server.settings import ServerSettings
from ofc.server.tables.agents import BotFactory, default_bot_factory
from ofc.server.tables.cluster import Cluster
from ofc.server.tables.decks import DeckSource, secure_deck, seeded_decks
from ofc.server.tables.manager import Settings, TableManager
from ofc.server.tables.timekeeping import Clock, SystemClock

log = logging.getLogger("ofc.server")
WEB = Path(__file__).resolve().parent.parent / "web"
ROUTERS = (
    health.router,
    tables.router,
    players.router,
    house.router,
    histories.router,
    catalogs.router,
    keep.router,
    table_socket.router,
)
"""The API, one router per resource."""


async def wait_for_gate(gate: Path) -> None:
    """Wait until the file ``gate`` is gone (``ServerSettings.warm_gate``: a test's slow warm-up)."""
    while gate.exists():
        await asyncio.sleep(0.05)


def create_app(
    settings: ServerSettings | None = None,
    *,
    clock: Clock | None = None,
    bot_factory: BotFactory = default_bot_factory,
    decks: DeckSource | None = None,
    buttons: random.Random | None = None,
) -> FastAPI:
    """The ``ofc serve`` application with ``settings`` (default: ``ServerSettings()``, read from ``OFC_*``).

    ``decks`` deals each hand and ``buttons`` draws each match's first button (default: the
    system's secure randomness, or ``settings.seed``'s reproducible ones). The OpenAPI document
    (``/api/openapi.json``) and the docs page (``/api/docs``) are served only with ``settings.docs``.
    """
    settings = settings or ServerSettings()
    store = Storage(settings.db_url or default_url(), settings.db_timeout)
    if settings.seed is not None:
        decks = decks or seeded_decks(settings.seed)
        buttons = buttons or random.Random(settings.seed)
    table_settings = Settings(
        settings.pause,
        settings.bot_delay,
        Fraction(settings.start_balance),
        settings.loss_limit,
        settings.finished_kept,
        settings.recent_listed,
        waiting_expiry=settings.waiting_expiry,
        hint_bot=settings.hint_bot,
        hint_budget=settings.hint_budget,
        bot_budget=MAX_DECISION_SECONDS + 1,
        node=settings.node_name(),
        lease_seconds=settings.lease_seconds,
    )
    db = Database(request_seconds=settings.request_seconds)
    warm = functools.partial(warm_kernels) if settings.processes else None
    pool = (
        DecisionPool(bot_factory, settings.workers or default_size(), processes=settings.processes, warm=warm)
        if settings.decisions is None
        else RayPool(settings.decisions, bot_factory, settings.workers or default_size(), warm=warm)
    )
    clock = clock or SystemClock()
    manager = TableManager(store, clock, bot_factory, table_settings, decks or secure_deck, buttons, db, pool)
    manager.limiter = Limiter(clock, settings.rate_limits, engine=store.engine)  # shared by every process
    if settings.bus_url is not None:
        manager.cluster = Cluster(manager, Bus(settings.bus_url, manager.node))
    readiness = Health()

    async def warm_up() -> None:
        """Kernels compiled (or loaded) here first, then by each worker: only then is the server ready.

        Then the objects made so far are frozen out of the garbage collector: a full collection
        over them takes long enough to pause every table's updates; after ``gc.freeze`` it scans
        only what the server makes later.
        """
        try:
            if settings.warm_gate is not None:
                await wait_for_gate(Path(settings.warm_gate))
            if warm is not None:
                await asyncio.to_thread(warm)
            await pool.ready()
            if settings.freeze_gc:
                gc.freeze()  # what start-up made (modules, numba, restored tables) is never scanned again
            readiness.ready = True
            await manager.now_serving()
        except Exception:
            log.exception("the decision workers could not start")
            await manager.now_serving()  # the people's tables are not kept waiting for workers that never come

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        manager.start_warming()  # no hand is dealt, no clock runs until the workers are warm
        await manager.start()
        warming = None
        if warm is None and settings.decisions is None and settings.warm_gate is None:
            await warm_up()  # decisions on threads (tests with stand-in bots): warm at once
        else:
            warming = asyncio.get_running_loop().create_task(warm_up())
        try:
            yield
        finally:
            if warming is not None:
                warming.cancel()
            await manager.stop()  # bot turns cancelled first: a worker ended under a running job is no bot failure
            pool.close()
            db.close()
            store.close()

    docs = settings.docs
    app = FastAPI(
        title="ofc",
        lifespan=lifespan,
        docs_url="/api/docs" if docs else None,
        redoc_url=None,
        openapi_url="/api/openapi.json" if docs else None,
    )
    app.add_middleware(DoorLimits)  # body limit and security headers
    app.state.settings = settings
    app.state.manager = manager
    app.state.store = store
    app.state.keep = KeepStore(store.engine)  # the keep page: docs/keep.md
    app.state.book_locks = BookLocks()
    app.state.health = readiness
    app.state.analyses = Analyses()
    install_refusals(app)
    for router in ROUTERS:
        app.include_router(router)
    if settings.metrics:  # for the operator's scraper only: off unless asked for
        app.state.metrics = CollectorRegistry(auto_describe=False)
        app.state.metrics.register(NodeFigures(manager))
        app.include_router(metrics.router)
    app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app
