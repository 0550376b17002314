"""Alembic's environment: run the migrations on the URL the room passes in (async engines)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection

from thirteen.server.db.models import Base
from thirteen.server.db.session import make_engine


def _run(connection: Connection) -> None:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        # SQLite changes a table by building it again (batch mode): the foreign keys that point
        # at it must not fire while it is rebuilt, so they are off (before any transaction, or
        # SQLite ignores it) and checked once every migration ran — SQLite's own recipe
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=sqlite,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # several room processes may start at once: one migrates, the others wait for it
            # and then find nothing left to do (the lock is released when this commits)
            connection.execute(text("SELECT pg_advisory_xact_lock(1313131313)"))
        context.run_migrations()
        if sqlite:
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise RuntimeError(f"a migration broke foreign keys: {broken[:5]}")


async def _online(url: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run)
            await connection.commit()
    finally:
        await engine.dispose()


asyncio.run(_online(context.config.attributes["database_url"]))
