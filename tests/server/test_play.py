"""Whole hands over real WebSockets, for every preset: a person and bots, spectators too, with
the leak oracle over every frame and the ledger audited at the end."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from play import check_no_leak, play

from thirteen.client import RoomClient, RoomError, TableConnection
from thirteen.engine.rules import PRESETS, get_rules
from thirteen.server.db.session import Database
from thirteen.server.money.audit import audit
from thirteen.server.settings import Settings


def run_audit(settings: Settings) -> list[str]:
    async def main() -> list[str]:
        db = Database(settings.database_url)
        try:
            return (await audit(db)).problems
        finally:
            await db.close()

    return asyncio.run(main())


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_person_plays_with_bots_and_nothing_leaks(
    preset: str, room: str, boss: RoomClient, settings: Settings
) -> None:
    rules = get_rules(preset)
    table = boss.create_table(
        preset,
        bots=rules.max_players - 1,
        bot_level="heuristic",
        rules={"showdown_seconds": 0.1},  # the protocol is the same; the test waits less
    )
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        conn = ann.open_table(table["id"])
        watching = RoomClient(room)
        spectator = watching.open_table(table["id"], watch_only=True)
        # every seat is taken by a bot but one
        seat = next(i for i, s in enumerate(conn.view["seats"]) if s is None)
        conn.do({"type": "sit", "seat": seat, "buy_in": table["max_buy_in"]})
        assert conn.seat == seat or conn.wait(lambda f: f.get("seat") == seat)
        won = play(conn, rules, hands=2)
        # the spectator's frames are checked too, up to where the player stopped
        spectator.wait(lambda f: f.get("state_id", -1) >= conn.state_id)
        checked = check_no_leak(boss, table["id"], conn.frames)
        checked += check_no_leak(boss, table["id"], spectator.frames)
        assert checked > 5
        ids = [f["state_id"] for f in conn.frames if "state_id" in f and f["type"] != "ack"]
        assert ids == sorted(ids)
        hands = ann.request("GET", "/api/hands")
        assert len(hands) >= 2
        assert sum(h["result"] for h in hands if h["status"] == "settled") == won
        assert ann.me()["balance"] == 10_000 + won
        conn.close()
        spectator.close()
        watching.close()
    assert run_audit(settings) == []


def test_protocol_refusals_change_nothing(room: str, boss: RoomClient) -> None:
    table = boss.create_table("chinese-1-6", bots=1, bot_level="heuristic")
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        conn = ann.open_table(table["id"])
        before = conn.state_id
        for message, code in [
            ("not json", "bad_message"),
            ("[1, 2]", "bad_message"),
            ('{"type": "dance"}', "bad_message"),
            ('{"type": "action", "id": "x", "action": {"type": "fold"}}', "bad_action"),
            ('{"type": "action", "id": "x", "action": {"type": "surrender"}}', "bad_message"),
        ]:
            conn.send(message)
            error = conn.wait(lambda f: f["type"] == "error")
            assert error["code"] == code
            assert error["message"].endswith(".")
        with pytest.raises(RoomError) as refused:
            conn.do({"type": "sit", "seat": 0, "buy_in": table["max_buy_in"]})
        assert refused.value.code == "seat_taken"
        with pytest.raises(RoomError) as refused:
            conn.do({"type": "sit", "seat": 1, "buy_in": 10**9})
        assert refused.value.code == "bad_buy_in"
        with pytest.raises(RoomError) as refused:
            conn.do({"type": "top_up", "amount": 10})
        assert refused.value.code == "not_seated"
        assert ann.me()["balance"] == 10_000
        assert conn.state_id >= before
        conn.close()


def resend(conn: TableConnection, action: dict[str, Any], ident: str) -> dict[str, Any]:
    """The room's new answer to ``action`` sent again as ``ident`` (not the client's memory of
    the first one)."""
    conn.forget_answer(ident)
    return conn.answer(conn.act(action, ident=ident))


def test_a_repeated_action_id_gets_the_same_answer(room: str, boss: RoomClient) -> None:
    table = boss.create_table("ofc", bots=1, bot_level="heuristic", max_buy_in=400)
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        conn = ann.open_table(table["id"])
        first = conn.do({"type": "sit", "seat": 1, "buy_in": 300}, ident="sit-1")
        again = resend(conn, {"type": "sit", "seat": 1, "buy_in": 300}, "sit-1")
        assert again == first
        assert ann.me()["balance"] == 10_000 - 300
        # after a reconnect, the same id is still answered the same way and moves nothing
        conn.reconnect()
        third = resend(conn, {"type": "sit", "seat": 1, "buy_in": 300}, "sit-1")
        assert third == first
        assert ann.me()["balance"] == 10_000 - 300
        conn.close()


def test_tickets_are_one_time_and_origins_checked(room: str, boss: RoomClient) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    table = boss.create_table("ofc", bots=2, bot_level="heuristic")
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        ticket = ann.ticket()
        with connect(f"{ann.ws_url('/ws/tables/999')}?ticket={ticket}") as ws:
            assert '"no_table"' in ws.recv(timeout=10)
        url = ann.ws_url(f"/ws/tables/{table['id']}")
        with connect(f"{url}?ticket={ticket}") as ws:  # spent by the socket that showed it
            assert '"bad_ticket"' in ws.recv(timeout=10)
        ticket = ann.ticket()
        with connect(f"{url}?ticket={ticket}") as ws:
            assert '"snapshot"' in ws.recv(timeout=10)
        with connect(f"{url}?ticket={ticket}") as ws:
            assert '"bad_ticket"' in ws.recv(timeout=10)
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=10)
        with connect(ann.ws_url("/ws/lobby"), origin="https://evil.example") as ws:  # type: ignore[arg-type]
            assert '"bad_origin"' in ws.recv(timeout=10)
        with connect(ann.ws_url("/ws/lobby")) as ws:
            assert '"lobby"' in ws.recv(timeout=10)

            def answer() -> str:
                """The next frame but the list sent again (the bots' hands start and end)."""
                while '"type":"lobby"' in (frame := str(ws.recv(timeout=10))):
                    pass
                return frame

            ws.send("not json")
            assert '"bad_message"' in answer()
            ws.send('{"type": "ping"}')
            assert '"pong"' in answer()


def test_admins_export_everything_and_it_verifies(
    room: str, boss: RoomClient, settings: Settings, tmp_path: Path
) -> None:
    table = boss.create_table(
        "ofc-pineapple", bots=3, bot_level="heuristic", rules={"showdown_seconds": 0.05}
    )
    watch = boss.open_table(table["id"], watch_only=True)
    watch.wait(lambda f: ((f.get("view") or {}).get("hand") or {}).get("number", 0) >= 3)
    watch.close()
    folder = tmp_path / "export"
    env = {**os.environ, "THIRTEEN_DATABASE_URL": settings.database_url}
    done = subprocess.run(
        [sys.executable, "-m", "thirteen.cli", "admin", "export", str(folder)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    full = sorted(folder.glob("ofc-pineapple-table*-hand-00001.json"))
    copies = sorted(folder.glob("ofc-pineapple-table*-hand-00001-seat*.json"))
    assert len(full) == 1
    assert len(copies) >= 2  # the first hand may start before the third bot sits
    ledger = (folder / "ledger.csv").read_text(encoding="utf-8").splitlines()
    assert ledger[0].startswith("id,at,from,to,amount")
    assert any(",hand," in line for line in ledger)
    for path, code in [(full[0], 0), (copies[0], 3)]:
        checked = subprocess.run(
            [sys.executable, "-m", "thirteen.cli", "verify", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert checked.returncode == code, checked.stdout + checked.stderr


def test_an_answer_the_table_forgot_is_still_answered_from_the_journal(
    room: str, boss: RoomClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table remembers its last few answers (``REMEMBERED_ANSWERS``); an accepted action's id
    sent again after the table forgot it gets its ``ack`` from the journal, and moves nothing."""
    from thirteen.server.tables import requests

    monkeypatch.setattr(requests, "REMEMBERED_ANSWERS", 3)
    table = boss.create_table("ofc", bots=1, bot_level="heuristic", max_buy_in=400)
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        conn = ann.open_table(table["id"])
        first = conn.do({"type": "sit", "seat": 1, "buy_in": 300}, ident="sit-1")
        for n in range(5):  # five answers more: the table's memory of "sit-1" is gone
            with pytest.raises(RoomError):
                conn.do({"type": "top_up", "amount": 10**9}, ident=f"too-much-{n}")
        again = resend(conn, {"type": "sit", "seat": 1, "buy_in": 300}, "sit-1")
        assert again == first
        assert ann.me()["balance"] == 10_000 - 300
        conn.close()
