"""Sit & go tournaments: the tournament, its entries, and the table it plays at.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(48), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("buy_in", sa.BigInteger(), nullable=False),
        sa.Column("starting_stack", sa.BigInteger(), nullable=False),
        sa.Column("unit", sa.BigInteger(), nullable=False),
        sa.Column("rise_every", sa.Integer(), nullable=False),
        sa.Column("rise_percent", sa.Integer(), nullable=False),
        sa.Column("payouts", sa.Text(), nullable=False),
        sa.Column("bot_level", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("tables.id"), nullable=True),
        sa.CheckConstraint(
            "status IN ('registering', 'running', 'finished', 'cancelled')",
            name="tournament_status",
        ),
        sa.CheckConstraint("seats BETWEEN 2 AND 4", name="tournament_seats"),
        sa.CheckConstraint("buy_in >= 0 AND starting_stack > 0", name="tournament_money"),
    )
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("registered_at", sa.Float(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("payout", sa.BigInteger(), nullable=True),
        sa.Column("out_at_hand", sa.Integer(), nullable=True),
        sa.Column("withdrawn_at", sa.Float(), nullable=True),
        sa.UniqueConstraint("tournament_id", "place", name="tournament_place_once"),
    )
    op.create_index("tournament_entries_user", "tournament_entries", ["user_id"])
    op.create_index(
        "tournament_entry_once",
        "tournament_entries",
        ["tournament_id", "user_id"],
        unique=True,
        sqlite_where=sa.text("withdrawn_at IS NULL"),
        postgresql_where=sa.text("withdrawn_at IS NULL"),
    )
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("tournament_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("tournament_id")
    op.drop_index("tournament_entry_once", table_name="tournament_entries")
    op.drop_index("tournament_entries_user", table_name="tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
