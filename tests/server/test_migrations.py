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


def test_a_table_may_be_set_aside_as_broken_after_migrating_a_room_with_seated_players(
    database_url: str,
) -> None:
    """0010 rebuilds the tables' status check (SQLite rebuilds the table to do it) under rows
    that point at the table — a seat, its escrow, a hand — and keeps them; a table may then be
    ``broken``, with its reason; going down and up again keeps every row too."""
    from alembic import command
    from sqlalchemy import func, select, update

    from thirteen.server.db.models import GameTable, Hand, Sitting
    from thirteen.server.db.session import Database, alembic_config
    from thirteen.server.money import ledger
    from thirteen.server.money.accounts import Accounts
    from thirteen.server.room import TableSpec, insert_table
    from thirteen.server.settings import load_settings

    migrate_sync(database_url, "0011")
    command.upgrade(alembic_config(database_url), "head")  # (the models are head's)

    async def seat_someone() -> int:
        db = Database(database_url)
        try:
            table_id = await insert_table(db, TableSpec(preset="chinese-1-6"))
            user_id = await Accounts(db, load_settings(database_url=database_url)).bot("b-0")
            async with db.begin() as s:
                escrow = await ledger.account(s, "escrow:t1:s0:j1", "escrow", user_id)
                s.add(
                    Sitting(
                        table_id=table_id,
                        seat=0,
                        user_id=user_id,
                        escrow_id=escrow.id,
                        opened_at=1.0,
                    )
                )
                s.add(
                    Hand(
                        table_id=table_id,
                        number=1,
                        status="playing",
                        commitment="c" * 64,
                        start_state_id=0,
                        started_at=1.0,
                    )
                )
            return table_id
        finally:
            await db.close()

    table_id = asyncio.run(seat_someone())
    command.downgrade(alembic_config(database_url), "0011")
    command.upgrade(alembic_config(database_url), "head")

    async def set_aside() -> tuple[str, str | None, int, int]:
        db = Database(database_url)
        try:
            async with db.begin() as s:
                await s.execute(
                    update(GameTable)
                    .where(GameTable.id == table_id)
                    .values(status="broken", broken_reason="its rules are refused")
                )
            async with db.begin() as s:
                row = await s.get(GameTable, table_id)
                assert row is not None
                seated = await s.scalar(select(func.count(Sitting.id)))
                hands = await s.scalar(select(func.count(Hand.id)))
                return row.status, row.broken_reason, int(seated or 0), int(hands or 0)
        finally:
            await db.close()

    assert asyncio.run(set_aside()) == ("broken", "its rules are refused", 1, 1)
