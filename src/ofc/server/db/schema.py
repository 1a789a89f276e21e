"""The server's database schema: its tables, the statuses of a table and the rows read back.

``ofc.server.db.storage`` is the repository over it, ``ofc.server.db.keep_store`` over the score
books' tables. A change here comes with a revision in ``migrations/versions`` (docs/server.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("balance", String(80), nullable=False),
    Column("key_hash", String(64)),
)

tables = Table(
    "tables",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(80), nullable=False),
    Column("rules", Text, nullable=False),
    Column("bots", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("button", Integer),
    Column("ledger", Text),
    Column("rematch", Integer),
    Column("kind", String(16)),
    Column("options", Text),
    Column("waiting_since", String(40)),
)
"""``options``: JSON of the table's options beside its rules (``{"hints": false}``); ``waiting_since``:
the server time since which a waiting table has had nobody seated (it expires after a while)."""

seats = Table(
    "seats",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(40), ForeignKey("players.name"), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("stand_in", String(40)),
)
"""``stand_in``: the bot playing the seat since its person left the running match (null: they play)."""

hands = Table(
    "hands",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("deck", Text, nullable=False),
    Column("start", String(40), nullable=False),
    Column("history", Text),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", Integer, primary_key=True),
    Column("hand", Integer, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("place", Text, nullable=False),
    Column("discard", Text, nullable=False),
    Column("time", String(40), nullable=False),
    Column("automatic", Boolean, nullable=False),
    Column("prev", Integer),
    CheckConstraint("(seq = 0 AND prev IS NULL) OR prev = seq - 1", name="actions_in_sequence"),
    ForeignKeyConstraint(["table_id", "hand"], ["hands.table_id", "hands.number"]),
    ForeignKeyConstraint(["table_id", "hand", "prev"], ["actions.table_id", "actions.hand", "actions.seq"]),
)
"""A hand's actions: ``prev`` names the action before, so a sequence number can neither repeat nor skip."""

house = Table(
    "house",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("amount", String(80), nullable=False),
    Column("reason", String(16), nullable=False),
)
"""The house account's entries (decimal text): bots' tournament buy-ins (negative) and prizes
(``buy_in``, ``prize``), bot seats' match results and the cents a match's rounding left
(``match``; seat -1 for the rounding)."""

keep_books = Table(
    "keep_books",
    metadata,
    Column("code", String(32), primary_key=True),
    Column("key_hash", String(64), nullable=False),
    Column("book", Text, nullable=False),
    Column("created", String(40), nullable=False),
    Column("previous", String(32)),
    Column("following", String(32)),
)
"""A score book (``ofc.server.db.keep_store``): its document without hands, links to other books."""

keep_hands = Table(
    "keep_hands",
    metadata,
    Column("code", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("entries", Text, nullable=False),
    Column("stored", String(40), nullable=False),
)
"""One entered hand of a score book."""

leases = Table(
    "table_leases",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("owner", String(120), nullable=False),
    Column("epoch", BigInteger, nullable=False),
    Column("expires", Float, nullable=False),
)
"""Which server process runs each table (``ofc.server.db.leases``): ``expires`` in seconds since
1970 on the database's clock, ``epoch`` raised at every change of owner."""

shared_limits = Table(
    "shared_limits",
    metadata,
    Column("kind", String(20), primary_key=True),
    Column("key", String(200), primary_key=True),
    Column("holder", String(200), primary_key=True),
    Column("amount", Float, nullable=False),
    Column("at", Float, nullable=False),
)
"""Limits every server process shares (``ofc.server.db.limits``): a token bucket per (limit, key)
(``holder`` empty: ``amount`` tokens at time ``at``), and one row per live connection (``holder``
the node and connection, ``at`` its expiry); times in seconds since 1970."""

MOST_ID = 2**31 - 1
"""The largest value of an ``Integer`` column on every database (PostgreSQL's is 32 bits): a table
or hand number beyond it is refused before any query (a query would fail instead of finding nothing)."""

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
EXPIRED = "expired"
"""A waiting table nobody sat at for ``Settings.waiting_expiry`` seconds: no longer listed nor loaded."""
DAMAGED = "damaged"
"""A table the server could not restore or store: listed, its stakes held, not played (never stored)."""
MATCH, TOURNAMENT = "match", "tournament"


@dataclass(frozen=True)
class SeatRow:
    """A taken seat: who sits there and the hash of their token."""

    seat: int
    player: str
    token_hash: str
    stand_in: str | None = None


@dataclass(frozen=True)
class ActionRow:
    """One stored action (as ``Action.to_dict`` fields) with its time and origin."""

    seat: int
    place: list[list[str]]
    discard: list[str]
    time: str
    automatic: bool


@dataclass(frozen=True)
class HandRow:
    """One stored hand: its deck order, start time, finished history and actions so far."""

    number: int
    deck: list[str]
    start: str
    history: dict[str, Any] | None
    actions: list[ActionRow]


@dataclass(frozen=True)
class TableRow:
    """One stored table with its seats."""

    id: int
    name: str
    rules: dict[str, Any]
    bots: list[str | None]
    status: str
    button: int | None
    ledger: dict[str, Any] | None
    seats: list[SeatRow]
    rematch: int | None = None
    """The table opened for a rematch of this one, once there is one."""
    kind: str = MATCH
    """``match`` or ``tournament``."""
    options: dict[str, Any] = field(default_factory=dict)
    """The table's options beside its rules (``hints``)."""
    waiting_since: str | None = None
    """Server time (text) since which the waiting table has had nobody seated."""
