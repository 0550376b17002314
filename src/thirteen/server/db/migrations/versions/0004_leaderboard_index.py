"""An index on when hands settled, for the leaderboards' days and weeks.

A day's or a week's board reads only that period's hands (and, through ``hand_seats``' primary
key, their seats) instead of every hand ever dealt. ``table_id`` rides along so the game filter
is answered from the index.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("hands_finished", "hands", ["finished_at", "table_id"])


def downgrade() -> None:
    op.drop_index("hands_finished", table_name="hands")
