"""The server's clock over the wire: a time bank extends a decision, a timeout plays the
automatic move and sits the player out, and sitting out the table's number of hands gives the
seat up with the chips returned."""

from __future__ import annotations

import pytest

from thirteen.client import RoomClient, RoomError


def test_time_bank_timeout_and_sitting_out(room: str, boss: RoomClient) -> None:
    table = boss.create_table(
        "chinese-1-6",
        bots=2,
        bot_level="heuristic",
        rules={"showdown_seconds": 0.1, "set_hand_seconds": 1.0},
        time_bank_seconds=3,
        sit_out_hands=1,
    )
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        conn = ann.open_table(table["id"])
        conn.do({"type": "sit", "seat": 2, "buy_in": table["max_buy_in"]})
        conn.wait(lambda f: f["type"] == "update" and bool(conn.my_turn()))
        me = conn.me
        assert me is not None
        deadline = me["deadline"]
        assert conn.frames[-1]["time_bank"] == 3
        seen = len(conn.frames)
        conn.do({"type": "time_bank"})  # the update comes before the answer: look back for it
        frame = next(
            f
            for f in conn.frames[seen:]
            if any(e["event"] == "TimeBankUsed" for e in f.get("events", []))
        )
        used = next(e for e in frame["events"] if e["event"] == "TimeBankUsed")
        assert used["deadline"] == pytest.approx(deadline + 3)
        assert frame["view"]["hand"]["me"]["deadline"] == pytest.approx(deadline + 3)
        assert frame["time_bank"] == pytest.approx(0, abs=0.2)
        with pytest.raises(RoomError) as empty:
            conn.do({"type": "time_bank"})
        assert empty.value.code == "no_time_bank"
        # ann does nothing: the table sets her hand (never fouling), sits her out, and after one
        # hand sat out she leaves with her chips
        timed = conn.wait(lambda f: any(e["event"] == "TimedOut" for e in f.get("events", [])))
        assert any(e["event"] == "HandSet" and e["seat"] == 2 for e in timed["events"])
        left = conn.wait(
            lambda f: any(
                e["event"] == "PlayerLeft" and e["seat"] == 2 for e in f.get("events", [])
            ),
            timeout=60,
        )
        stack = next(e for e in left["events"] if e["event"] == "PlayerLeft")["stack"]
        assert ann.me()["balance"] == 10_000 - table["max_buy_in"] + stack
        conn.close()
