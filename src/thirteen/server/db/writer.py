"""Group commit: one writer per database that commits every table's pending writes together.

A table's owner hands :meth:`GroupWriter.write` a piece of work — a plain function of a
synchronous SQLAlchemy :class:`~sqlalchemy.engine.Connection` that journals an action and moves
its chips with Core statements — and waits for it. The writer takes every piece waiting at that
moment (everything the event loop's current round made ready), runs them one after another in
**one** transaction and commits once; each caller's ``await`` returns only after that commit, so
an action is still durable before its table tells anyone of it. A busy room writes fewer, larger
transactions, and an idle one writes each action at once (nothing waits on a timer). The
room's other frequent small write, a WebSocket ticket issued or spent, is a piece too
(:mod:`thirteen.server.money.accounts`), so it never holds SQLite's write lock across the
loop's turns. A piece that must not wait behind the tables' backlog — the process's heartbeat,
which keeps its leases — goes ``first``: in the next transaction, alone, ahead of everything
queued before it.

One piece that fails (a top-up the wallet cannot pay for, a resent action id) must not lose the
others: the batch is rolled back and run again with each piece in a savepoint of its own, so
each caller gets its own result or its own exception, exactly as if it had been alone. A piece
is therefore a function of the database only (it may run twice, the first run rolled back), and
it leaves the table's memory alone: the owner applies what it returns after the commit.

On SQLite the writer has a connection of its own (the sqlite3 module, no thread hop per
statement) and runs each batch right on the event loop: it takes the write lock first, at
``BEGIN IMMEDIATE``, without waiting — when another connection holds it, the writer sleeps on
the loop and tries again — so no statement after it ever waits, and a batch is a few
milliseconds of work. (On a thread of its own it queued for the interpreter lock behind the loop
at every statement, holding SQLite's write lock all the while: stalls of a second and
``database is locked`` for everyone else.) Its WAL checkpoints, which sync the disk, run on a
worker thread every 500 pieces, at most once a second, and start the WAL again
(:meth:`GroupWriter._checkpoint_now`). On PostgreSQL the batch runs on a pooled asyncpg
connection through :meth:`~sqlalchemy.ext.asyncio.AsyncConnection.run_sync`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, TypeVar, cast

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, CursorResult, Engine, make_url
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.sql import Executable

T = TypeVar("T")
Work = Callable[[Connection], Any]

log = logging.getLogger("thirteen.server.db.writer")

MAX_BATCH = 256
"""Pieces of work in one transaction at most (the rest wait for the next one)."""
BUSY_SECONDS = 10.0
"""How long a batch waits for another connection's write lock before it fails (SQLite)."""
BUSY_PAUSE_MAX = 0.005
"""The longest the writer sleeps before trying SQLite's write lock again (it starts at 1 ms and
doubles). Short, because every table waits while it sleeps and another connection's
transaction is usually over within milliseconds: while 300 tables were being seated (sign-ups,
logins and tickets each in a transaction of their own then), a waiting batch waited 170–220 ms
at p90 with the pause capped at 50 ms, and 58–63 ms capped at 5 ms (docs/decisions.md, "Tickets
go through the writer too")."""
CHECKPOINT_PIECES = 500
"""Pieces written between two checkpoints of SQLite's WAL at least."""
CHECKPOINT_SECONDS = 1.0
"""Seconds between the starts of two checkpoints at least: a busy room checkpoints once a
second, not every 500 pieces (four times a second at full speed, 4 % of the room's CPU: each
one syncs the disk, and a page the writer changes again and again is copied once a checkpoint;
issue 33, ``benchmarks/README.md``). The WAL holds about a second of writes then (25–30 MB at
full speed, 40 tables), or 500 pieces."""
RESTART_WAIT_MS = 200
"""How long a checkpoint's RESTART waits for readers to finish (SQLite's busy timeout); a
checkpoint that finds them still reading tries again at the next one."""


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
    waited: int = 0
    """Times a batch found SQLite's write lock taken by another connection and waited."""
    checkpoints: int = 0
    """WAL checkpoints run (SQLite)."""
    checkpoints_busy: int = 0
    """Of those, the ones whose RESTART found readers still reading (the WAL not started
    again that time)."""


class WriterBusyError(Exception):
    """Another connection holds SQLite's write lock: the batch has not started; try again."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def _outcomes(conn: Connection, batch: list[Work], stats: WriterStats) -> list[tuple[bool, Any]]:
    """Run ``batch`` in one transaction; if anything in it fails, run it again in one
    transaction with each piece in a savepoint of its own, so each piece succeeds or fails
    alone. Raises :class:`WriterBusyError` (nothing done) when the write lock is taken."""
    try:
        with conn.begin():
            results = [work(conn) for work in batch]
    except WriterBusyError:
        raise
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
    with conn.begin():
        for work in batch:
            try:
                with conn.begin_nested():
                    result = work(conn)
            except Exception as error:
                outcomes.append((False, error))
            else:
                outcomes.append((True, result))
    stats.pieces += sum(1 for ok, _ in outcomes if ok)
    return outcomes


def _sqlite_writer_engine(url: str) -> Engine | None:
    """A synchronous engine on the same SQLite file for the writer (``None`` for an in-memory
    database, which another connection would not see)."""
    parsed = make_url(url)
    database = parsed.database or ""
    if not database or database == ":memory:" or "mode=memory" in str(parsed.query):
        return None
    engine = create_engine(
        parsed.set(drivername="sqlite"), connect_args={"check_same_thread": False}
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the writer says BEGIN itself (below)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        # never wait inside SQLite (that would stop the event loop): a taken lock is waited
        # for by the writer, asleep on the loop; and checkpoints (which sync the disk) run in
        # a thread of their own, not when a commit happens to cross the threshold
        cursor.execute("PRAGMA busy_timeout=0")
        cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        try:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        except OperationalError as error:
            if lock_taken(error):
                raise WriterBusyError(error) from error
            raise

    return engine


def lock_taken(error: BaseException) -> bool:
    """Whether SQLite refused ``error``'s statement because another connection held the lock
    (``database is locked``/``busy``), so nothing of it was done."""
    text = str(error)
    return "locked" in text or "busy" in text


@dataclass
class Ran:
    """What a :class:`Prepared` statement did: the rows it matched or made, the id a one-row
    insert made, and the rows a query returned (all of them, fetched at once)."""

    rowcount: int
    lastrowid: int | None = None
    rows: list[tuple[Any, ...]] = field(default_factory=list)

    def scalar(self) -> Any:
        """The first column of the first row (``None``: no row)."""
        return self.rows[0][0] if self.rows else None

    def first(self) -> tuple[Any, ...] | None:
        return self.rows[0] if self.rows else None


Params = Mapping[str, Any] | Sequence[Mapping[str, Any]]


class Prepared:
    """A statement of the group writer's pieces, built once and run many times.

    It runs straight on the driver's cursor, compiled once for each set of parameter names,
    each value converted by its column's type as SQLAlchemy would: SQLAlchemy's execution
    machinery (its execution context, result and events) was 6–7 µs of each such statement's
    10 on SQLite, and a hand runs about twenty (issue 33, ``benchmarks/README.md``). The
    drivers: the writer's own ``sqlite3`` connection, and on PostgreSQL the asyncpg connection
    as SQLAlchemy adapts it (its cursor starts the transaction, prepares and caches the
    statement and raises its DBAPI's errors, as under SQLAlchemy); a one-row insert's id comes
    from ``lastrowid`` on SQLite and from the ``RETURNING`` the dialect writes on PostgreSQL. A
    statement whose column has a default SQLAlchemy computes, or whose result it converts, still
    goes through SQLAlchemy, as every statement does on another driver (aiosqlite)."""

    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        self._compiled: dict[tuple[str, str, tuple[str, ...]], _Plain | None] = {}

    def run(self, conn: Connection, params: Params) -> Ran:
        """Run with ``params`` (a list of them: once per row, as ``executemany``)."""
        many = not isinstance(params, dict | Mapping)
        rows = cast(Sequence[Mapping[str, Any]], params) if many else [cast(Any, params)]
        plain = self._plain(conn, tuple(rows[0])) if rows else None
        if plain is None:
            return _through_sqlalchemy(conn.execute(self.statement, params))
        values = [plain.values(row) for row in rows]
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            if many:
                cursor.executemany(plain.sql, values)
                return Ran(cursor.rowcount)
            cursor.execute(plain.sql, values[0])
            fetched = [tuple(r) for r in cursor.fetchall()] if cursor.description else []
            if plain.returns_id:  # the new row's id, as SQLAlchemy reads it (not a result row)
                return Ran(cursor.rowcount, fetched[0][0] if fetched else None)
            return Ran(cursor.rowcount, getattr(cursor, "lastrowid", None), fetched)
        except plain.error as error:  # as SQLAlchemy raises it (IntegrityError: a key taken)
            raise DBAPIError.instance(plain.sql, values, error, plain.error) from error
        finally:
            cursor.close()

    def _plain(self, conn: Connection, keys: tuple[str, ...]) -> _Plain | None:
        """The statement compiled for this driver and these parameter names, or ``None`` when
        SQLAlchemy must run it: another driver (:data:`PLAIN_DRIVERS`), a value SQLAlchemy
        would compute before the statement (a column's Python default) or a result it would
        convert. (Values SQL computes, ``balance - ?``, need nothing.)"""
        dialect = conn.dialect
        key = (dialect.name, dialect.driver, keys)
        if key in self._compiled:
            return self._compiled[key]
        plain = None
        if dialect.driver not in PLAIN_DRIVERS:
            self._compiled[key] = plain
            return plain
        compiled: Any = self.statement.compile(dialect=dialect, column_keys=list(keys))  # type: ignore[attr-defined]
        selected = getattr(self.statement, "selected_columns", ())
        if (
            not compiled.insert_prefetch
            and not compiled.update_prefetch
            and all(
                c.type.dialect_impl(dialect).result_processor(dialect, None) is None
                for c in selected
            )
        ):
            order = tuple(compiled.positiontup or ())
            convert = tuple(
                compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
                for name in order
            )
            given = dict(compiled.construct_params({}, _check=False))
            fixed = {name: given[name] for name in order if not compiled.binds[name].required}
            returns_id = bool(getattr(compiled, "implicit_returning", None))
            error = dialect.loaded_dbapi.Error
            plain = _Plain(compiled.string, order, convert, fixed, error, returns_id)
        self._compiled[key] = plain
        return plain


PLAIN_DRIVERS = frozenset({"pysqlite", "asyncpg"})
"""The drivers whose cursor :class:`Prepared` uses directly: ``sqlite3`` (the writer's own
connection), and asyncpg as SQLAlchemy adapts it; not aiosqlite, whose cursor answers
coroutines."""


@dataclass(frozen=True)
class _Plain:
    """A statement compiled for its dialect: its text, and how a row of parameters is bound (in
    order, each value through its type's conversion as SQLAlchemy would; a value written in
    the statement itself, such as ``status = 'playing'``, from ``fixed``; a row without a
    value the statement needs is a ``KeyError``, never a silent NULL)."""

    sql: str
    order: tuple[str, ...]
    convert: tuple[Callable[[Any], Any] | None, ...]
    fixed: dict[str, Any]
    error: type[Exception]
    """The driver's base error (its DBAPI's ``Error``), which SQLAlchemy wraps."""
    returns_id: bool = False
    """An insert whose new row's id the dialect returns (``RETURNING``: PostgreSQL)."""
    _pick: Callable[[Mapping[str, Any]], tuple[Any, ...]] = field(
        init=False, repr=False, compare=False
    )
    """The row's values in :attr:`order`, taken in one call (``operator.itemgetter``)."""
    _converted: tuple[tuple[int, Callable[[Any], Any]], ...] = field(
        init=False, repr=False, compare=False
    )
    """Where in :attr:`order` a value is converted, and by what."""

    def __post_init__(self) -> None:
        order = self.order
        pick: Callable[[Mapping[str, Any]], Any]
        if len(order) == 1:
            (name,) = order
            pick = lambda row: (row[name],)  # noqa: E731 (itemgetter of one name: no tuple)
        else:
            pick = itemgetter(*order) if order else lambda row: ()
        object.__setattr__(self, "_pick", pick)
        converted = tuple((i, f) for i, f in enumerate(self.convert) if f is not None)
        object.__setattr__(self, "_converted", converted)

    def values(self, row: Mapping[str, Any]) -> tuple[Any, ...]:
        if self.fixed:  # the row's own value wins over one written in the statement
            row = {**self.fixed, **row}
        picked = self._pick(row)
        if not self._converted:
            return picked
        values = list(picked)
        for i, f in self._converted:
            if values[i] is not None:
                values[i] = f(values[i])
        return tuple(values)


def _through_sqlalchemy(result: CursorResult[Any]) -> Ran:
    rows = [tuple(r) for r in result.all()] if result.returns_rows else []
    key = None
    if not rows and result.context.isinsert and not result.context.executemany:
        made = result.inserted_primary_key
        key = None if made is None else made[0]
    return Ran(result.rowcount, key, rows)


def inserted_id(result: Ran) -> int:
    """The primary key a one-row ``INSERT`` made."""
    if result.lastrowid is None:
        raise RuntimeError("the insert made no row")
    return int(result.lastrowid)


class GroupWriter:
    """The database's one writer of journaled table actions (see the module's doc)."""

    def __init__(self, url: str, engine: AsyncEngine, *, max_batch: int = MAX_BATCH) -> None:
        self.max_batch = max_batch
        self.stats = WriterStats()
        self._engine = engine
        self._sync_engine = _sqlite_writer_engine(url) if engine.dialect.name == "sqlite" else None
        self._file = make_url(url).database or ""
        self._conn: Connection | None = None
        self._pending: list[tuple[Work, asyncio.Future[Any]]] = []
        self._first: list[tuple[Work, asyncio.Future[Any]]] = []
        self._task: asyncio.Task[None] | None = None
        self._unchecked = 0
        self._checkpoint: asyncio.Future[tuple[int, int, int]] | None = None
        self.checkpoint_seconds = CHECKPOINT_SECONDS
        self._checkpointed_at = -math.inf
        """When (the loop's clock) the last checkpoint started: never, at first."""

    async def write(self, work: Callable[[Connection], T], *, first: bool = False) -> T:
        """Run ``work`` in the next batch; its result once that batch is committed (or its
        exception, the database left as if it had never run). ``first``: in a batch of the
        ``first`` pieces alone, before any other waiting — what waits is bounded by the batch
        being written, not by the backlog (a process's heartbeat: under a load its database
        could not keep up with, on PostgreSQL with two processes on one core, a beat queued
        behind 20-180 pieces took 0.5-8.5 s, its leases ran out, and the other process took
        its tables; issue 33)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        (self._first if first else self._pending).append((work, future))
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._drain(), name="group-writer")
        return cast(T, await future)

    async def _drain(self) -> None:
        while self._first or self._pending:
            waiting = self._first or self._pending
            batch = waiting[: self.max_batch]
            del waiting[: self.max_batch]
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
            return await self._run_sqlite(batch)
        async with self._engine.connect() as conn:
            return await conn.run_sync(_outcomes, batch, self.stats)

    async def _run_sqlite(self, batch: list[Work]) -> list[tuple[bool, Any]]:
        """Run the batch right here on the event loop: a batch is a few milliseconds of work
        whose statements never wait (the lock is taken first, or not at all), and running it on
        another thread only made it queue for the interpreter lock behind the loop, holding
        SQLite's write lock all the while."""
        assert self._sync_engine is not None
        loop = asyncio.get_running_loop()
        give_up = loop.time() + BUSY_SECONDS
        pause = 0.001
        while True:
            if self._conn is None:
                self._conn = self._sync_engine.connect()
            try:
                outcomes = _outcomes(self._conn, batch, self.stats)
            except WriterBusyError as busy:  # another connection writes: wait for it, asleep
                self.stats.waited += 1
                if loop.time() >= give_up:
                    raise busy.error from None
                if self._checkpoint is not None:  # ours, most likely: on as soon as it ends
                    await asyncio.wait([self._checkpoint], timeout=pause)
                else:
                    await asyncio.sleep(pause)
                pause = min(2 * pause, BUSY_PAUSE_MAX)
                continue
            except Exception:
                conn, self._conn = self._conn, None
                conn.close()  # a connection in an unknown state is not used again
                raise
            self._unchecked += len(batch)
            if (
                self._unchecked >= CHECKPOINT_PIECES
                and self._checkpoint is None
                and loop.time() >= self._checkpointed_at + self.checkpoint_seconds
            ):
                self._unchecked = 0
                self._checkpointed_at = loop.time()
                self._checkpoint = loop.run_in_executor(None, self._checkpoint_now)
                self._checkpoint.add_done_callback(self._checkpointed)
            return outcomes

    @property
    def checkpointing(self) -> bool:
        """Whether a checkpoint of SQLite's WAL is running now (on its thread)."""
        return self._checkpoint is not None

    def _checkpoint_now(self) -> tuple[int, int, int]:
        """Copy the WAL into the database file (and sync it), on a thread and a connection of
        its own, then start the WAL again from its beginning.

        PASSIVE first — it never waits for, nor blocks, the writer or any reader — copies
        nearly everything; but frames the writer appends meanwhile stay uncopied, and SQLite
        starts a WAL over only once every frame in it is copied, so under a steady load
        PASSIVE alone let the file grow forever (12 GB in 16 minutes at 1,000 tables, issue
        33). A second PASSIVE copies what came during the first (a few dozen frames against
        thousands). RESTART then copies the few frames written meanwhile, holding the write
        lock for that long (the writer, finding it taken, waits on the loop for the checkpoint
        to end) and waiting up to ``RESTART_WAIT_MS`` for readers, so the next write starts
        the WAL again. The WAL is then as big as what is written between two checkpoints.
        With one PASSIVE the RESTART held the lock 7-81 ms at 1,000 tables, on the room's one
        core; with two, 2-10 ms. Returns SQLite's answer to the RESTART: (busy, frames in the
        WAL, frames copied)."""
        with contextlib.closing(sqlite3.connect(self._file, isolation_level=None)) as conn:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            # and again: what the writer appended while the first one copied, so the RESTART,
            # which holds the write lock, has only a few frames left to copy
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            conn.execute(f"PRAGMA busy_timeout={RESTART_WAIT_MS}")
            busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
        self.stats.checkpoints += 1
        if busy:
            self.stats.checkpoints_busy += 1
        return int(busy), int(frames), int(copied)

    async def checkpoint_ended(self) -> None:
        """Return once the checkpoint running now (if one is) has ended, however it ended."""
        if self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await self._checkpoint

    def _checkpointed(self, done: asyncio.Future[tuple[int, int, int]]) -> None:
        self._checkpoint = None
        if not done.cancelled() and done.exception() is not None:
            log.warning("checkpoint failed", extra={"error": repr(done.exception())})

    async def close(self) -> None:
        """Finish what is waiting, then let go of the writer's connection."""
        if self._task is not None and not self._task.done():
            await asyncio.shield(self._task)
        await self.checkpoint_ended()
        if self._conn is not None:
            conn, self._conn = self._conn, None
            conn.close()
        if self._sync_engine is not None:
            self._sync_engine.dispose()


__all__ = [
    "BUSY_PAUSE_MAX",
    "BUSY_SECONDS",
    "CHECKPOINT_PIECES",
    "CHECKPOINT_SECONDS",
    "MAX_BATCH",
    "GroupWriter",
    "Prepared",
    "Ran",
    "WriterBusyError",
    "WriterStats",
    "inserted_id",
    "lock_taken",
]
