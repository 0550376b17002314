"""Group commit: one writer per database that commits every table's pending writes together.

A table's owner hands :meth:`GroupWriter.write` a piece of work — a plain function of a
synchronous SQLAlchemy :class:`~sqlalchemy.engine.Connection` that journals an action and moves
its chips with Core statements — and waits for it. The writer takes every piece waiting at that
moment, runs them one after another in **one** transaction and commits once; each caller's
``await`` returns only after that commit, so an action is still durable before its table tells
anyone of it. While one batch is being written the next one gathers, so a busy room writes
fewer, larger transactions and an idle one writes each action at once (nothing waits on a timer).

One piece that fails (a top-up the wallet cannot pay for, a resent action id) must not lose the
others: the batch is rolled back and every piece is run again in a transaction of its own, so
each caller gets its own result or its own exception, exactly as if it had been alone. A piece
is therefore a function of the database only (it may run twice, the first run rolled back), and
it leaves the table's memory alone: the owner applies what it returns after the commit.

On SQLite the batch runs in the writer's own thread on its own connection (the sqlite3 module,
no event-loop round trip per statement) and takes the write lock at ``BEGIN IMMEDIATE``, so it
never has to upgrade a read lock or sleep in the busy handler against the room's other writer
(there is none on the hot path). On PostgreSQL the batch runs on a pooled asyncpg connection
through :meth:`~sqlalchemy.ext.asyncio.AsyncConnection.run_sync`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, CursorResult, Engine, make_url
from sqlalchemy.ext.asyncio import AsyncEngine

T = TypeVar("T")
Work = Callable[[Connection], Any]

MAX_BATCH = 256
"""Pieces of work in one transaction at most (the rest wait for the next one)."""


@dataclass
class WriterStats:
    """What the writer has done (for tests and the curious; not persisted)."""

    batches: int = 0
    """Transactions committed for a whole batch."""
    pieces: int = 0
    """Pieces of work that succeeded."""
    largest: int = 0
    """The most pieces one batch held."""
    retried: int = 0
    """Batches that failed whole and were run again piece by piece."""


def _outcomes(conn: Connection, batch: list[Work], stats: WriterStats) -> list[tuple[bool, Any]]:
    """Run ``batch`` in one transaction; if anything in it fails, each piece in its own."""
    try:
        with conn.begin():
            results = [work(conn) for work in batch]
    except Exception as error:
        if len(batch) == 1:
            return [(False, error)]
    else:
        stats.batches += 1
        stats.pieces += len(batch)
        stats.largest = max(stats.largest, len(batch))
        return [(True, r) for r in results]
    stats.retried += 1
    outcomes: list[tuple[bool, Any]] = []
    for work in batch:
        try:
            with conn.begin():
                result = work(conn)
        except Exception as error:
            outcomes.append((False, error))
        else:
            stats.pieces += 1
            outcomes.append((True, result))
    return outcomes


def _sqlite_writer_engine(url: str) -> Engine | None:
    """A synchronous engine on the same SQLite file, for the writer's thread (``None`` for an
    in-memory database, which another connection would not see)."""
    parsed = make_url(url)
    database = parsed.database or ""
    if not database or database == ":memory:" or "mode=memory" in str(parsed.query):
        return None
    engine = create_engine(parsed.set(drivername="sqlite"), connect_args={"timeout": 10})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the writer says BEGIN itself (below)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def inserted_id(result: CursorResult[Any]) -> int:
    """The primary key a one-row ``INSERT`` made."""
    key = result.inserted_primary_key
    if key is None or key[0] is None:
        raise RuntimeError("the insert made no row")
    return int(key[0])


class GroupWriter:
    """The database's one writer of journaled table actions (see the module's doc)."""

    def __init__(self, url: str, engine: AsyncEngine, *, max_batch: int = MAX_BATCH) -> None:
        self.max_batch = max_batch
        self.stats = WriterStats()
        self._engine = engine
        self._sync_engine = _sqlite_writer_engine(url) if engine.dialect.name == "sqlite" else None
        self._executor: ThreadPoolExecutor | None = None
        self._conn: Connection | None = None
        self._pending: list[tuple[Work, asyncio.Future[Any]]] = []
        self._task: asyncio.Task[None] | None = None

    async def write(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in the next batch; its result once that batch is committed (or its
        exception, the database left as if it had never run)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append((work, future))
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._drain(), name="group-writer")
        return cast(T, await future)

    async def _drain(self) -> None:
        while self._pending:
            batch = self._pending[: self.max_batch]
            del self._pending[: self.max_batch]
            try:
                outcomes = await self._run([work for work, _ in batch])
            except BaseException as error:  # the connection itself failed: tell every caller
                outcomes = [(False, error)] * len(batch)
                if not isinstance(error, Exception):
                    for _, future in batch:
                        if not future.done():
                            future.cancel()
                    raise
            for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
                if future.done():  # its caller stopped waiting; what was written stays written
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)

    async def _run(self, batch: list[Work]) -> list[tuple[bool, Any]]:
        if self._sync_engine is not None:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, self._run_in_thread, batch)
        async with self._engine.connect() as conn:
            return await conn.run_sync(_outcomes, batch, self.stats)

    def _run_in_thread(self, batch: list[Work]) -> list[tuple[bool, Any]]:
        assert self._sync_engine is not None
        if self._conn is None:
            self._conn = self._sync_engine.connect()
        try:
            return _outcomes(self._conn, batch, self.stats)
        except Exception:
            self._close_in_thread()  # a connection in an unknown state is not used again
            raise

    def _close_in_thread(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            conn.close()

    async def close(self) -> None:
        """Finish what is waiting, then let go of the writer's connection and thread."""
        if self._task is not None and not self._task.done():
            await asyncio.shield(self._task)
        if self._executor is not None:
            await asyncio.get_running_loop().run_in_executor(self._executor, self._close_in_thread)
            self._executor.shutdown(wait=True)
            self._executor = None
        if self._sync_engine is not None:
            self._sync_engine.dispose()


__all__ = ["MAX_BATCH", "GroupWriter", "WriterStats", "inserted_id"]
