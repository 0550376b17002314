"""No request and no stored row can stop the room (issue 31), on SQLite and PostgreSQL.

- One schema for every rule override, wherever rules enter — a practice run, a table opened over
  HTTP or by ``thirteen admin table create``, a sit & go, an event: a number that is not finite
  or not in its range is refused with a sentence naming the setting and its range, and nothing
  is written (``1e999`` once stored a table that stopped the room's discovery for good).
- A creation of several rows is one transaction: a sit & go's last registration or an event's
  start that cannot write its tables is refused and takes nothing (no buy-in, no table).
- A stored row can never stop the room: a table whose rules, snapshot or journal cannot be read
  (as a corrupted or old row would be) is set aside as ``broken`` — logged once, its chips held,
  listed and flagged by the operator's tools, closed and refunded by ``thirteen admin table
  close`` — while the room starts and every other table runs.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from services import assert_audit_clean, run_with_db
from sqlalchemy import func, select, update

from cli_helpers import CLI
from thirteen.client import RoomClient, RoomError
from thirteen.server.db.models import (
    DuplicateEvent,
    GameTable,
    JournalEntry,
    PracticeRun,
    Tournament,
    TournamentEntry,
)
from thirteen.server.db.session import Database
from thirteen.server.http.app import create_app
from thirteen.server.money import ledger
from thirteen.server.money.accounts import user_by_name
from thirteen.server.serve import serve_in_thread
from thirteen.server.settings import Settings, load_settings

POISONS = [
    ('{"set_hand_seconds": 1e999}', "set_hand_seconds must be a finite number from 0.001 to 3,600"),
    ('{"showdown_seconds": NaN}', "showdown_seconds must be a finite number"),
    ('{"sit_out_seconds": -Infinity}', "sit_out_seconds must be a finite number"),
    ('{"foul_penalty": 1000000000000000000000000000000}', "foul_penalty must be from 0 to 1,000"),
    ('{"royalties": {"front": {"trips": 1e400}}}', "royalties.front['trips'] must be a finite"),
]
"""Rule overrides as an attacker sends them (raw JSON), and what the refusal says."""


@pytest.fixture
def boss(room: str) -> Iterator[RoomClient]:
    with RoomClient(room) as client:
        client.sign_up("boss", "the chief's password")
        yield client


def _raw(client: RoomClient, method: str, path: str, body: str) -> tuple[int, dict[str, Any]]:
    """A request with a body as written (1e999, NaN: what json.dumps would not write)."""
    headers = {"x-csrf-token": client.csrf, "content-type": "application/json"}
    answer = client.http.request(method, path, content=body, headers=headers)
    return answer.status_code, answer.json()


def _counts(url: str) -> dict[str, int]:
    async def body(db: Database) -> dict[str, int]:
        async with db.begin() as s:
            return {
                model.__tablename__: int(await s.scalar(select(func.count()).select_from(model)))
                for model in (GameTable, PracticeRun, Tournament, DuplicateEvent)
            }

    return run_with_db(url, body)


def _wallet(url: str, name: str) -> int:
    async def body(db: Database) -> int:
        async with db.begin() as s:
            user = await user_by_name(s, name)
            assert user is not None
            return (await ledger.wallet(s, user.id)).balance

    return run_with_db(url, body)


def test_a_poisoned_rule_override_is_refused_everywhere_and_stores_nothing(
    room: str, boss: RoomClient, settings: Settings
) -> None:
    url = settings.database_url
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        held = _wallet(url, "ann")
        for rules, says in POISONS:
            entries = [
                (ann, "/api/practice/duplicate", {"preset": "chinese-1-6", "deals": 1}),
                (boss, "/api/tables", {"preset": "chinese-1-6", "bots": 1}),
                (boss, "/api/tournaments", {"preset": "chinese-1-6", "seats": 2}),
                (boss, "/api/events", {"preset": "open-face-cards"}),
            ]
            for client, path, fields in entries:
                body = json.dumps(fields)[:-1] + f', "rules": {rules}}}'
                status, answer = _raw(client, "POST", path, body)
                assert (status, answer["error"]["code"]) == (400, "bad_rules"), (path, answer)
                assert says in answer["error"]["message"], (path, answer)
        assert set(_counts(url).values()) == {0}  # no table, run, sit & go or event
        assert _wallet(url, "ann") == held
        # and the room runs tables as before
        table = boss.create_table("chinese-1-6", bots=1, rules={"showdown_seconds": 0.05})
        assert [t["status"] for t in boss.tables() if t["id"] == table["id"]] == ["open"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--set", "set_hand_seconds=1e999"], "set_hand_seconds must be a finite number"),
        (["--set", "street_seconds=NaN"], "street_seconds must be a finite number"),
        (["--set", f"foul_penalty={10**30}"], "foul_penalty must be from 0 to 1,000 units"),
        (["--unit", str(10**30)], "unit must be from 1 to 1,000,000,000,000 chips"),
        (["--max-buy-in", str(10**19)], "max_buy_in must be from 1 to"),
        (["--time-bank", "nan"], "time_bank_seconds must be a finite number from 0 to 600"),
    ],
)
def test_the_operator_s_table_create_refuses_what_the_room_could_not_run(
    database_url: str, args: list[str], says: str, cli: CLI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("THIRTEEN_DATABASE_URL", database_url)
    done = cli(["admin", "table", "create", "--rules", "chinese-1-6", *args])
    assert done.code != 0, done.out
    assert says in done.err, done.err
    assert "Traceback" not in done.err
    assert _counts(database_url)["tables"] == 0


def test_the_operator_s_sit_and_go_create_refuses_what_the_room_could_not_run(
    database_url: str, cli: CLI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("THIRTEEN_DATABASE_URL", database_url)
    sng = cli(["admin", "sng", "create", "--rules", "chinese-1-6", "--set", "max_players=1e9"])
    assert sng.code != 0
    assert "max_players must be a whole number" in sng.err, sng.err
    assert "Traceback" not in sng.err
    assert _counts(database_url)["tournaments"] == 0


def _poison(url: str, model: type[Tournament] | type[DuplicateEvent], row_id: int) -> None:
    """Write rules as a row from before this schema may hold them (a timer of 1e999)."""

    async def body(db: Database) -> None:
        async with db.begin() as s:
            rules = json.loads(await s.scalar(select(model.rules).where(model.id == row_id)))
            rules["set_hand_seconds"] = float("inf")
            await s.execute(update(model).where(model.id == row_id).values(rules=json.dumps(rules)))

    run_with_db(url, body)


def test_a_sit_and_go_that_cannot_start_takes_no_buy_in(
    room: str, boss: RoomClient, settings: Settings
) -> None:
    url = settings.database_url
    sng = boss.request(
        "POST", "/api/tournaments", {"preset": "chinese-1-6", "seats": 2, "buy_in": 100}
    )
    with RoomClient(room) as ann, RoomClient(room) as bob:
        ann.sign_up("ann", "password of A-N-N")
        bob.sign_up("bob", "password of B-O-B")
        ann.request("POST", f"/api/tournaments/{sng['id']}/registration")
        _poison(url, Tournament, sng["id"])
        held = _wallet(url, "bob")
        with pytest.raises(RoomError) as refused:
            bob.request("POST", f"/api/tournaments/{sng['id']}/registration")
        assert refused.value.status == 400, refused.value
        assert "set_hand_seconds" in str(refused.value)
        assert "cannot start" in str(refused.value)
    assert _wallet(url, "bob") == held  # no buy-in taken
    assert _counts(url)["tables"] == 0  # no table written

    async def entries(db: Database) -> tuple[str, int]:
        async with db.begin() as s:
            row = await s.get(Tournament, sng["id"])
            assert row is not None
            n = await s.scalar(
                select(func.count(TournamentEntry.id)).where(
                    TournamentEntry.tournament_id == row.id
                )
            )
            return row.status, int(n or 0)

    assert run_with_db(url, entries) == ("registering", 1)
    boss.request("DELETE", f"/api/tournaments/{sng['id']}")  # the director can still cancel it


def test_an_event_that_cannot_open_its_tables_does_not_start(
    boss: RoomClient, settings: Settings
) -> None:
    url = settings.database_url
    event = boss.request(
        "POST", "/api/events", {"preset": "open-face-cards", "rules": {"showdown_seconds": 0.05}}
    )
    boss.request("POST", f"/api/events/{event['id']}/bot-teams", {"count": 3})
    _poison(url, DuplicateEvent, event["id"])
    with pytest.raises(RoomError) as refused:
        boss.request("POST", f"/api/events/{event['id']}/start")
    assert refused.value.status == 400
    assert "set_hand_seconds" in str(refused.value)
    assert boss.request("GET", f"/api/events/{event['id']}")["status"] == "registering"
    assert _counts(url)["tables"] == 0


def _poison_tables(url: str, rules_of: int, snapshot_of: int, journal_of: int) -> None:
    """Write what a corrupted or old row may hold: rules with a timer of 1e999 (as the room
    stored them before its schema), a snapshot that is not JSON, a journal entry that is not
    an action."""

    async def body(db: Database) -> None:
        async with db.begin() as s:
            row = await s.get_one(GameTable, rules_of)
            rules = json.loads(row.rules)
            rules["set_hand_seconds"] = float("inf")
            row.rules = json.dumps(rules)
            snapshot = json.loads(row.snapshot)
            snapshot["rules"] = rules
            row.snapshot = json.dumps(snapshot)
            (await s.get_one(GameTable, snapshot_of)).snapshot = '{"rules": [1, 2'
            last = await s.scalar(
                select(func.max(JournalEntry.state_id)).where(JournalEntry.table_id == journal_of)
            )
            s.add(
                JournalEntry(
                    table_id=journal_of,
                    state_id=int(last or 0) + 1,
                    action='{"type": "set_hand", "seat": 1e999}',
                    created_at=time.time(),
                )
            )

    run_with_db(url, body)


def _settled_a_hand(client: RoomClient, table_id: int) -> None:
    conn = client.open_table(table_id, watch_only=True)
    try:
        conn.wait(
            lambda f: any(e["event"] == "HandSettled" for e in f.get("events", [])), timeout=120
        )
    finally:
        conn.close()


def test_a_table_whose_row_cannot_be_loaded_is_set_aside_and_the_room_runs(
    database_url: str,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    cli: CLI,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The operator's commands (``thirteen admin``) run in this process, beside the room."""
    monkeypatch.setenv("THIRTEEN_DATABASE_URL", database_url)
    settings = load_settings(
        database_url=database_url,
        data_dir=tmp_path,
        argon2_memory_kib=8192,
        argon2_time_cost=1,
        default_tables=False,
        bot_delay=0,
        bot_budget=0.02,
        admins="boss",
        rate_limits=False,
        discover_seconds=0.2,
    )
    fast = {"showdown_seconds": 0.05}
    with serve_in_thread(create_app(settings)) as url, RoomClient(url) as boss:
        boss.sign_up("boss", "the chief's password")
        held = boss.create_table("chinese-1-6", seats=2, rules=fast)
        unreadable = boss.create_table("ofc", bots=2, bot_level="heuristic", rules=fast)
        out_of_step = boss.create_table("chinese-1-4", bots=1, bot_level="random", rules=fast)
        healthy = boss.create_table("chinese-2-4", bots=2, bot_level="random", rules=fast)
        with RoomClient(url) as ann:
            ann.sign_up("ann", "password of A-N-N")
            wallet = ann.me()["balance"]
            conn = ann.open_table(held["id"])
            conn.do({"type": "sit", "seat": 0, "buy_in": held["max_buy_in"]})
            conn.close()
            assert ann.me()["balance"] == wallet - held["max_buy_in"]
    broken = {held["id"], unreadable["id"], out_of_step["id"]}
    _poison_tables(database_url, held["id"], unreadable["id"], out_of_step["id"])

    caplog.set_level(logging.INFO, logger="thirteen.server.room")
    with serve_in_thread(create_app(settings)) as url, RoomClient(url) as boss:  # it starts
        boss.log_in("boss", "the chief's password")
        _settled_a_hand(boss, healthy["id"])  # every other table runs
        fresh = boss.create_table("ofc-pineapple", bots=2, bot_level="random", rules=fast)
        _settled_a_hand(boss, fresh["id"])  # and new ones open and play
        # an operator's table is found by the room's look (the look goes on past the broken)
        made = cli(["admin", "table", "create", "--rules", "chinese-1-3", "--bots", "1"])
        assert made.code == 0, made.err
        later = int(made.out.split()[-1].rstrip("."))
        deadline = time.monotonic() + 60
        while later not in {t["id"] for t in boss.tables()}:
            assert time.monotonic() < deadline, "the room never ran the operator's table"
            time.sleep(0.05)  # allowed: the room's look finds it; the lobby list is polled
        listed = {t["id"] for t in boss.tables()}
        assert listed.isdisjoint(broken)
        with pytest.raises(RoomError) as refused:
            boss.open_table(held["id"], watch_only=True).receive()
        assert "no_table" in str(refused.value) or "1008" in str(refused.value)

        set_aside = [r for r in caplog.records if r.getMessage().startswith("table set aside")]
        assert sorted(getattr(r, "table", None) for r in set_aside) == sorted(broken)  # once
        reasons = {getattr(r, "table", 0): getattr(r, "reason", "") for r in set_aside}
        assert "set_hand_seconds must be a finite number" in reasons[held["id"]]
        assert "JSONDecodeError" in reasons[unreadable["id"]]

        shown = json.loads(cli(["admin", "table", "list", "--json"]).out)
        statuses = {t["id"]: (t["status"], t["broken_reason"]) for t in shown}
        assert {i for i, (status, _) in statuses.items() if status == "broken"} == broken
        assert statuses[held["id"]][1] == reasons[held["id"]]
        text = cli(["admin", "table", "list"]).out
        assert f"set aside: {reasons[held['id']]}" in text

        audited = cli(["admin", "audit"])
        assert audited.code == 1, audited.out
        chips = f"{held['max_buy_in']:,} chips held for 1 seats"
        assert f"table {held['id']} is broken (" in audited.out
        assert chips in audited.out

        closed = cli(["admin", "table", "close", str(held["id"])])
        assert closed.code == 0, closed.err
        assert f"{held['max_buy_in']:,} chips back to 1 account." in closed.out
        boss.request("DELETE", f"/api/tables/{unreadable['id']}")  # over HTTP too
        assert cli(["admin", "table", "close", str(out_of_step["id"])]).code == 0
        assert cli(["admin", "table", "close", str(held["id"])]).code != 0
        with RoomClient(url) as ann:
            ann.log_in("ann", "password of A-N-N")
            assert ann.me()["balance"] == wallet  # every chip came back
    assert_audit_clean(database_url)


def test_a_broken_sit_and_go_table_is_cancelled_with_every_buy_in_back(
    settings: Settings, tmp_path: Path, cli: CLI, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = settings.database_url
    monkeypatch.setenv("THIRTEEN_DATABASE_URL", url)
    with serve_in_thread(create_app(settings)) as room, RoomClient(room) as boss:
        boss.sign_up("boss", "the chief's password")
        sng = boss.request(
            "POST",
            "/api/tournaments",
            {"preset": "chinese-1-6", "seats": 3, "buy_in": 100, "rules": {"showdown_seconds": 9}},
        )
        with RoomClient(room) as ann:
            ann.sign_up("ann", "password of A-N-N")
            wallet = ann.me()["balance"]
            ann.request("POST", f"/api/tournaments/{sng['id']}/registration")
            started = boss.request("POST", f"/api/tournaments/{sng['id']}/bots", {})
        assert started["status"] == "running"
        table_id = started["table_id"]

    async def poison(db: Database) -> None:
        async with db.begin() as s:
            (await s.get_one(GameTable, table_id)).snapshot = "not a snapshot"

    run_with_db(url, poison)
    with serve_in_thread(create_app(settings)) as room, RoomClient(room) as boss:
        boss.log_in("boss", "the chief's password")
        standings = boss.request("GET", f"/api/tournaments/{sng['id']}")  # answers
        assert standings["status"] == "running"
        shown = json.loads(cli(["admin", "table", "list", "--json"]).out)
        assert [t["status"] for t in shown if t["id"] == table_id] == ["broken"]
        assert f"table {table_id} is broken" in cli(["admin", "audit"]).out
        closed = cli(["admin", "table", "close", str(table_id)])
        assert closed.code == 0, closed.err
        assert boss.request("GET", f"/api/tournaments/{sng['id']}")["status"] == "cancelled"
        with RoomClient(room) as ann:
            ann.log_in("ann", "password of A-N-N")
            assert ann.me()["balance"] == wallet  # the buy-in came back
    assert_audit_clean(url)
