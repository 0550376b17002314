"""Several room processes on one PostgreSQL and one Redis: people on different processes play
one table; kill -9 the process that runs it mid-hand; another takes it over from the database,
the players reconnect to whichever process is left and carry on; the audit is clean."""

from __future__ import annotations

import contextlib
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from threading import Condition, Event, Thread
from types import FrameType
from typing import Any

import httpx
import pytest
from fastapi.utils import create_model_field
from play import check_no_leak, decide
from services import (
    Postgres,
    RedisServer,
    Served,
    assert_audit_clean,
    free_port,
    lease_holder,
    lease_holders,
    room_process,
    rooms_in_threads,
    serve_in_thread,
    sqlite_settings,
)
from websockets.exceptions import ConnectionClosed

from thirteen.client import RoomClient, RoomError, TableConnection
from thirteen.engine.cards import parse_cards
from thirteen.engine.rules import Rules, get_rules
from thirteen.server.http.app import create_app

LEASE = "3"
"""Seconds a lease lasts here (the default is 5): a dead process's tables move sooner."""


@contextlib.contextmanager
def cluster(
    url: str, redis: RedisServer, folder: Path, names: list[str]
) -> Iterator[dict[str, Served]]:
    with contextlib.ExitStack() as stack:
        yield {
            name: stack.enter_context(
                room_process(
                    url,
                    folder,
                    process_name=name,
                    redis_url=redis.url,
                    lease_seconds=LEASE,
                )
            )
            for name in names
        }


class Player:
    """A person at the table in a thread of their own, connected through one process and
    moving to another when their socket closes."""

    def __init__(
        self, name: str, clients: dict[str, RoomClient], via: str, seed: int, news: Condition
    ) -> None:
        self.name = name
        self.clients = clients
        self.via = via
        self.rng = random.Random(seed)
        self.news = news
        self.conn: TableConnection | None = None
        self.alive = list(clients)
        self.moves: list[tuple[str, str]] = []
        """(from, to) for each time the socket had to move."""
        self.why: list[object] = []
        self.stop = Event()
        self.error: BaseException | None = None
        self.thread = Thread(target=self._run, daemon=True)

    def sit(self, table_id: int, seat: int, buy_in: int, rules: Rules) -> None:
        self.rules = rules
        self.conn = self.clients[self.via].open_table(table_id)
        answer = self.conn.do({"type": "sit", "seat": seat, "buy_in": buy_in})
        assert answer["type"] == "ack", answer
        self.thread.start()

    def _move(self) -> None:
        """Reconnect through a process still there, with ``since`` (the room holds the socket
        until the table is running again, wherever that is); unanswered actions are acted on
        again from the new snapshot."""
        assert self.conn is not None
        to = self.via if self.via in self.alive else self.alive[0]
        self.moves.append((self.via, to))
        self.why.append(self.conn.closed)
        self.via = to
        self.conn.room = self.clients[to]
        self.conn.drop()
        self.conn.connect(since=self.conn.state_id)

    def _run(self) -> None:
        acted, waiting = -1, ""
        try:
            while not self.stop.is_set():
                conn = self.conn
                assert conn is not None
                answered = not waiting or waiting in conn._answers
                if conn.my_turn() and conn.state_id != acted and answered:
                    acted = conn.state_id  # one action at a time, once per state
                    with contextlib.suppress(ConnectionClosed):
                        waiting = conn.act(decide(conn, self.rules, self.rng))
                    continue
                frame = conn.receive(timeout=120)
                if frame is None:
                    if self.stop.is_set():
                        return
                    self._move()
                    waiting = ""  # lost with the socket, or acked: the snapshot says
                with self.news:
                    self.news.notify_all()
        except BaseException as error:  # the main thread reports it
            self.error = error
            with self.news:
                self.news.notify_all()

    def finish(self) -> None:
        self.stop.set()
        if self.conn is not None:
            self.conn.drop()
        self.thread.join(30)


def wait_for(news: Condition, players: list[Player], done: Callable[[], bool]) -> None:
    with news:
        ok = news.wait_for(lambda: done() or any(p.error for p in players), timeout=180)
    for p in players:
        if p.error is not None:
            raise p.error
    assert ok, "the table did not get there"


def hand_number(conn: TableConnection | None) -> int:
    assert conn is not None
    return int((conn.view.get("hand") or {}).get("number", 0))


def test_processes_share_a_table_and_survive_kill_9(
    postgres: Postgres, redis_server: RedisServer, tmp_path: Path
) -> None:
    url = postgres.new_database()
    names = ["p1", "p2", "p3"]
    news = Condition()
    players: list[Player] = []
    with cluster(url, redis_server, tmp_path, names) as served:
        boss = {n: RoomClient(served[n].url) for n in names}
        try:
            boss["p1"].sign_up("boss", "the chief's password")
            for n in names[1:]:
                boss[n].log_in("boss", "the chief's password")
            # a table made on p1 runs on p1 (its maker takes it); one made on p2 runs there
            rules = get_rules("chinese-2-4", {"showdown_seconds": 0.05})
            table_id = boss["p1"].create_table(
                "chinese-2-4",
                seats=4,
                bots=2,
                bot_level="heuristic",
                rules={"showdown_seconds": 0.05},
            )["id"]
            other = boss["p2"].create_table("ofc", bots=2, bot_level="heuristic")["id"]
            assert lease_holder(url, table_id) == "p1"
            assert lease_holder(url, other) == "p2"
            # every process's lobby lists both tables, whoever runs them
            for n in names:
                listed = {t["id"] for t in boss[n].tables()}
                assert {table_id, other} <= listed, (n, listed)

            # alice and bob sit down through processes that do not run the table
            for name, via, seat in (("alice", "p2", 2), ("bob", "p3", 3)):
                clients = {n: RoomClient(served[n].url) for n in names}
                clients[via].sign_up(name, f"password 123 of {'-'.join(name)}")
                for n, c in clients.items():
                    if n != via:
                        c.log_in(name, f"password 123 of {'-'.join(name)}")
                players.append(Player(name, clients, via, seat, news))
                players[-1].sit(table_id, seat, 200, rules)
            alice, bob = players
            watcher = boss["p1"].open_table(table_id, watch_only=True)
            first = hand_number(alice.conn)

            # hands played by people on two processes at a table a third one runs
            wait_for(news, players, lambda: hand_number(alice.conn) >= first + 2)
            assert alice.moves == []
            assert bob.moves == []

            # kill -9 the table's process mid-hand: p2 or p3 takes the table from the database
            wait_for(news, players, lambda: alice.conn.view.get("phase") == "playing")  # type: ignore[union-attr]
            number = hand_number(alice.conn)
            killed_at = time.monotonic()
            served["p1"].kill()
            watcher.drop()
            for p in players:
                p.alive = ["p2", "p3"]
            wait_for(news, players, lambda: hand_number(alice.conn) > number + 1)
            took = time.monotonic() - killed_at
            print(f"\nthe table dealt again {took:.1f} s after kill -9 (lease {LEASE} s)")
            holder = lease_holder(url, table_id)
            assert holder in ("p2", "p3")
            # each moved once, to a live process, and kept their seat
            for p in players:
                assert [to for _, to in p.moves] in (["p2"], ["p3"]), (p.moves, p.why)
                assert p.conn is not None
                assert p.conn.seat == (2 if p is alice else 3), [
                    {k: f.get(k) for k in ("type", "seat", "state_id", "code", "message", "you")}
                    for f in p.conn.frames[-30:]
                ]
            # the hand in the air when p1 died was resumed and settled, not voided
            hands = boss[holder].request("GET", f"/api/admin/tables/{table_id}/hands")
            by_number = {h["number"]: h for h in hands}
            assert by_number[number]["status"] == "settled", by_number[number]
            assert [h["number"] for h in hands] == list(range(1, len(hands) + 1))
            for p in players:
                p.finish()
            # what each person saw through another process was only ever theirs to see
            for p in players:
                assert p.conn is not None
                assert check_no_leak(boss[holder], table_id, p.conn.frames) > 0
        finally:
            for p in players:
                p.finish()
                for c in p.clients.values():
                    c.close()
            for c in boss.values():
                c.close()
    assert_audit_clean(url)


def test_failed_logins_count_across_processes(
    postgres: Postgres, redis_server: RedisServer, tmp_path: Path
) -> None:
    """A guesser gains nothing by spreading guesses over the room's processes: the windows are
    in Redis."""
    url = postgres.new_database()
    redis = redis_server.url.removesuffix("/0") + "/1"  # a room of its own
    limits = {"limit_login_account_address": "3/minute"}
    with rooms_in_threads(tmp_path, url, redis, ["a", "b"], **limits) as (a, b):
        with RoomClient(a) as ann:
            ann.sign_up("ann", "password of A-N-N")
        refusals = []
        for base in (a, b, a, b):
            with RoomClient(base) as guesser:
                try:
                    guesser.log_in("ann", "not it at all")
                except RoomError as e:
                    refusals.append(e.code)
        assert refusals == ["bad_login", "bad_login", "bad_login", "rate_limited"]


def test_hints_and_evaluations_from_any_process(
    postgres: Postgres, redis_server: RedisServer, tmp_path: Path
) -> None:
    """HTTP questions about a table go to the process that runs it: a practice hint asked of
    another process is the seat's own, and an evaluation uses the table's own rules."""
    url = postgres.new_database()
    redis = redis_server.url.removesuffix("/0") + "/2"
    with (
        rooms_in_threads(tmp_path, url, redis, ["a", "b"]) as (a, b),
        RoomClient(a) as boss,
        RoomClient(b) as ann,
    ):
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table("chinese-1-6", bots=1, bot_level="heuristic", practice=True)
        tid = table["id"]
        assert lease_holder(url, tid) == "a"
        ann.sign_up("ann", "password of A-N-N")
        conn = ann.open_table(tid)  # relayed: the socket is b's, the table a's
        conn.do({"type": "sit", "seat": 1, "buy_in": 200})
        conn.wait(lambda f: bool(conn.my_turn()))
        hint: dict[str, Any] = ann.request("GET", f"/api/tables/{tid}/hint")
        assert hint["action"]["type"] in ("set_hand", "declare_natural", "surrender")
        if hint["action"]["type"] == "set_hand":
            shown = {
                c for row in ("front", "middle", "back") for c in parse_cards(hint["action"][row])
            }
            assert shown == set(parse_cards((conn.me or {})["cards"]))
        assert conn.do(hint["action"], state_id=hint["state_id"])["type"] == "ack"
        # a refusal from the table's process comes back as itself
        with RoomClient(b) as bob:
            bob.sign_up("bob", "password of B-O-B")
            with pytest.raises(RoomError) as refused:
                bob.request("GET", f"/api/tables/{tid}/hint")
            assert (refused.value.status, refused.value.code) == (403, "not_seated")
        evaluation = ann.request(
            "GET", f"/api/tables/{tid}/evaluate?front=As%20Ad%20Kc&middle=&back="
        )
        assert evaluation["rows"][0]["name"].startswith("Pair")
        conn.close()


def test_a_process_that_joins_gets_its_share(
    postgres: Postgres, redis_server: RedisServer, tmp_path: Path
) -> None:
    """Tables opened while one process ran spread when a second one starts: the first hands
    tables over between hands, and the second takes them (a showdown on show, still on show)."""
    url = postgres.new_database()
    redis = redis_server.url.removesuffix("/0") + "/4"
    with (
        room_process(url, tmp_path, process_name="one", redis_url=redis) as one,
        RoomClient(one.url) as boss,
    ):
        boss.sign_up("boss", "the chief's password")
        tables = [
            boss.create_table("chinese-2-4", seats=4, bots=2, bot_level="heuristic")["id"]
            for _ in range(4)
        ]
        first_look = lease_holders(url)
        assert {first_look.get(t) for t in tables} == {"one"}
        watches = [boss.open_table(t, watch_only=True) for t in tables]
        with (
            room_process(url, tmp_path, process_name="two", redis_url=redis) as two,
            RoomClient(two.url) as at_two,
        ):
            holders: list[str | None] = []
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:  # the database looked at until the share is taken
                found = lease_holders(url)
                holders = [found.get(t) for t in tables]
                if holders.count("two") == 2 and holders.count("one") == 2:
                    break
            assert sorted(map(str, holders)) == ["one", "one", "two", "two"], holders
            # the sockets at the tables that moved were closed with 1012; they carry on at two
            for watch, holder in zip(watches, holders, strict=True):
                if holder != "two":
                    continue
                while watch.receive(timeout=60) is not None:
                    pass  # the frames before the handover, then the close
                assert watch.closed is not None
                assert watch.closed[0] == 1012
                before = watch.view  # handed over between hands: mostly during a showdown
                watch.room = at_two
                watch.connect(since=watch.state_id)
                shown = watch.view["hand"]
                if watch.view["phase"] == "showdown":  # a finished hand on show, not null
                    assert shown is not None
                    if before["hand"] is not None and before["hand"]["number"] == shown["number"]:
                        assert shown == before["hand"]  # no deal since: the very one
                number = int((watch.view.get("hand") or {}).get("number", 0))
                watch.wait(
                    lambda f, n=number: (
                        ((f.get("view") or {}).get("hand") or {}).get("number", 0) > n
                    )
                )
        for watch in watches:
            watch.close()


def test_two_processes_may_not_share_a_name_and_redis_must_answer(
    postgres: Postgres, redis_server: RedisServer, tmp_path: Path
) -> None:
    """Both refused before serving, with a sentence (no traceback, no password)."""
    url = postgres.new_database()
    redis = redis_server.url.removesuffix("/0") + "/5"

    def serve(redis_url: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "thirteen.cli", "serve", "--port", str(free_port())],
            env={
                **os.environ,
                "THIRTEEN_DATABASE_URL": url,
                "THIRTEEN_DATA_DIR": str(tmp_path),
                "THIRTEEN_DEFAULT_TABLES": "false",
                "THIRTEEN_REDIS_URL": redis_url,
                "THIRTEEN_PROCESS_NAME": "same",
            },
            capture_output=True,
            text=True,
            timeout=120,
        )

    with room_process(url, tmp_path, process_name="same", redis_url=redis):
        twin = serve(redis)
        assert twin.returncode != 0
        assert "Another process of this room is running as 'same'" in twin.stderr
        assert "Traceback" not in twin.stderr
    nowhere = serve(f"redis://:hunter2@127.0.0.1:{free_port()}/0")
    assert nowhere.returncode != 0
    assert "does not answer" in nowhere.stderr
    assert "THIRTEEN_REDIS_URL" in nowhere.stderr
    assert "hunter2" not in nowhere.stderr + nowhere.stdout
    assert "Traceback" not in nowhere.stderr


def test_a_rooms_routes_are_built_before_it_serves(tmp_path: Path) -> None:
    """FastAPI builds an included route's fields (pydantic adapters, each under a
    ``warnings.catch_warnings``, which swaps the process's one list of warning filters) on the
    first request unless they are built already: two rooms in one process doing that at once
    lost each other's filters, and a warning became a 500. ``create_app`` builds them, so
    serving a room's first request — one no route answers, which walks every route — builds
    no field (seen by a profiler on the serving thread)."""
    app = create_app(sqlite_settings(tmp_path))
    built: list[str] = []

    def watch(frame: FrameType, event: str, _arg: object) -> None:
        if event == "call" and frame.f_code is create_model_field.__code__:
            built.append(str(frame.f_locals.get("name")))

    threading.setprofile(watch)  # threads started from here on: the room's
    try:
        with serve_in_thread(app) as base, httpx.Client(base_url=base) as client:
            assert client.get("/api/no-such-thing").status_code == 404
    finally:
        threading.setprofile(None)
    assert built == []
