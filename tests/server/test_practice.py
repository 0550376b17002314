"""Duplicate practice on SQLite and PostgreSQL: a run of deals played over the wire, for a
Chinese Poker preset and an OFC one; each hand's difference is the player's points less the
strong bot's with the same cards, the bot's rows are a legal arrangement of the player's own
cards (and, in Chinese Poker, score what the engine says against the opponents' very settings);
the results survive a restart (a shadow lost in a crash is computed again); nobody else sees,
watches or sits at the table; the run closes its table by itself and the audit is clean."""

from __future__ import annotations

import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from services import Postgres, RedisServer, assert_audit_clean, rooms_in_threads, run_with_db
from sqlalchemy import delete, select
from websockets.sync.client import connect

from thirteen.client import RoomClient, RoomError, TableConnection, legal_move
from thirteen.engine.actions import SetHand
from thirteen.engine.cards import parse_cards
from thirteen.engine.history import history_from_json, replay
from thirteen.engine.rules import get_rules
from thirteen.server.competitions.practice import MAX_RUNS_PLAYING
from thirteen.server.db.models import GameTable, PracticeHand
from thirteen.server.db.session import Database
from thirteen.server.http.app import create_app
from thirteen.server.serve import serve_in_thread
from thirteen.server.settings import Settings

FAST = {"showdown_seconds": 0.05}
GRANT = 10_000
BUY_IN = 400


def _start(client: RoomClient, preset: str, deals: int, **more: Any) -> dict[str, Any]:
    body = {"preset": preset, "deals": deals, "buy_in": BUY_IN, "rules": FAST, **more}
    run: dict[str, Any] = client.request("POST", "/api/practice/duplicate", body)
    return run


def _play_out(conn: TableConnection, preset: str, seed: int = 0) -> list[int]:
    """Play every decision of the seat until the table closes; the chips each hand moved."""
    rules = get_rules(preset)
    rng = random.Random(seed)
    deltas: list[int] = []
    seen = 0
    acted_on = -1
    while True:
        for frame in conn.frames[seen:]:
            for event in frame.get("events", []):
                if event["event"] == "HandSettled" and conn.seat in event["seats"]:
                    deltas.append(event["deltas"][event["seats"].index(conn.seat)])
        seen = len(conn.frames)
        if conn.my_turn() and conn.state_id != acted_on:
            acted_on = conn.state_id
            me = conn.me
            assert me is not None
            answer = conn.answer(conn.act(legal_move(me, rules, rng)))
            assert answer["type"] == "ack" or answer["code"] == "stale", answer
            continue
        if conn.receive(timeout=120) is None:  # the run's last deal played: the table closed
            assert any(f["type"] == "closing" for f in conn.frames)
            return deltas


def _cards(board: dict[str, Any], *rows: str) -> list[Any]:
    return sorted(c for row in rows for c in parse_cards(board[row]))


def _check_hand(boss: RoomClient, preset: str, hand: dict[str, Any]) -> None:
    """One hand of a run against the hand's full history (read as an admin)."""
    assert not hand["pending"], hand
    assert hand["difference"] == hand["your_points"] - hand["bot_points"]
    full = boss.request("GET", f"/api/admin/hands/{hand['hand_id']}")
    history = history_from_json(full)
    seats = full["result"]["seats"]
    assert hand["your_points"] == full["result"]["totals"][seats.index(0)]
    you, bot = hand["your_board"], hand["bot_board"]
    every = ("front", "middle", "back", "discards")
    # the same cards as the player's (those of seat 0 in the deck), every one of them placed
    # or discarded, in rows of 3, 5 and 5 (unless the bot surrendered)
    assert _cards(bot, "cards") == _cards(you, "cards") == _cards(you, *every)
    real = replay(history).hand
    assert real is not None
    board = real.board_of(0)
    assert board is not None
    assert _cards(you, "cards") == sorted(board.dealt)
    if not bot["surrendered"]:
        assert _cards(bot, *every) == _cards(bot, "cards")
        assert [len(parse_cards(bot[r])) for r in ("front", "middle", "back")] == [3, 5, 5]
    if get_rules(preset).is_ofc:
        return
    assert not bot["foul"]  # the strong setter never fouls a Chinese Poker hand
    if bot["natural"] or bot["surrendered"]:
        return
    # the bot's setting scored again by the engine against the opponents' very settings
    front, middle, back = (tuple(parse_cards(bot[r])) for r in ("front", "middle", "back"))
    mine = [a for a in history.actions[1:] if getattr(a, "seat", None) == 0]
    assert len(mine) == 1, mine
    swapped = tuple(
        SetHand(seat=0, front=front, middle=middle, back=back, at=a.at) if a is mine[0] else a
        for a in history.actions
    )
    final = replay(replace(history, actions=swapped))
    assert final.hand is not None
    assert final.hand.result is not None
    assert hand["bot_points"] == final.hand.result.players[final.hand.index_of(0)].total


def _refused(client: RoomClient, table_id: int, *, watch_only: bool) -> dict[str, Any]:
    query = "" if watch_only else f"?ticket={client.ticket()}"
    with connect(client.ws_url(f"/ws/tables/{table_id}{query}"), open_timeout=30) as ws:
        frame: dict[str, Any] = json.loads(ws.recv(timeout=30))
    return frame


@pytest.mark.parametrize(("preset", "deals"), [("chinese-1-6", 4), ("ofc-pineapple", 3)])
def test_a_run_plays_its_deals_against_the_strong_bot(
    room: str, boss: RoomClient, settings: Settings, preset: str, deals: int
) -> None:
    with RoomClient(room) as ann, RoomClient(room) as bob:
        ann.sign_up("ann", "password of A-N-N")
        bob.sign_up("bob", "password of B-O-B")
        run = _start(ann, preset, deals, opponents=2, bot_level="club")
        table_id = run["table_id"]
        assert (run["status"], run["deals"], run["played"], run["hands"]) == (
            "playing",
            deals,
            0,
            [],
        )
        assert run["seats"] == 3
        assert ann.me()["balance"] == GRANT - BUY_IN  # an ordinary buy-in from the wallet

        # the table is ann's alone: not in the lobby, nobody else sits or watches, no run of bob's
        assert table_id not in [t["id"] for t in boss.tables()]
        assert table_id not in [t["id"] for t in bob.tables()]
        for who, watch_only in ((bob, False), (bob, True), (boss, False)):
            refused = _refused(who, table_id, watch_only=watch_only)
            assert (refused["type"], refused["code"]) == ("error", "private_table")
        with pytest.raises(RoomError) as missing:
            bob.request("GET", f"/api/practice/duplicate/{table_id}")
        assert (missing.value.status, missing.value.code) == (404, "not_found")
        assert bob.request("GET", "/api/practice/duplicate")["runs"] == []

        conn = ann.open_table(table_id)
        assert conn.seat == 0  # seated by the room, the bots with her
        seats = conn.view["seats"]
        assert [s["player"] for s in seats] == ["ann", f"bot-{table_id}-1", f"bot-{table_id}-2"]
        if not get_rules(preset).is_ofc:
            if not conn.my_turn():  # dealt at once: the snapshot may show it already
                conn.wait(lambda f: conn.my_turn())
            with pytest.raises(RoomError) as no_hint:
                ann.request("GET", f"/api/tables/{table_id}/hint")
            assert (no_hint.value.status, no_hint.value.code) == (403, "no_hints")
        deltas = _play_out(conn, preset)
        conn.close()
        assert len(deltas) == deals
        # the chips came back: the buy-in, plus what the hands moved (a point is one chip)
        assert ann.me()["balance"] == GRANT + sum(deltas)

        done = ann.request("GET", f"/api/practice/duplicate/{table_id}")
        assert (done["status"], done["played"], done["compared"]) == ("finished", deals, deals)
        assert [h["number"] for h in done["hands"]] == list(range(1, deals + 1))
        running = 0
        for hand in done["hands"]:
            _check_hand(boss, preset, hand)
            running += hand["difference"]
            assert hand["running_total"] == running
        assert done["total"] == running
        listed = ann.request("GET", "/api/practice/duplicate")["runs"]
        assert [(r["table_id"], r["total"], r["status"]) for r in listed] == [
            (table_id, running, "finished")
        ]
    assert_audit_clean(settings.database_url)


def test_results_survive_a_restart_and_a_lost_shadow_is_computed_again(
    settings: Settings,
) -> None:
    preset = "chinese-2-4"
    with serve_in_thread(create_app(settings)) as url, RoomClient(url) as ann:
        ann.sign_up("ann", "password of A-N-N")
        table_id = _start(ann, preset, 3, opponents=1, bot_level="heuristic")["table_id"]
        conn = ann.open_table(table_id)
        rules, rng = get_rules(preset), random.Random(3)
        if not conn.my_turn():
            conn.wait(lambda f: conn.my_turn())
        me = conn.me
        assert me is not None
        conn.do(legal_move(me, rules, rng))

        def settled(frame: dict[str, Any]) -> bool:
            return any(e["event"] == "HandSettled" for e in frame.get("events", []))

        if not any(settled(f) for f in conn.frames):  # (the update may come before the ack)
            conn.wait(settled)
        conn.close()
    # the room stopped after one hand: forget that hand's shadow, as a crash before writing
    # it would have
    number_one: list[int] = []

    async def forget(db: Database) -> None:
        async with db.begin() as s:
            rows = (
                await s.scalars(select(PracticeHand).where(PracticeHand.table_id == table_id))
            ).all()
            number_one.extend(r.player_points for r in rows if r.number == 1)
            await s.execute(delete(PracticeHand).where(PracticeHand.table_id == table_id))

    run_with_db(settings.database_url, forget)

    with serve_in_thread(create_app(settings)) as url, RoomClient(url) as ann:
        ann.log_in("ann", "password of A-N-N")
        conn = ann.open_table(table_id)
        assert conn.seat == 0
        deltas = _play_out(conn, preset, seed=4)
        conn.close()
        assert 2 <= len(deltas) <= 3  # the second hand may have been dealt before the stop
        done = ann.request("GET", f"/api/practice/duplicate/{table_id}")
        assert (done["status"], done["played"], done["compared"]) == ("finished", 3, 3)
        first = done["hands"][0]
        assert not first["pending"]
        assert first["difference"] == first["your_points"] - first["bot_points"]
        if number_one:  # its shadow was written before the stop: the same points again
            assert first["your_points"] == number_one[0]
        with RoomClient(url) as boss:
            boss.sign_up("boss", "the chief's password")
            for hand in done["hands"]:
                _check_hand(boss, preset, hand)
    # and again after this restart: read from the database as they were
    with serve_in_thread(create_app(settings)) as url, RoomClient(url) as ann:
        ann.log_in("ann", "password of A-N-N")
        again = ann.request("GET", f"/api/practice/duplicate/{table_id}")
        assert again == done
    assert_audit_clean(settings.database_url)


def test_a_run_is_refused_with_a_sentence(room: str) -> None:
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        cases = [
            ({"preset": "whist"}, 400, "unknown_rules", "There is no preset 'whist'"),
            ({"preset": "ofc", "deals": 0}, 400, "bad_practice", "A run is 1 to 100 deals, not 0."),
            ({"preset": "ofc", "deals": 101}, 400, "bad_practice", "A run is 1 to 100 deals"),
            ({"preset": "chinese-2-4", "opponents": 4}, 400, "bad_practice", "play against 1 to 3"),
            ({"preset": "ofc", "bot_level": "god"}, 400, "bad_practice", "The opponents are"),
            ({"preset": "ofc", "buy_in": GRANT + 1}, 409, "insufficient_chips", "Your wallet"),
            ({"preset": "ofc", "colour": "red"}, 422, "bad_request", "'colour'"),
        ]
        for body, status, code, sentence in cases:
            with pytest.raises(RoomError) as refused:
                ann.request("POST", "/api/practice/duplicate", body)
            assert (refused.value.status, refused.value.code) == (status, code), body
            assert sentence in str(refused.value), str(refused.value)
        assert ann.me()["balance"] == GRANT  # nothing was taken
    with RoomClient(room) as nobody, pytest.raises(RoomError) as anonymous:
        nobody.request("POST", "/api/practice/duplicate", {"preset": "ofc"})
    assert (anonymous.value.status, anonymous.value.code) == (401, "not_logged_in")


# ------------------------------------------------------------------------- issue 31, items 4, 5
PASSWORD = "a run of deals, 31"


def _race(urls: list[str], starts: int) -> list[tuple[int, str]]:
    """``starts`` clients of one account (each its own log-in, spread over ``urls``) start a
    run at the same moment; each answer's status and code ("" for a run started)."""
    with RoomClient(urls[0]) as first:
        first.sign_up("ann", PASSWORD)
    clients = [RoomClient(urls[i % len(urls)]) for i in range(starts)]
    try:
        for client in clients:
            client.log_in("ann", PASSWORD)
        together = threading.Barrier(starts)

        def start(client: RoomClient) -> tuple[int, str]:
            together.wait(timeout=60)
            try:
                _start(client, "chinese-2-4", 5, opponents=1, bot_level="random")
            except RoomError as e:
                return e.status, e.code
            return 201, ""

        with ThreadPoolExecutor(starts) as pool:
            return list(pool.map(start, clients))
    finally:
        for client in clients:
            client.close()


def _count_runs(urls: list[str], answers: list[tuple[int, str]]) -> None:
    """Exactly MAX_RUNS_PLAYING runs started, every other start refused; the database and the
    wallet agree."""
    assert sorted(answers) == sorted(
        [(201, "")] * MAX_RUNS_PLAYING
        + [(409, "too_many_runs")] * (len(answers) - MAX_RUNS_PLAYING)
    ), answers
    with RoomClient(urls[-1]) as ann:
        ann.log_in("ann", PASSWORD)
        runs = ann.request("GET", "/api/practice/duplicate")["runs"]
        assert [r["status"] for r in runs] == ["playing"] * MAX_RUNS_PLAYING
        assert ann.me()["balance"] == GRANT - MAX_RUNS_PLAYING * BUY_IN


def test_parallel_starts_make_no_more_runs_than_the_limit(room: str, settings: Settings) -> None:
    """Item 4: twelve starts at once from one account make three runs, not twelve."""
    _count_runs([room], _race([room], 12))
    assert_audit_clean(settings.database_url)


def test_parallel_starts_on_two_processes_make_no_more_runs_than_the_limit(
    postgres: Postgres, redis_server: RedisServer, tmp_path: Path
) -> None:
    """Item 4 across processes: no lock of one process's can keep the count; the database
    does."""
    url = postgres.new_database()
    redis = redis_server.url.removesuffix("/0") + "/4"
    with rooms_in_threads(tmp_path, url, redis, ["a", "b"]) as urls:
        _count_runs(urls, _race(urls, 12))
    assert_audit_clean(url)


def _table_status(database_url: str, table_id: int) -> str:
    async def read(db: Database) -> str:
        async with db.begin() as s:
            status = await s.scalar(select(GameTable.status).where(GameTable.id == table_id))
        assert status is not None
        return status

    return run_with_db(database_url, read)


@pytest.mark.parametrize(
    ("deals", "rules", "ends"),
    [
        # the run's one deal played (the player timed out and sits out): finished
        (1, {"set_hand_seconds": 1}, "finished"),
        # the player timed out and was unseated for sitting out before the run's deals: ended
        (3, {"set_hand_seconds": 1, "sit_out_seconds": 1}, "ended"),
    ],
)
def test_a_run_over_pays_out_and_closes_its_table_by_itself(
    room: str, settings: Settings, deals: int, rules: dict[str, float], ends: str
) -> None:
    """Item 5: nobody opens the table or acts there; the run's end closes the table and the
    wallet is whole again (the buy-in back, plus what the hands moved)."""
    with RoomClient(room) as ann:
        ann.sign_up("ann", PASSWORD)
        run = _start(ann, "chinese-2-4", deals, opponents=1, rules={**FAST, **rules})
        table_id = run["table_id"]
        assert ann.me()["balance"] == GRANT - BUY_IN
        deadline = time.monotonic() + 45
        while True:
            done = ann.request("GET", f"/api/practice/duplicate/{table_id}")
            hands = ann.request("GET", "/api/hands")
            moved = sum(h["result"] for h in hands if h["status"] == "settled")
            balance = ann.me()["balance"]
            table = _table_status(settings.database_url, table_id)
            if (done["status"], balance, table) == (ends, GRANT + moved, "closed"):
                break
            if time.monotonic() > deadline:
                pytest.fail(
                    f"after 45 s the run is {done['status']}, the wallet holds {balance} (whole: "
                    f"{GRANT + moved}) and the table is {table}"
                )
            time.sleep(0.2)  # allowed: polled; nobody is at the table to be told
        assert done["played"] == 1
        # the run no longer counts against the player's limit
        assert ann.request("GET", "/api/practice/duplicate")["runs"][0]["status"] == ends
    assert_audit_clean(settings.database_url)
