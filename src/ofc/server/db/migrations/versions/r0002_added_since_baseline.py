"""The schema of the last release before Alembic: what was added since the baseline.

Columns ``tables.rematch``, ``kind``, ``options``, ``waiting_since``, ``seats.stand_in`` and
``actions.prev`` (null on the rows already stored: old actions keep no link to the one before);
the action log's keys to its hand and to the action before, and its sequence check; the tables
``house``, ``keep_books`` and ``keep_hands``. Releases in between had some of these (the server
added missing columns and tables by hand, never the action log's keys), so each is made only
when missing.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

ADDED_COLUMNS = (
    ("tables", "rematch", sa.Integer),
    ("tables", "kind", sa.String(16)),
    ("tables", "options", sa.Text),
    ("tables", "waiting_since", sa.String(40)),
    ("seats", "stand_in", sa.String(40)),
)
SEQUENCE_CHECK = "actions_in_sequence"
HAND_KEY = "actions_table_id_hand_fkey"
PREV_KEY = "actions_table_id_hand_prev_fkey"


def upgrade() -> None:
    found = sa.inspect(op.get_bind())
    for table, name, kind in ADDED_COLUMNS:
        if name not in {column["name"] for column in found.get_columns(table)}:
            op.add_column(table, sa.Column(name, kind))
    keys = {tuple(key["constrained_columns"]) for key in found.get_foreign_keys("actions")}
    checks = {check["name"] for check in found.get_check_constraints("actions")}
    with op.batch_alter_table("actions") as actions:  # SQLite: the table is rebuilt to take the keys
        if "prev" not in {column["name"] for column in found.get_columns("actions")}:
            actions.add_column(sa.Column("prev", sa.Integer))
        if ("table_id", "hand") not in keys:
            actions.create_foreign_key(HAND_KEY, "hands", ["table_id", "hand"], ["table_id", "number"])
        if ("table_id", "hand", "prev") not in keys:
            actions.create_foreign_key(PREV_KEY, "actions", ["table_id", "hand", "prev"], ["table_id", "hand", "seq"])
        if SEQUENCE_CHECK not in checks:
            actions.create_check_constraint(SEQUENCE_CHECK, "(seq = 0 AND prev IS NULL) OR prev = seq - 1")
    present = set(found.get_table_names())
    if "house" not in present:
        op.create_table(
            "house",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("amount", sa.String(80), nullable=False),
            sa.Column("reason", sa.String(16), nullable=False),
        )
    if "keep_books" not in present:
        op.create_table(
            "keep_books",
            sa.Column("code", sa.String(32), primary_key=True),
            sa.Column("key_hash", sa.String(64), nullable=False),
            sa.Column("book", sa.Text, nullable=False),
            sa.Column("created", sa.String(40), nullable=False),
            sa.Column("previous", sa.String(32)),
            sa.Column("following", sa.String(32)),
        )
    if "keep_hands" not in present:
        op.create_table(
            "keep_hands",
            sa.Column("code", sa.String(32), primary_key=True),
            sa.Column("number", sa.Integer, primary_key=True),
            sa.Column("entries", sa.Text, nullable=False),
            sa.Column("stored", sa.String(40), nullable=False),
        )


def downgrade() -> None:
    for name in ("keep_hands", "keep_books", "house"):
        op.drop_table(name)
    with op.batch_alter_table("actions") as actions:
        actions.drop_constraint(SEQUENCE_CHECK, type_="check")
        actions.drop_constraint(PREV_KEY, type_="foreignkey")
        actions.drop_constraint(HAND_KEY, type_="foreignkey")
        actions.drop_column("prev")
    for table, name, _kind in reversed(ADDED_COLUMNS):
        with op.batch_alter_table(table) as batch:
            batch.drop_column(name)
