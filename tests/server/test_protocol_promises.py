"""What docs/protocol.md promises a client, checked against a real room where the two had
drifted apart (issue 31, item 11): a resync without ``since``, fields a message does not have,
a malformed ``?since=`` or table id in a socket's address, the lobby socket's answers, and
``/api/tables`` listing what the lobby socket lists."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from thirteen.client import RoomClient


def frames_until_close(ws: Any) -> list[dict[str, Any]]:
    """Every frame until the room closes the socket."""
    frames = []
    try:
        while True:
            frames.append(json.loads(ws.recv(timeout=10)))
    except ConnectionClosed:
        return frames


def test_a_resync_without_since_gets_a_snapshot(room: str, boss: RoomClient) -> None:
    table = boss.create_table("chinese-1-6", bots=2, bot_level="heuristic")
    with connect(boss.ws_url(f"/ws/tables/{table['id']}")) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
        ws.send(json.dumps({"type": "resync"}))
        again = json.loads(ws.recv(timeout=10))
        while again["type"] == "update":  # the bots play on meanwhile
            again = json.loads(ws.recv(timeout=10))
        assert again["type"] == "snapshot"
        assert again["events"] == []


@pytest.mark.parametrize(
    "message",
    [
        {"type": "ping", "extra": 1},
        {"type": "resync", "since": 0, "sincce": 3},
        {"type": "action", "id": "a1", "stateid": 4, "action": {"type": "sit_out"}},
    ],
)
def test_a_field_a_message_does_not_have_is_refused(
    room: str, boss: RoomClient, message: dict[str, Any]
) -> None:
    table = boss.create_table("ofc", bots=1, bot_level="heuristic")
    with connect(boss.ws_url(f"/ws/tables/{table['id']}")) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
        ws.send(json.dumps(message))
        answer = json.loads(ws.recv(timeout=10))
        while answer["type"] == "update":
            answer = json.loads(ws.recv(timeout=10))
        assert answer["type"] == "error", answer
        assert answer["code"] == "bad_message"
        assert (
            sorted(set(message) - {"type", "id", "state_id", "action", "since"})[0]
            in (answer["message"])
        )


def test_a_bad_since_or_table_id_is_refused_with_a_sentence(room: str, boss: RoomClient) -> None:
    table = boss.create_table("ofc", bots=1, bot_level="heuristic")
    for path, code in (
        (f"/ws/tables/{table['id']}?since=abc", "bad_message"),
        (f"/ws/tables/{table['id']}?since=-1", "bad_message"),
        ("/ws/tables/abc", "no_table"),
        ("/ws/tables/1e3", "no_table"),
    ):
        with connect(boss.ws_url(path)) as ws:
            (refusal,) = frames_until_close(ws)
            assert refusal["type"] == "error", path
            assert refusal["code"] == code, path
            assert ws.close_code == 1008, path


def test_the_lobby_socket_answers_pings_and_refuses_the_rest(room: str, boss: RoomClient) -> None:
    boss.create_table("ofc", bots=1, bot_level="heuristic")
    with connect(boss.ws_url("/ws/lobby")) as ws:
        lobby = json.loads(ws.recv(timeout=10))
        assert lobby["type"] == "lobby"
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "pong"
        ws.send(json.dumps({"type": "resync"}))
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_message"
    listed = boss.request("GET", "/api/tables")["tables"]
    assert [set(entry) for entry in listed] == [set(entry) for entry in lobby["tables"]]
