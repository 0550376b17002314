"""The migrations build exactly the schema the models describe (tables, columns and their types,
indexes, constraints Alembic compares), on SQLite and on PostgreSQL: a model changed without
its migration — or a migration that drifted from its model — fails here, not in production."""

from __future__ import annotations

import asyncio
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from thirteen.server.db.models import Base
from thirteen.server.db.session import migrate_sync


def test_the_migrations_build_the_models_schema(database_url: str) -> None:
    migrate_sync(database_url)

    async def differences() -> list[Any]:
        engine = create_async_engine(database_url)
        try:
            async with engine.connect() as conn:
                return await conn.run_sync(
                    lambda sync: compare_metadata(
                        MigrationContext.configure(sync, opts={"compare_type": True}),
                        Base.metadata,
                    )
                )
        finally:
            await engine.dispose()

    assert asyncio.run(differences()) == []


def test_rulings_made_after_an_event_finished_are_marked_by_migration_0010(
    database_url: str,
) -> None:
    """Issue 31, item 9: rulings stored before ``after_finish`` existed are marked from their
    time against their event's finish (a running event's, or one ruled before the end: not)."""
    migrate_sync(database_url, "0009")

    async def run(sql: str) -> list[Any]:
        engine = create_async_engine(database_url)
        try:
            async with engine.begin() as conn:
                result = await conn.execute(text(sql))
                return list(result.all()) if result.returns_rows else []
        finally:
            await engine.dispose()

    event = (
        "INSERT INTO duplicate_events (id, name, preset, rules, rounds, hands_per_round, "
        "confirm_seconds, bot_level, seed, status, round, director_id, created_at, finished_at) "
        "VALUES ({id}, 'e', 'open-face-cards', '{{}}', 1, 1, 0, 'strong', 1, '{status}', 1, 1, "
        "0, {finished})"
    )
    ruling = (
        "INSERT INTO duplicate_rulings (id, event_id, kind, user_id, adjustments, reason, by_id, "
        "at) VALUES ({id}, {event}, 'warning', 1, '[]', 'why', 1, {at})"
    )
    for sql in (
        "INSERT INTO users (id, name, name_key, role, created_at) VALUES (1, 'boss', 'boss', "
        "'admin', 0)",
        event.format(id=1, status="finished", finished=100.0),
        event.format(id=2, status="running", finished="NULL"),
        ruling.format(id=1, event=1, at=50.0),  # during the event
        ruling.format(id=2, event=1, at=150.0),  # after its finish
        ruling.format(id=3, event=2, at=150.0),  # an event still running
    ):
        asyncio.run(run(sql))
    migrate_sync(database_url)
    marked = asyncio.run(run("SELECT id, after_finish FROM duplicate_rulings ORDER BY id"))
    assert [(i, bool(f)) for i, f in marked] == [(1, False), (2, True), (3, False)]
