"""Table leases: which room process runs a table, until when, and its fencing token.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("lease_owner", sa.String(128), nullable=True))
        batch.add_column(
            sa.Column("lease_token", sa.BigInteger(), nullable=False, server_default="0")
        )
        batch.add_column(sa.Column("lease_expires", sa.Float(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("lease_expires")
        batch.drop_column("lease_token")
        batch.drop_column("lease_owner")
