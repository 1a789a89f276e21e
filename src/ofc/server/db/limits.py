"""Limits every server process on one database shares: token buckets and live connections.

A bucket is one row per (limit, key) of ``shared_limits`` (``holder`` empty): the tokens left
and when they were counted. ``take`` refills and spends every bucket it names in one
transaction, holding their rows, so two processes asking at once count each attempt once. A
live connection is one row per (limit, key, holder) with an expiry its process renews;
``hold`` counts the live ones under the (limit, key) row's lock. Times are read from the
database's clock (a test's clock when one is given), so the processes' clocks need not agree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Float, and_, cast, delete, func, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine

from ofc.server.db.schema import shared_limits
from ofc.server.tables.timekeeping import Clock, SystemClock

ANCHOR = ""
"""The ``holder`` of a bucket's row, and of the row a (limit, key)'s connections are counted under."""


@dataclass(frozen=True)
class Want:
    """``cost`` tokens wanted from the bucket of ``kind`` and ``key``: ``burst`` at most, one more every ``every`` s."""

    kind: str
    key: str
    burst: float
    every: float
    cost: float = 1.0


@dataclass(frozen=True)
class Refused:
    """The first bucket that allows no attempt now (its index among those asked) and whole seconds to wait."""

    index: int
    wait: int


def db_clock(db: Connection) -> ColumnElement[float]:
    """The database's clock in seconds since 1970 (an SQL expression)."""
    if db.dialect.name == "postgresql":
        return cast(func.extract("epoch", func.clock_timestamp()), Float)
    return (func.julianday("now") - 2440587.5) * 86400.0


class SharedCounts:
    """The shared limits over one engine; each method is one transaction."""

    def __init__(self, engine: Engine, clock: Clock | None = None) -> None:
        self.engine = engine
        self.clock = None if isinstance(clock, SystemClock) else clock
        """A test's clock (None: the database's)."""

    def _now(self, db: Connection) -> float:
        if self.clock is not None:
            return float(self.clock.now())
        return float(db.execute(select(db_clock(db))).scalar_one())

    def _ensure(self, db: Connection, kind: str, key: str, amount: float, at: float) -> None:
        """The (limit, key)'s row, made when missing (another process making it meanwhile is no error)."""
        maker = postgresql_insert if db.dialect.name == "postgresql" else sqlite_insert
        row = {"kind": kind, "key": key, "holder": ANCHOR, "amount": amount, "at": at}
        db.execute(maker(shared_limits).values(row).on_conflict_do_nothing())

    def take(self, wants: Sequence[Want], *, check: bool = True, spend: bool = True) -> Refused | None:
        """Spend each want's cost from its bucket, or nothing at all when one allows no attempt now.

        ``spend=False``: only check; ``check=False``: spend what is left even when it is not enough.
        """
        if not wants:
            return None
        with self.engine.begin() as db:
            now = self._now(db)
            for want in sorted(wants, key=lambda w: (w.kind, w.key)):  # one order: no deadlock between processes
                self._ensure(db, want.kind, want.key, want.burst, now)
            keys = [(want.kind, want.key, ANCHOR) for want in wants]
            query = (
                select(shared_limits.c.kind, shared_limits.c.key, shared_limits.c.amount, shared_limits.c.at)
                .where(tuple_(shared_limits.c.kind, shared_limits.c.key, shared_limits.c.holder).in_(keys))
                .order_by(shared_limits.c.kind, shared_limits.c.key)
                .with_for_update()
            )
            stored = {(kind, key): (amount, at) for kind, key, amount, at in db.execute(query)}
            now = self._now(db)  # read again once the rows are held
            left: list[float] = []
            for index, want in enumerate(wants):
                amount, at = stored.get((want.kind, want.key), (want.burst, now))
                tokens = min(want.burst, amount + max(0.0, now - at) / want.every)
                if check and tokens + 1e-9 < want.cost:
                    return Refused(index, max(1, math.ceil((want.cost - tokens) * want.every)))
                left.append(max(0.0, tokens - want.cost))
            if not spend:
                return None
            for want, tokens in zip(wants, left, strict=True):
                db.execute(
                    update(shared_limits)
                    .where(
                        shared_limits.c.kind == want.kind,
                        shared_limits.c.key == want.key,
                        shared_limits.c.holder == ANCHOR,
                    )
                    .values(amount=tokens, at=now)
                )
        return None

    def forget_full(self, kind: str, seconds: float) -> int:
        """Delete the ``kind`` buckets untouched for ``seconds`` (full again, so nothing is lost); how many."""
        with self.engine.begin() as db:
            now = self._now(db)
            gone = db.execute(
                delete(shared_limits).where(
                    shared_limits.c.kind == kind, shared_limits.c.holder == ANCHOR, shared_limits.c.at < now - seconds
                )
            )
        return int(gone.rowcount or 0)

    def hold(self, kind: str, key: str, holder: str, cap: int, seconds: float) -> int | None:
        """Count connection ``holder`` of ``key`` live for ``seconds``: None, or the live count when at ``cap``."""
        with self.engine.begin() as db:
            now = self._now(db)
            self._ensure(db, kind, key, 0.0, now)
            mine = and_(shared_limits.c.kind == kind, shared_limits.c.key == key)
            db.execute(
                update(shared_limits).where(mine, shared_limits.c.holder == ANCHOR).values(at=now)
            )  # the (limit, key)'s lock: its connections are counted one process at a time
            db.execute(delete(shared_limits).where(mine, shared_limits.c.holder != ANCHOR, shared_limits.c.at < now))
            live = db.execute(
                select(func.count()).select_from(shared_limits).where(mine, shared_limits.c.holder != ANCHOR)
            ).scalar_one()
            if live >= cap:
                return int(live)
            db.execute(shared_limits.insert().values(kind=kind, key=key, holder=holder, amount=0.0, at=now + seconds))
        return None

    def renew(self, holders: Sequence[tuple[str, str, str]], seconds: float) -> None:
        """Extend the live connections ``(kind, key, holder)`` by ``seconds`` from now."""
        if not holders:
            return
        with self.engine.begin() as db:
            now = self._now(db)
            db.execute(
                update(shared_limits)
                .where(tuple_(shared_limits.c.kind, shared_limits.c.key, shared_limits.c.holder).in_(list(holders)))
                .values(at=now + seconds)
            )

    def release(self, holders: Sequence[tuple[str, str, str]]) -> None:
        """End the live connections ``(kind, key, holder)``."""
        if not holders:
            return
        with self.engine.begin() as db:
            db.execute(
                delete(shared_limits).where(
                    tuple_(shared_limits.c.kind, shared_limits.c.key, shared_limits.c.holder).in_(list(holders))
                )
            )

    def live(self, kind: str, key: str) -> int:
        """The live connections counted for ``key`` now."""
        with self.engine.connect() as db:
            now = self._now(db)
            return int(
                db.execute(
                    select(func.count())
                    .select_from(shared_limits)
                    .where(
                        shared_limits.c.kind == kind,
                        shared_limits.c.key == key,
                        shared_limits.c.holder != ANCHOR,
                        shared_limits.c.at >= now,
                    )
                ).scalar_one()
            )
