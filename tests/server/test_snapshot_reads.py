"""An audit reads one moment of the ledger, even while transfers are being written."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.server.db.models import Transfer
from thirteen.server.db.session import Database, migrate
from thirteen.server.money import ledger


def test_a_snapshot_does_not_see_later_writes(database_url: str) -> None:
    async def main() -> tuple[int, int, int]:
        await migrate(database_url)
        db = Database(database_url)
        try:

            async def grant(session: AsyncSession, key: str, name: str) -> None:
                await ledger.transfer(
                    session,
                    key=key,
                    debit=await ledger.house(session),
                    credit=await ledger.account(session, name, "wallet"),
                    amount=5,
                    reason="grant",
                )

            async with db.begin() as s:
                await grant(s, "first", "wallet:a")
            async with db.snapshot() as s:
                before = await s.scalar(select(func.count()).select_from(Transfer))
                async with db.begin() as w:  # another writer, committed meanwhile
                    await grant(w, "more", "wallet:b")
                during = await s.scalar(select(func.count()).select_from(Transfer))
            async with db.begin() as s:
                after = await s.scalar(select(func.count()).select_from(Transfer))
            return int(before or 0), int(during or 0), int(after or 0)
        finally:
            await db.close()

    assert asyncio.run(main()) == (1, 1, 2)
