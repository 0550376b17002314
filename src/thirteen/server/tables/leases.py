"""Table leases: each table is run by exactly one room process at a time.

A table's row names the process that runs it (``lease_owner``) and carries a **fencing token**
(``lease_token``) that grows by one at every change of owner. Whether a process is alive is a
row of its own (``room_processes``): its name and until when it is alive unless it beats again
(:func:`heartbeat`, a few times per lease period). A lease holds while its owner is alive; a
process takes a table that nobody holds, whose owner is no longer alive, or that was its own
before a restart (:func:`acquire`), and gives a table back when it stops (:func:`release`).

Every write a table makes checks first, in its own transaction, that the token is still the one
its process took (:func:`fence_sync`): on PostgreSQL it reads the table's row ``FOR SHARE``, so a
takeover waits for a write in flight and a write after a takeover fails. A process that lost a
table — paused past its lease, cut off from the database — can therefore never write to it
again, whatever its clock says; clocks only decide *when* another process may take over.

Renewing touches one row, the process's own, which no table's write ever locks: renewing
every table's row instead deadlocked on PostgreSQL with the writes holding some of those rows
``FOR SHARE`` (found by ``thirteen bench room --processes``).
"""

from __future__ import annotations

import os
import socket
import time
from functools import partial
from typing import cast

from sqlalchemy import Table, bindparam, exists, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.selectable import Exists

from thirteen.server.db.models import LIVE, GameTable, RoomProcess
from thirteen.server.db.session import Database
from thirteen.server.db.writer import Prepared

_TABLES = cast(Table, GameTable.__table__)
_PROCESSES = cast(Table, RoomProcess.__table__)
_FENCE = Prepared(
    select(_TABLES.c.lease_token)
    .where(_TABLES.c.id == bindparam("f_id"))
    .with_for_update(read=True)  # FOR SHARE on PostgreSQL; SQLite's writer holds the file lock
)

_BEAT = Prepared(
    update(_PROCESSES)
    .where(_PROCESSES.c.name == bindparam("b_name"))
    .values(alive_until=bindparam("b_until"))
)
_BORN = Prepared(insert(_PROCESSES))


class LeaseLostError(Exception):
    """This process no longer holds the table's lease: it must not write to the table again."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id}: another process holds its lease now")
        self.table_id = table_id


def default_process_name(port: int | None = None) -> str:
    """``HOST:PORT`` for a served process (the same after a restart), else ``HOST:pid``."""
    return f"{socket.gethostname()}:{port if port is not None else f'pid{os.getpid()}'}"


async def heartbeat(db: Database, me: str, seconds: float) -> None:
    """``me`` is alive for ``seconds`` more (its leases with it).

    A piece of the group writer, as every frequent write of the room is: a transaction of its
    own through the async engine took SQLite's write lock across the loop's turns, and the
    tables' writes waited behind it every beat (at 1,000 tables 3-22 ms, the room's p99;
    issue 33, ``benchmarks/README.md``). It goes ``first``, ahead of the tables' backlog: a
    process slow to write is still alive, and its tables must not move for a slow queue."""
    until = time.time() + seconds
    for _ in range(2):  # a first beat inserts the row; two first beats at once: one updates
        try:
            await db.write(partial(_beat, me=me, until=until), first=True)
            return
        except IntegrityError:
            continue


def _beat(conn: Connection, *, me: str, until: float) -> None:
    beat = _BEAT.run(conn, {"b_name": me, "b_until": until})
    if beat.rowcount != 1:
        _BORN.run(conn, {"name": me, "started_at": time.time(), "alive_until": until})


def _alive(now: float) -> Exists:
    """SQL: the table's owner is a process alive at ``now``."""
    return exists().where(RoomProcess.name == GameTable.lease_owner, RoomProcess.alive_until >= now)


async def live_processes(db: Database) -> set[str]:
    """The names of the processes alive now."""
    async with db.begin() as s:
        rows = await s.scalars(
            select(RoomProcess.name).where(RoomProcess.alive_until >= time.time())
        )
        return set(rows)


async def holders(db: Database) -> dict[int, str | None]:
    """Every open (or closing) table's process now (``None``: nobody alive holds it)."""
    now = time.time()
    async with db.begin() as s:
        rows = await s.execute(
            select(GameTable.id, GameTable.lease_owner, RoomProcess.alive_until)
            .outerjoin(RoomProcess, RoomProcess.name == GameTable.lease_owner)
            .where(GameTable.status.in_(LIVE))
        )
        return {
            int(table_id): owner if owner is not None and (until or 0.0) >= now else None
            for table_id, owner, until in rows
        }


async def acquire(db: Database, table_id: int, me: str) -> int | None:
    """Take table ``table_id``'s lease if nobody alive holds it (or it was ``me``'s already):
    its new fencing token, or ``None`` when another live process holds it."""
    async with db.begin() as s:
        taken = await s.execute(
            update(GameTable)
            .where(
                GameTable.id == table_id,
                GameTable.status.in_(LIVE),
                or_(
                    GameTable.lease_owner.is_(None),
                    GameTable.lease_owner == me,
                    ~_alive(time.time()),
                ),
            )
            .values(lease_owner=me, lease_token=GameTable.lease_token + 1)
            .execution_options(synchronize_session=False)
        )
        if getattr(taken, "rowcount", 0) != 1:
            return None
        token = await s.scalar(select(GameTable.lease_token).where(GameTable.id == table_id))
    return int(token) if token is not None else None


async def renew(db: Database, me: str, seconds: float) -> dict[int, int]:
    """Beat (alive ``seconds`` more); each table ``me`` still holds, with its token."""
    await heartbeat(db, me, seconds)
    async with db.begin() as s:
        rows = await s.execute(
            select(GameTable.id, GameTable.lease_token).where(GameTable.lease_owner == me)
        )
        return {int(table_id): int(token) for table_id, token in rows}


async def release(db: Database, table_id: int, token: int) -> None:
    """Give the table back (if the lease is still this token's) for another process at once."""
    async with db.begin() as s:
        await s.execute(
            update(GameTable)
            .where(GameTable.id == table_id, GameTable.lease_token == token)
            .values(lease_owner=None)
            .execution_options(synchronize_session=False)
        )


async def retire(db: Database, *names: str) -> None:
    """These processes are no longer alive (what they still hold is free at once): a process
    that stops says so of itself, and the others of one gone from the bus (:mod:`.placement`)."""
    async with db.begin() as s:
        await s.execute(
            update(RoomProcess)
            .where(RoomProcess.name.in_(names))
            .values(alive_until=0.0)
            .execution_options(synchronize_session=False)
        )


def fence_sync(conn: Connection, table_id: int, token: int) -> None:
    """Raise :class:`LeaseLostError` (failing the transaction) unless ``token`` is still the
    table's: the first statement of every write a table makes."""
    if _FENCE.run(conn, {"f_id": table_id}).scalar() != token:
        raise LeaseLostError(table_id)


async def fence(session: AsyncSession, table_id: int, token: int) -> None:
    """:func:`fence_sync` in an async session's transaction."""
    current = await session.scalar(
        select(GameTable.lease_token).where(GameTable.id == table_id).with_for_update(read=True)
    )
    if current != token:
        raise LeaseLostError(table_id)


__all__ = [
    "LeaseLostError",
    "acquire",
    "default_process_name",
    "fence",
    "fence_sync",
    "heartbeat",
    "holders",
    "live_processes",
    "release",
    "renew",
    "retire",
]
