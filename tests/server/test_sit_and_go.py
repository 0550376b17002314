"""Sit & go tournaments on SQLite and PostgreSQL: a tournament of bots plays to a winner, the
pool is paid out exactly by the table of places, the unit rises on schedule (the hands'
histories show it), and the audit is clean; registering and unregistering move the buy-in and
back; bad requests are refused with a sentence."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from services import assert_audit_clean, room_process, run_with_db
from sqlalchemy import select

from cli_helpers import CLI, Run
from thirteen.client import RoomClient, RoomError
from thirteen.server.competitions.tournaments import prizes, unit_at
from thirteen.server.db.models import LedgerAccount, TournamentEntry, Transfer, User
from thirteen.server.db.session import Database
from thirteen.server.money.audit import audit
from thirteen.server.money.ledger import escrow_name
from thirteen.server.settings import Settings

FAST = {"showdown_seconds": 0.05}
"""A showdown on show for a blink: the tournament's hands follow each other at once."""


def _db(settings: Settings, body: Any) -> Any:
    return _db_url(settings.database_url, body)


def _db_url(url: str, body: Any) -> Any:
    return run_with_db(url, body)


def _audit(settings: Settings) -> list[str]:
    async def body(db: Database) -> list[str]:
        return (await audit(db)).problems

    result: list[str] = _db(settings, body)
    return result


def _watch_to_the_end(boss: RoomClient, table_id: int) -> None:
    """Watch the tournament's table until it closes (the last player standing is known)."""
    try:
        watch = boss.open_table(table_id, watch_only=True)
    except RoomError:  # refused: it closed before we looked (every caller checks it finished)
        return
    try:
        watch.wait(lambda f: f.get("type") == "closing", timeout=240)
    finally:
        watch.close()


def test_a_sit_and_go_of_bots_plays_to_a_winner_and_pays_the_pool_exactly(
    room: str, boss: RoomClient, settings: Settings
) -> None:
    created = boss.request(
        "POST",
        "/api/tournaments",
        {
            "preset": "chinese-1-6",
            "name": "Bots' cup",
            "rules": FAST,
            "seats": 4,
            "buy_in": 333,
            "starting_stack": 400,
            "unit": 5,
            "rise_every": 2,
            "rise_percent": 100,
            "payouts": [65, 35],
            "bot_level": "heuristic",
        },
    )
    tid = created["id"]
    assert created["status"] == "registering"
    assert created["free"] == 4
    assert created["prizes"] == [866, 466]  # 1332 * 65% = 865.8 -> 865 + the chip left over
    listed = boss.request("GET", "/api/tournaments")["tournaments"]
    assert [t["id"] for t in listed] == [tid]
    started = boss.request("POST", f"/api/tournaments/{tid}/bots", {})
    assert started["status"] in ("running", "finished")
    assert started["registered"] == 4
    assert started["pool"] == 4 * 333
    table_id = started["table_id"]
    assert table_id is not None
    with pytest.raises(RoomError) as closing:  # nobody closes it but its last winner
        boss.request("DELETE", f"/api/tables/{table_id}")
    assert (closing.value.code, closing.value.status) in (
        ("tournament_table", 409),
        ("no_table", 404),  # it had finished already
    )
    _watch_to_the_end(boss, table_id)

    final = boss.request("GET", f"/api/tournaments/{tid}")
    assert final["status"] == "finished"
    players = final["players"]
    assert sorted(p["place"] for p in players) == [1, 2, 3, 4]
    by_place = {p["place"]: p for p in players}
    assert [by_place[n]["payout"] for n in (1, 2, 3, 4)] == [866, 466, 0, 0]
    assert by_place[1]["out_at_hand"] is None
    outs = [by_place[n]["out_at_hand"] for n in (2, 3, 4)]
    assert all(isinstance(h, int) and h >= 1 for h in outs)
    assert outs == sorted(outs, reverse=True)  # a better place went out later (or with them)
    hands_played = final["hands_played"]
    assert hands_played == outs[0]  # the hand that took the runner-up's last chip ended it
    assert final["players"][0]["name"] == by_place[1]["name"]

    # every hand is recorded, each played at the unit the schedule says (its history's table)
    hands = boss.request("GET", f"/api/admin/tables/{table_id}/hands")
    assert [h["number"] for h in hands] == list(range(1, hands_played + 1))
    assert all(h["status"] == "settled" for h in hands)
    units = []
    for h in hands:
        history = boss.request("GET", f"/api/admin/hands/{h['id']}")
        units.append(history["start"]["table"]["point_value"])
    assert units == [unit_at(5, 2, 100, n) for n in range(hands_played)]
    # 400 chips cannot be lost in two hands at 5 a point: the unit rises at least once
    assert hands_played >= 3
    assert units[:3] == [5, 5, 10]
    print(f"sit & go of bots: {hands_played} hands, units {units}")

    async def money(db: Database) -> dict[str, Any]:
        async with db.begin() as s:
            escrow = await s.scalar(
                select(LedgerAccount).where(LedgerAccount.name == escrow_name(tid))
            )
            assert escrow is not None
            paid = (
                await s.execute(
                    select(User.name, Transfer.amount)
                    .join(LedgerAccount, LedgerAccount.id == Transfer.credit_id)
                    .join(User, User.id == LedgerAccount.user_id)
                    .where(Transfer.debit_id == escrow.id)
                )
            ).all()
            moved_at_table = (
                await s.execute(
                    select(Transfer.reason).where(
                        Transfer.memo.like(f"%sit & go {tid})%"), Transfer.reason != "sng-buy-in"
                    )
                )
            ).all()
            entries = (
                await s.scalars(select(TournamentEntry).where(TournamentEntry.tournament_id == tid))
            ).all()
            return {
                "escrow": escrow.balance,
                "paid": sorted(paid, key=lambda p: -p[1]),
                "table_moves": moved_at_table,
                "entries": len(entries),
            }

    found = _db(settings, money)
    assert found["escrow"] == 0
    assert found["entries"] == 4
    assert found["paid"] == [(by_place[1]["name"], 866), (by_place[2]["name"], 466)]
    assert sum(amount for _, amount in found["paid"]) == 4 * 333
    assert found["table_moves"] == []  # no hand, seat or leaving moved money at the table
    assert _audit(settings) == []
    assert prizes(4 * 333, [65, 35]) == [866, 466]


def test_registering_and_unregistering_move_the_buy_in_and_back(
    room: str, boss: RoomClient, settings: Settings
) -> None:
    created = boss.request(
        "POST",
        "/api/tournaments",
        {"preset": "ofc", "seats": 3, "buy_in": 250, "starting_stack": 500, "unit": 1},
    )
    tid = created["id"]
    assert created["payouts"] == [100]
    with RoomClient(room) as ann, RoomClient(room) as bob:
        ann.sign_up("ann", "password of A-N-N")
        bob.sign_up("bob", "password of B-O-B")
        start = ann.me()["balance"]
        entered = ann.request("POST", f"/api/tournaments/{tid}/registration")
        assert entered["registered"] == 1
        assert entered["pool"] == 250
        assert ann.me()["balance"] == start - 250
        assert [p["name"] for p in entered["players"]] == ["ann"]
        with pytest.raises(RoomError) as twice:
            ann.request("POST", f"/api/tournaments/{tid}/registration")
        assert (twice.value.code, twice.value.status) == ("already_registered", 409)
        with pytest.raises(RoomError) as stranger:
            bob.request("DELETE", f"/api/tournaments/{tid}/registration")
        assert (stranger.value.code, stranger.value.status) == ("not_registered", 409)
        assert _audit(settings) == []  # the escrow holds the one buy-in
        ann.request("DELETE", f"/api/tournaments/{tid}/registration")
        assert ann.me()["balance"] == start
        again = ann.request("GET", f"/api/tournaments/{tid}")
        assert again["registered"] == 0
        assert again["pool"] == 0
        # registering again after unregistering is a new entry, with its own transfers
        ann.request("POST", f"/api/tournaments/{tid}/registration")
        bob.request("POST", f"/api/tournaments/{tid}/registration")
        assert ann.me()["balance"] == start - 250
        # an admin cancels it before it starts: every buy-in goes back
        boss.request("DELETE", f"/api/tournaments/{tid}")
        assert ann.me()["balance"] == start
        assert bob.me()["balance"] == start
        with pytest.raises(RoomError) as late:
            bob.request("POST", f"/api/tournaments/{tid}/registration")
        assert late.value.code == "not_registering"
        assert "cancelled" in str(late.value)
        assert _audit(settings) == []


def test_bad_requests_are_refused_with_a_sentence(room: str, boss: RoomClient) -> None:
    def refused(client: RoomClient, method: str, path: str, body: Any = None) -> RoomError:
        with pytest.raises(RoomError) as e:
            client.request(method, path, body)
        assert str(e.value).endswith(".")
        return e.value

    base = {"preset": "chinese-2-4", "seats": 2, "buy_in": 10, "starting_stack": 100}
    cases = [
        ({**base, "payouts": [60, 30]}, "bad_tournament", "add up to 100"),
        ({**base, "payouts": [40, 60]}, "bad_tournament", "never paid more"),
        ({**base, "payouts": [50, 30, 20]}, "bad_tournament", "1 to 2 places"),
        ({**base, "unit": 101}, "bad_tournament", "starting stack"),
        ({**base, "preset": "open-face-cards", "seats": 4}, "bad_tournament", "2 to 3 seats"),
        ({**base, "preset": "no-such-game"}, "unknown_rules", ""),
        ({**base, "rules": {"no_such_rule": 1}}, "bad_rules", ""),
        ({**base, "bot_level": "genius"}, "bad_tournament", "Bots are"),
        ({**base, "seats": 5}, "bad_request", ""),
        ({**base, "buy_in": 0}, "bad_request", ""),
    ]
    for body, code, words in cases:
        error = refused(boss, "POST", "/api/tournaments", body)
        assert error.code == code, body
        assert words in str(error)
    assert boss.request("GET", "/api/tournaments")["tournaments"] == []
    assert refused(boss, "GET", "/api/tournaments/99").code == "no_tournament"
    assert refused(boss, "POST", "/api/tournaments/99/registration").status == 404
    tid = boss.request("POST", "/api/tournaments", base)["id"]
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        assert refused(ann, "POST", "/api/tournaments", base).code == "forbidden"
        assert refused(ann, "POST", f"/api/tournaments/{tid}/bots", {}).code == "forbidden"
        assert refused(ann, "DELETE", f"/api/tournaments/{tid}").code == "forbidden"
        poor = {**base, "buy_in": 10**9}
        rich = boss.request("POST", "/api/tournaments", poor)["id"]
        short = refused(ann, "POST", f"/api/tournaments/{rich}/registration")
        assert short.code == "insufficient_chips"
    too_many = refused(boss, "POST", f"/api/tournaments/{tid}/bots", {"count": 3})
    assert too_many.code == "bad_tournament"
    with RoomClient(room) as anon:
        assert refused(anon, "POST", f"/api/tournaments/{tid}/registration").code == (
            "not_logged_in"
        )


def test_a_sit_and_go_survives_kill_9_and_finishes_once(database_url: str, tmp_path: Path) -> None:
    """kill -9 in the middle of a sit & go of bots: the room comes back, the tournament goes
    on from its journal, finishes, and pays its pool exactly once."""
    with room_process(database_url, tmp_path) as served, RoomClient(served.url) as boss:
        boss.sign_up("boss", "the chief's password")
        tid = boss.request(
            "POST",
            "/api/tournaments",
            {
                "preset": "chinese-2-4",
                "rules": FAST,
                "seats": 3,
                "buy_in": 100,
                "starting_stack": 1000,
                "unit": 5,
                "rise_every": 3,
                "rise_percent": 100,
                "payouts": [100],
                "bot_level": "heuristic",
            },
        )["id"]
        table_id = boss.request("POST", f"/api/tournaments/{tid}/bots", {})["table_id"]
        watch = boss.open_table(table_id, watch_only=True)
        # a few hands in (units rise every three), mid-hand
        watch.wait(
            lambda f: (
                ((f.get("view") or {}).get("hand") or {}).get("number", 0) >= 4
                and (f.get("view") or {}).get("phase") == "playing"
            )
        )
        served.kill()
        watch.drop()
    with room_process(database_url, tmp_path) as served, RoomClient(served.url) as boss:
        boss.log_in("boss", "the chief's password")
        _watch_to_the_end(boss, table_id)
        final = boss.request("GET", f"/api/tournaments/{tid}")
        hands = boss.request("GET", f"/api/admin/tables/{table_id}/hands")
        units = [
            boss.request("GET", f"/api/admin/hands/{h['id']}")["start"]["table"]["point_value"]
            for h in hands
        ]
    assert final["status"] == "finished"
    assert sorted(p["place"] for p in final["players"]) == [1, 2, 3]
    assert sorted(p["payout"] for p in final["players"]) == [0, 0, 300]
    assert [h["number"] for h in hands] == list(range(1, len(hands) + 1))
    assert all(h["status"] == "settled" for h in hands)
    assert units == [unit_at(5, 3, 100, n) for n in range(len(hands))]
    print(f"sit & go through kill -9: {len(hands)} hands, units {units}")

    async def paid(db: Database) -> list[int]:
        async with db.begin() as s:
            return list(
                (
                    await s.scalars(
                        select(Transfer.amount).where(Transfer.key.like(f"sng-payout:{tid}:%"))
                    )
                ).all()
            )

    assert _db_url(database_url, paid) == [300]
    assert_audit_clean(database_url)


def test_an_absent_player_blinds_out_and_is_never_unseated(
    room: str, boss: RoomClient, settings: Settings
) -> None:
    """A registered person who never plays is dealt in every hand (the table plays for them at
    each deadline) until the chips run out or they win; they cannot top up or leave."""
    tid = boss.request(
        "POST",
        "/api/tournaments",
        {
            "preset": "chinese-1-6",
            "rules": {**FAST, "set_hand_seconds": 0.3},
            "seats": 3,
            "buy_in": 50,
            "starting_stack": 300,
            "unit": 5,
            "rise_every": 2,
            "rise_percent": 100,
            "payouts": [100],
            "bot_level": "heuristic",
        },
    )["id"]
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        start = ann.me()["balance"]
        ann.request("POST", f"/api/tournaments/{tid}/registration")
        table_id = boss.request("POST", f"/api/tournaments/{tid}/bots", {})["table_id"]
        conn = ann.open_table(table_id)
        seat = conn.seat
        assert seat is not None
        assert conn.settings["tournament"] == tid
        for action in (
            {"type": "top_up", "amount": 10},
            {"type": "leave"},
            {"type": "sit_out"},
            {"type": "sit", "seat": 0, "buy_in": 300},
        ):
            with pytest.raises(RoomError) as refused:
                conn.do(action)
            assert refused.value.code == "tournament_table"
        # then she is gone (an absent seat's time bank waits: the table plays for her at each
        # deadline); a spectator, there before she goes, sees the table close
        watch = boss.open_table(table_id, watch_only=True)
        conn.close()
        watch.wait(lambda f: f.get("type") == "closing", timeout=240)
        watch.close()
        final = boss.request("GET", f"/api/tournaments/{tid}")
        mine = next(p for p in final["players"] if p["name"] == "ann")
        assert final["status"] == "finished"
        assert mine["place"] in (1, 2, 3)
        assert ann.me()["balance"] == start - 50 + (150 if mine["place"] == 1 else 0)
        last = mine["out_at_hand"] or final["hands_played"]
        hands = boss.request("GET", f"/api/admin/tables/{table_id}/hands")
        for h in hands[:last]:
            history = boss.request("GET", f"/api/admin/hands/{h['id']}")
            timeouts = [
                a for a in history["actions"] if a["type"] == "time_out" and a["seat"] == seat
            ]
            assert len(timeouts) == 1, h["number"]  # dealt in, and the table set for her
        assert len(hands) >= 2
    assert _audit(settings) == []


def test_six_players_race_for_four_seats(room: str, boss: RoomClient, settings: Settings) -> None:
    """Registrations at the same moment: four get a seat, the others a refusal and their
    chips untouched; the pool holds exactly four buy-ins."""
    tid = boss.request(
        "POST",
        "/api/tournaments",
        {"preset": "ofc", "seats": 4, "buy_in": 70, "starting_stack": 500, "unit": 100},
    )["id"]
    clients = [RoomClient(room) for _ in range(6)]
    try:
        for n, client in enumerate(clients):
            client.sign_up(f"racer{n}", "a racer's password")
        start = clients[0].me()["balance"]
        gate = threading.Barrier(len(clients))

        def enter(client: RoomClient) -> str:
            gate.wait()
            try:
                client.request("POST", f"/api/tournaments/{tid}/registration")
            except RoomError as e:
                return e.code
            return "registered"

        with ThreadPoolExecutor(len(clients)) as pool:
            answers = list(pool.map(enter, clients))
        assert answers.count("registered") == 4, answers
        assert set(answers) - {"registered"} <= {"tournament_full", "not_registering"}
        balances = sorted(c.me()["balance"] for c in clients)
        assert balances == [start - 70] * 4 + [start] * 2
        standing = boss.request("GET", f"/api/tournaments/{tid}")
        assert standing["registered"] == 4
        assert standing["pool"] == 280
        assert standing["status"] in ("running", "finished")
    finally:
        for client in clients:
            client.close()
    assert _audit(settings) == []


def test_an_operator_runs_a_sit_and_go_from_the_command_line(
    room: str, boss: RoomClient, settings: Settings, cli: CLI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``thirteen admin sng``, run in this process beside the room (its own database)."""
    monkeypatch.setenv("THIRTEEN_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("THIRTEEN_ARGON2_MEMORY_KIB", "8192")
    monkeypatch.setenv("THIRTEEN_ARGON2_TIME_COST", "1")

    def sng(*args: str) -> Run:
        return cli(["admin", "sng", *args])

    made = sng(
        "create",
        "--rules",
        "ofc",
        "--seats",
        "2",
        "--buy-in",
        "40",
        "--stack",
        "100",
        "--unit",
        "4",
        "--rise-every",
        "1",
        "--bot-level",
        "heuristic",
        "--set",
        "showdown_seconds=0.05",
    )
    assert made.code == 0, made.err
    # the command's own line comes last (anything logged before it is not its answer)
    assert made.out.strip().splitlines()[-1] == "Created sit & go 1.", made.out + made.err
    bad = sng("create", "--rules", "ofc", "--payouts", "50,40")
    assert bad.code != 0
    assert "add up to 100" in bad.out + bad.err
    listed = sng("list")
    assert "registering 0/2" in listed.out, listed.out + listed.err
    filled = sng("bots", "1")
    assert filled.code == 0, filled.err
    assert "starts at table" in filled.out, filled.out + filled.err
    table_id = boss.request("GET", "/api/tournaments/1")["table_id"]
    # the running room picks the table up at its next look (the socket's handshake waits for
    # it), and the bots play it out — sometimes before the handshake gets to the table (units
    # rise every hand): then the table is closed already — the handshake is refused, or, when
    # the table closed while the socket was let in, it hears `closing` and is closed with 1001 —
    # and the tournament must be finished
    refused: RoomError | None = None
    try:
        watch = boss.open_table(table_id, watch_only=True)
    except RoomError as e:
        refused = e
    else:
        watch.wait(lambda f: f.get("type") == "closing", timeout=240)
        watch.close()
    if refused is not None:
        assert refused.code == "closed", refused
        assert f"no open table {table_id}" in str(refused) or "(1001, " in str(refused), refused
    final = boss.request("GET", "/api/tournaments/1")
    assert final["status"] == "finished"
    assert sorted(p["payout"] for p in final["players"]) == [0, 80]
    assert _audit(settings) == []


def test_the_audit_notices_a_tournament_that_does_not_add_up(database_url: str) -> None:
    """Chips taken from a tournament's escrow, or a tournament finished without paying its
    places, are reported; a place given twice is refused by the database itself."""
    from services import run_with_db
    from sqlalchemy import update
    from sqlalchemy.exc import IntegrityError

    from thirteen.server.competitions import tournaments as sng
    from thirteen.server.db.models import Tournament
    from thirteen.server.money.accounts import Accounts
    from thirteen.server.settings import load_settings

    async def body(db: Database) -> tuple[list[str], list[str], list[str]]:
        accounts = Accounts(db, load_settings(argon2_memory_kib=8192, argon2_time_cost=1))
        tid = await sng.create_tournament(
            db, sng.TournamentSpec(preset="ofc", seats=3, buy_in=50, starting_stack=100, unit=1)
        )
        ann = await accounts.create_user("ann", None, "player")
        bob = await accounts.create_user("bob", None, "player")
        await sng.register(db, tid, ann)
        await sng.register(db, tid, bob)
        clean = (await audit(db)).problems
        escrow = LedgerAccount.name == escrow_name(tid)
        async with db.begin() as s:  # a chip leaves the escrow behind the ledger's back
            await s.execute(
                update(LedgerAccount).where(escrow).values(balance=LedgerAccount.balance - 1)
            )
        short = (await audit(db)).problems
        async with db.begin() as s:
            await s.execute(
                update(LedgerAccount).where(escrow).values(balance=LedgerAccount.balance + 1)
            )
        with pytest.raises(IntegrityError):
            async with db.begin() as s:
                await s.execute(
                    update(TournamentEntry)
                    .where(TournamentEntry.tournament_id == tid)
                    .values(place=2)
                    .execution_options(synchronize_session=False)
                )
        async with db.begin() as s:  # finished on paper, nobody paid
            await s.execute(
                update(Tournament).where(Tournament.id == tid).values(status="finished")
            )
        unpaid = (await audit(db)).problems
        return clean, short, unpaid

    clean, short, unpaid = run_with_db(database_url, body)
    assert clean == []
    assert any("its escrow holds 99, not 100" in p for p in short), short
    assert any("finished but its escrow still holds 100" in p for p in unpaid), unpaid
    assert any("finished with places [], not 1 to 2" in p for p in unpaid), unpaid
    assert any("paid 0 chips (0 by its entries) of a pool of 100" in p for p in unpaid), unpaid


def test_a_sit_and_go_killed_at_random_write_points_pays_once(
    database_url: str, tmp_path: Path
) -> None:
    """The room kills itself (SIGKILL) at a random write point of each life — between two
    statements, just before a commit or just after one — while a sit & go plays out; after
    every restart it goes on, and in the end its pool is paid exactly once."""
    rng = random.Random(1313)
    with room_process(database_url, tmp_path) as served, RoomClient(served.url) as boss:
        boss.sign_up("boss", "the chief's password")
        tid = boss.request(
            "POST",
            "/api/tournaments",
            {
                "preset": "chinese-1-6",
                "rules": FAST,
                "seats": 2,
                "buy_in": 77,
                "starting_stack": 300,
                "unit": 5,
                "rise_every": 2,
                "rise_percent": 100,
                "bot_level": "heuristic",
            },
        )["id"]
        table_id = boss.request("POST", f"/api/tournaments/{tid}/bots", {})["table_id"]
    lives = kills = 0
    finished = False
    while not finished:
        lives += 1
        assert lives <= 12, "the sit & go never finished"
        chaos = {"chaos_kill_after": str(rng.randint(10, 90))} if lives <= 8 else {}
        with room_process(database_url, tmp_path, bot_delay="0.02", **chaos) as served:
            try:  # watching needs no login: nothing to redo when the room dies at once
                with RoomClient(served.url) as look:
                    watch = look.open_table(table_id, watch_only=True)
                    watch.wait(lambda f: f.get("type") == "closing", timeout=120)
                    watch.close()
            except TimeoutError:
                raise
            except Exception:  # the room died under us, or the table had closed before
                pass
            try:
                with RoomClient(served.url) as look:
                    status = look.request("GET", f"/api/tournaments/{tid}")["status"]
            except httpx.HTTPError:  # dying: the next life picks up from the database
                served.process.wait(30)
            if served.process.poll() is not None:
                kills += 1
                continue
            finished = status == "finished"

    async def paid(db: Database) -> list[tuple[str, int]]:
        async with db.begin() as s:
            return [
                (key, amount)
                for key, amount in (
                    await s.execute(
                        select(Transfer.key, Transfer.amount).where(
                            Transfer.key.like(f"sng-payout:{tid}:%")
                        )
                    )
                ).all()
            ]

    assert _db_url(database_url, paid) == [(f"sng-payout:{tid}:1", 154)]
    assert_audit_clean(database_url)
    assert kills >= 1
    print(f"sit & go through {lives} lives, {kills} killed at a write point")
