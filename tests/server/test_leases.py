"""Table leases: one holder at a time, taken over only once the holder is no longer alive (or by
the same process after its restart), and a fencing token that stops every write of a holder
that lost it — on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from services import run_with_db
from sqlalchemy import select

from thirteen.server.db.models import GameTable
from thirteen.server.db.session import Database
from thirteen.server.metrics import Metrics
from thirteen.server.money.accounts import Accounts
from thirteen.server.room import Room, TableSpec, insert_table
from thirteen.server.settings import Settings
from thirteen.server.tables import leases
from thirteen.server.tables.owner import TableOwner


def test_one_holder_a_token_per_holder_and_fenced_writes(database_url: str) -> None:
    async def body(db: Database) -> None:
        table = await insert_table(db, TableSpec(preset="chinese-2-4"))
        for name in "abc":
            await leases.heartbeat(db, name, 30)
        assert await leases.live_processes(db) >= {"a", "b", "c"}
        first = await leases.acquire(db, table, "a")
        assert first is not None
        # b cannot take a live process's table; a's beat keeps it
        assert await leases.acquire(db, table, "b") is None
        assert await leases.renew(db, "a", 30) == {table: first}
        assert await leases.renew(db, "b", 30) == {}
        assert (await leases.holders(db))[table] == "a"
        # a's write goes through while the token is a's
        async with db.engine.begin() as conn:
            await conn.run_sync(leases.fence_sync, table, first)
        # a stops beating: once it is no longer alive, b takes the table with a new token
        await leases.heartbeat(db, "a", -1)
        assert (await leases.holders(db))[table] is None
        second = await leases.acquire(db, table, "b")
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
        assert await leases.acquire(db, table, "c") is None
        await leases.release(db, table, second)
        third = await leases.acquire(db, table, "c")
        assert third == second + 1
        # a process restarted under its name takes its own table back (a new token)
        assert await leases.acquire(db, table, "c") == third + 1
        # a process that retires leaves its tables to the others at once
        await leases.retire(db, "c")
        assert "c" not in await leases.live_processes(db)
        assert await leases.acquire(db, table, "b") == third + 2
        async with db.begin() as s:
            row = (await s.execute(select(GameTable).where(GameTable.id == table))).scalar_one()
            assert (row.lease_owner, row.lease_token) == ("b", third + 2)
            row.status = "closed"
        # nobody takes a closed table
        await leases.retire(db, "b")
        assert await leases.acquire(db, table, "a") is None

    run_with_db(database_url, body)


def test_a_table_opened_while_the_leases_are_read_keeps_running(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A renewal reads which leases this process holds, then stops every table it runs whose
    lease is not among them. A table opened between the two is not among them, yet its lease
    is this process's: it must go on (found by the fuzz run: a player's first socket to a new
    table refused with "moving" until the room's next look took the table back)."""

    async def body(db: Database) -> None:
        room = Room(db, settings, Accounts(db, settings), Metrics())
        await leases.heartbeat(db, room.me, settings.lease_seconds)
        first = await room.create_table(TableSpec(preset="chinese-2-4"))
        opened: list[TableOwner] = []
        renew = leases.renew

        async def renew_then_open(db: Database, me: str, seconds: float) -> dict[int, int]:
            held = await renew(db, me, seconds)
            opened.append(await room.create_table(TableSpec(preset="ofc")))
            return held

        try:
            with monkeypatch.context() as patch:
                patch.setattr(leases, "renew", renew_then_open)
                await room.renew_leases()
            (second,) = opened
            assert room.owners == {first.id: first, second.id: second}
            assert not first.abandoned
            assert not second.abandoned
            # the next renewal sees the new lease: both go on
            await room.renew_leases()
            assert room.owners == {first.id: first, second.id: second}
            # a table whose lease another process took stops here
            await leases.heartbeat(db, room.me, -1)
            assert await leases.acquire(db, first.id, "other") == first.lease_token + 1
            await room.renew_leases()
            assert first.abandoned
            assert not second.abandoned
            assert await room.running(second.id) is second
        finally:
            await room.close()

    run_with_db(settings.database_url, body)
