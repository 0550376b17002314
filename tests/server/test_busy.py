"""A database too busy to take a request: ``503 busy`` with Retry-After and a sentence, never a
500, and nothing of the request written (docs/protocol.md, "HTTP errors")."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from services import serve_in_thread, sqlite_settings

from thirteen.server.db import session
from thirteen.server.http.app import create_app


@pytest.fixture
def room_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Path]]:
    """A room on SQLite whose requests wait 50 ms, not 10 s, for another connection's write."""
    monkeypatch.setattr(session, "BUSY_TIMEOUT_MS", 50)
    with serve_in_thread(create_app(sqlite_settings(tmp_path, rate_limits=False))) as url:
        yield url, tmp_path / "room.db"


def test_a_busy_database_is_503_busy_and_writes_nothing(room_file: tuple[str, Path]) -> None:
    url, database = room_file
    with httpx.Client(base_url=url, timeout=30) as client:
        made = client.post("/api/accounts", json={"name": "ann", "password": "correct horse"})
        assert made.status_code == 201, made.text
        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another connection holds the write lock
        try:
            for path, body in [
                ("/api/session", {"name": "ann", "password": "correct horse"}),
                ("/api/accounts", {"name": "bob", "password": "a fine password"}),
            ]:
                r = client.post(path, json=body)
                assert r.status_code == 503, (path, r.text)
                assert r.json()["error"]["code"] == "busy"
                assert "try again" in r.json()["error"]["message"]
                assert r.headers["retry-after"] == "1"
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        # nothing of the refused sign-up was written: the name is free, and the retry works
        again = client.post("/api/accounts", json={"name": "bob", "password": "a fine password"})
        assert again.status_code == 201, again.text
        assert client.post(
            "/api/session", json={"name": "ann", "password": "correct horse"}
        ).status_code in (200, 201)
