"""Duplicate practice: a player's run of deals at a private practice table, and for each hand
they played what the strong bot scored with the same cards from their seat.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "practice_runs",
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("buy_in", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("seated_at", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.CheckConstraint("status IN ('playing', 'finished', 'ended')", name="practice_status"),
        sa.CheckConstraint("deals BETWEEN 1 AND 100", name="practice_deals"),
    )
    op.create_index("practice_runs_user", "practice_runs", ["user_id"])
    op.create_table(
        "practice_hands",
        sa.Column("hand_id", sa.Integer(), sa.ForeignKey("hands.id"), primary_key=True),
        sa.Column(
            "table_id", sa.Integer(), sa.ForeignKey("practice_runs.table_id"), nullable=False
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("player_points", sa.Integer(), nullable=False),
        sa.Column("bot_points", sa.Integer(), nullable=False),
        sa.Column("difference", sa.Integer(), nullable=False),
        sa.Column("boards", sa.Text(), nullable=False),
        sa.Column("computed_at", sa.Float(), nullable=False),
    )
    op.create_index("practice_hands_table", "practice_hands", ["table_id", "number"])


def downgrade() -> None:
    op.drop_index("practice_hands_table", table_name="practice_hands")
    op.drop_table("practice_hands")
    op.drop_index("practice_runs_user", table_name="practice_runs")
    op.drop_table("practice_runs")
