"""A restart keeps what each seat's memory held: a time bank spent before a kill -9 is still
spent after it, and hands sat out before it still count toward giving the seat up."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from services import room_process

from thirteen.client import RoomClient, legal_move
from thirteen.engine import get_rules


def _hand(frame: dict[str, Any]) -> int:
    return int(((frame.get("view") or {}).get("hand") or {}).get("number", 0))


def _started_without(frame: dict[str, Any], seat: int) -> int | None:
    for event in frame.get("events", []):
        if event["event"] == "HandStarted" and seat not in event["seats"]:
            return int(event["number"])
    return None


def test_time_bank_and_hands_sat_out_survive_a_kill(database_url: str, tmp_path: Path) -> None:
    rules = get_rules("chinese-1-6")
    with room_process(database_url, tmp_path) as served, RoomClient(served.url) as boss:
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table(
            "chinese-1-6",
            bots=2,
            bot_level="heuristic",
            # showdowns of 3 s: the kill lands while the first hand without her is on show
            rules={"showdown_seconds": 3, "set_hand_seconds": 600},
            time_bank_seconds=30,
            sit_out_hands=2,
        )
        with RoomClient(served.url) as ann:
            ann.sign_up("ann", "password of A-N-N")
            conn = ann.open_table(table["id"])
            conn.do({"type": "sit", "seat": 2, "buy_in": table["max_buy_in"]})
            conn.wait(lambda f: f["type"] == "update" and bool(conn.my_turn()))
            assert conn.frames[-1]["time_bank"] == 30
            conn.do({"type": "time_bank"})
            conn.do({"type": "sit_out"})
            conn.do(legal_move(conn.me or {}, rules, random.Random(1)), state_id=conn.state_id)
            first = conn.wait(lambda f: _started_without(f, 2) is not None)
            sat_out_from = _started_without(first, 2)
            conn.close()
        served.kill()  # one hand dealt without her, her bank spent: then kill -9
    with room_process(database_url, tmp_path) as served, RoomClient(served.url) as ann:
        ann.log_in("ann", "password of A-N-N")
        conn = ann.open_table(table["id"])
        assert conn.seat == 2, conn.frames[0]
        assert conn.frames[0]["time_bank"] == pytest.approx(0, abs=0.5)  # not refilled to 30
        left = conn.wait(
            lambda f: (
                any(e["event"] == "PlayerLeft" and e["seat"] == 2 for e in f["events"])
                if "events" in f
                else False
            ),
            timeout=120,
        )
        # she gave the seat up after her second hand sat out (one before the kill, one after),
        # not after two more
        assert sat_out_from is not None
        assert _hand(left) <= sat_out_from + 1
        conn.close()


def test_a_time_bank_the_room_spent_stays_spent_after_a_kill(
    database_url: str, tmp_path: Path
) -> None:
    """The bank the room spends before a time-out is journaled as the player's: a restart does
    not hand it back."""
    with room_process(database_url, tmp_path) as served, RoomClient(served.url) as boss:
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table(
            "chinese-1-6",
            bots=1,
            bot_level="heuristic",
            rules={"showdown_seconds": 600, "set_hand_seconds": 1},
            time_bank_seconds=20,
        )
        with RoomClient(served.url) as ann:
            ann.sign_up("ann", "password of A-N-N")
            conn = ann.open_table(table["id"])
            conn.do({"type": "sit", "seat": 2, "buy_in": table["max_buy_in"]})
            conn.wait(
                lambda f: any(
                    e["event"] == "TimeBankUsed" and e["seat"] == 2 for e in f.get("events", [])
                )
            )
            conn.close()
        served.kill()
    with room_process(database_url, tmp_path) as served, RoomClient(served.url) as ann:
        ann.log_in("ann", "password of A-N-N")
        conn = ann.open_table(table["id"])
        assert conn.seat == 2, conn.frames[0]
        assert conn.frames[0]["time_bank"] == pytest.approx(0, abs=0.5)  # not refilled to 20
        conn.close()
