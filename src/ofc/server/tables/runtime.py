"""What the table manager keeps per table and per connection, and how it runs tables."""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ofc.server.net.outbox import Outbox
from ofc.server.net.ratelimit import Bucket
from ofc.server.tables.agents import HINT_BOT
from ofc.server.tables.game import TableGame


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
    failures: dict[int, int] = field(default_factory=dict)
    """Bot seats whose decisions failed in a row, and how many times (each is tried again, later)."""
    task: asyncio.Task[None] | None = None
    epoch: int | None = None
    """The epoch of this node's lease on the table (None: a finished table, read only)."""


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
    finished_kept: int = 100
    """Finished tables kept in memory at most (beyond them, those nobody watches; loaded again on demand)."""
    recent_listed: int = 20
    """Finished tables the lobby lists (the last ones)."""
    waiting_expiry: Decimal = Decimal(600)
    """Seconds a waiting table may have nobody seated before it expires (leaves the lobby, stored ``expired``)."""
    hint_bot: str = HINT_BOT
    """The bot spec that works out hints (a slower one only in tests)."""
    hint_budget: float = 1.0
    """Seconds a hint may take before the table is held for it (its clocks stop until it comes)."""
    bot_budget: float = 6.0
    """Seconds a bot's decision may take before the table is held for it (past the decision cap)."""
    node: str = "local"
    """This process's name among the servers on one database (its tables' leases are held under it)."""
    lease_seconds: float = 5.0
    """How long a table's lease lasts unless renewed: a dead node's tables move after at most this long."""
