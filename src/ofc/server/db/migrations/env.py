"""Alembic's entry point: migrations run on the connection ``ofc.server.db.migrate`` passes in."""

from __future__ import annotations

from alembic import context

from ofc.server.db.migrate import run_migrations

run_migrations(context.config, context)
