"""Baseline: the oldest schema a release shipped (before any column of ``r0002``).

Players with their key's hash, tables, seats, hands and the action log, as the server made them
with ``create_all`` before it added columns by hand. A database made before Alembic that lacks
some of these tables runs this revision too: it makes only the missing ones.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())
    for name, make in (("players", _players), ("tables", _tables), ("seats", _seats), ("hands", _hands)):
        if name not in present:
            make()
    if "actions" not in present:
        _actions()


def _players() -> None:
    op.create_table(
        "players",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("balance", sa.String(80), nullable=False),
        sa.Column("key_hash", sa.String(64)),
    )


def _tables() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("bots", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("button", sa.Integer),
        sa.Column("ledger", sa.Text),
    )


def _seats() -> None:
    op.create_table(
        "seats",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(40), sa.ForeignKey("players.name"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    )


def _hands() -> None:
    op.create_table(
        "hands",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("deck", sa.Text, nullable=False),
        sa.Column("start", sa.String(40), nullable=False),
        sa.Column("history", sa.Text),
    )


def _actions() -> None:
    op.create_table(
        "actions",
        sa.Column("table_id", sa.Integer, primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("place", sa.Text, nullable=False),
        sa.Column("discard", sa.Text, nullable=False),
        sa.Column("time", sa.String(40), nullable=False),
        sa.Column("automatic", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    for name in ("actions", "hands", "seats", "tables", "players"):
        op.drop_table(name)
