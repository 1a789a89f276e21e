"""Schema migrations: the database is brought to Alembic's head revision when the server starts.

The revisions live in ``ofc/server/db/migrations/versions``; no ``alembic.ini`` is needed. A
database made before Alembic (the server's tables there, no ``alembic_version``) is recognised,
stamped at the revision its shape matches and upgraded from there (one with only some of the
baseline's tables runs every revision: each makes only what is missing). On PostgreSQL the whole
upgrade is one transaction under an advisory lock, so servers starting together migrate once.
Adding a revision: ``python -m ofc.server.db.migrate revision "what changed"`` (docs/server.md).
"""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Connection, Engine, inspect, text

from ofc.server.db.engine import make_engine
from ofc.server.db.schema import metadata

SCRIPTS = Path(__file__).resolve().parent / "migrations"
"""Alembic's script directory (``env.py``, ``script.py.mako``, ``versions/``)."""

BASELINE, BEFORE_ALEMBIC = "0001", "0002"
"""The oldest shape a release shipped, and the shape of the last release before Alembic."""

MIGRATION_SECONDS = 600
"""How long one statement of a migration, or the wait for another server's migration, may take."""

LOCK_KEY = 0x0FC5C4E3A
"""The PostgreSQL advisory lock held while migrating."""


class SchemaError(Exception):
    """The database's schema cannot be brought to this version's (say, a newer ofc made it)."""


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration over the package's scripts, migrating on ``connection``."""
    settings = Config()
    settings.set_main_option("script_location", str(SCRIPTS))
    settings.set_main_option("path_separator", "os")
    settings.set_main_option("file_template", "r%%(rev)s_%%(slug)s")
    settings.attributes["connection"] = connection
    return settings


def head() -> str:
    """The newest revision."""
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None
    return found


def current(connection: Connection) -> str | None:
    """The revision the database is stamped at (None: not under Alembic)."""
    return MigrationContext.configure(connection).get_current_revision()


def run_migrations(settings: Config, context: Any) -> None:
    """``env.py``'s body: run the revisions Alembic chose on the connection in ``settings``."""
    connection = settings.attributes.get("connection")
    if connection is None:
        raise SchemaError("migrations run on a connection (ofc.server.db.migrate), not offline")
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def upgrade(engine: Engine) -> None:
    """Bring the database to the head revision, in place; a database made before Alembic is stamped first."""
    with _migrating(engine) as connection:
        settings = config(connection)
        stamped = current(connection)
        if stamped is None:
            revision = legacy_revision(connection)
            if revision is not None:
                command.stamp(settings, revision)
        elif stamped is not None:
            try:
                ScriptDirectory.from_config(settings).get_revision(stamped)
            except CommandError:
                raise SchemaError(
                    f"the database is at schema revision {stamped!r}, unknown to this ofc (newest {head()!r}): "
                    "was it made by a newer version?"
                ) from None
        command.upgrade(settings, "head")


def legacy_revision(connection: Connection) -> str | None:
    """The revision a database not under Alembic matches: ``BEFORE_ALEMBIC`` when it has all of it.

    None: not even the baseline's tables (a new database, or one with some of them: both revisions
    make only what is missing).
    """
    found = inspect(connection)
    names = set(found.get_table_names())
    if not {"players", "tables", "seats", "hands", "actions"} <= names:
        return None
    if not {"house", "keep_books", "keep_hands"} <= names:
        return BASELINE
    columns = {
        (table, column["name"]) for table in ("tables", "seats", "actions") for column in found.get_columns(table)
    }
    added = {("tables", "rematch"), ("tables", "kind"), ("tables", "options"), ("tables", "waiting_since")}
    added |= {("seats", "stand_in"), ("actions", "prev")}
    keys = {tuple(key["constrained_columns"]) for key in found.get_foreign_keys("actions")}
    checks = {check["name"] for check in found.get_check_constraints("actions")}
    complete = added <= columns and {("table_id", "hand"), ("table_id", "hand", "prev")} <= keys
    return BEFORE_ALEMBIC if complete and "actions_in_sequence" in checks else BASELINE


@contextmanager
def _migrating(engine: Engine) -> Iterator[Connection]:
    """One connection in one transaction for the whole upgrade, other servers' upgrades kept out.

    SQLite: foreign keys are off meanwhile (a rebuilt table would trip them) and the write lock
    is taken at once. PostgreSQL: an advisory lock; statements and waits get longer bounds.
    """
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                if sqlite:
                    connection.exec_driver_sql("BEGIN IMMEDIATE")
                else:
                    connection.execute(text(f"SET LOCAL statement_timeout = {MIGRATION_SECONDS * 1000}"))
                    connection.execute(text(f"SET LOCAL lock_timeout = {MIGRATION_SECONDS * 1000}"))
                    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
                yield connection
        finally:
            if sqlite:
                connection.rollback()
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


def add_revision(message: str, folder: Path | None = None) -> Path:
    """Write a revision with what the schema (``ofc.server.db.schema``) has beyond the head, numbered after it.

    Written to ``versions/`` (or ``folder``). Compared on a scratch SQLite database upgraded to the
    head; review the file before committing.
    """
    if not message.strip():
        raise SchemaError("a revision needs a message saying what changed")
    with tempfile.TemporaryDirectory() as scratch:
        engine = make_engine(f"sqlite:///{Path(scratch) / 'head.db'}")
        try:
            upgrade(engine)
            with engine.begin() as connection:
                settings = config(connection)
                if folder is not None:  # written there, the package's revisions still read
                    settings.set_main_option(
                        "version_locations", os.pathsep.join([str(SCRIPTS / "versions"), str(folder)])
                    )
                number = f"{int(head()) + 1:04d}"
                made = command.revision(
                    settings,
                    message,
                    autogenerate=True,
                    rev_id=number,
                    version_path=None if folder is None else str(folder),
                )
        finally:
            engine.dispose()
    assert made is not None
    assert not isinstance(made, list)
    return Path(made.path)


def main(argv: list[str] | None = None) -> None:
    """``python -m ofc.server.db.migrate revision MESSAGE``: write the next revision."""
    parser = argparse.ArgumentParser(prog="python -m ofc.server.db.migrate", description=main.__doc__)
    parser.add_argument("action", choices=["revision"])
    parser.add_argument("message", help="what the revision changes")
    arguments = parser.parse_args(argv)
    try:
        print(add_revision(arguments.message))
    except SchemaError as error:
        parser.exit(2, f"error: {error}\n")


if __name__ == "__main__":
    main()
