"""Tables set aside: a table whose stored row cannot be loaded never stops the room.

A row may hold what today's room cannot read — rules written before their schema (a timer of
``1e999``), a snapshot or a journal entry that is not what the table wrote. Loading such a table
fails the same way every time, so the process that tried sets it aside (:func:`set_aside`): its
status becomes ``broken`` with the reason, once (so it is logged once), and no process takes it
again; every other table runs. Its seats keep their chips in their escrows, and a hand it was
playing stays as it was, until an operator closes it (:func:`close_broken`: every seat's chips
back to its wallet, the hand voided — nothing of it had moved). ``thirteen admin table list``
shows it and ``thirteen admin audit`` flags it until then.

A failure that says nothing of the row — the database away, the lease lost — is not the row's
fault (:func:`row_at_fault`): the table is tried again at the next look.
"""

from __future__ import annotations

import logging
import time

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.server.db.models import LIVE, GameTable, Hand, LedgerAccount, Sitting
from thirteen.server.db.session import Database, lock_row
from thirteen.server.money import ledger

log = logging.getLogger("thirteen.server.room")

_ROW_FAULTS = (ValueError, TypeError, LookupError, AssertionError, RuntimeError, ArithmeticError)
"""What reading a row that is not what the room wrote raises: bad JSON, a refused setting (the
engine's errors are ``ValueError``\\ s), a missing key, a journal out of step, an overflow."""


def row_at_fault(error: BaseException) -> bool:
    """Whether loading a table failed because of what its row holds (it would fail again)."""
    return isinstance(error, _ROW_FAULTS)


def reason_of(error: BaseException) -> str:
    """The reason kept and logged: the error's kind and sentence, one short line."""
    text = " ".join(str(error).split()) or "no message"
    return f"{type(error).__name__}: {text}"[:500]


async def set_aside(db: Database, table_id: int, token: int, error: BaseException) -> bool:
    """Mark the table ``broken`` with the reason (if this process still holds its lease,
    ``token``, and it is still live) and give its lease back; whether it did."""
    reason = reason_of(error)
    async with db.begin() as s:
        done = await s.execute(
            update(GameTable)
            .where(
                GameTable.id == table_id,
                GameTable.lease_token == token,
                GameTable.status.in_(LIVE),
            )
            .values(status="broken", broken_reason=reason, lease_owner=None)
            .execution_options(synchronize_session=False)
        )
    if getattr(done, "rowcount", 0) != 1:
        return False
    log.error(
        "table set aside: its stored row cannot be loaded; its seats keep their chips until "
        "thirteen admin table close",
        extra={"table": table_id, "reason": reason},
    )
    return True


class NotBrokenError(Exception):
    """:func:`close_broken` on a table that is not set aside."""


async def close_broken(s: AsyncSession, table_id: int) -> dict[int, int]:
    """Close a broken table in the caller's transaction: every open seat's chips back to its
    wallet and its sitting closed, a hand it was playing voided (nothing of a hand moves
    before it settles), the table ``closed`` (its reason kept). What each seat got back, by
    account id (``{}``: none held chips)."""
    row = await lock_row(s, GameTable, table_id)
    if row is None or row.status != "broken":
        raise NotBrokenError(table_id)
    now = time.time()
    paid: dict[int, int] = {}
    sittings = (
        await s.scalars(
            select(Sitting).where(Sitting.table_id == table_id, Sitting.closed_at.is_(None))
        )
    ).all()
    for sitting in sittings:
        escrow = await s.get_one(LedgerAccount, sitting.escrow_id)
        held = escrow.balance
        if held > 0:
            await ledger.transfer(
                s,
                key=f"broken-refund:t{table_id}:s{sitting.id}",
                debit=escrow,
                credit=await ledger.wallet(s, sitting.user_id),
                amount=held,
                reason="cash-out",
                memo=f"{row.name} (set aside as broken, closed by an operator)",
            )
            paid[sitting.user_id] = paid.get(sitting.user_id, 0) + held
        sitting.closed_at = now
    await s.execute(
        update(Hand)
        .where(Hand.table_id == table_id, Hand.status == "playing")
        .values(status="voided", finished_at=now)
        .execution_options(synchronize_session=False)
    )
    row.status = "closed"
    log.info("broken table closed", extra={"table": table_id, "refunded": sum(paid.values())})
    return paid


__all__ = ["NotBrokenError", "close_broken", "reason_of", "row_at_fault", "set_aside"]
