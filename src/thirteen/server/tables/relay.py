"""Sockets of one process at tables run by another, over the bus (:mod:`.bus`).

A client may connect to any of the room's processes. When its table runs elsewhere, the process
that holds the socket (the *edge*) checks the origin, the ticket and the limits as for any
socket, answers pings itself, and forwards the socket's other messages — ``attach``, each
``resync`` and ``action``, ``detach`` — to the process that runs the table (its *owner*). There
a :class:`RelayWatcher` stands in for the socket: the table treats it as any watcher, building
its frames from the seat's own view, and each frame it is offered travels back over the bus to
the edge, which writes it to the socket. A relayed socket therefore sees exactly what a local
one would.

Nothing is retried over the bus. When the owner dies, loses the table or cannot be reached, or
a message may have been lost (:class:`~thirteen.server.tables.bus.Bus`'s ``on_reset``), the
edge closes the socket with 1012 and a sentence; the client reconnects with ``since`` — to any
process — and resends what was not acknowledged, which the table's journal makes safe.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from thirteen.engine.errors import RuleError
from thirteen.server.tables.broadcast import Watcher
from thirteen.server.tables.bus import Bus, Message
from thirteen.server.tables.hands import MOVED_SENTENCE as MOVED
from thirteen.server.tables.protocol import (
    CLOSE_MOVED,
    ActionMessage,
    ResyncMessage,
    error_frame,
)
from thirteen.server.tables.requests import Request

if TYPE_CHECKING:
    from thirteen.server.tables.owner import TableOwner

Call = Callable[["TableOwner", dict[str, Any]], Awaitable[dict[str, Any]]]
"""A question for a table's process (a practice hint): the table and the question's
arguments; its JSON answer, or :class:`RuleError` for a refusal."""
CALL_SECONDS = 10.0
"""How long an HTTP request waits for another process's answer."""


class CallError(RuleError):
    """Another process refused a call, or did not answer it."""


log = logging.getLogger("thirteen.server.relay")


class Answers:
    """What a socket is answered, in the order of its messages: an action's (or a resync's)
    answer once the owner has given it, and what is answered at once — a pong, a bad message's
    error — only after the answers to the messages sent before it. A socket's messages go to
    the owner as they arrive, without waiting for the answer to the one before."""

    def __init__(self, watcher: Watcher) -> None:
        self.watcher = watcher
        self._waiting: deque[Request | dict[str, Any]] = deque()
        self._attaching = False
        """The socket's attach waits for its answer: requests taken meanwhile wait in
        ``_waiting`` without going to the owner (no reply yet: :meth:`attach`)."""

    def attach(self, owner: TableOwner, request: Request) -> None:
        """Hand the socket's ``attach`` to the owner first: what is answered after it waits for
        it (the snapshot is the first frame), and the requests taken meanwhile go to the owner
        once it is answered — and only if the socket was let in (not closed with why)."""
        self._attaching = True
        self._waiting.append(request)
        owner.submit_nowait(request).add_done_callback(lambda r: self._attached(owner, r))

    def give(self, frame: dict[str, Any]) -> None:
        """Answer ``frame`` now, or after the requests still waiting for the owner."""
        if self._waiting:
            self._waiting.append(frame)
        else:
            self.watcher.offer(frame)

    def wait_for(self, owner: TableOwner, request: Request) -> None:
        """Hand ``request`` to the owner (in its queue when this returns, or once the socket's
        attach is answered); an action's answer goes out when given, unless its ``ack`` went
        out with the action's frame."""
        self._waiting.append(request)
        if not self._attaching:
            owner.submit_nowait(request).add_done_callback(self._given)

    def _attached(self, owner: TableOwner, reply: asyncio.Future[dict[str, Any]]) -> None:
        self._attaching = False
        held = [x for x in self._waiting if isinstance(x, Request) and x.reply is None]
        if self.watcher.dropped:  # refused (or gone): what it sent is not the table's
            self._waiting = deque(x for x in self._waiting if all(x is not h for h in held))
        else:
            for request in held:
                owner.submit_nowait(request).add_done_callback(self._given)
        self._given(reply)

    def _given(self, _reply: asyncio.Future[dict[str, Any]]) -> None:
        waiting = self._waiting
        while waiting:
            head = waiting[0]
            if isinstance(head, Request):
                reply = head.reply
                if reply is None or not reply.done():
                    return
                waiting.popleft()
                if head.kind == "action" and not head.acked and not reply.cancelled():
                    self.watcher.offer(reply.result())
            else:
                waiting.popleft()
                self.watcher.offer(head)


def take_message(
    owner: TableOwner,
    answers: Answers,
    user_id: int | None,
    name: str | None,
    message: ResyncMessage | ActionMessage,
) -> None:
    """What a table socket's ``resync`` or ``action`` does (a local or a relayed socket)."""
    watcher = answers.watcher
    if isinstance(message, ResyncMessage):
        answers.wait_for(owner, Request("resync", watcher=watcher, since=message.since))
    elif user_id is None:
        answers.give(error_frame("not_logged_in", "Log in to play.", message.id))
    else:
        request = Request(
            "action",
            watcher=watcher,
            user_id=user_id,
            name=name,
            client_id=message.id,
            state_id=message.state_id,
            payload=message.action,
        )
        answers.wait_for(owner, request)


class RelayWatcher(Watcher):
    """At the owner: a socket held by another process. What it is offered goes over the bus."""

    def __init__(self, bus: Bus, process: str, sid: str, user_id: int | None, name: str | None):
        super().__init__(user_id, name)
        self.bus = bus
        self.process = process
        self.sid = sid

    def offer(self, *frames: dict[str, Any]) -> None:
        if not self.dropped:
            for frame in frames:
                self.bus.send(self.process, {"k": "frame", "sid": self.sid, "frame": frame})

    def close_with(self, code: int, reason: str) -> None:
        if not self.dropped:
            self.dropped = True
            self.closing = (code, reason)
            self.bus.send(
                self.process, {"k": "close", "sid": self.sid, "code": code, "why": reason}
            )
            self.finished.set()


@dataclass
class _Session:
    """At the owner: one relayed socket's messages, taken in the order they were sent."""

    watcher: RelayWatcher
    table_id: int
    inbox: asyncio.Queue[Message | None] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None


@dataclass
class _Edge:
    """At the edge: a socket this process holds for a table another process runs."""

    watcher: Watcher
    table_id: int
    process: str
    opened: float = field(default_factory=time.monotonic)


class Relay:
    """Both ends of relayed sockets for one process."""

    def __init__(
        self,
        bus: Bus,
        calls: dict[str, Call],
        running: Callable[[int], Awaitable[TableOwner | None]],
    ) -> None:
        self.bus = bus
        self.calls = calls
        self.running = running
        """The table's owner here, once it runs (waiting while this process is loading it)."""
        self.edges: dict[str, _Edge] = {}
        self.sessions: dict[str, _Session] = {}
        self.asked: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._answering: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ calls
    async def call(
        self, process: str, table_id: int, what: str, args: dict[str, Any]
    ) -> dict[str, Any]:
        """Ask the process running ``table_id`` the question ``what``: its answer, or
        :class:`CallError` (its refusal, or ``moving`` when no answer came)."""
        rid = secrets.token_hex(12)
        answer = self.asked[rid] = asyncio.get_running_loop().create_future()
        self.bus.send(
            process,
            {
                "k": "call",
                "rid": rid,
                "from": self.bus.me,
                "table": table_id,
                "what": what,
                "args": args,
            },
        )
        try:
            reply = await asyncio.wait_for(answer, CALL_SECONDS)
        except TimeoutError:
            raise CallError(
                "moving", "This table is moving to another server; try again in a moment."
            ) from None
        finally:
            self.asked.pop(rid, None)
        if "error" in reply:
            raise CallError(str(reply["error"]["code"]), str(reply["error"]["message"]))
        result: dict[str, Any] = reply["ok"]
        return result

    def _answer(self, message: Message) -> None:
        task = asyncio.create_task(self._run_call(message))
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)

    async def _run_call(self, message: Message) -> None:
        reply: Message = {"k": "reply", "rid": message["rid"]}
        owner = await self.running(int(message["table"]))
        handler = self.calls.get(str(message.get("what")))
        try:
            if owner is None or handler is None:
                raise RuleError(
                    "moving", "This table is moving to another server; try again in a moment."
                )
            reply["ok"] = await handler(owner, dict(message.get("args") or {}))
        except RuleError as e:
            reply["error"] = {"code": e.code, "message": e.message}
        except Exception:
            log.exception("a call failed", extra={"what": message.get("what")})
            reply["error"] = {
                "code": "internal",
                "message": "Something went wrong on our side; nothing was changed.",
            }
        self.bus.send(str(message["from"]), reply)

    def _replied(self, message: Message) -> None:
        waiting = self.asked.get(str(message.get("rid")))
        if waiting is not None and not waiting.done():
            waiting.set_result(message)

    # ------------------------------------------------------------------ the edge
    def open_edge(
        self,
        watcher: Watcher,
        table_id: int,
        process: str,
        user_id: int | None,
        name: str | None,
        since: int | None,
    ) -> str:
        sid = secrets.token_hex(12)
        self.edges[sid] = _Edge(watcher, table_id, process)
        self.bus.send(
            process,
            {
                "k": "attach",
                "sid": sid,
                "from": self.bus.me,
                "table": table_id,
                "user_id": user_id,
                "name": name,
                "since": since,
            },
        )
        return sid

    def forward(self, sid: str, message: ResyncMessage | ActionMessage) -> None:
        edge = self.edges.get(sid)
        if edge is None:
            return
        if isinstance(message, ResyncMessage):
            body: Message = {"t": "resync", "since": message.since}
        else:
            body = {
                "t": "action",
                "id": message.id,
                "state_id": message.state_id,
                "action": message.action,
            }
        self.bus.send(edge.process, {"k": "message", "sid": sid, "body": body})

    def close_edge(self, sid: str) -> None:
        edge = self.edges.pop(sid, None)
        if edge is not None:
            self.bus.send(edge.process, {"k": "detach", "sid": sid})

    def _to_edge(self, message: Message) -> None:
        edge = self.edges.get(str(message.get("sid")))
        if edge is None:
            return
        if message["k"] == "frame":
            edge.watcher.offer(message["frame"])
        else:
            edge.watcher.close_with(int(message.get("code", CLOSE_MOVED)), str(message["why"]))

    # ------------------------------------------------------------------ the owner
    def _attach(self, message: Message) -> None:
        sid, process = str(message["sid"]), str(message["from"])
        user_id = message.get("user_id")
        watcher = RelayWatcher(
            self.bus, process, sid, int(user_id) if user_id is not None else None, message["name"]
        )
        since = message.get("since")
        session = _Session(watcher, int(message["table"]))
        self.sessions[sid] = session  # what the socket sends meanwhile waits in its inbox
        session.task = asyncio.create_task(
            self._serve(sid, session, since if isinstance(since, int) else None)
        )

    async def _serve(self, sid: str, session: _Session, since: int | None) -> None:
        watcher = session.watcher
        owner = await self.running(session.table_id)
        if owner is None or owner.task is None or owner.task.done():
            self.sessions.pop(sid, None)
            watcher.close_with(CLOSE_MOVED, MOVED)
            return
        answers = Answers(watcher)
        try:
            await owner.submit(Request("attach", watcher=watcher, since=since))
            while (message := await session.inbox.get()) is not None:
                parsed: ResyncMessage | ActionMessage
                if message.get("t") == "resync":
                    since = message.get("since")
                    parsed = ResyncMessage(since if isinstance(since, int) else None)
                else:
                    parsed = ActionMessage(
                        str(message["id"]), message.get("state_id"), dict(message["action"])
                    )
                take_message(owner, answers, watcher.user_id, watcher.name, parsed)
        finally:
            self.sessions.pop(sid, None)
            if owner.task is not None and not owner.task.done():
                with contextlib.suppress(Exception):
                    await owner.submit(Request("detach", watcher=watcher))

    def _to_owner(self, message: Message) -> None:
        session = self.sessions.get(str(message.get("sid")))
        if session is None:
            return
        if message["k"] == "message":
            session.inbox.put_nowait(message["body"])
        else:  # detach
            session.watcher.dropped = True  # the socket is gone: nothing more to send it
            session.inbox.put_nowait(None)

    # ------------------------------------------------------------------ both
    def take(self, message: Message) -> bool:
        """Handle a relay message from the bus; ``False`` if it is not one."""
        kind = message.get("k")
        if kind in ("frame", "close"):
            self._to_edge(message)
        elif kind == "attach":
            self._attach(message)
        elif kind in ("message", "detach"):
            self._to_owner(message)
        elif kind == "call":
            self._answer(message)
        elif kind == "reply":
            self._replied(message)
        else:
            return False
        return True

    def reset(self) -> None:
        """Messages may have been lost: close every relayed socket (clients reconnect)."""
        for sid in list(self.edges):
            self.edges.pop(sid).watcher.close_with(CLOSE_MOVED, MOVED)
        for session in list(self.sessions.values()):
            session.watcher.close_with(CLOSE_MOVED, MOVED)
            session.inbox.put_nowait(None)

    def check(self, alive: set[str], where: dict[int, str | None], looked: float) -> None:
        """Close edges whose table's process died or changed (by ``where``, read from the
        database at ``looked``: edges opened since know better); end sessions whose edge
        died."""
        for sid, edge in list(self.edges.items()):
            if edge.opened > looked:
                continue
            now_at = where.get(edge.table_id, edge.process)
            if edge.process not in alive or now_at not in (None, edge.process):
                self.edges.pop(sid)
                edge.watcher.close_with(CLOSE_MOVED, MOVED)
        for session in list(self.sessions.values()):
            if session.watcher.process not in alive:
                session.watcher.dropped = True
                session.inbox.put_nowait(None)

    def table_lost(self, table_id: int) -> None:
        """This process no longer runs ``table_id``: its relayed sockets must reconnect."""
        for session in list(self.sessions.values()):
            if session.table_id == table_id:
                session.watcher.close_with(CLOSE_MOVED, MOVED)
                session.inbox.put_nowait(None)


__all__ = ["MOVED", "Answers", "Call", "CallError", "Relay", "RelayWatcher", "take_message"]
