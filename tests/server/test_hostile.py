"""Hostile and broken clients (issue 12): slowloris headers, a socket that never answers pings
(as a half-open one would not), floods, oversized frames, invalid UTF-8, JSON bombs — each is
refused or dropped with a reason, and the table goes on for everyone else."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from play import play
from services import serve_in_thread, sqlite_settings
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from thirteen.client import RoomClient
from thirteen.engine import get_rules
from thirteen.server.http.app import create_app
from thirteen.server.settings import Settings


@pytest.fixture
def hostile_settings(tmp_path: Path) -> Settings:
    return sqlite_settings(tmp_path)  # rate limits on, as a room runs


@pytest.fixture
def hostile_room(hostile_settings: Settings) -> Iterator[str]:
    with serve_in_thread(create_app(hostile_settings)) as url:
        yield url


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def _raw_websocket(url: str, path: str) -> socket.socket:
    """A WebSocket opened by hand: after the handshake it neither reads nor answers pings."""
    sock = socket.create_connection(_address(url), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {_address(url)[0]}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        assert chunk, "the room closed the handshake"
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 101"), answer[:80]
    return sock


def _until_closed(ws: ClientConnection) -> tuple[list[str], int]:
    """The codes of the error frames a socket gets until the room closes it, and its close code."""
    codes: list[str] = []
    try:
        while True:
            frame = json.loads(ws.recv(timeout=30))
            codes.append(frame.get("code", frame["type"]))
    except ConnectionClosed as closed:
        return codes, closed.rcvd.code if closed.rcvd is not None else 1006


def _send_until_closed(ws: ClientConnection, messages: list[str]) -> None:
    """Send until done or until the room has closed the socket (a flood is cut off)."""
    for message in messages:
        try:
            ws.send(message)
        except ConnectionClosed:
            return


def test_the_table_goes_on_while_hostile_clients_attack(
    hostile_room: str, hostile_settings: Settings
) -> None:
    url = hostile_room
    with contextlib.ExitStack() as sockets, RoomClient(url) as boss, RoomClient(url) as ann:
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table(
            "chinese-1-6", bots=1, bot_level="heuristic", rules={"showdown_seconds": 0.05}
        )
        ws_url = boss.ws_url(f"/ws/tables/{table['id']}")
        # slowloris: 40 connections that send half a request's headers and never finish
        for _ in range(40):
            sock = sockets.enter_context(socket.create_connection(_address(url), timeout=30))
            sock.sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        # a socket that will never read a frame nor answer a ping
        deaf = sockets.enter_context(_raw_websocket(url, f"/ws/tables/{table['id']}"))
        answers: dict[str, str] = {}
        # a JSON bomb under the size limit, invalid UTF-8, an oversized frame, a flood
        with connect(ws_url, max_size=2**22) as bomb:
            bomb.recv(timeout=30)  # the snapshot
            bomb.send("[" * 8000)
            answers["bomb"] = json.loads(bomb.recv(timeout=30))["code"]
            bomb.send(b"\xff\xfe{not utf-8}")
            answers["utf8"] = json.loads(bomb.recv(timeout=30))["code"]
        big = sockets.enter_context(connect(ws_url, max_size=2**22))
        big.recv(timeout=30)
        _send_until_closed(big, ["x" * (2 * 2**20)])
        assert _until_closed(big)[1] == 1009
        flood = sockets.enter_context(connect(ws_url, max_size=2**22))
        flood.recv(timeout=30)
        _send_until_closed(flood, ['{"type": "ping"}'] * 200)
        codes, close = _until_closed(flood)
        assert close == 1008
        answers["flood"] = codes[-1]
        assert answers == {"bomb": "bad_message", "utf8": "bad_message", "flood": "flood"}
        # meanwhile a person plays two hands to the end, and the lobby answers
        ann.sign_up("ann", "password of A-N-N")
        conn = ann.open_table(table["id"])
        conn.do({"type": "sit", "seat": 1, "buy_in": table["max_buy_in"]})
        won = play(conn, get_rules("chinese-1-6"), hands=2)
        conn.close()
        assert ann.me()["balance"] == 10_000 + won
        assert boss.request("GET", "/api/tables")["tables"]
        # the room closed the deaf socket (pings unanswered for 10 s, or frames never read)
        deaf.settimeout(60)
        received = b""
        while chunk := deaf.recv(65536):
            received += chunk
        assert received  # frames, then the room's close; then EOF
