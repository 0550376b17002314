"""The audit reads the whole database at one moment, while tables go on writing: a transfer
committed halfway through its reads must not look like a ledger that does not add up."""

from __future__ import annotations

from sqlalchemy import func, select
from test_ledger import _grant, run_with_db

from thirteen.server.audit import _one_snapshot
from thirteen.server.db.models import Transfer
from thirteen.server.db.session import Database


def test_the_audit_reads_one_moment(database_url: str) -> None:
    async def body(db: Database) -> tuple[int, int]:
        await _grant(db, "ann", 500, "grant:1")
        async with db.begin() as s:
            await _one_snapshot(s, db)
            before = await s.scalar(select(func.count()).select_from(Transfer))
            await _grant(db, "ann", 500, "grant:2")  # another connection commits meanwhile
            after = await s.scalar(select(func.count()).select_from(Transfer))
        return int(before or 0), int(after or 0)

    assert run_with_db(database_url, body) == (1, 1)
