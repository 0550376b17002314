"""A ruling made after its event finished says so (``duplicate_rulings.after_finish``): the
standings and results show that they were changed after the finish, by whom, when and why.

Rulings already there are marked from their time: made after the event's ``finished_at``.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "duplicate_rulings",
        sa.Column("after_finish", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    rulings = sa.table(
        "duplicate_rulings",
        sa.column("event_id", sa.Integer()),
        sa.column("at", sa.Float()),
        sa.column("after_finish", sa.Boolean()),
    )
    events = sa.table(
        "duplicate_events",
        sa.column("id", sa.Integer()),
        sa.column("status", sa.String()),
        sa.column("finished_at", sa.Float()),
    )
    op.execute(
        rulings.update()
        .where(
            sa.exists().where(
                events.c.id == rulings.c.event_id,
                events.c.status == "finished",
                events.c.finished_at < rulings.c.at,
            )
        )
        .values(after_finish=True)
    )


def downgrade() -> None:
    with op.batch_alter_table("duplicate_rulings") as batch:
        batch.drop_column("after_finish")
