"""The room as the benchmark's players reach it: HTTP requests tried again while the room is
overloaded (counted by why), accounts and tickets, WebSockets, each process's ``/metrics``, the
admin's tables, and which process a request or socket goes to — every one in turn, as behind a
round-robin proxy.

Its own piece because the players, the meter and the load generator all talk to the room
through it, and the tries it makes are a figure of the run (:attr:`RoomClient.retried`).
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass
from typing import Any

import httpx
from sqlalchemy import select
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from thirteen.bench.room.figures import parse_metrics
from thirteen.bench.room.options import RoomOptions
from thirteen.bench.room.servers import Server
from thirteen.client import KEEPALIVE_EXPIRY
from thirteen.server.db.models import GameTable
from thirteen.server.db.session import make_engine

PASSWORD = "bench password"
SESSION_COOKIE = "thirteen_session"

RETRIES = 5
"""Times a setup request the room failed (5xx, or an action's ``internal``) is tried again."""
PATIENCE = 600.0
"""Seconds a setup step (a sign-up, a seat) may take: an overloaded room is slow, not broken."""


@dataclass(frozen=True)
class Account:
    name: str
    cookie: str
    csrf: str

    @property
    def headers(self) -> dict[str, str]:
        return {"cookie": f"{SESSION_COOKIE}={self.cookie}", "x-csrf-token": self.csrf}


async def bounded(limit: int, jobs: Iterable[Coroutine[Any, Any, Any]]) -> list[Any]:
    """Await ``jobs`` with at most ``limit`` running at once; their results in order. If one
    fails, the others are stopped (those not started, never started) before its error goes
    on: none is left running, or failing later with nobody to hear it."""
    gate = asyncio.Semaphore(limit)

    async def one(job: Coroutine[Any, Any, Any]) -> Any:
        try:
            async with gate:
                return await job
        finally:
            job.close()  # (nothing for one that ran; one cancelled waiting never starts)

    tasks = [asyncio.ensure_future(one(job)) for job in jobs]
    try:
        return await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


class RoomClient:
    """HTTP clients to each of the room's processes (one for every account: cookies go by
    hand) and the sockets' addresses; signs its admin up on entry, closes the clients on exit."""

    def __init__(self, servers: list[Server], options: RoomOptions, admin: str) -> None:
        self.servers = servers
        self.options = options
        self.admin_name = admin
        self.https = [
            httpx.AsyncClient(
                base_url=server.url,
                timeout=PATIENCE,
                limits=httpx.Limits(
                    max_connections=64,
                    max_keepalive_connections=64,
                    keepalive_expiry=KEEPALIVE_EXPIRY,
                ),
            )
            for server in servers
        ]
        self.turns = itertools.count()
        """Requests without a process of their own go to each process in turn."""
        self.socket_turns = itertools.count()
        self.opened: dict[int, int] = {}
        """The process each table was opened through (and so first run by)."""
        self.admin: Account | None = None
        self.retried: Counter[str] = Counter()
        """Setup requests tried again after the room failed them, by why."""
        self.reconnects = 0
        """Sockets opened again after a 1012 or 1013 (their table moved between processes)."""

    async def __aenter__(self) -> RoomClient:
        self.admin = await self.sign_up(self.admin_name)
        return self

    async def __aexit__(self, *_: object) -> None:
        for http in self.https:
            await http.aclose()

    def socket_via(self, table_id: int) -> int:
        """The process the next socket to table ``table_id`` reaches: the k-th socket opened
        goes k processes on from its table's, so only every N-th lands on its table's process
        and (N-1)/N are relayed — what a round-robin proxy, blind to tables, gives on average."""
        return (self.opened.get(table_id, 0) + next(self.socket_turns)) % len(self.servers)

    async def call(
        self,
        method: str,
        path: str,
        account: Account | None = None,
        body: Any = None,
        *,
        allow: tuple[int, ...] = (),
        via: int | None = None,
    ) -> httpx.Response:
        """The response to a request (to process ``via``, or the next in turn), tried again
        while the room answers 5xx or drops the connection; raises for any other error status
        but those in ``allow``."""
        http = self.https[next(self.turns) % len(self.https) if via is None else via]
        for attempt in range(RETRIES + 1):
            try:
                r = await http.request(
                    method, path, json=body, headers=account.headers if account else None
                )
            except httpx.TransportError as e:
                # a keep-alive connection the server closed as it was reused, a request the
                # server failed by closing the connection instead of answering 500, or one it was
                # too busy to answer within the client's timeout
                if attempt == RETRIES:
                    raise
                self.retried[type(e).__name__] += 1
                await asyncio.sleep(0.5 * 2**attempt)
                continue
            finally:
                http.cookies.clear()  # one client for every account: cookies go by hand
            if r.status_code < 500 or attempt == RETRIES:
                break
            # an overloaded room says "nothing was changed" (a database busy past its timeout)
            self.retried[f"HTTP {r.status_code}"] += 1
            await asyncio.sleep(0.5 * 2**attempt)
        if r.status_code >= 400 and r.status_code not in allow:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:200]}")
        return r

    async def sign_up(self, name: str) -> Account:
        body = {"name": name, "password": PASSWORD}
        r = await self.call("POST", "/api/accounts", body=body, allow=(409,))
        if r.status_code == 409:
            # Signing up opens the account, then logs in, in two transactions: a try that
            # failed in the second (a database busy past its timeout, under load) left the
            # account made, so the try after it finds the name taken. Bench names are unique,
            # so the account is this one: log in to it.
            r = await self.call("POST", "/api/session", body=body)
        return Account(name, r.cookies[SESSION_COOKIE], r.json()["csrf_token"])

    async def ticket(self, account: Account) -> str:
        ticket: str = (await self.call("POST", "/api/tickets", account)).json()["ticket"]
        return ticket

    async def connect(
        self, path: str, *, compression: bool | None = None, via: int = 0
    ) -> ClientConnection:
        deflate = self.options.compression if compression is None else compression
        url = "ws" + self.servers[via].url.removeprefix("http") + path
        for attempt in range(5):
            try:
                return await connect(
                    url,
                    compression="deflate" if deflate else None,
                    max_size=2**22,
                    open_timeout=120,
                    ping_interval=None,  # the server pings; browsers do not ping either
                    close_timeout=5,
                )
            except (OSError, InvalidStatus):  # a full accept backlog: try again shortly
                if attempt == 4:
                    raise
                await asyncio.sleep(0.2 * (attempt + 1))
        raise AssertionError("unreachable")

    async def metrics(self) -> list[dict[str, float]]:
        """Each process's ``/metrics``, in the order of :attr:`servers`."""
        return [
            parse_metrics((await self.call("GET", "/metrics", self.admin, via=n)).text)
            for n in range(len(self.servers))
        ]

    async def owners(self, table_ids: Iterable[int]) -> dict[int, str]:
        """The process running each table now (its lease's holder, from the database)."""
        ids = list(table_ids)
        if len(self.servers) == 1:
            return dict.fromkeys(ids, self.servers[0].name)
        engine = make_engine(self.servers[0].database_url)
        try:
            async with engine.connect() as conn:
                rows = await conn.execute(
                    select(GameTable.id, GameTable.lease_owner).where(GameTable.id.in_(ids))
                )
                return {int(table_id): str(owner) for table_id, owner in rows}
        finally:
            await engine.dispose()

    async def create_table(self, showdown: float, via: int | None = None) -> int:
        body = {
            "preset": self.options.preset,
            "rules": {"showdown_seconds": showdown},
            "bots": 0,
            "seats": self.options.seats,
            "min_buy_in": 100,
            "max_buy_in": 5000,
        }
        via = next(self.turns) % len(self.servers) if via is None else via
        r = await self.call("POST", "/api/tables", self.admin, body, via=via)
        table_id: int = r.json()["id"]
        self.opened[table_id] = via
        return table_id

    async def close_table(self, table_id: int) -> None:
        await self.call("DELETE", f"/api/tables/{table_id}", self.admin)


__all__ = ["PASSWORD", "PATIENCE", "RETRIES", "SESSION_COOKIE", "Account", "RoomClient", "bounded"]
