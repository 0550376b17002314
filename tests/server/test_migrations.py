"""The migrations build exactly the schema the models describe (tables, columns and their types,
indexes, constraints Alembic compares), on SQLite and on PostgreSQL: a model changed without
its migration — or a migration that drifted from its model — fails here, not in production."""

from __future__ import annotations

import asyncio
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
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
