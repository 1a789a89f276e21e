"""The server's database engine: SQLite in WAL mode or PostgreSQL (pg8000), every wait bounded."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO, Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url


def default_url() -> str:
    """``sqlite:///$OFC_HOME/ofc.db``; ``OFC_HOME`` defaults to ``~/.local/share/ofc``."""
    home = Path(os.environ.get("OFC_HOME") or Path.home() / ".local" / "share" / "ofc")
    return f"sqlite:///{home / 'ofc.db'}"


DB_TIMEOUT = float(os.environ.get("OFC_DB_TIMEOUT", "5"))
"""Seconds a connection, a statement or a lock wait may take before the call fails (and is retried)."""


POOL_SIZE = 12
"""PostgreSQL connections a process keeps open (as many again may open for a moment)."""


def make_engine(url: str, timeout: float | None = None) -> Engine:
    """An engine for ``url``: SQLite in WAL mode (its folder created), PostgreSQL via pg8000.

    Connecting, each statement and each lock wait are bounded by ``timeout`` seconds.
    """
    seconds = DB_TIMEOUT if timeout is None else timeout
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+pg8000")
    if parsed.get_backend_name() != "sqlite":
        engine = create_engine(
            parsed,
            pool_pre_ping=True,
            pool_timeout=seconds,
            # as many kept connections as the server's threads use at once (its database threads and
            # asyncio's default executor), so that busy moments reuse connections instead of opening new ones
            pool_size=POOL_SIZE,
            max_overflow=POOL_SIZE,
            connect_args={"timeout": seconds},
        )

        @event.listens_for(engine, "connect")
        def _limits(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute(f"SET statement_timeout = {int(seconds * 1000)}")
            cursor.execute(f"SET lock_timeout = {int(seconds * 1000)}")
            # a client stopped mid-transaction (SIGSTOP, a frozen machine) must not hold its row
            # locks for ever: the server ends its session, so another node can claim its leases
            cursor.execute(f"SET idle_in_transaction_session_timeout = {int(max(seconds, 10) * 1000)}")
            cursor.close()

        return engine
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(parsed, connect_args={"check_same_thread": False, "timeout": seconds})

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={int(seconds * 1000)}")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


class SharedFile(OSError):
    """Another server process already serves this SQLite file."""


def hold_alone(url: str) -> IO[str] | None:
    """For an SQLite file, hold the lock that keeps a second server process off it (None: not SQLite).

    SQLite serves one process: two servers on one file would each run the same tables. The lock
    lives as long as the returned file stays open (the process's life); a second process gets
    ``SharedFile`` naming PostgreSQL, which several processes can share.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    path = Path(parsed.database)
    path.parent.mkdir(parents=True, exist_ok=True)
    held = (path.parent / f"{path.name}.serving").open("a+", encoding="utf-8")
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        held.seek(0)
        other = held.read().strip() or "another process"
        held.close()
        raise SharedFile(
            f"the SQLite database {path} is already served by {other}; SQLite serves one process: "
            "to run several servers on one database, use PostgreSQL (--db postgresql://...)"
        ) from None
    held.seek(0)
    held.truncate()
    held.write(f"process {os.getpid()}\n")
    held.flush()
    return held
