"""A table that moves — its process restarts, hands it over or dies and another takes it — is
rebuilt from the database (its snapshot and journal) and comes back as it was: the finished hand
on show until the next deal, and the same answer to an action id sent again. A restart of one
process takes the same path as a move between processes, so these run on SQLite and on
PostgreSQL."""

from __future__ import annotations

import random
import signal
from pathlib import Path
from typing import Any

from services import room_process

from thirteen.client import RoomClient, TableConnection, legal_move
from thirteen.engine import get_rules


def _phase(frame: dict[str, Any]) -> str | None:
    view = frame.get("view")
    return None if view is None else str(view["phase"])


def test_the_showdown_on_show_survives_a_restart(database_url: str, tmp_path: Path) -> None:
    """The finished hand's boards and results stay on show after the table is rebuilt, exactly
    as before, until the next deal (a snapshot keeps the table between hands, not the hand)."""
    with room_process(database_url, tmp_path) as served, RoomClient(served.url) as boss:
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table(
            "chinese-1-6", bots=2, bot_level="heuristic", rules={"showdown_seconds": 600}
        )
        watch = boss.open_table(table["id"], watch_only=True)
        if watch.view["phase"] != "showdown":  # bots play at once: it may be on show already
            watch.wait(lambda f: _phase(f) == "showdown")
        before = watch.view
        assert before["hand"] is not None
        assert before["hand"]["results"] is not None
        watch.close()
        served.kill()  # during the showdown: kill -9
    for _ in range(2):  # after a crash, then after a clean stop (the table handed over)
        with room_process(database_url, tmp_path) as served, RoomClient(served.url) as boss:
            boss.log_in("boss", "the chief's password")
            watch = boss.open_table(table["id"], watch_only=True)
            assert watch.view == before
            watch.close()
            served.process.send_signal(signal.SIGTERM)
            served.process.wait(60)


def _others_decided(conn: TableConnection) -> bool:
    """Every other board of the hand is set: this seat's decision ends the hand."""
    hand = conn.view.get("hand") or {}
    return all(b["outcome"] != "playing" for b in hand.get("boards", []) if b["seat"] != conn.seat)


def test_an_action_id_gets_the_same_ack_after_a_restart(database_url: str, tmp_path: Path) -> None:
    """At a sit & go whose unit rises after every hand, the room acts at once after the action
    that ends a hand (it raises the unit): the ack of that action, sent again after a restart,
    is the same as the first, ``state_id`` included — the state the action made."""
    rules = get_rules("chinese-1-6")
    rng = random.Random(7)
    acks: dict[str, dict[str, Any]] = {}
    with room_process(database_url, tmp_path) as served, RoomClient(served.url) as boss:
        boss.sign_up("boss", "the chief's password")
        created = boss.request(
            "POST",
            "/api/tournaments",
            {
                "preset": "chinese-1-6",
                "name": "Rising",
                "rules": {"showdown_seconds": 0.05, "set_hand_seconds": 600},
                "seats": 2,
                "buy_in": 10,
                "starting_stack": 100_000,
                "unit": 1,
                "rise_every": 1,
                "rise_percent": 1,
                "payouts": [100],
                "bot_level": "heuristic",
            },
        )
        with RoomClient(served.url) as ann:
            ann.sign_up("ann", "password of A-N-N")
            ann.request("POST", f"/api/tournaments/{created['id']}/registration", {})
            started = boss.request("POST", f"/api/tournaments/{created['id']}/bots", {})
            table_id = started["table_id"]
            conn = ann.open_table(table_id)
            for _ in range(2):  # two hands, each ended by her decision
                if not (conn.my_turn() and _others_decided(conn)):  # (on a frame read already)
                    conn.wait(lambda f: bool(conn.my_turn()) and _others_decided(conn))
                move = legal_move(conn.me or {}, rules, rng)
                message = {"action": move, "state_id": conn.state_id}
                ident = conn.act(move, state_id=conn.state_id)
                acks[ident] = conn.answer(ident) | {"sent": message}
                assert acks[ident]["type"] == "ack", acks[ident]
            conn.close()
        served.kill()
    with room_process(database_url, tmp_path) as served, RoomClient(served.url) as ann:
        ann.log_in("ann", "password of A-N-N")
        conn = ann.open_table(table_id)
        for ident, first in acks.items():
            sent = first.pop("sent")
            again = conn.answer(conn.act(sent["action"], state_id=sent["state_id"], ident=ident))
            assert again == first
        conn.close()
