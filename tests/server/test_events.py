"""Duplicate team events (seed 004) on SQLite and PostgreSQL: a whole event of bot teams runs
to its standings, every hand dealt the same cards at its group's three tables (one deck root in
the three histories); team totals equal the sum of the hands' recorded results; an event's
tables are private while it runs; a hand waits for its players' confirmations; rulings and a
disqualification change the standings as seed 004 says; bad requests get a sentence."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import random
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from services import (
    Postgres,
    RedisServer,
    assert_audit_clean,
    room_process,
    run_with_db,
    serve_in_thread,
)
from sqlalchemy import select

from thirteen.client import RoomClient, RoomError
from thirteen.engine.cards import parse_cards
from thirteen.engine.deck import Deal
from thirteen.server.competitions.duplicate import seating
from thirteen.server.db.models import DuplicateDeal, DuplicateTable, Hand, HandSeat
from thirteen.server.db.session import Database
from thirteen.server.http.app import create_app
from thirteen.server.money.audit import audit
from thirteen.server.settings import Settings

FAST = {
    "showdown_seconds": 0.05,
    "first_street_seconds": 2.0,
    "street_seconds": 2.0,
}


def _event(boss: RoomClient, **body: Any) -> dict[str, Any]:
    data = {
        "preset": "open-face-cards",
        "name": "Bots' duplicate",
        "rounds": 2,
        "hands_per_round": 2,
        "confirm_seconds": 0,
        "rules": FAST,
        "bot_level": "heuristic",
    }
    data.update(body)
    created: dict[str, Any] = boss.request("POST", "/api/events", data)
    return created


def _round_tables(detail: dict[str, Any], round_: int) -> list[int]:
    groups = detail["round_results"][round_ - 1]["groups"]
    return [t["table_id"] for g in groups for t in g["tables"]]


MOVING = (1012, 1013)
"""Close codes of a table moving between a room's processes: reconnect and watch on."""


def _watch_closed(boss: RoomClient, table_id: int) -> list[dict[str, Any]]:
    """Watch an event's table as its director until it closes; the frames seen (a table
    handed to another of the room's processes meanwhile is followed there)."""
    for _attempt in range(20):
        try:
            conn = boss.open_table(table_id)
        except RoomError as e:  # it closed before we looked, or it is moving right now
            if any(f"({code}," in str(e) for code in MOVING):
                continue
            return []
        try:
            conn.wait(lambda f: f.get("type") == "closing", timeout=240)
            return conn.frames
        except RoomError:
            if conn.closed is None or conn.closed[0] not in MOVING:
                raise
        finally:
            conn.close()
    raise AssertionError(f"table {table_id} kept moving")


def _play_out(boss: RoomClient, event_id: int, rounds: int) -> dict[str, Any]:
    for r in range(1, rounds + 1):
        detail = boss.request("GET", f"/api/events/{event_id}")
        assert detail["round"] == r
        with ThreadPoolExecutor(9) as pool:
            list(pool.map(lambda t: _watch_closed(boss, t), _round_tables(detail, r)))
    final: dict[str, Any] = boss.request("GET", f"/api/events/{event_id}")
    return final


def _results_by_team(url: str, event_id: int) -> dict[int, int]:
    """Each team's points as the hands' recorded results say (hand_seats), by seat."""

    async def body(db: Database) -> dict[int, int]:
        totals: dict[int, int] = defaultdict(int)
        async with db.begin() as s:
            placed = (
                await s.scalars(select(DuplicateTable).where(DuplicateTable.event_id == event_id))
            ).all()
            for p in placed:
                seats = seating(json.loads(p.teams))[p.position]
                for seat, delta in (
                    await s.execute(
                        select(HandSeat.seat, HandSeat.delta)
                        .join(Hand, Hand.id == HandSeat.hand_id)
                        .where(Hand.table_id == p.table_id, Hand.status == "settled")
                    )
                ).all():
                    totals[seats[seat][0]] += int(delta)
        return dict(totals)

    result: dict[int, int] = run_with_db(url, body)
    return result


def test_an_event_of_three_bot_teams_plays_the_same_cards_at_three_tables(
    room: str, boss: RoomClient, settings: Settings
) -> None:
    event = _event(boss, name="The longest name an event may have: sixty-four characters, all!!")
    eid = event["id"]
    assert event["status"] == "registering"
    with pytest.raises(RoomError) as early:  # no teams yet
        boss.request("POST", f"/api/events/{eid}/start")
    assert early.value.code == "teams_not_ready"
    boss.request("POST", f"/api/events/{eid}/bot-teams", {"count": 3})
    started = boss.request("POST", f"/api/events/{eid}/start")
    assert started["status"] == "running"
    assert started["round"] == 1
    group = started["round_results"][0]["groups"][0]
    a, b, c = group["teams"]
    # seed 004: A1 B1 C1 / B2 C2 A2 / C3 A3 B3
    assert [[(s["team"], s["number"]) for s in t["seats"]] for t in group["tables"]] == [
        [(a, 1), (b, 1), (c, 1)],
        [(b, 2), (c, 2), (a, 2)],
        [(c, 3), (a, 3), (b, 3)],
    ]
    lobby = boss.request("GET", "/api/tables")["tables"]
    assert not set(_round_tables(started, 1)) & {t["id"] for t in lobby}  # private

    final = _play_out(boss, eid, 2)
    assert final["status"] == "finished"
    hands = [h for r in final["round_results"] for g in r["groups"] for h in g["hands"]]
    assert len(hands) == 4
    assert all(h["complete"] for h in hands)

    # the same deal at the three tables of every hand: one deck (and salts), one root
    for r in (1, 2):
        tables = _round_tables(final, r)
        for n in (1, 2):
            decks = set()
            for table_id in tables:
                listed = boss.request("GET", f"/api/admin/tables/{table_id}/hands")
                hand_id = next(h["id"] for h in listed if h["number"] == n)
                history = boss.request("GET", f"/api/admin/hands/{hand_id}")
                decks.add((history["deal"]["deck"], tuple(history["deal"]["salts"])))
            assert len(decks) == 1, f"round {r} hand {n} was dealt {len(decks)} ways"
            deck, salts = decks.pop()
            root = Deal.from_order(parse_cards(deck), [bytes.fromhex(x) for x in salts]).root
            shown = final["round_results"][r - 1]["groups"][0]["hands"][n - 1]["root"]
            assert shown == root

    # team totals: the sum of their members' recorded results; the field sums to zero
    recorded = _results_by_team(settings.database_url, eid)
    standings = {t["id"]: t for t in final["standings"]}
    assert {tid: t["total"] for tid, t in standings.items()} == recorded
    assert sum(recorded.values()) == 0
    assert sorted(t["rank"] for t in final["standings"]) == sorted(
        1 + sum(o["total"] > t["total"] for o in final["standings"]) for t in final["standings"]
    )
    for team in final["standings"]:
        assert sum(team["rounds"]) == team["total"]

    # the deal side by side, seat by seat: the three teams' play of the same cards
    side = boss.request("GET", f"/api/events/{eid}/deals/1/1/1")
    assert [len(s["plays"]) for s in side["seats"]] == [3, 3, 3]
    for seat in side["seats"]:
        assert len({p["team"] for p in seat["plays"]}) == 3
        cards = [
            set(parse_cards(p["front"] + " " + p["middle"] + " " + p["back"]))
            for p in seat["plays"]
        ]
        assert all(len(c) == 13 for c in cards)

    # the results as CSV: every seat of every hand, summing to each team's total
    text = boss.request("GET", f"/api/events/{eid}/results.csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 4 * 3 * 3
    by_name: dict[str, int] = defaultdict(int)
    for row in rows:
        by_name[row["team"]] += int(row["points"])
    assert by_name == {t["name"]: t["total"] for t in final["standings"]}
    assert_audit_clean(settings.database_url)

    # the audit checks each table was dealt its group's deal: a deal changed afterwards shows
    async def tamper(db: Database) -> list[str]:
        async with db.begin() as s:
            deal = await s.scalar(select(DuplicateDeal).where(DuplicateDeal.event_id == eid))
            assert deal is not None
            deal.salts = json.dumps([bytes(16).hex()] * 52)
        return (await audit(db)).problems

    problems: list[str] = run_with_db(settings.database_url, tamper)
    assert len(problems) == 3, problems
    assert all("was not dealt its group's deal" in p for p in problems)


def _person(room: str, name: str) -> RoomClient:
    client = RoomClient(room)
    client.sign_up(name, f"password of {'-'.join(name.upper())}")
    return client


def _hand_started(frames: list[dict[str, Any]], number: int) -> bool:
    return any(
        e["event"] == "HandStarted" and e.get("number") == number
        for f in frames
        for e in f.get("events", [])
    )


def _settled(conn: Any, count: int) -> None:
    """Wait until ``count`` hands settled at the connection's table: as its frames' views show
    it (the hand on the table, and whether it has its results), not by the ``HandSettled``
    events seen — a quick hand settles before the socket opens, and its snapshot shows it done
    without the event."""

    def seen() -> int:
        settled = 0
        for f in conn.frames:
            hand = (f.get("view") or {}).get("hand")
            if hand is not None:
                settled = max(settled, hand["number"] - (hand["results"] is None))
        return settled

    if seen() < count:
        conn.wait(lambda _f: seen() >= count, timeout=120)


def test_people_confirm_results_the_tables_are_private_and_the_director_rules(
    room: str, boss: RoomClient, settings: Settings
) -> None:
    quick = {"showdown_seconds": 0.05, "first_street_seconds": 0.3, "street_seconds": 0.3}
    event = _event(boss, rounds=1, hands_per_round=3, confirm_seconds=90, rules=quick)
    eid = event["id"]
    ann, bob, cat, dan = (_person(room, n) for n in ("ann", "bob", "cat", "dan"))
    try:
        with pytest.raises(RoomError) as bad:
            ann.request("POST", f"/api/events/{eid}/teams", {"name": "<script>"})
        assert bad.value.code == "bad_team"
        aces = ann.request("POST", f"/api/events/{eid}/teams", {"name": "Aces"})
        team = next(t for t in aces["standings"] if t["name"] == "Aces")
        with pytest.raises(RoomError) as twice:
            ann.request("POST", f"/api/events/{eid}/teams", {"name": "Kings"})
        assert twice.value.code == "already_registered"
        bob.request("POST", f"/api/events/{eid}/teams/{team['id']}/members")
        cat.request("POST", f"/api/events/{eid}/teams/{team['id']}/members")
        with pytest.raises(RoomError) as full:
            dan.request("POST", f"/api/events/{eid}/teams/{team['id']}/members")
        assert (full.value.code, full.value.status) == ("team_full", 409)
        with pytest.raises(RoomError) as not_director:
            ann.request("POST", f"/api/events/{eid}/start")
        assert not_director.value.status == 403
        boss.request("POST", f"/api/events/{eid}/bot-teams", {"count": 2})
        started = boss.request("POST", f"/api/events/{eid}/start")
        listed = next(t for t in started["standings"] if t["name"] == "Aces")
        assert [m["name"] for m in listed["members"]] == ["ann", "bob", "cat"]

        mine = ann.request("GET", f"/api/events/{eid}")["you"]
        assert mine["number"] == 1
        assert mine["table_id"] in _round_tables(started, 1)
        # an event's table is its players' and the director's: nobody else may look
        for outsider, watch_only in ((dan, False), (dan, True), (ann, False)):
            others = [t for t in _round_tables(started, 1) if t != mine["table_id"]]
            target = others[0] if outsider is ann else mine["table_id"]
            with pytest.raises(RoomError):
                outsider.open_table(target, watch_only=watch_only).close()

        with pytest.raises(RoomError) as ahead:  # a result there is not yet
            ann.request("POST", f"/api/events/{eid}/confirmations", {"round": 1, "hand": 3})
        assert ahead.value.code == "bad_confirmation"
        watches = [boss.open_table(t) for t in _round_tables(started, 1)]
        for conn in watches:
            _settled(conn, 1)
        detail = boss.request("GET", f"/api/events/{eid}")
        first = detail["round_results"][0]["groups"][0]["hands"][0]
        assert first["complete"]
        assert first["confirmed"] == 0
        # nobody confirmed: hand 2 waits (its 90 s to confirm by itself are far off)
        assert not any(_hand_started(c.frames, 2) for c in watches)
        ann.request("POST", f"/api/events/{eid}/confirmations", {"round": 1, "hand": 1})
        bob.request("POST", f"/api/events/{eid}/confirmations", {"round": 1, "hand": 1})
        bob.request("POST", f"/api/events/{eid}/confirmations", {"round": 1, "hand": 1})  # again
        with pytest.raises(RoomError) as outsider_confirms:
            dan.request("POST", f"/api/events/{eid}/confirmations", {"round": 1, "hand": 1})
        assert outsider_confirms.value.code == "not_registered"
        assert (
            boss.request("GET", f"/api/events/{eid}")["round_results"][0]["groups"][0]["hands"][0][
                "confirmed"
            ]
            == 2
        )
        assert not any(_hand_started(c.frames, 2) for c in watches)
        cat.request("POST", f"/api/events/{eid}/confirmations", {"round": 1, "hand": 1})
        for conn in watches:
            conn.wait(lambda _f, c=conn: _hand_started(c.frames, 2), timeout=60)
            _settled(conn, 2)

        # the director disqualifies the people's team: from the next deal the room's bot
        # plays its seats (nobody waits for its confirmations), and it is ranked apart
        boss.request(
            "POST",
            f"/api/events/{eid}/rulings",
            {"kind": "disqualify", "player": "ann", "reason": "Signals to a teammate."},
        )
        for conn in watches:
            conn.wait(lambda _f, c=conn: _hand_started(c.frames, 3), timeout=60)
        at_ann = next(c for c in watches if c.table_id == mine["table_id"])
        names = [s["player"] for s in at_ann.view["seats"] if s is not None]
        assert "ann" not in names
        for conn in watches:  # a table closes once the event moved on (here: finished)
            if not any(f.get("type") == "closing" for f in conn.frames):
                conn.wait(lambda f: f.get("type") == "closing", timeout=60)
            conn.close()
        final = boss.request("GET", f"/api/events/{eid}")
        assert final["status"] == "finished"  # no person left to confirm the round's totals

        # a foul ruling on bob's first hand: -12 basis points and +6 to each other player
        # (seed 004 §V.2), kept as the difference it makes; a warning moves nothing
        ruled = boss.request(
            "POST",
            f"/api/events/{eid}/rulings",
            {
                "kind": "foul",
                "player": "bob",
                "round": 1,
                "hand": 1,
                "reason": "Moved a card after placing it.",
            },
        )
        with pytest.raises(RoomError) as again:
            boss.request(
                "POST",
                f"/api/events/{eid}/rulings",
                {"kind": "foul", "player": "bob", "round": 1, "hand": 1, "reason": "Again."},
            )
        assert again.value.code == "bad_ruling"
        boss.request(
            "POST",
            f"/api/events/{eid}/rulings",
            {"kind": "warning", "player": "cat", "reason": "Slow play."},
        )
        final = boss.request("GET", f"/api/events/{eid}")
        kinds = [(r["kind"], r["player"], r["reason"]) for r in final["rulings"]]
        assert kinds == [
            ("disqualify", "ann", "Signals to a teammate."),
            ("foul", "bob", "Moved a card after placing it."),
            ("warning", "cat", "Slow play."),
        ]
        foul = final["rulings"][1]
        assert sum(foul["points"].values()) == 0
        assert foul["points"].get("Aces", 0) <= 0
        assert foul["points"] == {
            t["name"]: t["rulings"] for t in final["standings"] if t["rulings"]
        }
        assert ruled["rulings"][1]["id"] == foul["id"]
        by_name = {t["name"]: t for t in final["standings"]}
        assert by_name["Aces"]["disqualified"]
        assert by_name["Aces"]["rank"] is None
        assert final["standings"][-1]["name"] == "Aces"  # listed apart, after the ranked
        recorded = _results_by_team(settings.database_url, eid)
        for t in final["standings"]:
            assert t["points"] == recorded[t["id"]]
            assert t["total"] == t["points"] + t["rulings"]
        assert_audit_clean(settings.database_url)
    finally:
        for person in (ann, bob, cat, dan):
            person.close()


def test_only_the_director_rules_and_a_ruling_after_the_finish_says_so(
    settings: Settings,
) -> None:
    """Issue 31, item 9: another admin's ruling is refused (403 ``not_director``) and changes
    nothing, even on a finished event; the director's ruling after the finish changes the final
    standings, which say so — which ruling, by whom, when and why — in the JSON and the CSV."""
    two_admins = settings.model_copy(update={"admins": "boss,ref"})
    with (
        serve_in_thread(create_app(two_admins)) as url,
        RoomClient(url) as boss,
        RoomClient(url) as ref,
    ):
        boss.sign_up("boss", "directs every event")
        ref.sign_up("ref", "another admin here")
        assert ref.me()["role"] == "admin"
        eid = _event(boss, rounds=1, hands_per_round=1)["id"]
        boss.request("POST", f"/api/events/{eid}/bot-teams", {"count": 3})
        boss.request("POST", f"/api/events/{eid}/start")
        final = _play_out(boss, eid, 1)
        assert final["status"] == "finished"
        assert (final["director"], final["changed_after_finish"]) == ("boss", [])
        player = final["standings"][0]["members"][0]["name"]
        team = final["standings"][0]["name"]
        rulings = f"/api/events/{eid}/rulings"
        foul = {"kind": "foul", "player": player, "round": 1, "hand": 1, "reason": "Set late."}

        for body in (foul, {"kind": "warning", "player": player, "reason": "Slow."}):
            with pytest.raises(RoomError) as refused:
                ref.request("POST", rulings, body)
            assert (refused.value.status, refused.value.code) == (403, "not_director")
            assert "Only the event's director, boss, may rule" in str(refused.value)
        with pytest.raises(RoomError) as no_reason:  # after the finish as before: a reason
            boss.request("POST", rulings, {**foul, "reason": "   "})
        assert (no_reason.value.status, no_reason.value.code) == (400, "bad_ruling")
        assert boss.request("GET", f"/api/events/{eid}") == final  # nothing changed

        before = time.time()
        after = boss.request("POST", rulings, foul)
        (ruling,) = after["rulings"]
        assert (ruling["by"], ruling["after_finish"], ruling["reason"]) == (
            "boss",
            True,
            "Set late.",
        )
        assert before <= ruling["at"] <= time.time()
        assert after["changed_after_finish"] == [
            {
                "id": ruling["id"],
                "kind": "foul",
                "player": player,
                "by": "boss",
                "at": ruling["at"],
                "reason": "Set late.",
            }
        ]
        assert after["status"] == "finished"
        moved = {t["name"]: t["rulings"] for t in after["standings"]}
        assert {k: v for k, v in moved.items() if v} == {
            k: v for k, v in ruling["points"].items() if v
        }
        for t in after["standings"]:
            assert t["total"] == t["points"] + t["rulings"]
        assert boss.request("GET", f"/api/events/{eid}/results.json") == after

        # a disqualification after the finish moves no points but the ranking: said too
        last = boss.request(
            "POST", rulings, {"kind": "disqualify", "player": player, "reason": "Collusion."}
        )
        assert [c["kind"] for c in last["changed_after_finish"]] == ["foul", "disqualify"]
        assert next(t for t in last["standings"] if t["name"] == team)["rank"] is None

        text = boss.request("GET", f"/api/events/{eid}/results.csv")
        notes = [r for r in csv.DictReader(io.StringIO(text)) if r["seat"] == ""]
        assert notes, text
        for note in notes:
            assert ", after the finish, by boss on " in note["player"], note
        assert any(n["player"].endswith(": Set late.") for n in notes)
        (dq,) = [n for n in notes if ": disqualify (" in n["player"]]
        assert (dq["team"], dq["points"]) == (team, "0")
        assert dq["player"].endswith(": Collusion.")


def test_teams_are_ranked_across_events_and_event_hands_stay_off_personal_boards(
    room: str, boss: RoomClient
) -> None:
    quick = {"showdown_seconds": 0.05, "first_street_seconds": 0.3, "street_seconds": 0.3}
    people = [_person(room, n) for n in ("ann", "bob", "cat")]
    try:
        totals = []
        for _ in range(2):  # the same team name in two events is one team on the board
            eid = _event(boss, rounds=1, hands_per_round=1, rules=quick)["id"]
            made = people[0].request("POST", f"/api/events/{eid}/teams", {"name": "Aces"})
            team = next(t for t in made["standings"] if t["name"] == "Aces")
            for p in people[1:]:
                p.request("POST", f"/api/events/{eid}/teams/{team['id']}/members")
            boss.request("POST", f"/api/events/{eid}/bot-teams", {"count": 2})
            boss.request("POST", f"/api/events/{eid}/start")
            final = _play_out(boss, eid, 1)
            assert final["status"] == "finished"
            aces = next(t for t in final["standings"] if t["name"] == "Aces")
            totals.append((aces["total"], aces["rank"] == 1))
        board = boss.request("GET", "/api/leaderboards?game=ofc&period=all&who=teams")
        assert [(s["name"], s["hands"]) for s in board["standings"]] == [("Aces", 2)]
        assert board["standings"][0]["net_units"] == sum(t for t, _won in totals)
        assert board["standings"][0]["big_hands"] == sum(won for _t, won in totals)
        mine = people[0].request("GET", "/api/leaderboards?period=all&who=people&min_hands=1")
        assert mine["you"]["hands"] == 0  # points at an event are not money
    finally:
        for p in people:
            p.close()


def test_an_event_killed_at_random_write_points_finishes_with_the_same_deals(
    database_url: str, tmp_path: Path
) -> None:
    """The room kills itself (SIGKILL) at a random write point of each life while an event of
    bot teams plays; after every restart its tables resume (each still dealt its group's deal,
    which the audit checks) and its rounds open exactly once."""
    rng = random.Random(404)
    with room_process(database_url, tmp_path) as served, RoomClient(served.url) as boss:
        boss.sign_up("boss", "the chief's password")
        eid = _event(boss, rounds=2, hands_per_round=2)["id"]
        boss.request("POST", f"/api/events/{eid}/bot-teams", {"count": 3})
        boss.request("POST", f"/api/events/{eid}/start")
    lives = kills = 0
    finished = False
    while not finished:
        lives += 1
        assert lives <= 14, "the event never finished"
        chaos = {"chaos_kill_after": str(rng.randint(10, 120))} if lives <= 8 else {}
        with room_process(database_url, tmp_path, **chaos) as served:
            status = ""
            try:
                with RoomClient(served.url) as boss:
                    boss.log_in("boss", "the chief's password")
                    detail = boss.request("GET", f"/api/events/{eid}")
                    status = detail["status"]
                    if status == "running":
                        for table_id in _round_tables(detail, detail["round"]):
                            _watch_closed(boss, table_id)
                        status = boss.request("GET", f"/api/events/{eid}")["status"]
            except TimeoutError:
                raise AssertionError("stuck:\n" + "".join(served.log[-40:])) from None
            except Exception:  # the room died under us: the next life picks up
                served.process.wait(30)
            if served.process.poll() is not None:
                kills += 1
                continue
            finished = status == "finished"

    async def hands(db: Database) -> list[tuple[int, int, str]]:
        async with db.begin() as s:
            tables = (
                await s.scalars(
                    select(DuplicateTable.table_id).where(DuplicateTable.event_id == eid)
                )
            ).all()
            return [
                (t, n, st)
                for t, n, st in (
                    await s.execute(
                        select(Hand.table_id, Hand.number, Hand.status).where(
                            Hand.table_id.in_(tables)
                        )
                    )
                ).all()
            ]

    played = run_with_db(database_url, hands)
    by_table: dict[int, list[int]] = defaultdict(list)
    for table_id, number, status in played:
        if status == "settled":
            by_table[table_id].append(number)
    assert len(by_table) == 6  # two rounds of three tables, opened once each
    assert all(sorted(numbers) == [1, 2] for numbers in by_table.values())
    assert_audit_clean(database_url)
    assert kills >= 1
    print(f"event through {lives} lives, {kills} killed at a write point")


def test_an_event_starts_by_itself_at_its_time_once_its_field_is_ready(
    room: str, boss: RoomClient
) -> None:
    later = _event(boss, starts_at=time.time() + 3600)
    boss.request("POST", f"/api/events/{later['id']}/bot-teams", {"count": 3})
    assert boss.request("GET", f"/api/events/{later['id']}")["status"] == "registering"

    due = _event(boss, starts_at=time.time() - 1)  # its time has come: it waits for its field
    short = boss.request("POST", f"/api/events/{due['id']}/bot-teams", {"count": 2})
    assert short["status"] == "registering"
    assert short["starts_at"] is not None  # still to start by itself
    ready = boss.request("POST", f"/api/events/{due['id']}/bot-teams", {"count": 1})
    assert ready["status"] == "running"
    assert ready["round"] == 1
    with pytest.raises(RoomError) as late:  # registering is over
        boss.request("POST", f"/api/events/{due['id']}/bot-teams", {"count": 3})
    assert late.value.code == "not_registering"
    boss.request("DELETE", f"/api/events/{later['id']}")
    assert boss.request("GET", f"/api/events/{later['id']}")["status"] == "cancelled"


def test_an_event_plays_across_two_processes(
    postgres: Postgres, redis_server: RedisServer, tmp_path: Path
) -> None:
    """A room of two processes on PostgreSQL and Redis shares an event's tables out: a group's
    three tables run on both, each holding its deals until its siblings on the other process
    settled (they learn it from the database), and each round opens once whichever process
    sees it first."""
    url = postgres.new_database()
    with contextlib.ExitStack() as stack:
        served = [
            stack.enter_context(
                room_process(url, tmp_path, process_name=name, redis_url=redis_server.url)
            )
            for name in ("e1", "e2")
        ]
        with RoomClient(served[0].url) as boss, RoomClient(served[1].url) as other:
            boss.sign_up("boss", "the chief's password")
            other.log_in("boss", "the chief's password")
            eid = _event(boss, rounds=2, hands_per_round=2)["id"]
            boss.request("POST", f"/api/events/{eid}/bot-teams", {"count": 3})
            boss.request("POST", f"/api/events/{eid}/start")
            final = _play_out(other, eid, 2)  # the director watches through the other one
    assert final["status"] == "finished"
    ran = [
        {
            json.loads(line)["table"]
            for line in s.log
            if '"table open"' in line and json.loads(line).get("table") is not None
        }
        for s in served
    ]
    tables = set(_round_tables(final, 1)) | set(_round_tables(final, 2))
    assert all(r & tables for r in ran), ran  # both processes ran some of them
    assert all(h["complete"] for r in final["round_results"] for h in r["groups"][0]["hands"])
    assert_audit_clean(url)


def test_a_number_in_a_body_is_a_json_number(room: str, boss: RoomClient) -> None:
    """``true`` is not 1 and ``"2"`` is not 2 in a request body (schemathesis found an event
    created from ``{"rounds": true}``); an integral ``2.0`` is an integer, as in the schema."""
    for bad in ({"rounds": True}, {"rounds": "2"}, {"confirm_seconds": False}):
        with pytest.raises(RoomError) as refused:
            boss.request("POST", "/api/events", bad)
        assert (refused.value.status, str(refused.value)) == (
            422,
            f"{next(iter(bad))}: must be a number, not true, false or text.",
        )
    assert boss.request("POST", "/api/events", {"rounds": 2.0})["rounds"] == 2
    with pytest.raises(RoomError) as table:
        boss.request("POST", "/api/tables", {"preset": "ofc", "seats": True})
    assert table.value.status == 422
