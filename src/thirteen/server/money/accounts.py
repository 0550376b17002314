"""Accounts: sign-up, login (argon2id, hashed off the event loop), sessions, roles, tickets,
the password policy, and the addresses each account logged in from.

Only digests of secrets are stored: a session cookie's token and a WebSocket ticket are random
32-byte strings given to the client once; the database keeps their SHA-256. A login always makes
a new session (no fixation); a password change ends every other session. A ticket is issued to a
session and opens a socket only while that session lives: the socket belongs to it (log-out,
password change and expiry close it: ``server/tables/sessions.py``), and ending a session
revokes its unspent tickets.

A password has 8 to 128 characters, at least 5 different ones, is none of the most common
passwords — the 30,000 of the frequency list the ``zxcvbn`` package ships, in any case — and does
not hold the account's name.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import re
import secrets
import time
from dataclasses import dataclass
from typing import cast

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Table, and_, bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.engine.errors import RuleError
from thirteen.server.db.models import KnownAddress, Session, Ticket, User
from thirteen.server.db.session import Database
from thirteen.server.money import ledger
from thirteen.server.settings import Settings, admin_names

log = logging.getLogger("thirteen.server.accounts")

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,19}")
"""3 to 20 letters, digits, ``_``, ``.`` or ``-``, starting with a letter or digit."""
PASSWORD_MIN, PASSWORD_MAX = 8, 128
PASSWORD_DIFFERENT = 5
"""Different characters a password needs at least (eight spaces, ``abababab``: guessed first)."""
TICKET_SECONDS = 30.0
KNOWN_ADDRESS_DAYS = 90
"""How long an address an account logged in from stays known after its last log-in there."""

# Tickets are written by the database's group writer (``Database.write``), in the same short
# transactions as the tables' actions: a burst of sockets opening — a room's players coming back
# after a restart — must not hold SQLite's one write lock across turns of the event loop while
# every table's writer waits for it.
_TICKETS = cast(Table, Ticket.__table__)
_USERS = cast(Table, User.__table__)
_SESSIONS = cast(Table, Session.__table__)
_SWEEP_TICKETS = delete(_TICKETS).where(_TICKETS.c.expires_at < bindparam("t_now"))
_ADD_TICKET = insert(_TICKETS)
_REDEEM_TICKET = (
    delete(_TICKETS)
    .where(_TICKETS.c.token_hash == bindparam("t_hash"))
    .returning(_TICKETS.c.user_id, _TICKETS.c.expires_at, _TICKETS.c.session_hash)
)
_TICKET_HOLDER = (
    select(_USERS.c.id, _USERS.c.name, _USERS.c.role, _SESSIONS.c.expires_at)
    .join(_SESSIONS, _SESSIONS.c.user_id == _USERS.c.id)
    .where(and_(_USERS.c.id == bindparam("u_id"), _SESSIONS.c.token_hash == bindparam("s_hash")))
)


class AccountError(RuleError):
    """A sign-up, login or session problem, with a code and a sentence."""


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_name(name: str) -> str:
    """The name if it is allowed; an :class:`AccountError` saying what is allowed if not."""
    if not NAME_PATTERN.fullmatch(name):
        raise AccountError(
            "bad_name",
            "A name has 3 to 20 letters, digits, '_', '.' or '-', and starts with a letter "
            "or digit.",
        )
    return name


@functools.cache
def common_passwords() -> frozenset[str]:
    """The most common passwords, most common first in the list zxcvbn ships (30,000, in lower
    case); loaded at the first check."""
    from zxcvbn.frequency_lists import FREQUENCY_LISTS  # 35 ms: not at every command's start

    return frozenset(FREQUENCY_LISTS["passwords"])


def check_password(password: str, name: str) -> str:
    """``password`` if the account ``name`` may have it; an :class:`AccountError` saying why
    not (the length, too few different characters, the name in it, a common password)."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError(
            "bad_password", f"A password has {PASSWORD_MIN} to {PASSWORD_MAX} characters."
        )
    if len(set(password)) < PASSWORD_DIFFERENT:
        raise AccountError(
            "bad_password",
            f"A password needs at least {PASSWORD_DIFFERENT} different characters: a few "
            "repeated are guessed at once.",
        )
    folded = password.casefold()
    if name and name.casefold() in folded:
        raise AccountError("bad_password", "A password must not contain the account's name.")
    if folded.strip() in common_passwords():
        raise AccountError(
            "bad_password",
            "That is one of the most common passwords, which guessers try first; choose another.",
        )
    return password


@dataclass(frozen=True)
class Me:
    """Who a session belongs to."""

    user_id: int
    name: str
    role: str
    csrf_token: str
    session: str = ""
    """The session's ``token_hash`` (what the database keeps of the cookie's token)."""
    expires_at: float = 0.0
    """When the session ends (seconds since the epoch; sessions never slide)."""

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


class Accounts:
    """Account operations on one database; password hashing runs in worker threads."""

    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.settings = settings
        self.hasher = PasswordHasher(
            time_cost=settings.argon2_time_cost, memory_cost=settings.argon2_memory_kib
        )
        self._dummy_hash: str | None = None

    async def _hash(self, password: str) -> str:
        return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, hashed: str | None, password: str) -> bool:
        if hashed is None:  # spend the same time as a real check: names are not probed by timing
            if self._dummy_hash is None:
                self._dummy_hash = await self._hash(secrets.token_hex(16))
            hashed = self._dummy_hash
            await asyncio.to_thread(self._check, hashed, password)
            return False
        return await asyncio.to_thread(self._check, hashed, password)

    def _check(self, hashed: str, password: str) -> bool:
        try:
            return self.hasher.verify(hashed, password)
        except (VerificationError, InvalidHashError):
            return False

    async def sign_up(self, name: str, password: str, role: str = "player") -> int:
        """Open an account with the house's sign-up grant; returns its id."""
        check_name(name)
        check_password(password, name)
        hashed = await self._hash(password)
        if role == "player" and name.lower() in admin_names(self.settings):
            role = "admin"
        return await self.create_user(name, hashed, role)

    async def bot(self, name: str) -> int:
        """The bot account called ``name``, opened at its first use."""
        async with self.db.begin() as s:
            user = await user_by_name(s, name)
        return user.id if user is not None else await self.create_user(name, None, "bot")

    async def staked_bot(self, name: str, amount: int) -> int:
        """The bot account called ``name`` with ``amount`` more chips from the house: a bot's
        buy-in for a seat is staked by the house, so the ledger stays closed."""
        user_id = await self.bot(name)
        async with self.db.begin() as s:
            key = f"bot-refill:{user_id}:{secrets.token_hex(8)}"
            await ledger.fill_wallet(s, user_id, amount, key=key, memo="bot stake")
        return user_id

    async def create_user(self, name: str, password_hash: str | None, role: str) -> int:
        """A user row and its wallet (with the sign-up grant), in one transaction."""
        check_name(name)
        try:
            async with self.db.begin() as s:
                user = User(
                    name=name,
                    name_key=name.lower(),
                    password_hash=password_hash,
                    role=role,
                    created_at=time.time(),
                )
                s.add(user)
                await s.flush()
                wallet = await ledger.wallet(s, user.id)
                if self.settings.signup_grant:
                    await ledger.transfer(
                        s,
                        key=f"grant:{user.id}",
                        debit=await ledger.house(s),
                        credit=wallet,
                        amount=self.settings.signup_grant,
                        reason="grant",
                        memo="welcome chips",
                    )
                return user.id
        except IntegrityError:
            raise AccountError("name_taken", f"The name {name!r} is taken.") from None

    async def log_in(self, name: str, password: str, address: str = "") -> tuple[str, Me]:
        """A new session for ``name``: (cookie token, who). Wrong name or password: one error.
        ``address`` (the client's) becomes one the account is known to log in from."""
        async with self.db.begin() as s:
            user = await s.scalar(select(User).where(User.name_key == name.lower()))
        hashed = user.password_hash if user is not None else None
        if not await self._verify(hashed, password) or user is None:
            log.info("login refused", extra={"account": name.lower()[:32]})
            raise AccountError("bad_login", "That name and password do not match an account.")
        log.info("login", extra={"account": user.name})
        token = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        now = time.time()
        expires_at = now + self.settings.session_days * 86_400
        async with self.db.begin() as s:
            s.add(
                Session(
                    token_hash=digest(token),
                    user_id=user.id,
                    csrf_token=csrf,
                    created_at=now,
                    expires_at=expires_at,
                )
            )
        if address:
            await self._known_from(user.id, address, now)
        return token, Me(user.id, user.name, user.role, csrf, digest(token), expires_at)

    async def _known_from(self, user_id: int, address: str, now: float) -> None:
        """Remember that ``user_id`` logged in from ``address`` (and forget addresses it has
        not logged in from for :data:`KNOWN_ADDRESS_DAYS`)."""
        address = address[:64]
        with contextlib.suppress(IntegrityError):  # the same address logging in at once
            async with self.db.begin() as s:
                await s.execute(
                    delete(KnownAddress).where(
                        KnownAddress.user_id == user_id,
                        KnownAddress.last_at < now - KNOWN_ADDRESS_DAYS * 86_400,
                    )
                )
                seen = await s.execute(
                    update(KnownAddress)
                    .where(KnownAddress.user_id == user_id, KnownAddress.address == address)
                    .values(last_at=now)
                )
                if not seen.rowcount:  # type: ignore[attr-defined]  # a CursorResult's
                    s.add(KnownAddress(user_id=user_id, address=address, last_at=now))

    async def known_address(self, name: str, address: str) -> bool:
        """Whether account ``name`` logged in from ``address`` in the last
        :data:`KNOWN_ADDRESS_DAYS` (``False`` for a name nobody has)."""
        since = time.time() - KNOWN_ADDRESS_DAYS * 86_400
        async with self.db.begin() as s:
            found = await s.scalar(
                select(KnownAddress.last_at)
                .join(User, User.id == KnownAddress.user_id)
                .where(
                    User.name_key == name.lower(),
                    KnownAddress.address == address[:64],
                    KnownAddress.last_at >= since,
                )
            )
        return found is not None

    async def who(self, token: str | None) -> Me | None:
        """The live session behind a cookie's token, or ``None``."""
        if not token or len(token) > 128:
            return None
        async with self.db.begin() as s:
            row = (
                await s.execute(
                    select(Session, User)
                    .join(User, User.id == Session.user_id)
                    .where(Session.token_hash == digest(token))
                )
            ).first()
            if row is None:
                return None
            session, user = row
            if session.expires_at < time.time():
                await _end_sessions(s, [session.token_hash])
                return None
            return Me(
                user.id,
                user.name,
                user.role,
                session.csrf_token,
                session.token_hash,
                session.expires_at,
            )

    async def log_out(self, token: str) -> list[str]:
        """End the session behind ``token`` and revoke its unspent tickets; the sessions ended
        (their ``token_hash``: the room closes their sockets)."""
        async with self.db.begin() as s:
            return await _end_sessions(s, [digest(token)])

    async def change_password(self, me: Me, old: str, new: str) -> list[str]:
        """Check ``old``, store ``new``, and end every other session of this account (their
        ``token_hash``es are returned: the room closes their sockets)."""
        check_password(new, me.name)
        async with self.db.begin() as s:
            user = await s.get(User, me.user_id)
        if user is None or not await self._verify(user.password_hash, old):
            raise AccountError("bad_login", "The current password is not right.")
        hashed = await self._hash(new)
        async with self.db.begin() as s:
            fresh = await s.get(User, me.user_id)
            assert fresh is not None
            fresh.password_hash = hashed
            others = await s.scalars(
                select(Session.token_hash).where(
                    Session.user_id == me.user_id, Session.token_hash != me.session
                )
            )
            return await _end_sessions(s, list(others))

    async def live_sessions(self, sessions: list[str]) -> set[str]:
        """Which of ``sessions`` (``token_hash``es) still live."""
        if not sessions:
            return set()
        async with self.db.begin() as s:
            found = await s.scalars(
                select(Session.token_hash).where(
                    Session.token_hash.in_(sessions), Session.expires_at >= time.time()
                )
            )
            return set(found)

    async def set_role(self, name: str, role: str) -> None:
        async with self.db.begin() as s:
            user = await s.scalar(select(User).where(User.name_key == name.lower()))
            if user is None:
                raise AccountError("no_account", f"There is no account called {name!r}.")
            user.role = role

    async def issue_ticket(self, me: Me) -> str:
        """A one-time WebSocket ticket for ``me``'s session, valid for :data:`TICKET_SECONDS`
        while the session lives."""
        assert me.session, "a ticket is issued to a session"
        token = secrets.token_urlsafe(32)
        now = time.time()
        row = {
            "token_hash": digest(token),
            "user_id": me.user_id,
            "expires_at": now + TICKET_SECONDS,
            "session_hash": me.session,
        }

        def write(conn: Connection) -> None:
            conn.execute(_SWEEP_TICKETS, {"t_now": now})
            conn.execute(_ADD_TICKET, row)

        await self.db.write(write)
        return token

    async def redeem_ticket(self, token: str) -> Me | None:
        """Who a ticket was issued to, with its session — once: the ticket is gone afterwards;
        ``None`` for an unknown or expired ticket, or one whose session ended."""
        if not token or len(token) > 128:
            return None
        token_hash = digest(token)

        def write(conn: Connection) -> Me | None:
            now = time.time()
            row = conn.execute(_REDEEM_TICKET, {"t_hash": token_hash}).first()
            if row is None or row.expires_at < now:
                return None
            user = conn.execute(
                _TICKET_HOLDER, {"u_id": row.user_id, "s_hash": row.session_hash}
            ).first()
            if user is None or user.expires_at < now:
                return None
            return Me(user.id, user.name, user.role, "", row.session_hash, user.expires_at)

        return await self.db.write(write)


async def user_by_name(session: AsyncSession, name: str) -> User | None:
    return await session.scalar(select(User).where(User.name_key == name.lower()))


async def _end_sessions(s: AsyncSession, sessions: list[str]) -> list[str]:
    """Delete ``sessions`` (``token_hash``es) and their unspent tickets; those that were there."""
    if not sessions:
        return []
    ended = await s.scalars(
        delete(Session)
        .where(Session.token_hash.in_(sessions))
        .returning(Session.token_hash)
        .execution_options(synchronize_session=False)
    )
    gone = list(ended)
    if gone:
        await s.execute(delete(Ticket).where(Ticket.session_hash.in_(gone)))
    return gone


__all__ = [
    "AccountError",
    "Accounts",
    "Me",
    "check_name",
    "check_password",
    "common_passwords",
    "digest",
    "user_by_name",
]
