"""The JSON API over HTTP: accounts, sessions, the wallet, WebSocket tickets, health."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy import or_, select

from thirteen.server.db.models import LedgerAccount, Transfer
from thirteen.server.http.api import (
    SESSION_COOKIE,
    Body,
    OriginChecked,
    User,
    accounts_of,
    client_address,
    db_of,
    errors,
    optional_user,
    settings_of,
)
from thirteen.server.money import ledger
from thirteen.server.money.accounts import (
    NAME_PATTERN,
    PASSWORD_MAX,
    PASSWORD_MIN,
    AccountError,
    Accounts,
    Me,
)
from thirteen.server.money.throttle import Throttle
from thirteen.server.room import Room

router = APIRouter()


# The room checks names and passwords itself (with its own sentences, as 400s); the schema
# states the same rules, so a request the schema allows is never refused for its shape.
NAME_SCHEMA: dict[str, Any] = {"pattern": f"^{NAME_PATTERN.pattern}$"}
PASSWORD_SCHEMA: dict[str, Any] = {"minLength": PASSWORD_MIN, "maxLength": PASSWORD_MAX}
NEW_PASSWORD = (
    "8 to 128 characters, at least 5 different; not one of the most common passwords, and not "
    "holding the account's name."
)


class Credentials(Body):
    name: str = Field(
        max_length=64,
        description="3 to 20 letters, digits, '_', '.' or '-'.",
        json_schema_extra=NAME_SCHEMA,
    )
    password: str = Field(max_length=256, description="8 to 128 characters.")


class NewAccount(Credentials):
    password: str = Field(
        max_length=256, description=NEW_PASSWORD, json_schema_extra=PASSWORD_SCHEMA
    )


class PasswordChange(Body):
    old_password: str = Field(max_length=256)
    new_password: str = Field(
        max_length=256, description=NEW_PASSWORD, json_schema_extra=PASSWORD_SCHEMA
    )


class Account(BaseModel):
    name: str
    role: str
    csrf_token: str = Field(description="Send it as X-CSRF-Token on every state-changing request.")
    balance: int = Field(description="Chips in the wallet.")


class LedgerLine(BaseModel):
    id: int
    at: float
    amount: int = Field(description="Chips in (positive) or out (negative) of the wallet.")
    reason: str
    memo: str


class Wallet(BaseModel):
    balance: int
    transfers: list[LedgerLine]


class SessionOut(BaseModel):
    account: Account | None = Field(description="The logged-in account, or null.")


class TicketOut(BaseModel):
    ticket: str = Field(description="Give it once to the WebSocket within 30 seconds.")


class Health(BaseModel):
    status: str


AccountsDep = Annotated[Accounts, Depends(accounts_of)]


def throttle_of(request: Request) -> Throttle:
    throttle: Throttle = request.app.state.throttle
    return throttle


async def _sessions_ended(request: Request, sessions: list[str]) -> None:
    """Close the sockets of ``sessions`` on every process of the room (before answering)."""
    room: Room = request.app.state.room
    await room.sessions.end(sessions)


async def _wallet_balance(request: Request, user_id: int) -> int:
    async with db_of(request).begin() as s:
        return (await ledger.wallet(s, user_id)).balance


def _set_cookie(request: Request, response: Response, token: str) -> None:
    settings = settings_of(request)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=settings.session_days * 86_400,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )


async def _account(request: Request, me: Me) -> Account:
    return Account(
        name=me.name,
        role=me.role,
        csrf_token=me.csrf_token,
        balance=await _wallet_balance(request, me.user_id),
    )


@router.post(
    "/api/accounts",
    status_code=201,
    dependencies=[OriginChecked],
    responses=errors(400, 403, 409, 422, 429),
)
async def sign_up(
    body: NewAccount, request: Request, response: Response, accounts: AccountsDep
) -> Account:
    """Open an account (with the house's welcome chips) and log in."""
    address = client_address(request)
    await throttle_of(request).hit("signup_address", address)
    await accounts.sign_up(body.name, body.password)
    token, me = await accounts.log_in(body.name, body.password, address)
    _set_cookie(request, response, token)
    return await _account(request, me)


@router.post("/api/session", dependencies=[OriginChecked], responses=errors(401, 403, 422, 429))
async def log_in(
    body: Credentials, request: Request, response: Response, accounts: AccountsDep
) -> Account:
    """Log in: a new session every time (an old cookie is never promoted)."""
    old = request.cookies.get(SESSION_COOKIE)
    throttle, address, account = throttle_of(request), client_address(request), body.name.lower()
    known = throttle.enabled and await accounts.known_address(account, address)
    await throttle.before_login(account, address, known)
    try:
        token, me = await accounts.log_in(body.name, body.password, address)
    except AccountError:
        # only failures count: growing windows make a guesser wait longer and longer
        await throttle.login_failed(account, address)
        raise
    if old:
        await _sessions_ended(request, await accounts.log_out(old))
    _set_cookie(request, response, token)
    return await _account(request, me)


@router.delete("/api/session", status_code=204, responses=errors(401, 403))
async def log_out(me: User, request: Request, response: Response, accounts: AccountsDep) -> None:
    """Log out this session: its sockets close and its unspent tickets open nothing."""
    await _sessions_ended(request, await accounts.log_out(request.cookies.get(SESSION_COOKIE, "")))
    response.delete_cookie(SESSION_COOKIE, path="/")


@router.get("/api/me", responses=errors(401))
async def who_am_i(me: User, request: Request) -> Account:
    """The logged-in account, its CSRF token and its wallet balance."""
    return await _account(request, me)


@router.get("/api/session")
async def session(request: Request) -> SessionOut:
    """This browser's session: its account, or ``null`` when nobody is logged in (a page asks
    this on load; unlike ``/api/me`` it is never a 401)."""
    me = await optional_user(request)
    return SessionOut(account=None if me is None else await _account(request, me))


@router.post("/api/password", status_code=204, responses=errors(400, 401, 403, 422, 429))
async def change_password(
    body: PasswordChange, me: User, request: Request, accounts: AccountsDep
) -> None:
    """Change the password; every other session of the account ends (its sockets close).
    Wrong current passwords are limited per session."""
    throttle = throttle_of(request)
    await throttle.check("password", me.session)
    try:
        ended = await accounts.change_password(me, body.old_password, body.new_password)
    except AccountError as e:
        if e.code == "bad_login":
            await throttle.count("password", me.session)
        raise
    await _sessions_ended(request, ended)


@router.get("/api/wallet", responses=errors(401, 422))
async def wallet(me: User, request: Request, limit: int = 100) -> Wallet:
    """The wallet's balance and its most recent transfers, newest first."""
    limit = max(1, min(limit, 500))
    async with db_of(request).begin() as s:
        account: LedgerAccount = await ledger.wallet(s, me.user_id)
        rows = (
            await s.scalars(
                select(Transfer)
                .where(or_(Transfer.debit_id == account.id, Transfer.credit_id == account.id))
                .order_by(Transfer.id.desc())
                .limit(limit)
            )
        ).all()
    lines = [
        LedgerLine(
            id=t.id,
            at=t.created_at,
            amount=t.amount if t.credit_id == account.id else -t.amount,
            reason=t.reason,
            memo=t.memo,
        )
        for t in rows
    ]
    return Wallet(balance=account.balance, transfers=lines)


@router.post("/api/tickets", responses=errors(401, 403))
async def ticket(me: User, accounts: AccountsDep) -> TicketOut:
    """A one-time ticket that authenticates a WebSocket."""
    return TicketOut(ticket=await accounts.issue_ticket(me))


@router.get("/healthz")
async def healthz() -> Health:
    """The process is alive."""
    return Health(status="ok")


@router.get("/readyz", responses={503: {"model": Health}})
async def readyz(request: Request, response: Response) -> Health:
    """The database answers."""
    if await db_of(request).ping():
        return Health(status="ready")
    response.status_code = 503
    return Health(status="database unreachable")


__all__ = ["router"]
