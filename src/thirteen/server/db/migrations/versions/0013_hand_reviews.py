"""Hand reviews (issue 34): a player's review of their seat's copy of a hand, queued, computed
once by the room's review workers and stored with the hand.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hand_reviews",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("hand_id", sa.Integer(), sa.ForeignKey("hands.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("worker", sa.String(128), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("budget", sa.Float(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("review", sa.Text(), nullable=True),
        sa.Column("review_version", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("queued_at", sa.Float(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.UniqueConstraint("hand_id", "seat", name="hand_review_seat"),
        sa.CheckConstraint(
            "status IN ('pending', 'running', 'done', 'failed')", name="hand_review_status"
        ),
    )
    op.create_index("hand_reviews_queue", "hand_reviews", ["status", "id"])
    op.create_index("hand_reviews_account", "hand_reviews", ["user_id", "status"])


def downgrade() -> None:
    op.drop_index("hand_reviews_account", "hand_reviews")
    op.drop_index("hand_reviews_queue", "hand_reviews")
    op.drop_table("hand_reviews")
