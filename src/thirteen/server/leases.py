"""Table leases: each table is run by exactly one room process at a time.

A process runs a table only while it holds the table's lease — a row's ``lease_owner``,
``lease_expires`` and ``lease_token`` in the ``tables`` table. It takes a lease that nobody
holds, that has run out, or that was its own before a restart (:func:`acquire`), renews every
lease it holds a few times per lease period (:func:`renew`), and gives a table back when it
stops (:func:`release`). Every change of owner adds one to the **fencing token**, and every write
a table makes checks first, in its own transaction, that the token is still the one its process
took (:func:`fence_sync`): on PostgreSQL the check reads the row ``FOR SHARE``, so a takeover
waits for a write in flight and a write after a takeover fails. A process that lost a table —
paused past its lease, cut off from the database — can therefore never write to it again,
whatever its clock says; clocks only decide *when* another process may take over.
"""

from __future__ import annotations

import os
import socket
import time
from typing import cast

from sqlalchemy import Table, bindparam, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.server.db.models import GameTable
from thirteen.server.db.session import Database

_TABLES = cast(Table, GameTable.__table__)
_FENCE = (
    select(_TABLES.c.lease_token)
    .where(_TABLES.c.id == bindparam("f_id"))
    .with_for_update(read=True)  # FOR SHARE on PostgreSQL; SQLite's writer holds the file lock
)


class LeaseLostError(Exception):
    """This process no longer holds the table's lease: it must not write to the table again."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id}: another process holds its lease now")
        self.table_id = table_id


def default_process_name(port: int | None = None) -> str:
    """``HOST:PORT`` for a served process (the same after a restart), else ``HOST:pid``."""
    return f"{socket.gethostname()}:{port if port is not None else f'pid{os.getpid()}'}"


async def acquire(db: Database, table_id: int, me: str, seconds: float) -> int | None:
    """Take table ``table_id``'s lease for ``seconds`` if it is free, run out or already
    ``me``'s; its new fencing token, or ``None`` when another process holds it."""
    now = time.time()
    async with db.begin() as s:
        taken = await s.execute(
            update(GameTable)
            .where(
                GameTable.id == table_id,
                GameTable.status != "closed",
                or_(
                    GameTable.lease_owner.is_(None),
                    GameTable.lease_owner == me,
                    GameTable.lease_expires < now,
                ),
            )
            .values(
                lease_owner=me,
                lease_token=GameTable.lease_token + 1,
                lease_expires=now + seconds,
            )
            .execution_options(synchronize_session=False)
        )
        if getattr(taken, "rowcount", 0) != 1:
            return None
        token = await s.scalar(select(GameTable.lease_token).where(GameTable.id == table_id))
    return int(token) if token is not None else None


async def renew(db: Database, me: str, seconds: float) -> dict[int, int]:
    """Extend every lease ``me`` holds by ``seconds``; each table still held, with its token."""
    async with db.begin() as s:
        await s.execute(
            update(GameTable)
            .where(GameTable.lease_owner == me)
            .values(lease_expires=time.time() + seconds)
            .execution_options(synchronize_session=False)
        )
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
            .values(lease_owner=None, lease_expires=0.0)
            .execution_options(synchronize_session=False)
        )


def fence_sync(conn: Connection, table_id: int, token: int) -> None:
    """Raise :class:`LeaseLostError` (failing the transaction) unless ``token`` is still the
    table's: the first statement of every write a table makes."""
    if conn.execute(_FENCE, {"f_id": table_id}).scalar() != token:
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
    "release",
    "renew",
]
