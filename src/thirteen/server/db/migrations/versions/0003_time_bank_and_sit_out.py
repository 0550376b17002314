"""A table's time bank and how many hands a player may sit out.

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
    with op.batch_alter_table("tables") as batch:
        batch.add_column(
            sa.Column("time_bank_seconds", sa.Float(), nullable=False, server_default="30")
        )
        batch.add_column(
            sa.Column("sit_out_hands", sa.Integer(), nullable=False, server_default="3")
        )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("sit_out_hands")
        batch.drop_column("time_bank_seconds")
