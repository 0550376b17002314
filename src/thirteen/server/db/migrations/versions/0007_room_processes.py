"""Leases hold while their process is alive: one heartbeat row per process, not an expiry per
table (renewing every table's row deadlocked with the tables' own writes on PostgreSQL).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_processes",
        sa.Column("name", sa.String(128), primary_key=True),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("alive_until", sa.Float(), nullable=False),
    )
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("lease_expires")


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("lease_expires", sa.Float(), nullable=False, server_default="0"))
    op.drop_table("room_processes")
