"""The chip ledger on SQLite and PostgreSQL: idempotent transfers, no overdraft even under
concurrency, and an audit that notices when anything does not add up."""

from __future__ import annotations

import asyncio

import pytest
from services import run_with_db
from sqlalchemy import func, select, update

from thirteen.server.db.models import LedgerAccount, Transfer
from thirteen.server.db.session import Database
from thirteen.server.money import ledger


async def _grant(db: Database, user: str, amount: int, key: str) -> None:
    async with db.begin() as s:
        await ledger.transfer(
            s,
            key=key,
            debit=await ledger.house(s),
            credit=await ledger.account(s, f"wallet:{user}", "wallet"),
            amount=amount,
            reason="grant",
        )


def test_a_key_moves_chips_once(database_url: str) -> None:
    async def body(db: Database) -> tuple[int, int, list[str]]:
        for _ in range(3):
            await _grant(db, "ann", 500, "grant:ann")
        async with db.begin() as s:
            wallet = await ledger.account(s, "wallet:ann", "wallet")
            count = await s.scalar(select(func.count()).select_from(Transfer))
            totals, problems = await ledger.ledger_audit(s)
            assert totals.issued == totals.held == 500
            return wallet.balance, int(count or 0), problems

    assert run_with_db(database_url, body) == (500, 1, [])


def test_a_used_key_cannot_move_something_else(database_url: str) -> None:
    async def body(db: Database) -> str:
        await _grant(db, "ann", 500, "grant:ann")
        try:
            await _grant(db, "ann", 900, "grant:ann")
        except ledger.LedgerError as e:
            return e.code
        return "accepted"

    assert run_with_db(database_url, body) == "key_reused"


def test_no_overdraft_and_a_refusal_changes_nothing(database_url: str) -> None:
    async def body(db: Database) -> tuple[str, int, int]:
        await _grant(db, "ann", 100, "grant:ann")
        code = ""
        try:
            async with db.begin() as s:
                await ledger.transfer(
                    s,
                    key="too-much",
                    debit=await ledger.account(s, "wallet:ann", "wallet"),
                    credit=await ledger.account(s, "escrow:1", "escrow"),
                    amount=101,
                    reason="buy-in",
                )
        except ledger.LedgerError as e:
            code = e.code
        async with db.begin() as s:
            ann = await ledger.account(s, "wallet:ann", "wallet")
            escrow = await ledger.account(s, "escrow:1", "escrow")
            return code, ann.balance, escrow.balance

    assert run_with_db(database_url, body) == ("insufficient_chips", 100, 0)


def test_concurrent_spending_never_overdraws(database_url: str) -> None:
    """Twenty buy-ins of 30 race for 100 chips: exactly three succeed, on either database."""

    async def body(db: Database) -> tuple[int, int, list[str]]:
        await _grant(db, "ann", 100, "grant:ann")

        async def buy_in(i: int) -> bool:
            try:
                async with db.begin() as s:
                    await ledger.transfer(
                        s,
                        key=f"buy-in:{i}",
                        debit=await ledger.account(s, "wallet:ann", "wallet"),
                        credit=await ledger.account(s, f"escrow:{i}", "escrow"),
                        amount=30,
                        reason="buy-in",
                    )
            except ledger.LedgerError:
                return False
            return True

        results = await asyncio.gather(*(buy_in(i) for i in range(20)))
        async with db.begin() as s:
            ann = await ledger.account(s, "wallet:ann", "wallet")
            _, problems = await ledger.ledger_audit(s)
            return sum(results), ann.balance, problems

    assert run_with_db(database_url, body) == (3, 10, [])


@pytest.mark.parametrize("tamper", ["cached balance", "forged transfer"])
def test_the_audit_notices_tampering(database_url: str, tamper: str) -> None:
    async def body(db: Database) -> list[str]:
        await _grant(db, "ann", 100, "grant:ann")
        async with db.begin() as s:
            ann = await ledger.account(s, "wallet:ann", "wallet")
            if tamper == "cached balance":
                await s.execute(
                    update(LedgerAccount).where(LedgerAccount.id == ann.id).values(balance=1_000)
                )
            else:
                bob = await ledger.account(s, "wallet:bob", "wallet")
                s.add(
                    Transfer(
                        key="forged",
                        debit_id=ann.id,
                        credit_id=bob.id,
                        amount=50,
                        reason="forged",
                        memo="",
                        created_at=0.0,
                    )
                )
        async with db.begin() as s:
            return (await ledger.ledger_audit(s))[1]

    problems = run_with_db(database_url, body)
    assert problems
    assert any("wallet:ann" in p for p in problems)
