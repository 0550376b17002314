"""The room as an operator runs it: JSON log lines without secrets, SIGTERM's orderly stop,
and dead sockets found by protocol pings."""

from __future__ import annotations

import http.client
import json
import re
import signal
import socket
import time
from pathlib import Path

import httpx
from services import free_port, room_process
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from thirteen.client import KEEPALIVE_EXPIRY, RoomClient
from thirteen.server.serve import KEEP_ALIVE_SECONDS, SHUTDOWN_SECONDS

PASSWORD = "a secret password"


def test_sigterm_closes_sockets_with_1001_and_exits(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    with room_process(url, tmp_path) as served, RoomClient(served.url) as boss:
        boss.sign_up("boss", PASSWORD)
        table = boss.create_table("ofc", bots=2, bot_level="heuristic")
        conn = boss.open_table(table["id"], watch_only=True)
        ticket = boss.ticket()
        # tickets in sockets' addresses: one refused before it is spent (another site's page),
        # one spent at a table; neither may reach the log, where it could be read and used
        unspent, spent = boss.ticket(), boss.ticket()
        url = boss.ws_url(f"/ws/tables/{table['id']}")
        with connect(f"{url}?ticket={unspent}", origin="https://evil.example") as ws:  # type: ignore[arg-type]
            assert '"bad_origin"' in ws.recv(timeout=10)
        with connect(f"{url}?ticket={spent}&since=0") as ws:
            assert '"snapshot"' in ws.recv(timeout=10)
        served.process.send_signal(signal.SIGTERM)
        closing = conn.wait(lambda f: f["type"] == "closing")
        assert "reconnect" in closing["message"]
        assert conn.receive(timeout=30) is None
        assert conn.closed is not None
        assert conn.closed[0] == 1001
        assert conn.closed[1]
        # a clean stop is a success: status 0 (uvicorn would raise SIGTERM again: -15)
        assert served.process.wait(SHUTDOWN_SECONDS + 2) == 0
        assert any("Finished server process" in line for line in served.log)
        lines = [json.loads(line) for line in served.log if line.strip()]
    assert any(line["message"] == "room closing" for line in lines)
    assert {"time", "level", "logger", "message"} <= set(lines[0])
    everything = "".join(served.log)
    assert PASSWORD not in everything
    for secret in (ticket, unspent, spent):
        assert secret not in everything
    assert "ticket=[redacted]" in everything  # the handshakes were logged, without them
    assert "login" in {line["message"] for line in lines}


def test_an_idle_connection_outlives_the_clients_reuse_of_it(tmp_path: Path) -> None:
    """The room closes an idle HTTP connection only after clients have stopped reusing it
    (``KEEPALIVE_EXPIRY``), so no request goes out on a connection as it closes (a reset a
    long fuzz run met when both were 5 s)."""
    assert KEEPALIVE_EXPIRY < KEEP_ALIVE_SECONDS
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    with room_process(url, tmp_path) as served:
        host, port = served.url.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=KEEP_ALIVE_SECONDS + 30)
        try:
            conn.request("GET", "/healthz")
            answer = conn.getresponse()
            answer.read()
            assert answer.status == 200
            assert answer.getheader("connection", "keep-alive").lower() != "close"
            answered = time.monotonic()
            assert conn.sock is not None
            rest = conn.sock.recv(1)  # returns when the room closes the idle connection
            closed = time.monotonic()
        finally:
            conn.close()
    assert rest == b""
    assert closed - answered > KEEPALIVE_EXPIRY


def test_a_silent_socket_is_dropped(tmp_path: Path) -> None:
    """A client that never answers the room's pings is closed within ping interval + timeout
    (set short here: ``THIRTEEN_WS_PING_SECONDS``, ``THIRTEEN_WS_PING_TIMEOUT_SECONDS``)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    pings = {"ws_ping_seconds": "0.5", "ws_ping_timeout_seconds": "1"}
    with room_process(url, tmp_path, **pings) as served, RoomClient(served.url) as boss:
        boss.sign_up("boss", PASSWORD)
        table = boss.create_table("chinese-1-6", bots=2, bot_level="heuristic")
        host, port = served.url.removeprefix("http://").split(":")
        raw = socket.create_connection((host, int(port)))
        raw.sendall(
            (
                f"GET /ws/tables/{table['id']} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        raw.settimeout(20)  # the room's limit is 1.5 s here; the socket must be gone well before
        received = b""
        while chunk := raw.recv(65536):  # frames, pings we never answer, then the close
            received += chunk
        raw.close()
        assert received.startswith(b"HTTP/1.1 101")
        metrics = boss.request("GET", "/metrics")
        assert "thirteen_ws_connections 0.0" in metrics
        # counted when scraped: every table the lobby lists (the one made above among them)
        listed = boss.request("GET", "/api/tables")["tables"]
        assert table["id"] in {t["id"] for t in listed}
        assert f"thirteen_tables_open {float(len(listed))}" in metrics
        try:
            boss.open_table(table["id"], watch_only=True).close()
        except ConnectionClosed as e:  # pragma: no cover - the room must keep serving
            raise AssertionError("the room stopped serving") from e


def test_metrics_are_the_operators(tmp_path: Path) -> None:
    """On the room's address ``/metrics`` answers administrators only; a Prometheus scrapes
    ``THIRTEEN_METRICS_ADDRESS``, a private address of its own, without logging in. The
    collector's pauses are there (here scheduled: ``THIRTEEN_GC=scheduled``; the start-up's own
    collection is the first), and the event loop's lag."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    private = f"127.0.0.1:{free_port()}"
    with room_process(url, tmp_path, metrics_address=private, gc="scheduled") as served:
        with httpx.Client(base_url=served.url) as anyone:
            assert anyone.get("/metrics").status_code == 401
        with RoomClient(served.url) as boss:
            boss.sign_up("boss", PASSWORD)
            assert "thirteen_ws_connections" in boss.request("GET", "/metrics")
        scraped = httpx.get(f"http://{private}/metrics")
        assert scraped.status_code == 200
        assert "thirteen_tables_open" in scraped.text
        assert 'thirteen_gc_pause_seconds_count{generation="2"}' in scraped.text
        # the loop's lag, observed every tenth of a second from the start
        deadline = time.monotonic() + 30
        while not re.search(r"^thirteen_loop_lag_seconds_count [1-9]", scraped.text, re.M):
            assert time.monotonic() < deadline, "the loop's lag was never observed"
            scraped = httpx.get(f"http://{private}/metrics")
