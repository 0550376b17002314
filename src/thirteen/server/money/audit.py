"""``thirteen admin audit``: does every chip and every hand add up?

- the ledger: each transfer moves a positive amount between two accounts, every cached balance
  equals its transfers, nothing but the house is overdrawn, and what accounts hold equals what
  the house issued;
- hands: every hand is settled exactly once or voided (a hand still playing only at an open
  table, and only its latest), each settled hand's pot is empty and its results sum to zero;
- seats: every escrow with chips belongs to a seat still taken; a closed table seats nobody;
- sit & gos: a tournament's escrow holds every buy-in while it registers or runs and nothing
  after; a finished one placed every entrant once (1 to n) and paid out exactly its pool; a
  cancelled one has no entrants left; a running one's table is not closed; its table holds
  every tournament chip dealt out (starting stack × entrants) after each hand;
- duplicate events: every hand at an event's table was dealt its group's deal (the one deck
  and salts its three tables share), and a running event has its round's tables;
- broken tables: a table set aside because its row could not be loaded is flagged, with the
  chips its seats hold, until an operator closes it (``thirteen admin table close``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.engine.history import snapshot_from_json
from thirteen.server.db.models import (
    DuplicateDeal,
    DuplicateEvent,
    DuplicateTable,
    GameTable,
    Hand,
    HandSeat,
    LedgerAccount,
    Sitting,
    Tournament,
    TournamentEntry,
    Transfer,
)
from thirteen.server.db.session import Database
from thirteen.server.money import ledger
from thirteen.server.money.ledger import escrow_name, is_escrow


@dataclass
class AuditReport:
    totals: ledger.LedgerTotals | None = None
    hands: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


async def audit(db: Database) -> AuditReport:
    report = AuditReport()
    async with db.snapshot() as s:
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
            if escrow.balance and escrow.id not in open_escrows and not is_escrow(escrow.name):
                report.problems.append(
                    f"escrow {escrow.name} holds {escrow.balance} chips but its seat was left"
                )
        held: dict[int, tuple[int, int]] = {}
        balances = {e.id: e.balance for e in escrows}
        for sitting in (await s.scalars(select(Sitting).where(Sitting.closed_at.is_(None)))).all():
            table = tables.get(sitting.table_id)
            if table is None or table.status == "closed":
                report.problems.append(
                    f"table {sitting.table_id} is closed but seat {sitting.seat} is still taken"
                )
            seats, chips = held.get(sitting.table_id, (0, 0))
            held[sitting.table_id] = (seats + 1, chips + balances.get(sitting.escrow_id, 0))
        for table in tables.values():
            if table.status == "broken":
                seats, chips = held.get(table.id, (0, 0))
                report.problems.append(
                    f"table {table.id} is broken ({table.broken_reason}): set aside with "
                    f"{chips:,} chips held for {seats} seats; thirteen admin table close "
                    f"{table.id} gives them back"
                )
        report.problems.extend(await _tournaments(s, tables))
        report.problems.extend(await _events(s, {h.id: h for h in hands}))
    return report


async def _events(s: AsyncSession, hands: dict[int, Hand]) -> list[str]:
    """Duplicate events: every hand at an event's table was dealt its group's deal (the deck
    and salts written for the three tables), and a running event has its round's tables."""
    problems: list[str] = []
    deals = {
        (d.event_id, d.round, d.grp, d.hand): (d.deck, d.salts)
        for d in (await s.scalars(select(DuplicateDeal))).all()
    }
    placed = {p.table_id: p for p in (await s.scalars(select(DuplicateTable))).all()}
    for hand in hands.values():
        p = placed.get(hand.table_id)
        if p is None or hand.history is None:
            continue
        dealt = json.loads(hand.history)["deal"]
        wanted = deals.get((p.event_id, p.round, p.grp, hand.number))
        if wanted is None or (dealt["deck"], dealt["salts"]) != (wanted[0], json.loads(wanted[1])):
            problems.append(
                f"event {p.event_id} round {p.round} table {hand.table_id} hand {hand.number} "
                "was not dealt its group's deal"
            )
    for row in (await s.scalars(select(DuplicateEvent))).all():
        if row.status == "running" and not any(
            p.event_id == row.id and p.round == row.round for p in placed.values()
        ):
            problems.append(f"event {row.id} is running round {row.round} without its tables")
    return problems


async def _tournaments(s: AsyncSession, tables: dict[int, GameTable]) -> list[str]:
    problems: list[str] = []
    escrows = {
        a.name: a.balance
        for a in (await s.scalars(select(LedgerAccount).where(LedgerAccount.kind == "escrow")))
        if is_escrow(a.name)
    }
    paid = dict(
        (
            await s.execute(
                select(Transfer.debit_id, func.sum(Transfer.amount))
                .where(Transfer.reason == "sng-payout")
                .group_by(Transfer.debit_id)
            )
        ).all()
    )
    ids = {
        a.name: a.id
        for a in (await s.scalars(select(LedgerAccount).where(LedgerAccount.kind == "escrow")))
    }
    for row in (await s.scalars(select(Tournament).order_by(Tournament.id))).all():
        where = f"sit & go {row.id}"
        entries = (
            await s.scalars(
                select(TournamentEntry).where(
                    TournamentEntry.tournament_id == row.id, TournamentEntry.withdrawn_at.is_(None)
                )
            )
        ).all()
        pool = row.buy_in * len(entries)
        held = escrows.get(escrow_name(row.id), 0)
        places = sorted(e.place for e in entries if e.place is not None)
        if len(entries) > row.seats:
            problems.append(f"{where} has {len(entries)} entrants for {row.seats} seats")
        if row.status in ("registering", "running") and held != pool:
            problems.append(f"{where} is {row.status}: its escrow holds {held}, not {pool}")
        if row.status in ("finished", "cancelled") and held != 0:
            problems.append(f"{where} is {row.status} but its escrow still holds {held}")
        if len(places) != len(set(places)):
            problems.append(f"{where} gave a place twice: {places}")
        if row.status == "running":
            table = tables.get(row.table_id) if row.table_id is not None else None
            if table is None or table.status == "closed":
                problems.append(f"{where} is running without an open table")
            if places and places != list(range(len(entries) - len(places) + 1, len(entries) + 1)):
                problems.append(f"{where}: places so far {places} are not the last ones")
        table = tables.get(row.table_id) if row.table_id is not None else None
        if table is not None and table.broken_reason is None:  # (one set aside: flagged above)
            state = snapshot_from_json(json.loads(table.snapshot))
            seated = [seat.stack for seat in state.seats if seat is not None]
            stacks = sum(seated)
            # (once the winner has left, a snapshot may seat nobody: nothing to count)
            if state.hands_played and seated and stacks != row.starting_stack * len(entries):
                problems.append(
                    f"{where}: its table holds {stacks} tournament chips after hand "
                    f"{state.hands_played}, not {row.starting_stack} for each of {len(entries)}"
                )
        if row.status == "finished":
            if places != list(range(1, len(entries) + 1)):
                problems.append(f"{where} finished with places {places}, not 1 to {len(entries)}")
            payouts = sum(e.payout or 0 for e in entries)
            out = int(paid.get(ids.get(escrow_name(row.id), -1), 0) or 0)
            if payouts != pool or out != pool:
                problems.append(
                    f"{where} paid {out} chips ({payouts} by its entries) of a pool of {pool}"
                )
        if row.status == "cancelled" and entries:
            problems.append(f"{where} was cancelled with {len(entries)} entrants left")
    return problems


__all__ = ["AuditReport", "audit"]
