"""Backups of the room's database, taken while the room runs, and restores into an empty one.

- SQLite: SQLite's online backup API copies a consistent snapshot page by page (the room goes
  on writing meanwhile); a restore copies it into the new file the same way.
- PostgreSQL: ``pg_dump --format=custom`` (one consistent snapshot) and ``pg_restore``; the
  password, if any, goes to them in ``PGPASSWORD``, never on a command line.

A restore goes only into a database with none of the room's tables (a fresh file, a new
PostgreSQL database), and a backup is restored only into the kind of database that made it.
``thirteen admin restore`` audits the restored room before it says it is done.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from thirteen.engine.errors import RuleError
from thirteen.server.db.session import private_file

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"
ROOM_TABLE = "ledger_accounts"
"""A table every room has: its presence means a database is not empty."""


class BackupError(RuleError):
    """A backup or restore that cannot be done, with the reason in a sentence."""


def _url(database_url: str) -> URL:
    try:
        return make_url(database_url)
    except Exception as e:
        raise BackupError("bad_database_url", "THIRTEEN_DATABASE_URL is not a database URL.") from e


def _sqlite_path(url: URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise BackupError("bad_database_url", "An in-memory SQLite database cannot be backed up.")
    return Path(url.database)


def _pg_tool(name: str) -> str:
    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None
    )
    if found is None:
        raise BackupError(
            "missing_tool", f"{name} is not installed (Debian: apt-get install postgresql-client)."
        )
    return found


def _pg_env(url: URL) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "PGHOST": url.host or "localhost",
            "PGPORT": str(url.port or 5432),
            "PGDATABASE": url.database or "",
        }
    )
    if url.username:
        env["PGUSER"] = url.username
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    return env


def _run(command: list[str], env: dict[str, str], what: str) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        detail = lines[-1] if lines else f"exit {done.returncode}"
        raise BackupError(f"{what}_failed", f"{what.capitalize()} failed: {detail}")


def backup(database_url: str, target: Path) -> str:
    """Write a backup of the room's database to ``target`` (which must not exist yet); says what
    it wrote."""
    url = _url(database_url)
    if target.exists():
        raise BackupError("exists", f"{target} exists already; choose a new file.")
    if not target.parent.is_dir():
        raise BackupError("no_folder", f"There is no folder {target.parent}.")
    if url.get_backend_name() == "sqlite":
        source = _sqlite_path(url)
        if not source.is_file():
            raise BackupError("no_database", f"There is no SQLite database at {source}.")
        partial = target.with_name(target.name + ".partial")
        private_file(partial)  # a backup holds all the room holds
        with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(partial)) as dst:
            src.backup(dst)
        partial.replace(target)
    elif url.get_backend_name() == "postgresql":
        partial = target.with_name(target.name + ".partial")
        private_file(partial)
        _run(
            [_pg_tool("pg_dump"), "--format=custom", "--no-owner", f"--file={partial}"],
            _pg_env(url),
            "backup",
        )
        partial.replace(target)
    else:
        raise BackupError("bad_database_url", "Only SQLite and PostgreSQL rooms can be backed up.")
    return f"{target} ({target.stat().st_size:,} bytes)"


def _kind(source: Path) -> str:
    if not source.is_file():
        raise BackupError("no_backup", f"There is no file {source}.")
    with source.open("rb") as f:
        head = f.read(len(SQLITE_MAGIC))
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PG_MAGIC):
        return "postgresql"
    raise BackupError("not_a_backup", f"{source} is not a backup made by thirteen admin backup.")


def restore(database_url: str, source: Path) -> None:
    """Restore the backup ``source`` into the (empty) database of ``database_url``."""
    url = _url(database_url)
    kind, backend = _kind(source), url.get_backend_name()
    if kind != backend:
        raise BackupError(
            "wrong_kind",
            f"{source} is a {kind} backup; restore it into a {kind} database, not {backend}.",
        )
    if backend == "sqlite":
        target = _sqlite_path(url)
        if target.exists() and target.stat().st_size > 0:
            raise BackupError("not_empty", f"{target} exists already; restore into a new file.")
        with closing(sqlite3.connect(source)) as src:
            (found,) = src.execute(
                "select count(*) from sqlite_master where type = 'table' and name = ?",
                (ROOM_TABLE,),
            ).fetchone()
        if not found:
            raise BackupError("not_a_backup", f"{source} is not a backup of a Thirteen room.")
        partial = target.with_name(target.name + ".partial")
        private_file(partial)
        with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(partial)) as dst:
            src.backup(dst)
        partial.replace(target)
        return
    env = _pg_env(url)
    check = subprocess.run(
        [_pg_tool("psql"), "-tAc", f"select to_regclass('{ROOM_TABLE}') is not null"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if check.returncode != 0:
        raise BackupError("restore_failed", "The database cannot be reached to restore into.")
    if check.stdout.strip() == "t":
        raise BackupError(
            "not_empty", "That database already holds a room; restore into a new database."
        )
    _run(
        [
            _pg_tool("pg_restore"),
            "--no-owner",
            "--exit-on-error",
            f"--dbname={env['PGDATABASE']}",
            str(source),
        ],
        env,
        "restore",
    )


__all__ = ["BackupError", "backup", "restore"]
