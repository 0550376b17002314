"""WebSockets: a table's socket (``/ws/tables/{id}``) and the lobby's (``/ws/lobby``).

A player's socket is authenticated by a one-time ticket (``POST /api/tickets``) and belongs to
the session the ticket was issued to: it closes when that session ends
(:mod:`thirteen.server.tables.sessions`). Without a ticket the socket watches as a spectator.
The origin is checked like any state-changing request. Every socket has a writer of its own fed
through a bounded queue, so a client that stops reading is dropped instead of stalling its
table. Messages in are taken as they arrive (the room's socket protocol hands them over: no
task wakes for them) and go to the table's owner without waiting for the answer to the one
before; the socket's answers keep the messages' order (:class:`~.relay.Answers`). Dead sockets
are found by uvicorn's protocol pings (``THIRTEEN_WS_PING_SECONDS``,
``THIRTEEN_WS_PING_TIMEOUT_SECONDS``); floods and oversized frames get a sentence, then a close.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from thirteen.server.competitions import practice
from thirteen.server.money.accounts import Accounts, Me
from thirteen.server.money.throttle import RateLimitError, Throttle
from thirteen.server.room import Room
from thirteen.server.settings import Settings
from thirteen.server.tables.broadcast import Watcher
from thirteen.server.tables.owner import TableOwner
from thirteen.server.tables.protocol import (
    BURST,
    CLOSE_POLICY,
    CLOSE_SLOW,
    CLOSE_TOO_BIG,
    CLOSE_TRY_AGAIN,
    ActionMessage,
    PingMessage,
    ProtocolError,
    ResyncMessage,
    encode,
    error_frame,
    parse_message,
)
from thirteen.server.tables.relay import Answers, Relay, take_message
from thirteen.server.tables.requests import Request

log = logging.getLogger("thirteen.server.ws")

SEND_NOW = "thirteen.send_now"
"""The ASGI scope extension under which the room's socket protocol offers ``send_text``: a
frame's UTF-8 text written at once, ``False`` when it cannot be (``serve.SocketProtocol``)."""
TAKE_NOW = "thirteen.take_now"
"""The ASGI scope extension under which the room's socket protocol offers ``take``: text
messages handed to a function as they arrive, not queued for ``receive``
(``serve.SocketProtocol.take_now``)."""
MAX_SOCKET_BYTES = 1024 * 1024
"""uvicorn's own limit; frames between 8 KiB and this get the protocol's sentence first."""

PRIVATE_TABLE = "This is someone's duplicate practice table: only they may sit at it or watch it."

router = APIRouter()


class Bucket:
    """A token bucket: :data:`BURST` messages at once, refilled at ``BURST`` a second."""

    def __init__(self, capacity: int = BURST, rate: float = BURST) -> None:
        self.capacity = capacity
        self.rate = rate
        self.tokens = float(capacity)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        moment = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (moment - self.stamp) * self.rate)
        self.stamp = moment
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def _origin_ok(websocket: WebSocket) -> bool:
    origin = websocket.headers.get("origin")
    if origin is None:
        return True  # not a browser: a browser always says where a page came from
    settings: Settings = websocket.app.state.settings
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    allowed = settings.public_origin or f"{scheme}://{websocket.headers.get('host', '')}"
    return origin == allowed


async def _refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
    await websocket.accept()
    await websocket.send_text(encode(error_frame(code, message)))
    await websocket.close(close, message[:120])


def _offered(websocket: WebSocket, extension: str, name: str) -> Callable[..., Any] | None:
    """What the room's own socket protocol offers the app under ``extension`` (``serve.
    SocketProtocol``: :data:`SEND_NOW`'s ``send_text``, :data:`TAKE_NOW`'s ``take``); ``None``
    under another server."""
    found = (websocket.scope.get("extensions") or {}).get(extension, {}).get(name)
    return found if callable(found) else None


async def _writer(websocket: WebSocket, watcher: Watcher) -> None:
    """Write the frames that waited in the watcher's outbox, in order; end (closing the
    socket) when told or dropped."""
    try:
        while True:
            frame = await watcher.outbox.get()
            if frame is None:
                break
            watcher.writing = True
            try:
                await websocket.send_text(encode(frame))
            finally:
                watcher.writing = False
        code, reason = watcher.closing or (CLOSE_SLOW, "Too far behind; reconnect to catch up.")
        with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
            await websocket.close(code, reason)
    except (WebSocketDisconnect, RuntimeError, OSError):
        return
    finally:
        watcher.send_now = None  # it refers to the socket's protocol: let that go with it
        watcher.finished.set()


async def _who(websocket: WebSocket) -> tuple[Me | None, bool]:
    """The account behind the socket's ticket; ``(None, False)`` when a ticket was refused."""
    ticket = websocket.query_params.get("ticket")
    if not ticket:
        return None, True
    accounts: Accounts = websocket.app.state.accounts
    me = await accounts.redeem_ticket(ticket)
    return me, me is not None


def _since(websocket: WebSocket) -> int | None:
    """The ``since`` the client asked for (``None``: not given); :class:`ProtocolError` for one
    that is not a state id."""
    raw = websocket.query_params.get("since")
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 15:
        raise ProtocolError("bad_message", "since must be a whole number from 0 up.")
    return int(raw)


@router.websocket("/ws/tables/{table}")
async def table_socket(websocket: WebSocket, table: str) -> None:
    room: Room = websocket.app.state.room
    if not _origin_ok(websocket):
        await _refuse(websocket, "bad_origin", "This page came from another site.", CLOSE_POLICY)
        return
    try:
        since = _since(websocket)
    except ProtocolError as e:
        await _refuse(websocket, e.code, e.message, CLOSE_POLICY)
        return
    # the ticket is spent by the first socket that shows it, whatever happens next (a refusal
    # for the table included): a ticket shown once is never good again
    heard = room.sessions.heard  # sessions that end from here on are looked at again
    me, ticket_ok = await _who(websocket)
    if not ticket_ok:
        await _refuse(
            websocket, "bad_ticket", "That ticket is unknown, used or expired.", CLOSE_POLICY
        )
        return
    # a table's id is a whole number; anything else names no table (said as for a closed one,
    # not a bare 403 from the router)
    table_id = int(table) if table.isascii() and table.isdigit() and len(table) < 10 else None
    process = await room.settle(table_id) if room.accepting and table_id else None
    owner = await room.running(table_id) if table_id else None
    if table_id is None or process is None:
        shown = table if len(table) <= 20 else table[:20] + "…"
        await _refuse(websocket, "no_table", f"There is no open table {shown}.", CLOSE_POLICY)
        return
    if owner is None and (process == "" or room.relay is None):
        # its process died and no other has taken it yet, or another process runs it and this
        # one has no bus to reach it (one process on SQLite restarted under a new name)
        await _refuse(
            websocket,
            "moving",
            "This table is moving to another server; try again in a moment.",
            CLOSE_TRY_AGAIN,
        )
        return
    if not await practice.may_enter(room.db, table_id, owner, me.user_id if me else None):
        await _refuse(websocket, "private_table", PRIVATE_TABLE, CLOSE_POLICY)
        return
    watcher = Watcher(
        me.user_id if me else None,
        me.name if me else None,
        send_now=_offered(websocket, SEND_NOW, "send_text"),
    )
    try:
        with _held(websocket, me.name if me else None):
            async with _session_of(room, me, watcher, heard):
                if owner is not None:
                    await _table_socket(websocket, owner, me, watcher, since)
                elif room.relay is not None:
                    await _relayed_socket(
                        websocket, room.relay, table_id, process, me, watcher, since
                    )
    except RateLimitError as e:
        await _refuse(websocket, "rate_limited", e.message, CLOSE_POLICY)


@contextlib.contextmanager
def _held(websocket: WebSocket, account: str | None) -> Iterator[None]:
    """Count the socket against its account's and its address's limits while it is open."""
    throttle: Throttle = websocket.app.state.throttle
    address = websocket.client.host if websocket.client else "unknown"
    with throttle.socket(account, address):
        yield


@contextlib.asynccontextmanager
async def _session_of(
    room: Room, me: Me | None, watcher: Watcher, heard: int
) -> AsyncIterator[None]:
    """Hold a player's socket for its session (a spectator's belongs to none)."""
    if me is None:
        yield
        return
    async with room.sessions.holding(me.session, me.expires_at, watcher, heard):
        yield


async def _table_socket(
    websocket: WebSocket, owner: TableOwner, me: Me | None, watcher: Watcher, since: int | None
) -> None:
    await websocket.accept()
    metrics = websocket.app.state.metrics
    metrics.ws_connections.inc()
    writer = asyncio.create_task(_writer(websocket, watcher))
    user_id, name = (me.user_id, me.name) if me else (None, None)
    reader = _Reader(
        watcher, lambda parsed, answers: take_message(owner, answers, user_id, name, parsed)
    )
    try:
        # before the reader takes a message: every answer (a pong too) goes out after the
        # snapshot, what is sent before it reaches the table only if the socket is let in, and
        # a message sent the moment the snapshot arrives is taken as it arrives
        reader.answers.attach(owner, Request("attach", watcher=watcher, since=since))
        await _read(websocket, reader)
    finally:
        metrics.ws_connections.dec()
        if owner.task is not None and not owner.task.done():
            with contextlib.suppress(Exception):
                await owner.submit(Request("detach", watcher=watcher))
        watcher.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 5)


async def _relayed_socket(
    websocket: WebSocket,
    relay: Relay,
    table_id: int,
    process: str,
    me: Me | None,
    watcher: Watcher,
    since: int | None,
) -> None:
    """A socket at a table another process runs: its messages go there over the bus, and the
    frames that process builds for it come back the same way
    (:mod:`thirteen.server.tables.relay`)."""
    await websocket.accept()
    metrics = websocket.app.state.metrics
    metrics.ws_connections.inc()
    writer = asyncio.create_task(_writer(websocket, watcher))
    sid = relay.open_edge(
        watcher,
        table_id,
        process,
        me.user_id if me else None,
        me.name if me else None,
        since,
    )

    def forward(parsed: ActionMessage | ResyncMessage, answers: Answers) -> None:
        if isinstance(parsed, ActionMessage) and me is None:
            answers.give(error_frame("not_logged_in", "Log in to play.", parsed.id))
        else:
            relay.forward(sid, parsed)

    try:
        await _read(websocket, _Reader(watcher, forward))
    finally:
        metrics.ws_connections.dec()
        relay.close_edge(sid)
        watcher.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 5)


class _Reader:
    """What a table socket does with each message it is sent: the flood bucket, the parse (a
    bad message answered with its sentence and skipped), a ping's pong, and the rest handed to
    ``act`` (the table's owner, or the relay to the process that runs it), every answer in the
    order of the messages (:class:`Answers`)."""

    def __init__(
        self, watcher: Watcher, act: Callable[[ActionMessage | ResyncMessage, Answers], None]
    ) -> None:
        self.watcher = watcher
        self.act = act
        self.answers = Answers(watcher)
        self.bucket = Bucket()

    def take(self, raw: str | bytes) -> bool:
        """Take one message; ``False`` once the socket is done with (a flood or an oversized
        frame, each answered with a sentence at once and the socket closed; or dropped
        meanwhile — its session ended, say: what came after is not taken)."""
        watcher = self.watcher
        if watcher.dropped:
            return False
        if not self.bucket.take():
            watcher.offer(
                error_frame("flood", f"More than {BURST} messages a second; closing this socket.")
            )
            watcher.close_with(CLOSE_POLICY, "Too many messages.")
            return False
        try:
            parsed = parse_message(raw)
        except ProtocolError as e:
            if e.code == "too_big":
                watcher.offer(error_frame(e.code, e.message))
                watcher.close_with(CLOSE_TOO_BIG, "Message too big.")
                return False
            self.answers.give(error_frame(e.code, e.message))
            return True
        if isinstance(parsed, PingMessage):
            self.answers.give(_pong())
        else:
            self.act(parsed, self.answers)
        return True

    def take_now(self, text: str) -> None:
        """:meth:`take` for a message the socket's protocol hands over as it arrives: nothing
        it raises may reach the protocol's ``data_received``."""
        self.watcher.taken_at_once += 1
        try:
            self.take(text)
        except Exception:
            log.exception("message not taken", extra={"user_id": self.watcher.user_id})
            self.answers.give(
                error_frame("internal", "Something went wrong on our side; nothing was changed.")
            )


async def _read(websocket: WebSocket, reader: _Reader) -> None:
    """Take the socket's messages until it closes or is done with: as they arrive where the
    room's own protocol serves it (:data:`TAKE_NOW`), else — and for what queued before, a
    binary message, the close — through the app's ``receive``."""
    take_now = _offered(websocket, TAKE_NOW, "take")
    if take_now is not None:
        take_now(reader.take_now)
    watcher = reader.watcher
    try:
        while websocket.client_state == WebSocketState.CONNECTED and not watcher.dropped:
            try:
                message = await websocket.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            raw = message.get("text")
            if not reader.take(raw if raw is not None else message.get("bytes") or b""):
                return
    finally:
        if take_now is not None:
            take_now(None)


def _pong() -> dict[str, Any]:
    return {"type": "pong", "server_time": time.time()}


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    room: Room = websocket.app.state.room
    if not _origin_ok(websocket):
        await _refuse(websocket, "bad_origin", "This page came from another site.", CLOSE_POLICY)
        return
    try:
        with _held(websocket, None):
            await _lobby_socket(websocket, room)
    except RateLimitError as e:
        await _refuse(websocket, "rate_limited", e.message, CLOSE_POLICY)


async def _lobby_socket(websocket: WebSocket, room: Room) -> None:
    await websocket.accept()
    watcher = Watcher(None, None, send_now=_offered(websocket, SEND_NOW, "send_text"))
    writer = asyncio.create_task(_writer(websocket, watcher))
    room.lobby.add(watcher)
    watcher.offer(room.lobby_frame())

    def refuse(_parsed: ActionMessage | ResyncMessage, answers: Answers) -> None:
        answers.give(error_frame("bad_message", "The lobby socket takes only ping messages."))

    try:
        await _read(websocket, _Reader(watcher, refuse))
    finally:
        room.lobby.discard(watcher)
        watcher.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 5)


__all__ = [
    "MAX_SOCKET_BYTES",
    "SEND_NOW",
    "TAKE_NOW",
    "router",
]
