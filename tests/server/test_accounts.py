"""Accounts over real HTTP: sign-up, login, logout, password change, sessions and CSRF; and
WebSocket tickets as the database's writer keeps them."""

from __future__ import annotations

import httpx
import pytest
from services import run_with_db
from sqlalchemy import func, select, update

from thirteen.server.db.models import Ticket
from thirteen.server.db.session import Database
from thirteen.server.http.api import CSRF_HEADER, SECURITY_HEADERS, SESSION_COOKIE
from thirteen.server.money.accounts import Accounts, Me
from thirteen.server.settings import load_settings


def sign_up(client: httpx.Client, name: str = "ann", password: str = "correct horse") -> dict:
    r = client.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r.json()


def test_sign_up_logs_in_with_welcome_chips(client: httpx.Client) -> None:
    account = sign_up(client)
    assert account["name"] == "ann"
    assert account["role"] == "player"
    assert account["balance"] == 10_000
    cookie = client.cookies.get(SESSION_COOKIE)
    assert cookie
    me = client.get("/api/me").json()
    assert me["name"] == "ann"
    assert me["balance"] == 10_000
    wallet = client.get("/api/wallet").json()
    assert wallet["balance"] == 10_000
    assert [(t["amount"], t["reason"]) for t in wallet["transfers"]] == [(10_000, "grant")]


def test_session_cookie_is_httponly_and_lax(client: httpx.Client) -> None:
    r = client.post("/api/accounts", json={"name": "bob", "password": "a fine password"})
    header = r.headers["set-cookie"].lower()
    assert "httponly" in header
    assert "samesite=lax" in header
    assert "path=/" in header


def test_security_headers_on_every_response(client: httpx.Client) -> None:
    for path in ("/healthz", "/api/me", "/nowhere"):
        r = client.get(path)
        for name, value in SECURITY_HEADERS.items():
            assert r.headers[name] == value, (path, name)
    assert "frame-ancestors 'none'" in SECURITY_HEADERS["content-security-policy"]
    assert "'unsafe-inline'" not in SECURITY_HEADERS["content-security-policy"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": "a", "password": "a fine password"}, "bad_name"),
        ({"name": "<script>", "password": "a fine password"}, "bad_name"),
        ({"name": "ann", "password": "short"}, "bad_password"),
        ({"name": "ann"}, "bad_request"),
        ({"name": "ann", "password": "a fine password", "role": "admin"}, "bad_request"),
        ({"name": ["ann"], "password": "a fine password"}, "bad_request"),
    ],
)
def test_bad_sign_ups_are_refused_with_a_sentence(
    client: httpx.Client, body: dict, code: str
) -> None:
    r = client.post("/api/accounts", json=body)
    assert 400 <= r.status_code < 500
    error = r.json()["error"]
    assert error["code"] == code
    assert error["message"].endswith(".")
    assert SESSION_COOKIE not in client.cookies


def test_names_are_unique_whatever_their_case(client: httpx.Client) -> None:
    sign_up(client, "Ann")
    client.cookies.clear()
    r = client.post("/api/accounts", json={"name": "ANN", "password": "a fine password"})
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "name_taken"


def test_login_logout_and_a_new_session_each_time(client: httpx.Client) -> None:
    sign_up(client)
    first = client.cookies.get(SESSION_COOKIE)
    client.cookies.clear()
    bad = client.post("/api/session", json={"name": "ann", "password": "wrong password"})
    assert bad.status_code == 401
    unknown = client.post("/api/session", json={"name": "nobody", "password": "wrong password"})
    assert unknown.json() == bad.json()  # the same answer: names cannot be probed
    client.cookies.set(SESSION_COOKIE, first, domain="127.0.0.1")
    r = client.post("/api/session", json={"name": "ANN", "password": "correct horse"})
    assert r.status_code == 200
    second = client.cookies.get(SESSION_COOKIE)
    assert second
    assert second != first
    # the cookie the browser had before logging in no longer works (no session fixation)
    with httpx.Client(base_url=client.base_url, cookies={SESSION_COOKIE: first}) as old:
        assert old.get("/api/me").status_code == 401
    csrf = r.json()["csrf_token"]
    assert client.delete("/api/session", headers={CSRF_HEADER: csrf}).status_code == 204
    assert client.get("/api/me").status_code == 401


def test_state_changes_need_the_csrf_token_and_our_origin(client: httpx.Client) -> None:
    account = sign_up(client)
    body = {"old_password": "correct horse", "new_password": "battery staple"}
    r = client.post("/api/password", json=body)
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "bad_csrf"
    evil = {CSRF_HEADER: account["csrf_token"], "origin": "https://evil.example"}
    r = client.post("/api/password", json=body, headers=evil)
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "bad_origin"
    r = client.post(
        "/api/accounts",
        json={"name": "eve", "password": "a fine password"},
        headers={"origin": "https://evil.example"},
    )
    assert r.json()["error"]["code"] == "bad_origin"
    ours = {CSRF_HEADER: account["csrf_token"], "origin": str(client.base_url).rstrip("/")}
    assert client.post("/api/password", json=body, headers=ours).status_code == 204


def test_password_change_ends_other_sessions(client: httpx.Client, room: str) -> None:
    account = sign_up(client)
    with httpx.Client(base_url=room) as other:
        login = other.post("/api/session", json={"name": "ann", "password": "correct horse"})
        assert login.status_code == 200
        body = {"old_password": "wrong one!", "new_password": "battery staple"}
        r = client.post("/api/password", json=body, headers={CSRF_HEADER: account["csrf_token"]})
        assert r.status_code == 401
        body["old_password"] = "correct horse"
        r = client.post("/api/password", json=body, headers={CSRF_HEADER: account["csrf_token"]})
        assert r.status_code == 204
        assert other.get("/api/me").status_code == 401
    assert client.get("/api/me").status_code == 200
    client.cookies.clear()
    old = client.post("/api/session", json={"name": "ann", "password": "correct horse"})
    assert old.status_code == 401
    new = client.post("/api/session", json={"name": "ann", "password": "battery staple"})
    assert new.status_code == 200


def test_tickets_are_for_logged_in_accounts(client: httpx.Client) -> None:
    assert client.post("/api/tickets").status_code == 401
    account = sign_up(client)
    r = client.post("/api/tickets", headers={CSRF_HEADER: account["csrf_token"]})
    assert r.status_code == 200
    assert len(r.json()["ticket"]) >= 32


def test_health_and_readiness(client: httpx.Client) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready"}
    # what runs and how busy the room is: the operator's (an administrator, or the private
    # address of THIRTEEN_METRICS_ADDRESS: tests/server/test_process.py)
    assert client.get("/metrics").json()["error"]["code"] == "not_logged_in"
    sign_up(client)
    assert client.get("/metrics").json()["error"]["code"] == "forbidden"


def test_unknown_paths_and_methods_answer_in_json(client: httpx.Client) -> None:
    r = client.get("/api/nothing-here")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"
    r = client.put("/api/me")
    assert r.status_code == 405
    r = client.post(
        "/api/accounts", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "bad_request"


def test_a_ticket_opens_once_and_not_after_it_expires(database_url: str) -> None:
    """Tickets go through the group writer (``Database.write``): one redemption each, none
    once expired, and each new ticket sweeps away the expired ones. A ticket is its session's:
    the socket it opens is told which, and when that session ends."""

    async def body(db: Database) -> tuple[object, ...]:
        accounts = Accounts(db, load_settings(argon2_memory_kib=8192, argon2_time_cost=1))
        await accounts.sign_up("ann", "correct horse")
        _, ann = await accounts.log_in("ann", "correct horse")
        first, second = await accounts.issue_ticket(ann), await accounts.issue_ticket(ann)
        redeemed = await accounts.redeem_ticket(first)
        again = await accounts.redeem_ticket(first)
        async with db.begin() as s:  # the second ticket's time runs out
            await s.execute(update(Ticket).values(expires_at=0.0))
        expired = await accounts.redeem_ticket(second)
        stale = await accounts.issue_ticket(ann)
        async with db.begin() as s:
            await s.execute(update(Ticket).values(expires_at=0.0))
        await accounts.issue_ticket(ann)  # sweeps the expired one away
        async with db.begin() as s:
            left = await s.scalar(select(func.count()).select_from(Ticket))
        return redeemed, again, expired, left, await accounts.redeem_ticket(stale)

    redeemed, again, expired, left, stale = run_with_db(database_url, body)
    assert isinstance(redeemed, Me)
    assert (redeemed.name, redeemed.role) == ("ann", "player")
    assert redeemed.session
    assert redeemed.expires_at > 0
    assert again is None
    assert expired is None
    assert left == 1
    assert stale is None


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("password", "common"),
        ("Password1", "common"),
        ("iloveyou", "common"),
        ("qwertyuiop", "common"),
        (" " * 8, "different characters"),
        ("abababababab", "different characters"),
        ("margaret1", "name"),
        ("my name is MARGARET", "name"),
    ],
)
def test_common_passwords_and_ones_with_the_name_are_refused(
    client: httpx.Client, password: str, why: str
) -> None:
    """A password from the most common ones (zxcvbn's list, whatever its case), made of a few
    characters repeated, or holding the account's name is refused with a sentence that says
    which; nothing is made."""
    r = client.post("/api/accounts", json={"name": "Margaret", "password": password})
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["code"] == "bad_password"
    assert why in error["message"]
    assert error["message"].endswith(".")
    login = client.post("/api/session", json={"name": "margaret", "password": password})
    assert login.status_code == 401


def test_a_new_password_is_checked_as_a_first_one_is(client: httpx.Client) -> None:
    account = sign_up(client)
    csrf = {CSRF_HEADER: account["csrf_token"]}
    for new in ("superman", "Ann and her cards"):
        body = {"old_password": "correct horse", "new_password": new}
        r = client.post("/api/password", json=body, headers=csrf)
        assert r.status_code == 400
        assert r.json()["error"]["code"] == "bad_password"
    client.cookies.clear()
    still = client.post("/api/session", json={"name": "ann", "password": "correct horse"})
    assert still.status_code == 200
