"""Rate limits: each refusal is 429 (or a socket's error and close) with a sentence saying how
long to wait, and refuses nothing it should not."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from services import room_process, serve_in_thread, sqlite_settings
from websockets.sync.client import connect

from thirteen.client import RoomClient, RoomError
from thirteen.server.http.api import SESSION_COOKIE
from thirteen.server.http.app import create_app
from thirteen.server.settings import Settings, load_settings


@pytest.fixture
def limited(tmp_path: Path) -> Settings:
    return sqlite_settings(
        tmp_path,
        limit_login_account_address="3/minute;5/hour",
        limit_login_address="6/minute",
        limit_signup_address="4/minute",
        limit_http="40/minute",
        limit_sockets_account=2,
        limit_sockets_address=4,
    )


@pytest.fixture
def limited_room(limited: Settings) -> Iterator[str]:
    with serve_in_thread(create_app(limited)) as url:
        yield url


def _refused(error: RoomError, words: str) -> None:
    assert error.code == "rate_limited"
    assert words in str(error)
    assert "try again in" in str(error)


def test_failed_logins_back_off_per_account_and_the_right_password_waits_too(
    limited_room: str,
) -> None:
    with RoomClient(limited_room) as ann:
        ann.sign_up("ann", "password of A-N-N")
    with RoomClient(limited_room) as guesser:
        for _ in range(3):
            with pytest.raises(RoomError) as wrong:
                guesser.log_in("ann", "not it at all")
            assert wrong.value.code == "bad_login"
        with pytest.raises(RoomError) as limited:
            guesser.log_in("ann", "password of A-N-N")
        _refused(limited.value, "failed log-ins for this account")
        # another account is not held back by ann's
        guesser.sign_up("bob", "password of B-O-B")
        assert guesser.log_in("bob", "password of B-O-B")["name"] == "bob"


def test_failed_logins_per_address(limited_room: str) -> None:
    with RoomClient(limited_room) as client:
        for i in range(6):  # six names, two failures each would pass the per-account limit
            with pytest.raises(RoomError) as wrong:
                client.log_in(f"nobody{i}", "whatever it is")
            assert wrong.value.code == "bad_login"
        with pytest.raises(RoomError) as limited:
            client.log_in("nobody9", "whatever it is")
        _refused(limited.value, "failed log-ins from your address")


def test_signups_per_address_with_retry_after(limited_room: str) -> None:
    with httpx.Client(base_url=limited_room) as http:
        for i in range(4):
            answer = http.post("/api/accounts", json={"name": f"new{i}", "password": "a password"})
            assert answer.status_code == 201
        answer = http.post("/api/accounts", json={"name": "new9", "password": "a password"})
        assert answer.status_code == 429
        assert answer.json()["error"]["code"] == "rate_limited"
        assert 1 <= int(answer.headers["retry-after"]) <= 60
        # nothing was made by the refused request
        login = http.post("/api/session", json={"name": "new9", "password": "a password"})
        assert login.status_code == 401


def test_http_requests_per_session(limited_room: str) -> None:
    with RoomClient(limited_room) as ann:
        ann.sign_up("ann", "password of A-N-N")  # one request of the address's budget
        statuses = []
        for _ in range(45):
            try:
                ann.me()
                statuses.append(200)
            except RoomError as e:
                _refused(e, "Too many requests")
                statuses.append(429)
        assert statuses.count(200) == 40
        assert statuses[40:] == [429] * 5
    # another session has a budget of its own
    with RoomClient(limited_room) as bob:
        bob.sign_up("bob", "password of B-O-B")
        assert bob.me()["name"] == "bob"


def test_sockets_per_account_and_per_address(limited_room: str, limited: Settings) -> None:
    with RoomClient(limited_room) as boss:
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table("chinese-1-6", bots=1, bot_level="heuristic")
        first = boss.open_table(table["id"])
        second = boss.open_table(table["id"])
        with pytest.raises(RoomError) as third:
            boss.open_table(table["id"])
        assert "connections for this account" in str(third.value)
        # spectators count against the address: two more fit, the next is refused
        url = boss.ws_url(f"/ws/tables/{table['id']}")
        with connect(url) as a, connect(url) as b:
            assert '"snapshot"' in str(a.recv(timeout=30))
            assert '"snapshot"' in str(b.recv(timeout=30))
            with connect(url) as refused:
                frame = str(refused.recv(timeout=30))
                assert "rate_limited" in frame
                assert "connections from your address" in frame
        # closing a socket frees its place (once the room has seen it close: each refused
        # attempt is a round trip, so this waits on the room, not on a clock)
        first.close()
        third_again, refusal = None, ""
        for _ in range(200):
            try:
                third_again = boss.open_table(table["id"])
                break
            except RoomError as e:
                refusal = str(e)
            assert "connections for this account" in refusal
        assert third_again is not None
        assert third_again.view["seats"]
        second.close()
        third_again.close()


@pytest.mark.parametrize("trusted", ["127.0.0.1", ""])
def test_behind_a_trusted_proxy_each_client_has_its_own_address(
    trusted: str, tmp_path: Path
) -> None:
    """With ``THIRTEEN_TRUSTED_PROXIES`` the address is the proxy's X-Forwarded-For; without
    it, a forged header changes nothing (everyone here comes from 127.0.0.1)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    limits = {"rate_limits": "true", "limit_signup_address": "2/minute", "trusted_proxies": trusted}
    with room_process(url, tmp_path, **limits) as served, httpx.Client(base_url=served.url) as http:

        def sign_up(name: str, address: str) -> int:
            body = {"name": name, "password": "a password"}
            answer = http.post("/api/accounts", json=body, headers={"x-forwarded-for": address})
            return answer.status_code

        assert [sign_up(f"ann{i}", "203.0.113.1") for i in range(3)] == [201, 201, 429]
        assert sign_up("bob0", "203.0.113.2") == (201 if trusted else 429)


def test_made_up_session_cookies_share_their_address_budget(limited_room: str) -> None:
    """Only a session the room knows gets a budget of its own: an address at its limit gains
    nothing by sending cookies it made up."""
    with RoomClient(limited_room) as ann, httpx.Client(base_url=limited_room) as http:
        ann.sign_up("ann", "password of A-N-N")  # one request of the address's budget
        assert [http.get("/api/tables").status_code for _ in range(39)] == [200] * 39
        assert http.get("/api/tables").status_code == 429
        made_up = [
            http.get(
                "/api/tables", headers={"cookie": f"{SESSION_COOKIE}={secrets.token_urlsafe(32)}"}
            ).status_code
            for _ in range(40)
        ]
        assert made_up == [429] * 40
        assert ann.me()["name"] == "ann"  # a real session still has its own


@pytest.fixture
def guarded_room(settings: Settings) -> Iterator[str]:
    """A room on SQLite and on PostgreSQL (the addresses an account logged in from are kept in
    the database) with log-in limits on, behind a proxy on 127.0.0.1 (so each client says its
    own address in X-Forwarded-For)."""
    guarded = load_settings(
        **{
            **dict(settings),
            "rate_limits": True,
            "trusted_proxies": "127.0.0.1",
            "limit_login_account_address": "3/minute",
            "limit_login_account": "6/hour",
            "limit_login_address": "100/minute",
            "limit_password": "3/minute",
        }
    )
    with serve_in_thread(create_app(guarded)) as url:
        yield url


@contextlib.contextmanager
def from_address(room: str, address: str) -> Iterator[RoomClient]:
    with RoomClient(room) as client:
        client.http.headers["x-forwarded-for"] = address
        yield client


def _log_in(client: RoomClient, password: str) -> str:
    try:
        client.log_in("ann", password)
    except RoomError as e:
        return e.code
    return "ok"


def test_guesses_from_other_addresses_do_not_lock_the_owner_out(guarded_room: str) -> None:
    """ASVS 2.2.1: a guesser is held back per (account, address); guesses from many addresses
    together hold back only addresses that never logged in to the account; the owner, from an
    address she logged in from before, still gets in with her password."""
    password = "password of A-N-N"
    with from_address(guarded_room, "198.51.100.7") as ann:
        ann.sign_up("ann", password)
    for guesser in ("203.0.113.1", "203.0.113.2"):
        with from_address(guarded_room, guesser) as client:
            tries = [_log_in(client, "not it at all") for _ in range(4)]
            assert tries == ["bad_login"] * 3 + ["rate_limited"], tries
    with from_address(guarded_room, "203.0.113.3") as newcomer, pytest.raises(RoomError) as held:
        newcomer.log_in("ann", password)  # six failures: a new address waits, even if right
    _refused(held.value, "failed log-ins for this account")
    with from_address(guarded_room, "198.51.100.7") as ann:
        assert ann.log_in("ann", password)["name"] == "ann"


def test_guesses_at_the_current_password_are_limited(guarded_room: str) -> None:
    """``POST /api/password`` checks the current password: guesses at it are limited per
    session, so a stolen session cannot guess on, and the owner's own session is not held."""
    password = "password of A-N-N"
    with from_address(guarded_room, "198.51.100.7") as thief:
        thief.sign_up("ann", password)
        tries = []
        for guess in ("guess one", "guess two", "guess three", password):
            try:
                thief.change_password(guess, "a new one for A-N-N")
                tries.append("ok")
            except RoomError as e:
                tries.append(e.code)
        assert tries == ["bad_login"] * 3 + ["rate_limited"], tries
    with from_address(guarded_room, "198.51.100.7") as ann:
        ann.log_in("ann", password)
        ann.change_password(password, "a new one for A-N-N")
        ann.log_in("ann", "a new one for A-N-N")
