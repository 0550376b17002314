"""The benchmark's players: a bot client at each seat that reads every frame over its own
socket and plays a legal move from its view when it must act — at once (full speed) or after a
human's pause — and each table's book of latencies, from an action's send to the last of the
table's sockets receiving the frame of the state it made.

A player reconnects as the protocol asks when its table moves to another of the room's
processes (1012, 1013), resending what was not answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from dataclasses import dataclass
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidStatus

from thirteen.bench.room.client import PATIENCE, RETRIES, Account, RoomClient
from thirteen.bench.room.figures import Window
from thirteen.client import legal_move
from thirteen.engine.rules import Rules

CLOSE_MOVED = 1012
"""A socket's table moved to another of the room's processes: reconnect and resend."""
CLOSE_TRY_AGAIN = 1013
"""A handshake for a table between processes was not held long enough: try again shortly."""

SEND_RATE = 18.0
"""Messages a second a client sends at most: the room drops a socket past 20 a second (a
bucket of 20 refilled 20 a second, docs/protocol.md), so "full speed" is just under that."""


@dataclass(frozen=True)
class Playing:
    """What every player of a run shares: the room it reaches, the window it records into, the
    rules its moves follow, and the seed and human pace of the run's options."""

    room: RoomClient
    window: Window
    rules: Rules
    seed: int
    pace: tuple[float, float]


class TableLoad:
    """One table's sockets: latencies from a send to the last socket's frame of that state."""

    def __init__(self, window: Window, table_id: int, sockets: int) -> None:
        self.window = window
        self.id = table_id
        self.sockets = sockets
        self.sent: dict[int, float] = {}
        self.seen: dict[int, list[float]] = {}
        self.ended: set[int] = set()
        self.players: list[Player] = []

    def frame(self, state_id: int, at: float, *, ends_hand: bool = False) -> None:
        self.seen.setdefault(state_id, []).append(at)
        if ends_hand:
            self.ended.add(state_id)
        self._settle(state_id)

    def acked(self, state_id: int, sent: float) -> None:
        self.sent[state_id] = sent
        self._settle(state_id)
        if len(self.seen) > 32 or len(self.sent) > 32:  # states no action of ours made
            for book in (self.seen, self.sent):
                for old in [k for k in book if k < state_id - 16]:
                    del book[old]
            self.ended = {k for k in self.ended if k >= state_id - 16}

    def _settle(self, state_id: int) -> None:
        times = self.seen.get(state_id)
        if times is None or len(times) < self.sockets or state_id not in self.sent:
            return
        sent = self.sent.pop(state_id)
        latency = max(times) - sent
        del self.seen[state_id]
        window = self.window
        if window.recording and sent >= window.opened:
            window.latencies.append(latency)
            if state_id in self.ended:
                window.ending.append(latency)
        self.ended.discard(state_id)


class Player:
    """A seat's socket: reads every frame, and acts when its view says it must."""

    def __init__(
        self, playing: Playing, table: TableLoad, account: Account, seat: int, *, fast: bool
    ) -> None:
        self.playing = playing
        self.room = playing.room
        self.table = table
        self.account = account
        self.seat = seat
        self.fast = fast
        self.rng = random.Random(hash((playing.seed, table.id, seat)))
        self.ws: ClientConnection | None = None
        self.view: dict[str, Any] = {}
        self.state_id = -1
        self.seated = False
        self.acting = False
        self.closing = False
        self.sent: dict[str, float] = {}
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.unanswered: dict[str, str] = {}
        """Messages sent whose ``ack`` or ``error`` has not come, by id."""
        self.snapshot = asyncio.get_running_loop().create_future()
        self.ids = itertools.count(1)
        self.reader: asyncio.Task[None] | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.next_send = 0.0
        self.via = self.room.socket_via(table.id)
        """The process this seat's socket reaches (:meth:`RoomClient.socket_via`)."""

    async def open(self, buy_in: int) -> None:
        ticket = await self.room.ticket(self.account)
        path = f"/ws/tables/{self.table.id}?ticket={ticket}"
        self.ws = await self.room.connect(path, via=self.via)
        self.reader = asyncio.create_task(self._read())
        await asyncio.wait_for(self.snapshot, PATIENCE)
        for attempt in range(RETRIES + 1):
            answer = await self.request({"type": "sit", "seat": self.seat, "buy_in": buy_in})
            if answer.get("code") not in ("internal", "moved") or attempt == RETRIES:
                break
            self.room.retried[f"sit answered {answer.get('code')}"] += 1
            await asyncio.sleep(0.5 * 2**attempt)
        if answer["type"] != "ack":
            raise RuntimeError(f"could not sit: {answer}")
        self.seated = True
        self._consider()

    async def request(self, action: dict[str, Any]) -> dict[str, Any]:
        ident = f"s{next(self.ids)}"
        future = asyncio.get_running_loop().create_future()
        self.waiting[ident] = future
        await self._send(ident, json.dumps({"type": "action", "id": ident, "action": action}))
        return await asyncio.wait_for(future, PATIENCE)

    async def _send(self, ident: str, message: str) -> None:
        """Send ``message``, kept until its answer comes: a socket closed meanwhile (its table
        moved to another process) sends it again, with the same id, once it reconnects."""
        self.unanswered[ident] = message
        if self.ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await self.ws.send(message)

    async def _read(self) -> None:
        try:
            while True:
                assert self.ws is not None
                try:
                    async for raw in self.ws:
                        at = time.perf_counter()
                        self._take(orjson.loads(raw), at)
                except ConnectionClosed:
                    pass
                code = self.ws.close_code
                if self.closing or code not in (CLOSE_MOVED, CLOSE_TRY_AGAIN):
                    return
                if not await self._reconnect(code):
                    return
        finally:
            self.closing = True
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError("the socket closed"))

    async def _reconnect(self, code: int) -> bool:
        """As the protocol asks after a 1012 (the table moved to another process) or a 1013
        (it is moving: try again in a moment): a new ticket, the same process, ``since`` the
        last state seen, and what was not answered sent again with the same ids."""
        self.room.reconnects += 1
        for attempt in range(RETRIES + 1):
            if code == CLOSE_TRY_AGAIN or attempt:
                await asyncio.sleep(0.2 * 2**attempt)
            try:
                ticket = await self.room.ticket(self.account)
                since = f"&since={self.state_id}" if self.state_id >= 0 else ""
                path = f"/ws/tables/{self.table.id}?ticket={ticket}{since}"
                self.ws = await self.room.connect(path, via=self.via)
            except (OSError, InvalidStatus, RuntimeError, httpx.HTTPError):
                continue
            for ident, message in list(self.unanswered.items()):
                if ident in self.unanswered:
                    with contextlib.suppress(ConnectionClosed):
                        await self.ws.send(message)
            return True
        return False

    def _take(self, frame: dict[str, Any], at: float) -> None:
        kind = frame.get("type")
        if kind in ("update", "snapshot"):
            self.state_id = frame["state_id"]
            self.view = frame["view"]
            if kind == "update":
                settled = sum(1 for e in frame["events"] if e["event"] == "HandSettled")
                self.table.frame(self.state_id, at, ends_hand=settled > 0)
                if self.seat == 0 and self.playing.window.recording:
                    self.playing.window.client_hands += settled
            elif not self.snapshot.done():
                self.snapshot.set_result(None)
        elif kind in ("ack", "error"):
            ident = frame.get("id", "")
            self.unanswered.pop(ident, None)
            future = self.waiting.pop(ident, None)
            if future is not None and not future.done():
                future.set_result(frame)
            sent = self.sent.pop(ident, None)
            if sent is not None:
                self.acting = False
                if kind == "ack":
                    self.table.acked(frame["state_id"], sent)
                    if self.playing.window.recording:
                        self.playing.window.actions += 1
            if kind == "error" and self.playing.window.recording:
                self.playing.window.errors[frame.get("code", "?")] += 1
        elif kind == "closing":
            self.closing = True
        self._consider()

    def _must_act(self) -> dict[str, Any] | None:
        hand = self.view.get("hand")
        me: dict[str, Any] | None = hand.get("me") if hand else None
        return me if me is not None and me["must_act"] else None

    def _consider(self) -> None:
        if self.acting or self.closing or not self.seated or self._must_act() is None:
            return
        self.acting = True
        delay = 0.0 if self.fast else self.rng.uniform(*self.playing.pace)
        task = asyncio.create_task(self._act(delay))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _act(self, delay: float) -> None:
        wait = max(delay, self.next_send - time.monotonic())
        if wait > 0:
            await asyncio.sleep(wait)
        self.next_send = time.monotonic() + 1 / SEND_RATE
        me = self._must_act()
        if me is None or self.closing or self.ws is None:
            self.acting = False
            return
        move = legal_move(me, self.playing.rules, self.rng)
        ident = f"a{next(self.ids)}"
        message = json.dumps(
            {"type": "action", "id": ident, "state_id": self.state_id, "action": move}
        )
        self.sent[ident] = time.perf_counter()
        await self._send(ident, message)

    async def close(self) -> None:
        self.closing = True
        for task in list(self.tasks):
            task.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 10)
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 10)


__all__ = ["CLOSE_MOVED", "CLOSE_TRY_AGAIN", "SEND_RATE", "Player", "Playing", "TableLoad"]
