"""Table leases: which server process runs each table (many processes on one database).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("owner", sa.String(120), nullable=False),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_leases")
