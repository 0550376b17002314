"""The room's tables. Money is integer chips; a transfer is immutable once written.

Times are seconds since the epoch (the server's clock, the same scale the engine's actions use).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class User(Base):
    """An account: a person, an admin, or a bot (bots are accounts too, so the ledger closes)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    """The name folded to lower case: names are unique whatever their case."""
    password_hash: Mapped[str | None] = mapped_column(String(256))
    """argon2id; ``None`` for a bot, which never logs in."""
    role: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (CheckConstraint("role IN ('player', 'admin', 'bot')", name="user_role"),)


class Session(Base):
    """A login. Only the SHA-256 of the cookie's token is stored."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)


class LedgerAccount(Base):
    """Somewhere chips can be: the house, a wallet, a seat's escrow, a hand's pot.

    ``balance`` is a cache of what the transfers say, kept in the same transaction as each
    transfer so a conditional update can refuse an overdraft; the audit proves it equal.
    """

    __tablename__ = "ledger_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(96), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        CheckConstraint("kind IN ('house', 'wallet', 'escrow', 'pot')", name="ledger_kind"),
        CheckConstraint("kind = 'house' OR balance >= 0", name="ledger_no_overdraft"),
    )


class Transfer(Base):
    """One movement of chips from one account to another. ``key`` makes a retry harmless."""

    __tablename__ = "transfers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(128), unique=True)
    debit_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"))
    credit_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"))
    amount: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(32))
    memo: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        CheckConstraint("amount > 0", name="transfer_positive"),
        CheckConstraint("debit_id <> credit_id", name="transfer_two_accounts"),
        Index("transfers_debit", "debit_id"),
        Index("transfers_credit", "credit_id"),
    )


class Ticket(Base):
    """A one-time WebSocket ticket (its SHA-256), valid for a few seconds."""

    __tablename__ = "tickets"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    expires_at: Mapped[float] = mapped_column(Float)


class Meta(Base):
    """Small facts about this database (its signing key's id, when it was created)."""

    __tablename__ = "meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


__all__ = ["Base", "LedgerAccount", "Meta", "Session", "Ticket", "Transfer", "User"]
