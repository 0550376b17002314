"""The group writer on SQLite and PostgreSQL: the pieces of work of many tables gathered into
one transaction are all durable once their callers hear back, a piece that fails loses nothing
of the others, and an action id accepted before a restart is still answered the same way."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from services import room_process, run_with_db
from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from thirteen.client import RoomClient
from thirteen.server.db.models import LedgerAccount, Transfer
from thirteen.server.db.session import Database
from thirteen.server.money import ledger
from thirteen.server.money.audit import audit


def grant(user: str, amount: int) -> Callable[[Connection], int]:
    """A piece of work: the house grants ``amount`` to ``user``'s wallet; the wallet's id."""

    def work(conn: Connection) -> int:
        wallet = ledger.account_id_sync(conn, f"wallet:{user}", "wallet")
        ledger.transfer_sync(
            conn,
            key=f"grant:{user}",
            debit_id=ledger.account_id_sync(conn, ledger.HOUSE, "house"),
            credit_id=wallet,
            amount=amount,
            reason="grant",
        )
        return wallet

    return work


def spend(user: str, amount: int) -> Callable[[Connection], None]:
    """A piece of work that moves ``amount`` from ``user``'s wallet back to the house."""

    def work(conn: Connection) -> None:
        ledger.transfer_sync(
            conn,
            key=f"spend:{user}",
            debit_id=ledger.account_id_sync(conn, f"wallet:{user}", "wallet"),
            credit_id=ledger.account_id_sync(conn, ledger.HOUSE, "house"),
            amount=amount,
            reason="spend",
        )

    return work


def broken(conn: Connection) -> None:
    ledger.account_id_sync(conn, "wallet:broken", "wallet")  # written, then rolled back
    raise RuntimeError("this piece fails after writing")


async def wallets(url: str) -> tuple[dict[str, int], int, list[str]]:
    """What a fresh connection to the database finds: wallets, transfers, audit problems."""
    db = Database(url)
    try:
        async with db.begin() as s:
            rows = (await s.execute(select(LedgerAccount.name, LedgerAccount.balance))).all()
            count = int(await s.scalar(select(func.count()).select_from(Transfer)) or 0)
        report = await audit(db)
    finally:
        await db.close()
    held = {name.removeprefix("wallet:"): balance for name, balance in rows if name != "house"}
    return held, count, report.problems


def test_many_tables_writes_commit_together_and_are_durable(database_url: str) -> None:
    users = [f"p{i}" for i in range(12)]

    async def body(db: Database) -> tuple[list[int], int, int]:
        ids = await asyncio.gather(*(db.write(grant(u, 100 + i)) for i, u in enumerate(users)))
        return list(ids), db.writer.stats.batches, db.writer.stats.largest

    ids, batches, largest = run_with_db(database_url, body)
    # all twelve were waiting when the writer woke: one transaction held them all
    assert (batches, largest) == (1, len(users))
    assert len(set(ids)) == len(users)
    held, count, problems = asyncio.run(wallets(database_url))
    assert held == {u: 100 + i for i, u in enumerate(users)}
    assert count == len(users)
    assert problems == []


def test_a_failing_piece_loses_nothing_of_the_others(database_url: str) -> None:
    async def body(db: Database) -> tuple[list[Any], int]:
        await db.write(grant("ann", 500))
        outcomes = await asyncio.gather(
            db.write(grant("bob", 300)),
            db.write(spend("ann", 10_000)),  # more than ann has: refused
            db.write(broken),
            db.write(spend("ann", 200)),
            db.write(grant("cat", 70)),
            return_exceptions=True,
        )
        return outcomes, db.writer.stats.retried

    outcomes, retried = run_with_db(database_url, body)
    assert retried == 1
    assert isinstance(outcomes[0], int)
    assert isinstance(outcomes[1], ledger.LedgerError)
    assert outcomes[1].code == "insufficient_chips"
    assert isinstance(outcomes[2], RuntimeError)
    assert outcomes[3] is None
    assert isinstance(outcomes[4], int)
    held, count, problems = asyncio.run(wallets(database_url))
    # the good pieces, each once (their first run was rolled back with the batch); nothing of
    # the failed ones, not even the account the broken piece opened before it failed
    assert held == {"ann": 300, "bob": 300, "cat": 70}
    assert count == 4
    assert problems == []


def test_the_writer_waits_for_another_connections_write_lock(tmp_path: Path) -> None:
    # SQLite only: PostgreSQL has row locks, not one write lock for the database
    path = tmp_path / "locked.db"
    database_url = f"sqlite+aiosqlite:///{path}"

    async def body(db: Database) -> int:
        other = sqlite3.connect(path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
            written = asyncio.ensure_future(db.write(grant("ann", 500)))
            while db.writer.stats.waited == 0:  # let the writer find the lock taken
                await asyncio.sleep(0)  # allowed: yields to the loop once, no time passes
            assert not written.done()
            other.execute("COMMIT")
        finally:
            other.close()
        await written
        return db.writer.stats.waited

    assert run_with_db(database_url, body) >= 1
    held, count, problems = asyncio.run(wallets(database_url))
    assert held == {"ann": 500}
    assert count == 1
    assert problems == []


def test_an_accepted_action_id_is_answered_the_same_after_a_restart(
    database_url: str, tmp_path: Path
) -> None:
    with room_process(database_url, tmp_path) as served, RoomClient(served.url) as boss:
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table("ofc", max_buy_in=400)["id"]
        with RoomClient(served.url) as ann:
            ann.sign_up("ann", "password of A-N-N")
            conn = ann.open_table(table)
            sat = conn.do({"type": "sit", "seat": 1, "buy_in": 300}, ident="sit-1")
            left = conn.do({"type": "leave"}, ident="leave-1")
            conn.close()
        served.kill()
    with room_process(database_url, tmp_path) as served, RoomClient(served.url) as ann:
        ann.log_in("ann", "password of A-N-N")
        conn = ann.open_table(table)
        # the engine would take this sit again (the seat is free): the journal refuses the
        # same id, and the first answer comes back; no chips move
        again = conn.answer(conn.act({"type": "sit", "seat": 1, "buy_in": 300}, ident="sit-1"))
        # this one the engine refuses (ann is not seated): the journal still knows it
        left_again = conn.answer(conn.act({"type": "leave"}, ident="leave-1"))
        assert (again, left_again) == (sat, left)
        assert ann.me()["balance"] == 10_000
        assert conn.view["seats"][1] is None
        # a new id is a new action
        fresh = conn.do({"type": "sit", "seat": 1, "buy_in": 300}, ident="sit-2")
        assert fresh["state_id"] > left["state_id"]
        assert ann.me()["balance"] == 10_000 - 300
        conn.close()


def test_prepared_statements_write_what_sqlalchemy_writes(
    database_url: str, tmp_path: Path
) -> None:
    """The writer's hot statements run straight on the driver's cursor — the writer's own
    sqlite3 connection; asyncpg as SQLAlchemy adapts it (issue 33) — and write exactly what
    SQLAlchemy would: literal values in the statement, type conversions, the new row's id (SQLite's
    ``lastrowid``; PostgreSQL's ``RETURNING``); a statement with a column default SQLAlchemy fills
    in goes through SQLAlchemy; a taken key is SQLAlchemy's IntegrityError, as the room expects."""
    import pytest
    from sqlalchemy import Table, create_engine, insert, text
    from sqlalchemy.exc import IntegrityError
    from sqlalchemy.ext.asyncio import create_async_engine

    from thirteen.server.db.models import Base
    from thirteen.server.db.writer import PLAIN_DRIVERS, Prepared, inserted_id
    from thirteen.server.tables import journal

    def check(conn: Connection) -> None:
        assert conn.dialect.driver in PLAIN_DRIVERS  # this driver's cursor is used directly
        with conn.begin():
            if conn.dialect.name == "postgresql":  # rows without their parents, as on SQLite
                conn.exec_driver_sql("SET LOCAL session_replication_role = replica")
            opened = journal._OPEN_HAND.run(
                conn,
                {
                    "table_id": 7,
                    "number": 1,
                    "status": "playing",
                    "commitment": "c0ffee",
                    "start_state_id": 3,
                    "started_at": 12,  # an int: the Float column's conversion makes it 12.0
                },
            )
            hand = inserted_id(opened)
            settled = journal._SETTLE_HAND.run(conn, {"h_id": hand, "h_at": 15, "h_history": "{}"})
            again = journal._SETTLE_HAND.run(conn, {"h_id": hand, "h_at": 16, "h_history": "{}"})
            row = conn.execute(
                text("SELECT status, finished_at FROM hands WHERE id = :h"), {"h": hand}
            ).one()
            assert (settled.rowcount, again.rowcount) == (
                1,
                0,
            )  # 'playing' bound from the statement
            assert tuple(row) == ("settled", 15.0)
            assert isinstance(row[1], float)  # stored as a number with a fraction, not 15
            assert journal._OPEN_HAND._plain(conn, ("table_id",)) is not None  # ran plainly
            # transfers.memo has a default SQLAlchemy computes: that statement is left to it
            transfers = Prepared(insert(Table("transfers", Base.metadata)))
            ledger_row = {
                "key": "k1",
                "debit_id": 1,
                "credit_id": 2,
                "amount": 5,
                "reason": "test",
                "created_at": 1.0,
            }
            assert transfers._plain(conn, tuple(ledger_row)) is None
            transfers.run(conn, ledger_row)
            memo = conn.execute(text("SELECT memo FROM transfers WHERE key = 'k1'")).scalar()
            assert memo == ""
            with pytest.raises(KeyError):  # a row short of a value: an error, never a NULL
                journal._SEAT_HAND.run(
                    conn, [{"hand_id": hand, "seat": 0, "user_id": 1}, {"hand_id": hand, "seat": 1}]
                )
            write = journal._WRITE_JOURNAL
            entry = {
                "table_id": 7,
                "state_id": 4,
                "action": "{}",
                "user_id": 1,
                "client_id": "a-1",
                "created_at": 1.0,
            }
            write.run(conn, entry)
            with pytest.raises(IntegrityError), conn.begin_nested():  # the same id at the table
                write.run(conn, entry)
            entries = conn.execute(text("SELECT count(*) FROM journal")).scalar()
            assert entries == 1

    if database_url.startswith("sqlite"):
        engine = create_engine(f"sqlite:///{tmp_path / 'prepared.db'}")  # the writer's driver
        Base.metadata.create_all(engine)
        with engine.connect() as conn:
            check(conn)
        engine.dispose()
        return

    async def on_postgres() -> None:
        engine = create_async_engine(database_url)
        try:
            async with engine.begin() as conn:
                await conn.run_sync(Base.metadata.create_all)
            async with engine.connect() as conn:
                await conn.run_sync(check)
        finally:
            await engine.dispose()

    asyncio.run(on_postgres())


def test_the_wal_starts_again_under_a_steady_load(tmp_path: Path) -> None:
    """Writes that never pause still let SQLite start its WAL again at each checkpoint, where
    it once grew forever (12 GB in 16 minutes at 1,000 tables, issue 33): every checkpoint
    that did not find readers busy is followed by a new WAL (its header's checkpoint sequence
    number goes up at each start), though the writer appended all the while it ran."""
    import struct

    from thirteen.server.db.writer import CHECKPOINT_PIECES

    url = f"sqlite+aiosqlite:///{tmp_path / 'steady.db'}"
    wal = tmp_path / "steady.db-wal"

    def sequence() -> int:
        """The WAL header's checkpoint sequence number: one more each time the WAL starts."""
        return int(struct.unpack(">I", wal.read_bytes()[12:16])[0])

    async def body(db: Database) -> tuple[int, int, int]:
        db.writer.checkpoint_seconds = 0.0  # every CHECKPOINT_PIECES, however soon

        async def steady(first: int, count: int) -> int:
            """``count`` grants with 32 always waiting (the writer never runs dry), and more
            while a checkpoint runs: it always has writes to fall behind; the next first."""
            waiting: set[asyncio.Future[int]] = set()
            i = first
            while i < first + count or db.writer.checkpointing:
                waiting.add(asyncio.ensure_future(db.write(grant(f"p{i}", 1))))
                i += 1
                if len(waiting) >= 32:
                    _, waiting = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            await asyncio.gather(*waiting)
            return i

        start = await steady(0, CHECKPOINT_PIECES - 40)  # no checkpoint yet
        before = sequence()
        for _ in range(6):
            start = await steady(start, CHECKPOINT_PIECES)
        await db.write(grant("last", 1))  # a write after the last checkpoint starts the WAL
        stats = db.writer.stats
        return sequence() - before, stats.checkpoints, stats.checkpoints_busy

    started, checkpoints, busy = run_with_db(url, body)
    assert checkpoints >= 6
    assert busy < checkpoints
    # (one checkpoint may have run before the first reading: writes go on while it runs)
    assert started >= checkpoints - busy - 1, (started, checkpoints, busy)


def test_checkpoints_wait_their_time_apart(tmp_path: Path) -> None:
    """However many pieces are written, a checkpoint starts only ``checkpoint_seconds`` after
    the one before it (a busy room checkpoints once a second, not four times): the first comes
    after CHECKPOINT_PIECES, none after that within the hour; with no time asked between them,
    one every CHECKPOINT_PIECES."""
    from thirteen.server.db.writer import CHECKPOINT_PIECES

    def checkpoints(seconds: float) -> int:
        async def body(db: Database) -> int:
            db.writer.checkpoint_seconds = seconds
            for stretch in range(4):
                await asyncio.gather(
                    *(db.write(grant(f"p{stretch}-{i}", 1)) for i in range(CHECKPOINT_PIECES))
                )
                await db.writer.checkpoint_ended()
            assert db.writer.stats.pieces == 4 * CHECKPOINT_PIECES
            return db.writer.stats.checkpoints

        return run_with_db(f"sqlite+aiosqlite:///{tmp_path / f'{seconds}.db'}", body)

    assert checkpoints(3600.0) == 1
    assert checkpoints(0.0) == 4  # the same writes, with no time between checkpoints


def test_a_plain_statement_binds_a_row_in_its_order() -> None:
    """How :class:`Prepared` binds a row on the driver's cursor: the statement's names in
    order, a value written in the statement unless the row gives its own, a conversion only
    of a value that is not NULL, and a row short of a name a ``KeyError``, never a NULL."""
    import pytest

    from thirteen.server.db.writer import _Plain

    def plain(order: tuple[str, ...], fixed: dict[str, Any] | None = None) -> _Plain:
        convert = tuple(float if name == "at" else None for name in order)
        return _Plain("SQL", order, convert, fixed or {}, sqlite3.Error)

    two = plain(("id", "at", "status"), {"status": "playing"})
    assert two.values({"id": 7, "at": 3}) == (7, 3.0, "playing")
    assert isinstance(two.values({"id": 7, "at": 3})[1], float)
    assert two.values({"id": 7, "at": None, "status": "settled"}) == (7, None, "settled")
    assert plain(("id",)).values({"id": 9, "extra": 1}) == (9,)
    assert plain(()).values({"id": 9}) == ()
    with pytest.raises(KeyError):
        two.values({"at": 3})


def test_a_first_piece_goes_alone_ahead_of_what_waits(database_url: str) -> None:
    """A piece written ``first`` (the process's heartbeat) runs in the next transaction, alone,
    ahead of every piece queued before it: it waits for the batch being written at most, never
    for the backlog."""
    ran: list[str] = []

    def noting(name: str, work: Callable[[Connection], Any]) -> Callable[[Connection], Any]:
        def piece(conn: Connection) -> Any:
            ran.append(name)
            return work(conn)

        return piece

    async def body(db: Database) -> tuple[int, int]:
        db.writer.max_batch = 2
        users = [f"p{i}" for i in range(5)]
        await asyncio.gather(
            *(db.write(noting(u, grant(u, 10))) for u in users),
            db.write(noting("beat", grant("beat", 1)), first=True),
        )
        return db.writer.stats.batches, db.writer.stats.largest

    batches, largest = run_with_db(database_url, body)
    assert ran == ["beat", "p0", "p1", "p2", "p3", "p4"]
    # the beat alone, then the five two by two: with the beat filling its batch, three
    assert (batches, largest) == (4, 2)
    held, _, problems = asyncio.run(wallets(database_url))
    assert held == {"beat": 1, **{f"p{i}": 10 for i in range(5)}}
    assert problems == []
