"""Table leases: which server process (node) runs each table, for how long, under which epoch.

A node runs a table (its clock, bots and writes) only while it holds the table's lease: an
owner, an epoch and an expiry, read on the database's own clock so the nodes' clocks need not
agree. The owner renews its leases while it lives; a lease not renewed in time may be claimed by
another node, which raises the epoch. Every write of a table checks, in its own transaction,
that the lease still has the writer's epoch (``check``), so a node that lost a table (paused,
cut off, slow) can never write to it again: its next write raises ``LeaseLost``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Float, and_, cast, func, insert, literal, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ofc.rules.errors import OfcError
from ofc.server.db.schema import PLAYING, WAITING, leases, tables


class LeaseLost(OfcError):
    """This node no longer holds the table's lease: another node runs the table now."""

    code = "moved"


@dataclass(frozen=True)
class Lease:
    """A table's lease as stored: who holds it, its epoch, and whether it is still running."""

    table: int
    owner: str
    epoch: int
    live: bool


def db_now(engine_or_connection: Engine | Connection) -> ColumnElement[float]:
    """The database's clock in seconds since 1970 (an SQL expression)."""
    if engine_or_connection.dialect.name == "postgresql":
        return cast(func.extract("epoch", func.clock_timestamp()), Float)
    return (func.julianday("now") - 2440587.5) * 86400.0


class Leases:
    """The repository of table leases over one engine; each method is one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def claim(self, table: int, node: str, seconds: float) -> int | None:
        """Take ``table`` for ``node`` for ``seconds`` when nobody holds it (or ``node`` already does).

        Returns the new epoch ``node`` holds it under (every claim raises it: a restarted node
        with the same name never writes under its former life's epoch), or None when another
        node's lease is still running.
        """
        try:
            with self.engine.begin() as db:
                now = db_now(db)
                row = db.execute(
                    select(leases.c.owner, leases.c.epoch, leases.c.expires >= now)
                    .where(leases.c.table_id == table)
                    .with_for_update()
                ).first()
                if row is None:
                    db.execute(insert(leases).values(table_id=table, owner=node, epoch=1, expires=now + seconds))
                    return 1
                owner, epoch, live = row[0], int(row[1]) + 1, bool(row[2])
                if live and owner != node:
                    return None
                db.execute(
                    update(leases)
                    .where(leases.c.table_id == table)
                    .values(owner=node, epoch=epoch, expires=now + seconds)
                )
                return epoch
        except IntegrityError:  # another node inserted the first lease meanwhile
            return None

    def renew(self, node: str, seconds: float) -> dict[int, int]:
        """Extend every lease ``node`` holds by ``seconds`` from now; the tables and epochs it still holds."""
        with self.engine.begin() as db:
            now = db_now(db)
            rows = db.execute(
                update(leases)
                .where(leases.c.owner == node)
                .values(expires=now + seconds)
                .returning(leases.c.table_id, leases.c.epoch)
            ).all()
        return {int(table): int(epoch) for table, epoch in rows}

    def release(self, node: str, table: int | None = None) -> None:
        """End ``node``'s lease on ``table`` (all of its leases when None) so another node may claim at once."""
        condition = leases.c.owner == node
        if table is not None:
            condition = and_(condition, leases.c.table_id == table)
        with self.engine.begin() as db:
            db.execute(update(leases).where(condition).values(expires=literal(0.0)))

    def lease(self, table: int) -> Lease | None:
        """``table``'s lease, or None when no node has run it yet."""
        with self.engine.connect() as db:
            row = db.execute(
                select(leases.c.owner, leases.c.epoch, leases.c.expires >= db_now(db)).where(leases.c.table_id == table)
            ).first()
        return None if row is None else Lease(table, row[0], int(row[1]), bool(row[2]))

    def leases_of(self, tables: Collection[int]) -> dict[int, Lease]:
        """The leases of ``tables`` in one query (a table no node has run yet is absent)."""
        if not tables:
            return {}
        with self.engine.connect() as db:
            rows = db.execute(
                select(leases.c.table_id, leases.c.owner, leases.c.epoch, leases.c.expires >= db_now(db)).where(
                    leases.c.table_id.in_(sorted(tables))
                )
            )
            return {int(row[0]): Lease(int(row[0]), row[1], int(row[2]), bool(row[3])) for row in rows}

    def orphans(self) -> list[int]:
        """Unfinished tables whose lease is missing or ran out: the ones a live node should take over."""
        with self.engine.connect() as db:
            query = (
                select(tables.c.id)
                .select_from(tables.outerjoin(leases, leases.c.table_id == tables.c.id))
                .where(tables.c.status.in_([WAITING, PLAYING]))
                .where(or_(leases.c.table_id.is_(None), leases.c.expires < db_now(db)))
                .order_by(tables.c.id)
            )
            return [int(table) for (table,) in db.execute(query)]

    def owned(self, node: str) -> list[int]:
        """The tables whose lease ``node`` holds."""
        with self.engine.connect() as db:
            query = select(leases.c.table_id).where(leases.c.owner == node).order_by(leases.c.table_id)
            return [int(table) for (table,) in db.execute(query)]


def check(db: Connection, table: int, node: str, epoch: int) -> None:
    """Inside a write's transaction: raise ``LeaseLost`` unless ``node`` still holds ``table`` under ``epoch``.

    The lease's row stays locked until the transaction ends, so no claim can slip in between
    the check and the write.
    """
    row = db.execute(select(leases.c.owner, leases.c.epoch).where(leases.c.table_id == table).with_for_update()).first()
    if row is None or row[0] != node or int(row[1]) != epoch:
        raise LeaseLost("table {table} is run by another server now", table=table)
