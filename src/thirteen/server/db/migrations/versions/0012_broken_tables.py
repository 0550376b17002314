"""Broken tables: a table whose stored row cannot be loaded is set aside (status ``broken``,
with the reason) instead of stopping the room; docs/decisions.md says what that means.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

_OLD = "status IN ('open', 'closing', 'closed')"
_NEW = "status IN ('open', 'closing', 'closed', 'broken')"


def _status(check: str) -> None:
    # (SQLite builds the table again to change a CHECK: the environment keeps its children's
    # foreign keys from firing meanwhile, and checks them afterwards)
    with op.batch_alter_table("tables") as batch:
        batch.drop_constraint("table_status", type_="check")
        batch.create_check_constraint("table_status", check)


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("broken_reason", sa.Text(), nullable=True))
    _status(_NEW)


def downgrade() -> None:
    op.execute("UPDATE tables SET status = 'closed' WHERE status = 'broken'")
    _status(_OLD)
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("broken_reason")
