"""Presence over real sockets: which seated players have a socket open (bots always do), in
every snapshot and update, and a ``presence`` frame to everyone else when it changes."""

from __future__ import annotations

from typing import Any

from thirteen.client import RoomClient, TableConnection


def _presence(conn: TableConnection, connected: list[int]) -> dict[str, Any]:
    """The next ``presence`` frame on ``conn`` saying exactly these seats are connected."""
    return conn.wait(lambda f: f["type"] == "presence" and f["connected"] == connected, timeout=10)


def test_players_see_each_other_leave_and_come_back(room: str, boss: RoomClient) -> None:
    table = boss.create_table("chinese-1-6", seats=3, bots=1, bot_level="heuristic")
    tid = table["id"]
    with RoomClient(room) as ann, RoomClient(room) as bob, RoomClient(room) as cat:
        ann.sign_up("ann", "password of A-N-N")
        bob.sign_up("bob", "password of B-O-B")
        cat.sign_up("cat", "password of C-A-T")
        watching = cat.open_table(tid)  # logged in, not seated: a spectator's frames
        assert watching.frames[0]["connected"] == [0]  # the bot
        ann_conn = ann.open_table(tid)
        ann_conn.do({"type": "sit", "seat": 1, "buy_in": table["max_buy_in"]})
        bob_conn = bob.open_table(tid)
        assert bob_conn.frames[0]["type"] == "snapshot"
        assert bob_conn.frames[0]["connected"] == [0, 1]
        sat = bob_conn.do({"type": "sit", "seat": 2, "buy_in": table["max_buy_in"]})
        # the update of an action comes before its ack
        update = next(f for f in bob_conn.frames if f.get("state_id") == sat["state_id"])
        assert update["type"] == "update"
        assert update["connected"] == [0, 1, 2]

        ann_conn.drop()  # ann's only socket closes: the others hear at once
        gone = _presence(bob_conn, [0, 2])
        assert set(gone) == {"type", "table", "connected", "server_time"}
        assert gone["table"] == tid
        assert _presence(watching, [0, 2])["server_time"] >= gone["server_time"] - 1
        out = bob_conn.do({"type": "sit_out"})  # updates say so too
        later = next(f for f in bob_conn.frames if f.get("state_id") == out["state_id"])
        assert (later["type"], later["connected"]) == ("update", [0, 2])

        ann_conn.connect(since=ann_conn.state_id)  # back again
        assert ann_conn.frames[-1]["connected"] == [0, 1, 2]
        _presence(bob_conn, [0, 1, 2])
        _presence(watching, [0, 1, 2])
        assert not [f for f in ann_conn.frames if f["type"] == "presence"]

        # a second socket of the same account: closing one of two changes nothing
        second = ann.open_table(tid)
        second.drop()
        ann_conn.drop()
        _presence(bob_conn, [0, 2])
        presence = [f["connected"] for f in bob_conn.frames if f["type"] == "presence"]
        assert presence == [[0, 2], [0, 1, 2], [0, 2]]
        for conn in (bob_conn, watching):
            conn.close()
