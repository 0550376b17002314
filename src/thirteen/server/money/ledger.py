"""The chip ledger: double-entry, integer, immutable transfers with idempotency keys.

Every movement of chips is one :class:`Transfer` from a debit account to a credit account; its
``key`` names the business fact it records (``grant:7``, ``buy-in:…``, ``hand:…:seat:2``), so
writing it again — a retry after a crash, a resent request — finds the first one and moves
nothing. An account's balance is the sum of its transfers; the cached ``balance`` column exists
so that one conditional ``UPDATE`` can refuse an overdraft under concurrency, and
:func:`audit` proves it equal to the transfers.

The house is the only account that may go below zero: its balance is minus everything it has
issued, so all balances together always sum to zero.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Table, bindparam, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.engine.errors import RuleError
from thirteen.server.db.models import LedgerAccount, Transfer
from thirteen.server.db.writer import Prepared, inserted_id

HOUSE = "house"


def wallet_name(user_id: int) -> str:
    return f"wallet:{user_id}"


def escrow_name(tournament_id: int) -> str:
    """The ledger account of a sit & go's escrow (its buy-ins, until the prizes are paid)."""
    return f"sng:{tournament_id}"


def is_escrow(name: str) -> bool:
    """Whether a ledger account is a tournament's escrow (not a seat's)."""
    return name.startswith("sng:")


class LedgerError(RuleError):
    """A transfer that cannot happen (not enough chips, a key reused for another movement)."""


async def account(
    session: AsyncSession, name: str, kind: str, user_id: int | None = None
) -> LedgerAccount:
    """The ledger account called ``name``, opened (empty) if it does not exist yet."""
    found = await session.scalar(select(LedgerAccount).where(LedgerAccount.name == name))
    if found is not None:
        return found
    opened = LedgerAccount(name=name, kind=kind, user_id=user_id, balance=0, created_at=time.time())
    session.add(opened)
    await session.flush()
    return opened


async def house(session: AsyncSession) -> LedgerAccount:
    return await account(session, HOUSE, "house")


async def wallet(session: AsyncSession, user_id: int) -> LedgerAccount:
    return await account(session, wallet_name(user_id), "wallet", user_id)


async def transfer(
    session: AsyncSession,
    *,
    key: str,
    debit: LedgerAccount,
    credit: LedgerAccount,
    amount: int,
    reason: str,
    memo: str = "",
) -> Transfer:
    """Move ``amount`` chips from ``debit`` to ``credit`` in the caller's transaction.

    The same ``key`` again returns the first transfer and moves nothing (a different movement
    under a used key is refused). Raises :class:`LedgerError` ``insufficient_chips`` when
    ``debit`` (not the house) holds less than ``amount``.
    """
    if amount <= 0:
        raise LedgerError("bad_amount", "A transfer moves a positive whole number of chips.")
    if debit.id == credit.id:
        raise LedgerError("bad_transfer", "A transfer moves chips between two accounts.")
    existing = await session.scalar(select(Transfer).where(Transfer.key == key))
    if existing is not None:
        same = (existing.debit_id, existing.credit_id, existing.amount) == (
            debit.id,
            credit.id,
            amount,
        )
        if not same:
            raise LedgerError("key_reused", f"The transfer {key!r} was already made differently.")
        return existing
    # Lock the two rows in id order (no deadlock between two opposite transfers).
    for acc in sorted((debit, credit), key=lambda a: a.id):
        if acc is debit:
            taken = await session.execute(
                update(LedgerAccount)
                .where(
                    LedgerAccount.id == debit.id,
                    (LedgerAccount.kind == "house") | (LedgerAccount.balance >= amount),
                )
                .values(balance=LedgerAccount.balance - amount)
                .execution_options(synchronize_session=False)
            )
            if taken.rowcount != 1:  # type: ignore[attr-defined]
                raise LedgerError(
                    "insufficient_chips", f"There are not {amount:,} chips to move from there."
                )
        else:
            await session.execute(
                update(LedgerAccount)
                .where(LedgerAccount.id == credit.id)
                .values(balance=LedgerAccount.balance + amount)
                .execution_options(synchronize_session=False)
            )
    made = Transfer(
        key=key,
        debit_id=debit.id,
        credit_id=credit.id,
        amount=amount,
        reason=reason,
        memo=memo,
        created_at=time.time(),
    )
    session.add(made)
    await session.flush()
    await session.refresh(debit)
    await session.refresh(credit)
    return made


# ----------------------------------------------------------------------------- Core, synchronous
# The same movements for the group writer (:mod:`thirteen.server.db.writer`): Core statements on
# a synchronous connection, inside the writer's transaction, no ORM unit of work. The statements
# are built once, with bound parameters, so each use only binds values (building and hashing a
# statement cost more than SQLite running it).

_ACCOUNTS = cast(Table, LedgerAccount.__table__)
_TRANSFERS = cast(Table, Transfer.__table__)
_ACCOUNT_ID = Prepared(select(_ACCOUNTS.c.id).where(_ACCOUNTS.c.name == bindparam("a_name")))
_ACCOUNT_BALANCE = Prepared(select(_ACCOUNTS.c.balance).where(_ACCOUNTS.c.id == bindparam("a_id")))
_OPEN_ACCOUNT = Prepared(insert(_ACCOUNTS))
_TAKE = Prepared(
    update(_ACCOUNTS)
    .where(
        _ACCOUNTS.c.id == bindparam("a_id"),
        (_ACCOUNTS.c.kind == "house") | (_ACCOUNTS.c.balance >= bindparam("a_amount")),
    )
    .values(balance=_ACCOUNTS.c.balance - bindparam("a_amount"))
)
_GIVE = Prepared(
    update(_ACCOUNTS)
    .where(_ACCOUNTS.c.id == bindparam("a_id"))
    .values(balance=_ACCOUNTS.c.balance + bindparam("a_amount"))
)
_TRANSFER_BY_KEY = Prepared(
    select(_TRANSFERS.c.debit_id, _TRANSFERS.c.credit_id, _TRANSFERS.c.amount).where(
        _TRANSFERS.c.key == bindparam("t_key")
    )
)
_RECORD_TRANSFER = Prepared(insert(_TRANSFERS))


def account_id_sync(conn: Connection, name: str, kind: str, user_id: int | None = None) -> int:
    """The id of the ledger account called ``name``, opened (empty) if it does not exist yet."""
    found = _ACCOUNT_ID.run(conn, {"a_name": name}).scalar()
    if found is not None:
        return int(found)
    opened = _OPEN_ACCOUNT.run(
        conn,
        {"name": name, "kind": kind, "user_id": user_id, "balance": 0, "created_at": time.time()},
    )
    return inserted_id(opened)


def _take_sync(conn: Connection, account_id: int, amount: int) -> None:
    """Debit ``amount`` from the account's cached balance, refused if that would overdraw it
    (the house excepted)."""
    taken = _TAKE.run(conn, {"a_id": account_id, "a_amount": amount})
    if taken.rowcount != 1:
        raise LedgerError(
            "insufficient_chips", f"There are not {amount:,} chips to move from there."
        )


def _give_sync(conn: Connection, account_id: int, amount: int) -> None:
    _GIVE.run(conn, {"a_id": account_id, "a_amount": amount})


def transfer_sync(
    conn: Connection,
    *,
    key: str,
    debit_id: int,
    credit_id: int,
    amount: int,
    reason: str,
    memo: str = "",
) -> None:
    """:func:`transfer` in Core on a synchronous connection: the same key again moves nothing
    (another movement under it is refused); an overdraft raises ``insufficient_chips``."""
    if amount <= 0:
        raise LedgerError("bad_amount", "A transfer moves a positive whole number of chips.")
    if debit_id == credit_id:
        raise LedgerError("bad_transfer", "A transfer moves chips between two accounts.")
    existing = _TRANSFER_BY_KEY.run(conn, {"t_key": key}).first()
    if existing is not None:
        if tuple(existing) != (debit_id, credit_id, amount):
            raise LedgerError("key_reused", f"The transfer {key!r} was already made differently.")
        return
    for account_id in sorted((debit_id, credit_id)):  # lock in id order, as transfer() does
        if account_id == debit_id:
            _take_sync(conn, debit_id, amount)
        else:
            _give_sync(conn, credit_id, amount)
    _RECORD_TRANSFER.run(
        conn,
        {
            "key": key,
            "debit_id": debit_id,
            "credit_id": credit_id,
            "amount": amount,
            "reason": reason,
            "memo": memo,
            "created_at": time.time(),
        },
    )


def cached_balance_sync(conn: Connection, account_id: int) -> int:
    """The account's cached balance (equal to its transfers: :func:`ledger_audit`)."""
    held = _ACCOUNT_BALANCE.run(conn, {"a_id": account_id}).scalar()
    if held is None:
        raise LedgerError("no_account", f"There is no ledger account {account_id}.")
    return int(held)


def settle_pot_sync(
    conn: Connection,
    *,
    pot: str,
    moves: Sequence[tuple[str, int, int]],
    reason: str,
    memo: str,
) -> None:
    """Settle a hand through a new pot account called ``pot``: for each ``(key, account id,
    delta)`` a loser (delta < 0) pays the pot and the pot pays a winner (delta > 0), one
    transfer each under its key.

    The deltas sum to zero (or nothing moves), so the pot ends empty: it is opened empty and its
    cached balance is left at zero instead of rising and falling within this one transaction.
    A pot that exists already, or a key used already, fails the statement and so the caller's
    transaction: nothing is ever paid twice. A loser who holds less than they owe raises
    ``insufficient_chips``."""
    if sum(delta for _, _, delta in moves) != 0:
        raise LedgerError("bad_transfer", "A hand's results must sum to zero.")
    paying = [m for m in moves if m[2] != 0]
    if not paying:
        return
    at = time.time()
    opened = _OPEN_ACCOUNT.run(
        conn, {"name": pot, "kind": "pot", "user_id": None, "balance": 0, "created_at": at}
    )
    pot_id = inserted_id(opened)
    rows = []
    for key, account_id, delta in sorted(paying, key=lambda m: m[1]):  # lock in id order
        if delta < 0:
            _take_sync(conn, account_id, -delta)
            debit, credit = account_id, pot_id
        else:
            _give_sync(conn, account_id, delta)
            debit, credit = pot_id, account_id
        rows.append(
            {
                "key": key,
                "debit_id": debit,
                "credit_id": credit,
                "amount": abs(delta),
                "reason": reason,
                "memo": memo,
                "created_at": at,
            }
        )
    _RECORD_TRANSFER.run(conn, rows)


async def fill_wallet(
    session: AsyncSession, user_id: int, amount: int, *, key: str, memo: str
) -> LedgerAccount:
    """The account's wallet, holding at least ``amount``: the house grants what is missing
    (bots' stakes — play money — so a table of bots keeps playing whatever they lose)."""
    held = await wallet(session, user_id)
    if held.balance < amount:
        await transfer(
            session,
            key=key,
            debit=await house(session),
            credit=held,
            amount=amount - held.balance,
            reason="grant",
            memo=memo,
        )
    return held


async def balance(session: AsyncSession, account_id: int) -> int:
    """What the transfers say ``account_id`` holds (not the cache)."""
    credited = await session.scalar(
        select(func.coalesce(func.sum(Transfer.amount), 0)).where(Transfer.credit_id == account_id)
    )
    debited = await session.scalar(
        select(func.coalesce(func.sum(Transfer.amount), 0)).where(Transfer.debit_id == account_id)
    )
    return int(credited or 0) - int(debited or 0)


@dataclass(frozen=True)
class LedgerTotals:
    accounts: int
    transfers: int
    issued: int
    """What the house has put into circulation (minus its balance)."""
    held: int
    """What every other account holds together."""


async def ledger_audit(session: AsyncSession) -> tuple[LedgerTotals, list[str]]:
    """Check the ledger: cached balances equal the transfers, no overdraft but the house's,
    and what the accounts hold equals what the house issued. Returns totals and problems."""
    problems: list[str] = []
    credits = dict(
        (
            await session.execute(
                select(Transfer.credit_id, func.sum(Transfer.amount)).group_by(Transfer.credit_id)
            )
        ).all()
    )
    debits = dict(
        (
            await session.execute(
                select(Transfer.debit_id, func.sum(Transfer.amount)).group_by(Transfer.debit_id)
            )
        ).all()
    )
    accounts = (await session.scalars(select(LedgerAccount).order_by(LedgerAccount.id))).all()
    issued = held = 0
    known = set()
    for acc in accounts:
        known.add(acc.id)
        derived = int(credits.get(acc.id, 0)) - int(debits.get(acc.id, 0))
        if derived != acc.balance:
            problems.append(
                f"account {acc.name}: cached balance {acc.balance} but transfers say {derived}"
            )
        if acc.kind == "house":
            issued -= derived
        else:
            held += derived
            if derived < 0:
                problems.append(f"account {acc.name} is overdrawn: {derived}")
    for ident in (set(credits) | set(debits)) - known:
        problems.append(f"transfers name account id {ident}, which does not exist")
    if issued != held:
        problems.append(f"the house issued {issued} chips but accounts hold {held}")
    bad = await session.scalar(
        select(func.count()).where(
            (Transfer.amount <= 0) | (Transfer.debit_id == Transfer.credit_id)
        )
    )
    if bad:
        problems.append(f"{bad} transfers do not move a positive amount between two accounts")
    count = await session.scalar(select(func.count()).select_from(Transfer))
    return LedgerTotals(len(accounts), int(count or 0), issued, held), problems


__all__ = [
    "HOUSE",
    "LedgerError",
    "LedgerTotals",
    "account",
    "account_id_sync",
    "balance",
    "cached_balance_sync",
    "escrow_name",
    "fill_wallet",
    "house",
    "is_escrow",
    "ledger_audit",
    "settle_pot_sync",
    "transfer",
    "transfer_sync",
    "wallet",
    "wallet_name",
]
