"""The server's settings: one ``ServerSettings`` read from ``OFC_*`` environment variables.

Every field is also a keyword (``ServerSettings(pause=0)``): explicit values win over the
environment, so ``ofc serve``'s flags override ``OFC_PAUSE`` and a test builds the settings it
needs. Collaborators that are code, not configuration (the clock, the bot factory, the decks),
are ``create_app``'s own keywords.
"""

from __future__ import annotations

import socket
from decimal import Decimal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from ofc.server.db.work import REQUEST_SECONDS
from ofc.server.net.ratelimit import RULES, Rule
from ofc.server.tables.agents import HINT_BOT


class ServerSettings(BaseSettings):
    """What one ``ofc serve`` process runs with (environment: ``OFC_`` and the field's name in capitals)."""

    model_config = SettingsConfigDict(env_prefix="OFC_", env_parse_none_str="null", extra="forbid", frozen=True)

    db_url: str | None = Field(default=None, max_length=2000)
    """Database URL: ``sqlite:///PATH`` or ``postgresql://...`` (None: ``sqlite:///$OFC_HOME/ofc.db``)."""
    host: str = "127.0.0.1"
    """Address ``ofc serve`` listens on."""
    port: int = Field(default=8000, ge=1, le=65535)
    """Port ``ofc serve`` listens on."""
    docs: bool = False
    """Whether the API's docs page (``/api/docs``) and its OpenAPI document (``/api/openapi.json``) are served."""
    pause: Decimal = Field(default=Decimal(3), ge=0, le=3600)
    """Seconds between a showdown and the next deal."""
    bot_delay: float = Field(default=0.5, ge=0, le=60)
    """Seconds a bot waits before acting."""
    start_balance: Decimal = Field(default=Decimal(1000), ge=0)
    """A new player's play-money balance."""
    loss_limit: Decimal = Field(default=Decimal(200), gt=0)
    """Loss limit (points) given to a match with a person's seat created without one."""
    db_timeout: float | None = Field(default=None, gt=0)
    """Seconds each database connect, statement and lock wait may take (None: 5 s)."""
    request_seconds: float = Field(default=REQUEST_SECONDS, gt=0)
    """Seconds a person's request keeps retrying its write before it is refused."""
    workers: int | None = Field(default=None, ge=1, le=256)
    """Decision worker processes for bots, hints and the solver (None: the cores less one, at most four)."""
    processes: bool = True
    """Decision workers as processes (false: threads, for tests with stand-in bots)."""
    decisions: str | None = Field(default=None, pattern=r"^(auto|local|ray://[^\s/:]+:\d{1,5}|[^\s/:]+:\d{1,5})$")
    """Where decisions run: a Ray cluster (``ray://HOST:PORT``, ``HOST:PORT``, ``auto``, ``local``) or local workers."""
    rate_limits: dict[str, Rule] | None = Field(default_factory=lambda: dict(RULES))
    """The limits of ``ofc.server.net.ratelimit`` by name (None, ``OFC_RATE_LIMITS=null``: none, for load tests)."""
    finished_kept: int = Field(default=100, ge=1)
    """Finished tables kept in memory (the least recently used leave first)."""
    recent_listed: int = Field(default=20, ge=0)
    """Finished tables the lobby lists."""
    waiting_expiry: Decimal = Field(default=Decimal(600), ge=1)
    """Seconds a waiting table may have nobody seated before it expires."""
    hint_bot: str = Field(default=HINT_BOT, min_length=1, max_length=200)
    """The bot spec that works out hints."""
    hint_budget: float = Field(default=1.0, ge=0, le=60)
    """Seconds a hint may take before the table is held for it (past them, no clock runs until it comes)."""
    warm_gate: str | None = Field(default=None, max_length=4000)
    """Tests only: the workers' warm-up first waits until this file is gone (a controllably slow warm-up)."""
    seed: int | None = None
    """Reproducible decks and first buttons (tests and demos: never for real stakes)."""
    node: str | None = Field(default=None, min_length=1, max_length=120)
    """This process's name among the servers on one database (None: ``HOSTNAME:PORT``)."""
    bus_url: str | None = Field(default=None, max_length=2000)
    """The bus to the other servers on the same PostgreSQL database: ``redis://HOST:PORT`` (None: serve alone)."""
    lease_seconds: float = Field(default=5.0, ge=0.5, le=300)
    """How long a table's lease lasts unless renewed: a dead server's tables move after at most this long."""
    metrics: bool = False
    """Whether ``/metrics`` (Prometheus's format) is served: for the operator's scraper, never public."""
    freeze_gc: bool = True
    """Once ready, freeze what start-up made out of the garbage collector."""
    connections_per_token: int = Field(default=4, ge=1, le=1000)
    """Table connections one seat token may hold at once, over every server on the database."""
    connections_per_address: int = Field(default=32, ge=1, le=100_000)
    """Table connections one client address may hold at once, over every server on the database."""
    analysis_playouts: int = Field(default=60_000, ge=1)
    """Play-outs one hand analysis may cost at most (its decisions x candidates x play-outs each)."""

    def node_name(self) -> str:
        """This process's name: ``node``, else the machine's name and the port."""
        return self.node or f"{socket.gethostname()}:{self.port}"
