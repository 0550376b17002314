"""Sockets belong to the session whose ticket opened them: a log-out, a password change (for the
account's other sessions) and the session's expiry close them — on every process of the room —
and the session's unspent tickets open nothing. Nothing such a socket sends after its session
ended is taken: no buy-in, no top-up, no leave."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

from services import Postgres, RedisServer, assert_audit_clean, rooms_in_threads, run_with_db
from sqlalchemy import update
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from thirteen.client import RoomClient, TableConnection
from thirteen.server.db.models import Session
from thirteen.server.db.session import Database
from thirteen.server.http.api import SESSION_COOKIE
from thirteen.server.money.accounts import Accounts, digest
from thirteen.server.settings import load_settings
from thirteen.server.tables.broadcast import Watcher
from thirteen.server.tables.protocol import CLOSE_SESSION_ENDED
from thirteen.server.tables.sessions import SESSION_ENDED, SessionSockets

BOSS = ("boss", "the chief's password")
ANN = ("ann", "password of A-N-N")
SIT = {"type": "sit", "seat": 1, "buy_in": 200}


def close_of(conn: TableConnection, timeout: float = 20.0) -> tuple[int, str]:
    """Read the socket until the room closes it: the close code and reason (``TimeoutError``
    if it stays open)."""
    end = time.monotonic() + timeout
    while (left := end - time.monotonic()) > 0:
        if conn.receive(timeout=left) is None:
            assert conn.closed is not None
            return conn.closed
    raise TimeoutError("the socket stayed open")


def try_to_sit(conn: TableConnection) -> None:
    """Send a ``sit`` as a socket would after its session ended (it may be closed already)."""
    with contextlib.suppress(ConnectionClosed):
        conn.act(SIT)


def assert_ended(conn: TableConnection) -> None:
    code, reason = close_of(conn)
    assert code == CLOSE_SESSION_ENDED, (code, reason)
    assert "log in again" in reason
    assert not [f for f in conn.frames if f.get("type") == "ack"]


def first_frame_with(room: RoomClient, table_id: int, ticket: str) -> str:
    with connect(room.ws_url(f"/ws/tables/{table_id}?ticket={ticket}")) as ws:
        return str(ws.recv(timeout=30))


def session_of(client: RoomClient) -> str:
    """The digest the room keeps of ``client``'s session cookie."""
    cookie = client.http.cookies.get(SESSION_COOKIE)
    assert cookie
    return digest(cookie)


def expire(database_url: str, session: str, at: float) -> None:
    async def body(db: Database) -> None:
        async with db.begin() as s:
            await s.execute(
                update(Session).where(Session.token_hash == session).values(expires_at=at)
            )

    run_with_db(database_url, body)


def test_a_log_out_closes_the_sessions_sockets_and_its_tickets_open_nothing(room: str) -> None:
    with RoomClient(room) as boss, RoomClient(room) as ann, RoomClient(room) as ann_elsewhere:
        boss.sign_up(*BOSS)
        table = boss.create_table("chinese-1-6", bots=1, bot_level="heuristic")["id"]
        ann.sign_up(*ANN)
        ann_elsewhere.log_in(*ANN)
        here = ann.open_table(table)
        elsewhere = ann_elsewhere.open_table(table)
        unspent = ann.ticket()
        ann.log_out()
        try_to_sit(here)
        assert_ended(here)
        assert '"bad_ticket"' in first_frame_with(ann, table, unspent)
        # nothing was bought in; the account's other session still plays
        assert ann_elsewhere.me()["balance"] == 10_000
        assert elsewhere.do(SIT)["type"] == "ack"
        assert ann_elsewhere.me()["balance"] == 10_000 - 200


def test_a_password_change_closes_the_other_sessions_sockets(room: str) -> None:
    with RoomClient(room) as boss, RoomClient(room) as ann, RoomClient(room) as thief:
        boss.sign_up(*BOSS)
        table = boss.create_table("chinese-1-6", bots=1, bot_level="heuristic")["id"]
        ann.sign_up(*ANN)
        thief.log_in(*ANN)
        stolen = thief.open_table(table)
        unspent = thief.ticket()
        mine = ann.open_table(table)
        ann.change_password(ANN[1], "a new one for A-N-N")
        try_to_sit(stolen)
        assert_ended(stolen)
        assert '"bad_ticket"' in first_frame_with(ann, table, unspent)
        # the session that changed the password keeps its socket
        assert mine.do(SIT)["type"] == "ack"
        assert ann.me()["balance"] == 10_000 - 200


def test_a_socket_closes_when_its_session_expires(room: str, database_url: str) -> None:
    with RoomClient(room) as boss, RoomClient(room) as ann, RoomClient(room) as later:
        boss.sign_up(*BOSS)
        table = boss.create_table("chinese-1-6", bots=1, bot_level="heuristic")["id"]
        ann.sign_up(*ANN)
        ends = time.time() + 4  # a session near its end (THIRTEEN_SESSION_DAYS is whole days)
        expire(database_url, session_of(ann), ends)
        conn = ann.open_table(table)
        assert close_of(conn, timeout=60)[0] == CLOSE_SESSION_ENDED
        assert time.time() >= ends
        # a ticket issued before its session expired opens nothing after
        later.log_in(*ANN)
        unspent = later.ticket()
        expire(database_url, session_of(later), 0.0)
        assert '"bad_ticket"' in first_frame_with(later, table, unspent)


def test_a_log_out_closes_the_sessions_sockets_on_every_process(
    postgres: Postgres, redis_server: RedisServer, tmp_path: Path
) -> None:
    """Ann's sockets are held by process b — one at a table b runs, one relayed to a table a
    runs — and she logs out through a: both close before the log-out answers."""
    url = postgres.new_database()
    redis = redis_server.url.removesuffix("/0") + "/6"
    with (
        rooms_in_threads(tmp_path, url, redis, ["a", "b"]) as (a, b),
        RoomClient(a) as boss_a,
        RoomClient(b) as boss_b,
        RoomClient(b) as ann,
        RoomClient(a) as ann_via_a,
    ):
        boss_a.sign_up(*BOSS)
        boss_b.log_in(*BOSS)
        on_a = boss_a.create_table("chinese-1-6", bots=1, bot_level="heuristic")["id"]
        on_b = boss_b.create_table("chinese-1-6", bots=1, bot_level="heuristic")["id"]
        ann.sign_up(*ANN)
        relayed, local = ann.open_table(on_a), ann.open_table(on_b)
        unspent = ann.ticket()
        ann_via_a.http.cookies = ann.http.cookies
        ann_via_a.csrf = ann.csrf
        ann_via_a.log_out()
        for conn in (relayed, local):
            try_to_sit(conn)
        for conn in (relayed, local):
            assert_ended(conn)
        assert '"bad_ticket"' in first_frame_with(ann_via_a, on_b, unspent)
        ann.log_in(*ANN)
        assert ann.me()["balance"] == 10_000
    assert_audit_clean(url)


def test_a_socket_whose_session_ended_while_it_opened_is_closed(database_url: str) -> None:
    """The race a ticket redeemed just before its session ended would win: the socket registers
    after its process heard of the end, so the end closed nothing; registering, it sees that
    an end was heard meanwhile and asks the database."""

    async def body(db: Database) -> tuple[bool, tuple[int, str] | None, bool]:
        accounts = Accounts(db, load_settings(argon2_memory_kib=8192, argon2_time_cost=1))
        sockets = SessionSockets(accounts.live_sessions)
        await accounts.sign_up(*ANN)
        token, ann = await accounts.log_in(*ANN)
        _, other = await accounts.log_in(*ANN)
        heard = sockets.heard  # read as a socket does before redeeming its ticket
        await sockets.end(await accounts.log_out(token))
        late, alive = Watcher(ann.user_id, ann.name), Watcher(other.user_id, other.name)
        async with (
            sockets.holding(ann.session, ann.expires_at, late, heard),
            sockets.holding(other.session, other.expires_at, alive, heard),
        ):
            return late.dropped, late.closing, alive.dropped

    dropped, closing, other_dropped = run_with_db(database_url, body)
    assert dropped
    assert closing == (CLOSE_SESSION_ENDED, SESSION_ENDED)
    assert not other_dropped
