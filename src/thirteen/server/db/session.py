"""Connecting to the database: the engine, sessions, and migrations applied on start.

SQLite runs with WAL, foreign keys and a busy timeout, and ``synchronous=NORMAL``: a committed
transaction survives the process crashing, while an operating-system crash or power loss may lose
the last ones (the WAL is synced at checkpoints; ``docs/decisions.md``, "The room's writes").
PostgreSQL runs through asyncpg. The tables' journal and chips are written by the database's
group writer (:mod:`thirteen.server.db.writer`). Migrations are Alembic's, shipped inside the
package, and run in a worker thread (Alembic's async env starts its own event loop).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import event, exc, select, text, update
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from thirteen.server.db.models import DuplicateEvent, GameTable, Tournament, User
from thirteen.server.db.writer import GroupWriter, lock_taken

T = TypeVar("T")
Lockable = TypeVar("Lockable", Tournament, DuplicateEvent, GameTable, User)

MIGRATIONS = Path(__file__).parent / "migrations"


async def lock_row(s: AsyncSession, model: type[Lockable], row_id: int) -> Lockable | None:
    """``model``'s row ``row_id`` (``None``: there is none), locked for the rest of this
    transaction: a write comes first — a row lock on PostgreSQL, the database's write lock on
    SQLite — so that registrations, starts and rounds (an account's row: its practice runs)
    queue up instead of racing; and the row is read as it is now, not as this session may have
    seen it before it waited for the lock. (The write sets a column to itself: ``created_at``,
    which every such row has and nothing changes.)"""
    await s.execute(
        update(model)
        .where(model.id == row_id)
        .values(created_at=model.created_at)
        .execution_options(synchronize_session=False)
    )
    row: Lockable | None = await s.scalar(
        select(model).where(model.id == row_id).execution_options(populate_existing=True)
    )
    return row


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


BUSY_TIMEOUT_MS = 10_000
"""How long a SQLite request waits for another connection's write to end before it gives up
(answered ``503 busy``: :func:`database_busy`)."""


def database_busy(error: BaseException) -> bool:
    """Whether ``error`` says the database was too busy to take the request, which then wrote
    nothing: SQLite's write lock not had within :data:`BUSY_TIMEOUT_MS`, or no pooled
    connection free in time."""
    if isinstance(error, exc.TimeoutError):
        return True
    orig = error.orig if isinstance(error, exc.OperationalError) else None
    return isinstance(orig, sqlite3.OperationalError) and lock_taken(orig)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


PRIVATE = 0o600
"""The mode of the room's files: every chip, hand and session digest is in them."""


def private_file(path: Path) -> None:
    """Make ``path`` readable and writable by this user alone: created empty with mode 0600 if
    it is not there (its folder too, mode 0700), its mode narrowed if it is."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))
    except FileExistsError:
        if path.stat().st_mode & 0o077:
            path.chmod(PRIVATE)


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite ``url`` (``None``: in memory)."""
    database = make_url(url).database or ""
    return Path(database) if database and database != ":memory:" else None


def _private_sqlite(url: str) -> None:
    """A SQLite database's file, and its write-ahead log and shared memory if there, mode 0600
    (SQLite makes those two with the database file's mode)."""
    path = sqlite_file(url)
    if path is None:
        return
    private_file(path)
    for extra in ("-wal", "-shm"):
        companion = path.with_name(path.name + extra)
        if companion.exists() and companion.stat().st_mode & 0o077:
            companion.chmod(PRIVATE)


def make_engine(url: str) -> AsyncEngine:
    """An async engine for ``url``; a SQLite file (and its folder) is made private first."""
    if is_sqlite(url):
        _private_sqlite(url)
        engine = create_async_engine(url, connect_args={"timeout": 10})
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["database_url"] = url
    return config


def migrate_sync(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` to ``revision`` (blocking; not on an event loop)."""
    if is_sqlite(url):
        _private_sqlite(url)
    command.upgrade(alembic_config(url), revision)


async def migrate(url: str) -> None:
    """Apply every migration, from an event loop (Alembic runs in a thread with its own)."""
    await asyncio.to_thread(migrate_sync, url)


class Database:
    """The engine and a session factory. ``async with db.begin() as s`` is one transaction;
    ``await db.write(work)`` runs ``work`` in the group writer's next committed batch."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self.writer = GroupWriter(url, self.engine)

    async def write(self, work: Callable[[Connection], T], *, first: bool = False) -> T:
        """Run ``work`` (Core statements on a synchronous connection) in the next batch of the
        database's group writer: its result once committed, or its own exception with nothing
        of it written (:mod:`thirteen.server.db.writer`); ``first``: ahead of what waits."""
        return await self.writer.write(work, first=first)

    @asynccontextmanager
    async def begin(self) -> AsyncIterator[AsyncSession]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        async with self.sessions() as session, session.begin():
            yield session

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[AsyncSession]:
        """A read-only view of one moment (audits, exports, while the room keeps writing):
        REPEATABLE READ on PostgreSQL; a SQLite read transaction is a snapshot already."""
        async with self.engine.connect() as conn:
            if is_sqlite(self.url):
                # pysqlite opens a transaction only before a write; a read transaction has to
                # be asked for, or each SELECT would see a different moment
                await conn.exec_driver_sql("BEGIN")
            else:
                conn = await conn.execution_options(isolation_level="REPEATABLE READ")
            async with AsyncSession(bind=conn, expire_on_commit=False) as session, session.begin():
                yield session

    async def ping(self) -> bool:
        """Whether the database answers a trivial query."""
        try:
            async with self.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        except Exception:
            return False
        return True

    async def close(self) -> None:
        await self.writer.close()
        await self.engine.dispose()


__all__ = ["Database", "database_busy", "is_sqlite", "make_engine", "migrate", "migrate_sync"]
