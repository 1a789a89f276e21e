"""Shared limits: token buckets and live connections counted by every server process on one database.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "shared_limits",
        sa.Column("kind", sa.String(20), primary_key=True),
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("holder", sa.String(200), primary_key=True),
        sa.Column("amount", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("shared_limits")
