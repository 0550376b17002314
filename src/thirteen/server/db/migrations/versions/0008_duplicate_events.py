"""Duplicate team events (seed 004): the event, its teams and their members, each round's
tables, the deals every table of a group shares, confirmations and the director's rulings.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "duplicate_events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(48), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("hands_per_round", sa.Integer(), nullable=False),
        sa.Column("confirm_seconds", sa.Float(), nullable=False),
        sa.Column("bot_level", sa.String(16), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("schedule", sa.Text(), nullable=True),
        sa.Column("starts_at", sa.Float(), nullable=True),
        sa.Column("director_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.CheckConstraint(
            "status IN ('registering', 'running', 'finished', 'cancelled')",
            name="duplicate_event_status",
        ),
    )
    op.create_table(
        "duplicate_teams",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("duplicate_events.id"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("bot", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("disqualified_at", sa.Float(), nullable=True),
        sa.UniqueConstraint("event_id", "name", name="duplicate_team_name"),
    )
    op.create_table(
        "duplicate_members",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("duplicate_events.id"), nullable=False),
        sa.Column("team_id", sa.Integer(), sa.ForeignKey("duplicate_teams.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.UniqueConstraint("event_id", "user_id", name="duplicate_member_once"),
        sa.UniqueConstraint("team_id", "number", name="duplicate_member_number"),
        sa.CheckConstraint("number BETWEEN 1 AND 3", name="duplicate_member_numbers"),
    )
    op.create_table(
        "duplicate_tables",
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("duplicate_events.id"), primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("grp", sa.Integer(), primary_key=True),
        sa.Column("position", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("teams", sa.Text(), nullable=False),
        sa.UniqueConstraint("table_id", name="duplicate_table_once"),
    )
    op.create_table(
        "duplicate_deals",
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("duplicate_events.id"), primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("grp", sa.Integer(), primary_key=True),
        sa.Column("hand", sa.Integer(), primary_key=True),
        sa.Column("deck", sa.Text(), nullable=False),
        sa.Column("salts", sa.Text(), nullable=False),
        sa.Column("root", sa.String(64), nullable=False),
    )
    op.create_table(
        "duplicate_confirmations",
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("duplicate_events.id"), primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("hand", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_table(
        "duplicate_rulings",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("duplicate_events.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("hand", sa.Integer(), nullable=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("tables.id"), nullable=True),
        sa.Column("adjustments", sa.Text(), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("by_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.CheckConstraint(
            "kind IN ('foul', 'warning', 'disqualify')", name="duplicate_ruling_kind"
        ),
    )
    op.create_index(
        "duplicate_foul_once",
        "duplicate_rulings",
        ["event_id", "round", "hand", "user_id"],
        unique=True,
        sqlite_where=sa.text("kind = 'foul'"),
        postgresql_where=sa.text("kind = 'foul'"),
    )
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("event_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("event_id")
    op.drop_index("duplicate_foul_once", table_name="duplicate_rulings")
    for name in (
        "duplicate_rulings",
        "duplicate_confirmations",
        "duplicate_deals",
        "duplicate_tables",
        "duplicate_members",
        "duplicate_teams",
        "duplicate_events",
    ):
        op.drop_table(name)
