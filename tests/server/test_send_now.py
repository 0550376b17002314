"""A frame offered to a socket with nothing waiting is written at once by the room's socket
protocol (``serve.SocketProtocol.send_now``), not through the socket's outbox and writer; a
frame that finds others waiting waits behind them, so a socket's frames keep their order. A
message in is handed to the socket's reader as it arrives (``SocketProtocol.take_now``), and
keeps its place behind one that waits in the app's queue."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from services import serve_in_thread
from websockets.sync.client import connect

from thirteen.client import RoomClient, TableConnection
from thirteen.server.http.app import create_app
from thirteen.server.settings import Settings
from thirteen.server.tables.broadcast import Watcher
from thirteen.server.tables.protocol import ack_frame
from thirteen.server.tables.relay import Answers
from thirteen.server.tables.requests import Request


@contextmanager
def _a_player_at(
    settings: Settings,
) -> Iterator[tuple[dict[str, Any], TableConnection, Watcher]]:
    """A room served on a free port, a table without bots, and one player's socket at it: the
    table, the socket, and the room's watcher of that socket."""
    app = create_app(settings)
    with serve_in_thread(app) as url, RoomClient(url) as boss:
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table("chinese-1-6", bots=0)
        conn = boss.open_table(table["id"])
        (watcher,) = app.state.room.owners[table["id"]].watchers
        yield table, conn, watcher
        conn.close()


def test_frames_go_out_at_once_and_in_order(settings: Settings) -> None:
    """A player who waits for each answer before acting again never has a frame waiting: every
    frame they are sent (snapshot, updates, acks) is written at once, in the states' order."""
    with _a_player_at(settings) as (table, conn, watcher):
        for action in (
            {"type": "sit", "seat": 0, "buy_in": table["max_buy_in"]},
            {"type": "sit_out"},
            {"type": "sit_in"},
            {"type": "leave"},
        ):
            conn.do(action)  # the update comes before the ack: do() has read both
        assert watcher.send_now is not None
        assert watcher.sent_at_once == len(conn.frames) >= 9  # a snapshot, 4 updates, 4 acks
        assert watcher.taken_at_once == 4  # each action handed over as it arrived
        ids = [f["state_id"] for f in conn.frames if f["type"] in ("snapshot", "update")]
        assert ids == list(range(ids[0], ids[0] + len(ids)))  # every state, in order


def test_a_frame_waits_behind_those_already_waiting() -> None:
    """While a frame waits in the outbox (the socket held back, or the writer has it in hand),
    later ones queue behind it instead of overtaking it."""

    async def main() -> list[Any]:
        written: list[bytes] = []
        open_now = False

        def send_now(text: bytes) -> bool:
            if open_now:
                written.append(text)
            return open_now

        watcher = Watcher(None, None, send_now=send_now)
        watcher.offer({"n": 1})  # the socket cannot take it now: it waits
        open_now = True
        watcher.offer({"n": 2})  # one waits: this one waits behind it
        queued = [watcher.outbox.get_nowait(), watcher.outbox.get_nowait()]
        watcher.writing = True  # the writer has a frame in hand
        watcher.offer({"n": 3})
        queued.append(watcher.outbox.get_nowait())
        watcher.writing = False
        watcher.offer({"n": 4})  # nothing waits: written at once
        return [queued, written, watcher.sent_at_once]

    queued, written, at_once = asyncio.run(main())
    assert queued == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert written == [b'{"n":4}']
    assert at_once == 1


def test_an_actions_ack_goes_out_with_its_update_in_one_write(settings: Settings) -> None:
    """The player who acted is sent the action's ``update`` and then its ``ack`` in one write
    (one system call, not two), and no second ack follows; a resent id is answered alone."""
    with _a_player_at(settings) as (table, conn, watcher):
        real = watcher.send_now
        assert real is not None
        writes: list[list[dict[str, Any]]] = []

        def counted(*texts: bytes) -> bool:  # the room's own send_now, its writes counted
            writes.append([json.loads(text) for text in texts])
            return bool(real(*texts))

        watcher.send_now = counted
        conn.do({"type": "sit", "seat": 0, "buy_in": table["max_buy_in"]})
        conn.do({"type": "sit_out"})
        assert [[f["type"] for f in w] for w in writes] == [["update", "ack"]] * 2
        for update, ack in writes:
            assert ack["state_id"] == update["state_id"]
        assert [f["type"] for f in conn.frames[-4:]] == ["update", "ack", "update", "ack"]
        again = writes[-1][1]["id"]
        conn.send({"type": "action", "id": again, "action": {"type": "sit_out"}})
        assert conn.wait(lambda f: f["type"] in ("ack", "error"))["id"] == again
        assert [f["type"] for f in writes[-1]] in (["ack"], ["error"])
        assert sum(1 for f in conn.frames if f.get("id") == again) == 2  # once each time


def test_a_frame_and_the_one_after_it_queue_in_order() -> None:
    """A frame offered with the one that follows it (``then``) while the socket cannot take
    them waits with it, in order."""

    async def main() -> list[Any]:
        watcher = Watcher(None, None, send_now=lambda *texts: False)
        watcher.offer({"n": 1}, {"n": 2})
        watcher.offer({"n": 3})
        return [watcher.outbox.get_nowait() for _ in range(3)]

    assert asyncio.run(main()) == [{"n": 1}, {"n": 2}, {"n": 3}]


def test_messages_sent_without_waiting_are_answered_in_order(settings: Settings) -> None:
    """Actions, a ping, a bad message, a binary ping and a message in two fragments sent back to
    back, none waiting for an answer: each is answered, in the order sent; the text ones were
    handed over as they arrived — but one that came while the binary one still waited in the
    app's queue, which queues behind it."""
    with _a_player_at(settings) as (table, conn, watcher):
        assert conn.ws is not None
        sit = {"type": "sit", "seat": 0, "buy_in": table["max_buy_in"]}
        for n, action in enumerate((sit, {"type": "sit_out"}, {"type": "sit_in"})):
            conn.send({"type": "action", "id": f"a{n}", "action": action})
        conn.send({"type": "ping"})
        conn.ws.send("{not json")
        conn.send({"type": "action", "id": "a3", "action": {"type": "sit_out"}})
        conn.ws.send(b'{"type": "ping"}')
        conn.send({"type": "action", "id": "a4", "action": {"type": "sit_in"}})
        conn.ws.send(iter(['{"type": "act', 'ion", "id": "a5", "action": {"type": "sit_out"}}']))
        conn.wait(lambda f: f.get("id") == "a5")
        answers = [
            f.get("id") or f.get("code") or f["type"]
            for f in conn.frames
            if f["type"] in ("ack", "error", "pong")
        ]
        assert answers == ["a0", "a1", "a2", "pong", "bad_message", "a3", "pong", "a4", "a5"]
        acked = [f["state_id"] for f in conn.frames if f["type"] == "ack"]
        assert acked == sorted(acked)
        assert len(set(acked)) == 6
        assert watcher.taken_at_once in (6, 7, 8)  # a4 (and a5) behind the binary ping, or not


def test_messages_sent_before_the_snapshot_are_answered_after_it(settings: Settings) -> None:
    """A client that sends at once after the handshake, before its snapshot came: the snapshot
    is still the first frame, and what was sent is answered after it, in the order sent."""
    app = create_app(settings)
    with serve_in_thread(app) as url, RoomClient(url) as boss:
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table("chinese-1-6", bots=0)
        socket_url = boss.ws_url(f"/ws/tables/{table['id']}?ticket={boss.ticket()}")
        with connect(socket_url, open_timeout=30) as ws:
            sit = {"type": "sit", "seat": 0, "buy_in": table["max_buy_in"]}
            for message in (
                {"type": "ping"},
                {"type": "action", "id": "a0", "action": sit},
                {"type": "ping"},
                {"type": "action", "id": "a1", "action": {"type": "sit_out"}},
            ):
                ws.send(json.dumps(message))
            frames = [json.loads(ws.recv(timeout=30))]
            while frames[-1].get("id") != "a1":
                frames.append(json.loads(ws.recv(timeout=30)))
    assert [f["type"] for f in frames] == [
        "snapshot",
        "pong",
        "update",
        "ack",
        "pong",
        "update",
        "ack",
    ]


class _Queue:
    """A table owner's queue as a socket's :class:`Answers` sees it: what was handed over, in
    order, each answered when the test says."""

    def __init__(self) -> None:
        self.handed: list[tuple[Request, asyncio.Future[dict[str, Any]]]] = []

    def submit_nowait(self, request: Request) -> asyncio.Future[dict[str, Any]]:
        request.reply = asyncio.get_running_loop().create_future()
        self.handed.append((request, request.reply))
        return request.reply


async def _answer(reply: asyncio.Future[dict[str, Any]], frame: dict[str, Any]) -> None:
    """Answer a request with ``frame``, and return once what waited for the answer has run."""
    ran = asyncio.get_running_loop().create_future()
    reply.add_done_callback(lambda _: ran.set_result(None))  # after the callbacks before it
    reply.set_result(frame)
    await ran


def _attach_then(refused: bool) -> tuple[list[str], list[dict[str, Any]]]:
    """A socket's attach, then an action and a ping taken before the attach is answered; the
    attach answered (the socket let in, or refused and closed), then the action if it was
    handed over: what the owner was handed, and what the socket was sent."""

    async def main() -> tuple[list[str], list[dict[str, Any]]]:
        sent: list[dict[str, Any]] = []
        watcher = Watcher(1, "ann", send_now=lambda *t: sent.extend(map(json.loads, t)) or True)
        answers, owner = Answers(watcher), _Queue()
        answers.attach(cast(Any, owner), Request("attach", watcher=watcher))
        act = Request("action", watcher=watcher, user_id=1, client_id="a1")
        answers.wait_for(cast(Any, owner), act)
        answers.give({"type": "pong"})
        assert [r.kind for r, _ in owner.handed] == ["attach"]
        assert sent == []
        if refused:
            watcher.close_with(1008, "Not this table.")
        await _answer(owner.handed[0][1], {"type": "attached"})
        if len(owner.handed) == 2:
            await _answer(owner.handed[1][1], ack_frame("a1", 7))
        return [r.kind for r, _ in owner.handed], sent

    return asyncio.run(main())


def test_what_a_socket_sends_before_its_attach_is_answered_waits_for_it() -> None:
    """Messages taken before the socket's attach is answered go to the table after it, and
    their answers after the snapshot; if the attach refused the socket, they never reach it."""
    handed, sent = _attach_then(refused=False)
    assert handed == ["attach", "action"]
    assert [(f["type"], f.get("id")) for f in sent] == [("ack", "a1"), ("pong", None)]
    handed, sent = _attach_then(refused=True)
    assert handed == ["attach"]
    assert sent == []
