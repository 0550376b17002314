"""``thirteen admin audit``: does every chip and every hand add up?

- the ledger: each transfer moves a positive amount between two accounts, every cached balance
  equals its transfers, nothing but the house is overdrawn, and what accounts hold equals what
  the house issued;
- hands: every hand is settled exactly once or voided (a hand still playing only at an open
  table, and only its latest), each settled hand's pot is empty and its results sum to zero;
- seats: every escrow with chips belongs to a seat still taken; a closed table seats nobody.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.server import ledger
from thirteen.server.db.models import GameTable, Hand, HandSeat, LedgerAccount, Sitting
from thirteen.server.db.session import Database, is_sqlite


@dataclass
class AuditReport:
    totals: ledger.LedgerTotals | None = None
    hands: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


async def _one_snapshot(s: AsyncSession, db: Database) -> None:
    """Make every read below see the same moment, while tables go on writing: without this a
    hand settled between two reads looks like a ledger that does not add up."""
    if is_sqlite(db.url):
        await s.execute(text("BEGIN"))  # pysqlite would read each statement on its own
    else:  # PostgreSQL's default (read committed) takes a new snapshot for every statement
        await s.connection(execution_options={"isolation_level": "REPEATABLE READ"})


async def audit(db: Database) -> AuditReport:
    report = AuditReport()
    async with db.begin() as s:
        await _one_snapshot(s, db)
        report.totals, problems = await ledger.ledger_audit(s)
        report.problems.extend(problems)
        tables = {t.id: t for t in (await s.scalars(select(GameTable))).all()}
        hands = (await s.scalars(select(Hand).order_by(Hand.table_id, Hand.number))).all()
        report.hands = len(hands)
        latest: dict[int, int] = {}
        for hand in hands:
            latest[hand.table_id] = max(latest.get(hand.table_id, 0), hand.number)
        pots = {
            a.name: a.balance
            for a in (await s.scalars(select(LedgerAccount).where(LedgerAccount.kind == "pot")))
        }
        sums = dict(
            (
                await s.execute(
                    select(HandSeat.hand_id, func.sum(HandSeat.delta)).group_by(HandSeat.hand_id)
                )
            ).all()
        )
        for hand in hands:
            where = f"table {hand.table_id} hand {hand.number}"
            if hand.status == "playing":
                table = tables.get(hand.table_id)
                if table is None or table.status == "closed":
                    report.problems.append(f"{where} is still playing at a closed table")
                elif hand.number != latest[hand.table_id]:
                    report.problems.append(f"{where} never settled, yet later hands were dealt")
            elif hand.status == "settled":
                if hand.history is None:
                    report.problems.append(f"{where} settled without its history")
                if (sums.get(hand.id) or 0) != 0:
                    report.problems.append(f"{where}: results sum to {sums[hand.id]}, not zero")
            pot = pots.get(f"pot:t{hand.table_id}:h{hand.number}", 0)
            if pot and hand.status != "playing":
                report.problems.append(f"{where}: {pot} chips left in its pot")
        open_escrows = set(
            (await s.scalars(select(Sitting.escrow_id).where(Sitting.closed_at.is_(None)))).all()
        )
        escrows = (
            await s.scalars(select(LedgerAccount).where(LedgerAccount.kind == "escrow"))
        ).all()
        for escrow in escrows:
            if escrow.balance and escrow.id not in open_escrows:
                report.problems.append(
                    f"escrow {escrow.name} holds {escrow.balance} chips but its seat was left"
                )
        for sitting in (await s.scalars(select(Sitting).where(Sitting.closed_at.is_(None)))).all():
            table = tables.get(sitting.table_id)
            if table is None or table.status == "closed":
                report.problems.append(
                    f"table {sitting.table_id} is closed but seat {sitting.seat} is still taken"
                )
    return report


__all__ = ["AuditReport", "audit"]
