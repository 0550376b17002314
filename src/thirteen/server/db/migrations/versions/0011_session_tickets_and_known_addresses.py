"""Sockets belong to a session, and log-ins from a known address are not held back by guessers
elsewhere (issue 31): each ticket names the session it was issued to, and the addresses an
account logged in from are kept.

Tickets live 30 seconds: the ones waiting when this runs are dropped (their clients ask for a
new one, as after any refused ticket) rather than given a session they cannot be traced to.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("DELETE FROM tickets")
    # SQLite adds a NOT NULL column without a default only by building the table anew
    with op.batch_alter_table("tickets", recreate="always") as batch:
        batch.add_column(sa.Column("session_hash", sa.String(64), nullable=False))
    op.create_table(
        "known_addresses",
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("last_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("known_addresses")
    with op.batch_alter_table("tickets") as batch:
        batch.drop_column("session_hash")
