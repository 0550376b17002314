"""Table leases: one holder at a time, taken over only when run out (or by the same process
after its restart), and a fencing token that stops every write of a holder that lost it — on
SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from services import run_with_db
from sqlalchemy import select

from thirteen.server import leases
from thirteen.server.db.models import GameTable
from thirteen.server.db.session import Database
from thirteen.server.room import TableSpec, insert_table


def test_one_holder_a_token_per_holder_and_fenced_writes(database_url: str) -> None:
    async def body(db: Database) -> None:
        table = await insert_table(db, TableSpec(preset="chinese-2-4"))
        first = await leases.acquire(db, table, "a", 30)
        assert first is not None
        # b cannot take a live lease; a renews it
        assert await leases.acquire(db, table, "b", 30) is None
        assert await leases.renew(db, "a", 30) == {table: first}
        assert await leases.renew(db, "b", 30) == {}
        # a's write goes through while the token is a's
        async with db.engine.begin() as conn:
            await conn.run_sync(leases.fence_sync, table, first)
        # a stops renewing: once its lease has run out, b takes the table with a new token
        await leases.renew(db, "a", -1)
        second = await leases.acquire(db, table, "b", 30)
        assert second == first + 1
        # from now on every write of a's fails, and a learns it has lost the table
        with pytest.raises(leases.LeaseLostError):
            async with db.engine.begin() as conn:
                await conn.run_sync(leases.fence_sync, table, first)
        with pytest.raises(leases.LeaseLostError):
            async with db.begin() as s:
                await leases.fence(s, table, first)
        assert await leases.renew(db, "a", 30) == {}
        # releasing with a stale token changes nothing; with b's it frees the table at once
        await leases.release(db, table, first)
        assert await leases.acquire(db, table, "c", 30) is None
        await leases.release(db, table, second)
        third = await leases.acquire(db, table, "c", 30)
        assert third == second + 1
        # a process restarted under its name takes its own live lease back (a new token)
        assert await leases.acquire(db, table, "c", 30) == third + 1
        async with db.begin() as s:
            row = (await s.execute(select(GameTable).where(GameTable.id == table))).scalar_one()
            assert (row.lease_owner, row.lease_token) == ("c", third + 1)
            row.status = "closed"
        # nobody takes a closed table
        await leases.renew(db, "c", -1)
        assert await leases.acquire(db, table, "d", 30) is None

    run_with_db(database_url, body)
