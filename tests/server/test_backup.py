"""``thirteen admin backup`` while the room runs, ``restore`` into a fresh database: the
restored room audits clean and holds every account, chip and hand the backup saw."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from play import play
from services import free_port, run_with_db

from thirteen.client import RoomClient
from thirteen.engine import get_rules
from thirteen.server.db.session import Database
from thirteen.server.settings import Settings


def admin(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "thirteen.cli", "admin", *args],
        env={**os.environ, "THIRTEEN_DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        check=False,
    )


def fresh_database(request: pytest.FixtureRequest, database_url: str, tmp_path: Path) -> str:
    if database_url.startswith("sqlite"):
        return f"sqlite+aiosqlite:///{tmp_path / 'restored.db'}"
    new: str = request.getfixturevalue("postgres").new_database()
    return new


def test_backup_while_playing_then_restore_and_audit(
    request: pytest.FixtureRequest, room: str, settings: Settings, tmp_path: Path
) -> None:
    database_url = settings.database_url
    with RoomClient(room) as boss, RoomClient(room) as ann:
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table(
            "chinese-1-6", bots=1, bot_level="heuristic", rules={"showdown_seconds": 0.1}
        )
        ann.sign_up("ann", "password of A-N-N")
        conn = ann.open_table(table["id"])
        conn.do({"type": "sit", "seat": 1, "buy_in": table["max_buy_in"]})
        play(conn, get_rules("chinese-1-6"), hands=1)  # then leaves, paid out
        balance = ann.me()["balance"]
        hands = ann.request("GET", "/api/hands")
        conn.close()
        # the bot keeps its seat and the room keeps running while the backup is taken
        target = tmp_path / "room.backup"
        made = admin(database_url, "backup", str(target))
        assert made.returncode == 0, made.stdout + made.stderr
        assert "Backed up to" in made.stdout
    assert target.stat().st_size > 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o600  # it holds all the room holds
    if database_url.startswith("sqlite"):  # and so do the room's own files
        room_db = Path(database_url.split("///", 1)[1])
        for path in (room_db, room_db.with_name(room_db.name + "-wal")):
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    fresh = fresh_database(request, database_url, tmp_path)
    restored = admin(fresh, "restore", str(target))
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert "the audit passed" in restored.stdout
    if fresh.startswith("sqlite"):
        restored_db = Path(fresh.split("///", 1)[1])
        assert stat.S_IMODE(restored_db.stat().st_mode) == 0o600
    # a room on the restored database has ann, her chips and her hands
    from thirteen.server.http.app import create_app
    from thirteen.server.serve import serve_in_thread

    with (
        serve_in_thread(create_app(settings.model_copy(update={"database_url": fresh}))) as url,
        RoomClient(url) as again,
    ):
        again.log_in("ann", "password of A-N-N")
        assert again.me()["balance"] == balance
        assert [h["id"] for h in again.request("GET", "/api/hands")] == [h["id"] for h in hands]
    # restoring over a room is refused and changes nothing
    twice = admin(fresh, "restore", str(target))
    assert twice.returncode == 2
    assert "restore into a new" in twice.stderr + twice.stdout


def test_bad_backup_files_are_refused_with_a_sentence(tmp_path: Path, database_url: str) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not a backup at all")
    fresh = (
        f"sqlite+aiosqlite:///{tmp_path / 'new.db'}"
        if database_url.startswith("sqlite")
        else database_url
    )
    for source, words in [
        (junk, "is not a backup"),
        (tmp_path / "missing.backup", "There is no file"),
    ]:
        refused = admin(fresh, "restore", str(source))
        assert refused.returncode == 2, refused.stdout + refused.stderr
        assert words in refused.stderr + refused.stdout
        assert "Traceback" not in refused.stderr
    # a backup over an existing file is refused
    junk_out = admin(fresh, "backup", str(junk))
    assert junk_out.returncode == 2
    assert "exists already" in junk_out.stderr + junk_out.stdout


def test_a_rooms_files_are_narrowed_to_its_user_at_start(tmp_path: Path) -> None:
    """A database made before the room kept its files private (mode 0644, readable by every
    user of the machine) is narrowed to 0600 when the room opens it, its WAL too."""
    room_db = tmp_path / "room.db"
    wal = room_db.with_name("room.db-wal")
    with closing(sqlite3.connect(room_db)) as conn:  # open: the WAL stays
        conn.execute("pragma journal_mode=wal")
        conn.execute("create table t (x)")
        conn.commit()
        for path in (room_db, wal):
            path.chmod(0o644)
        run_with_db(f"sqlite+aiosqlite:///{room_db}", _opened_only)
        for path in (room_db, wal):
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


async def _opened_only(_db: Database) -> None:
    """Nothing to do once the room has opened the database: opening it is what is tested."""


def test_the_audit_refuses_a_database_that_is_not_there(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """A mistyped SQLite path is not made into an empty room that passes the audit, and a
    database that is not there or cannot be reached is a sentence and exit 2, not a traceback."""
    missing = tmp_path / "typo" / "room.db"
    done = admin(f"sqlite+aiosqlite:///{missing}", "audit")
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"There is no database at {missing}" in done.stderr
    assert not missing.exists()
    assert not missing.parent.exists()
    cluster = request.getfixturevalue("postgres")
    for url in (
        cluster.url("no_such_room"),
        f"postgresql+asyncpg://thirteen:pw@127.0.0.1:{free_port()}/x",
    ):
        done = admin(url, "audit")
        assert done.returncode == 2, done.stdout + done.stderr
        assert "cannot be reached" in done.stderr
        assert "Traceback" not in done.stderr
        assert ":pw@" not in done.stderr
