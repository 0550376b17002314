"""kill -9 in the middle of hands: the room restarts from its database, every hand in the air
resumes and settles exactly once, and the audit passes. On SQLite and on PostgreSQL."""

from __future__ import annotations

import random
from pathlib import Path

from services import assert_audit_clean, room_process

from thirteen.client import RoomClient

KILLS = 3


def test_kill_9_mid_hand_and_resume(database_url: str, tmp_path: Path) -> None:
    rng = random.Random(13)
    tables: list[int] = []
    hands_at_kill: list[int] = []
    for attempt in range(KILLS + 1):
        with room_process(database_url, tmp_path) as served, RoomClient(served.url) as boss:
            if attempt == 0:
                boss.sign_up("boss", "the chief's password")
                for preset, bots in (("ofc-pineapple", 3), ("chinese-2-4", 4), ("ofc", 2)):
                    table = boss.create_table(
                        preset, bots=bots, bot_level="heuristic", rules={"showdown_seconds": 0.05}
                    )
                    tables.append(table["id"])
            else:
                boss.log_in("boss", "the chief's password")
            # watch a table until a few more actions have happened, then kill mid-hand
            watch = boss.open_table(rng.choice(tables), watch_only=True)
            target = watch.state_id + rng.randint(5, 40)
            watch.wait(lambda f, target=target: f.get("state_id", -1) >= target)
            hands_at_kill.append(
                sum(len(boss.request("GET", f"/api/admin/tables/{t}/hands")) for t in tables)
            )
            if attempt < KILLS:
                served.kill()
                watch.drop()
                continue
            # the last life: every table goes on dealing after all those kills
            for table_id in tables:
                conn = boss.open_table(table_id, watch_only=True)
                number = (conn.view.get("hand") or {}).get("number", 0)
                conn.wait(
                    lambda f, n=number: (
                        ((f.get("view") or {}).get("hand") or {}).get("number", 0) > n + 1
                    )
                )
                conn.close()
            watch.close()
            hands = {t: boss.request("GET", f"/api/admin/tables/{t}/hands") for t in tables}
    # the process is gone (SIGKILL again in room_process's cleanup); the database is the truth
    assert_audit_clean(database_url)
    assert hands_at_kill == sorted(hands_at_kill)
    for table_id, table_hands in hands.items():
        numbers = [h["number"] for h in table_hands]
        assert numbers == list(range(1, len(numbers) + 1)), table_id
        # every hand but the one in play when we looked settled once; none was voided
        assert all(h["status"] == "settled" for h in table_hands[:-1]), table_hands
        assert {h["status"] for h in table_hands} <= {"settled", "playing"}
