"""Real services for the server tests: a throwaway PostgreSQL cluster, a Redis server (both from
:mod:`thirteen.bench.services`, which the room benchmark uses too), and the room itself under
uvicorn on free loopback ports.

Without the binaries a test that needs them is skipped — unless ``THIRTEEN_REQUIRE_SERVICES=1``
(CI), where a missing service fails the run instead of hiding it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from thirteen.bench import services
from thirteen.bench.processes import RoomProcess
from thirteen.bench.services import free_port
from thirteen.server.db.session import Database, migrate
from thirteen.server.http.app import create_app
from thirteen.server.money.audit import audit
from thirteen.server.serve import serve_in_thread
from thirteen.server.settings import Settings, load_settings
from thirteen.server.tables.leases import holders

T = TypeVar("T")

REQUIRED = os.environ.get("THIRTEEN_REQUIRE_SERVICES") == "1"


def sqlite_settings(folder: Path, **overrides: Any) -> Settings:
    """A test room's settings on SQLite in ``folder``: argon2id at a test-sized cost, no default
    tables, instant bots, ``boss`` an admin; ``overrides`` on top."""
    return load_settings(
        **{
            "database_url": f"sqlite+aiosqlite:///{folder / 'room.db'}",
            "data_dir": folder,
            "argon2_memory_kib": 8192,
            "argon2_time_cost": 1,
            "default_tables": False,
            "bot_delay": 0,
            "bot_budget": 0.02,
            "admins": "boss",
            **overrides,
        }
    )


def run_with_db(
    url: str, body: Callable[[Database], Awaitable[T]], *, migrate_first: bool = True
) -> T:
    """Run ``body`` on a migrated database at ``url`` (closed afterwards). Without
    ``migrate_first`` the database is taken as it is: a room's, which migrated it as it
    started (a look at it then costs a quarter of one that migrates)."""

    async def main() -> T:
        if migrate_first:
            await migrate(url)
        db = Database(url)
        try:
            return await body(db)
        finally:
            await db.close()

    return asyncio.run(main())


def assert_audit_clean(database_url: str) -> None:
    """The room's audit of every chip and every hand on the database (what ``thirteen admin
    audit`` runs, here in this process): it must pass. The command itself, its exit code and
    its sentences, is tested in ``test_backup.py``."""
    report = run_with_db(database_url, audit, migrate_first=False)
    assert report.ok, report.problems


def lease_holders(database_url: str) -> dict[int, str | None]:
    """Which process runs each open table, by its lease in the database (what ``thirteen admin
    table list`` shows as its process; that command is tested in ``test_poison.py``)."""
    return run_with_db(database_url, holders, migrate_first=False)


def lease_holder(database_url: str, table_id: int) -> str | None:
    """Which process runs the table (:func:`lease_holders`)."""
    return lease_holders(database_url).get(table_id)


@contextmanager
def rooms_in_threads(
    folder: Path, database_url: str, redis_url: str, names: Sequence[str], **overrides: Any
) -> Iterator[list[str]]:
    """Several processes of one room, each served in a thread of this one (``names``: their
    process names), on one database and one Redis (``overrides``: more settings); yields their
    base URLs. Every application is made before any serves: making one builds its routes
    (``create_app``), which swaps the process's warning filters, and no serving thread is
    there yet to swap them too."""
    apps = [
        create_app(
            sqlite_settings(
                folder,
                database_url=database_url,
                redis_url=redis_url,
                process_name=name,
                **overrides,
            )
        )
        for name in names
    ]
    with ExitStack() as stack:
        yield [stack.enter_context(serve_in_thread(app)) for app in apps]


def missing(what: str) -> None:
    """Skip (or, in CI, fail) a test whose service is not installed."""
    if REQUIRED:
        pytest.fail(f"{what} is required (THIRTEEN_REQUIRE_SERVICES=1) but not installed")
    pytest.skip(f"{what} is not installed")


class Postgres(services.Postgres):
    """A throwaway PostgreSQL cluster (:class:`thirteen.bench.services.Postgres`); the test is
    skipped (failed in CI) when PostgreSQL is not installed."""

    def __init__(self) -> None:
        try:
            super().__init__()
        except services.ServiceMissingError as e:
            missing(e.what)


class RedisServer(services.RedisServer):
    """A throwaway ``redis-server`` (:class:`thirteen.bench.services.RedisServer`); the test is
    skipped (failed in CI) when Redis is not installed."""

    def __init__(self) -> None:
        try:
            super().__init__()
        except services.ServiceMissingError as e:
            missing(e.what)


@dataclass
class Served:
    """A ``thirteen serve`` process: its URL, the process, and its log lines so far."""

    url: str
    process: RoomProcess
    log: list[str]
    said: threading.Condition = field(default_factory=threading.Condition)
    """Notified after each line the process writes (:meth:`wait_log`)."""

    def wait_log(self, text: str, timeout: float) -> bool:
        """Whether a line holding ``text`` was, or is within ``timeout`` seconds, logged."""
        with self.said:
            return self.said.wait_for(lambda: any(text in line for line in self.log), timeout)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)


@contextmanager
def room_process(database_url: str, folder: Path, **settings: str) -> Iterator[Served]:
    """A real ``thirteen serve`` process (forked from a template that has the room imported:
    :mod:`thirteen.bench.processes`); yields once uvicorn says it is listening."""
    port = free_port()
    env = {
        **os.environ,
        "THIRTEEN_DATABASE_URL": database_url,
        "THIRTEEN_DATA_DIR": str(folder),
        "THIRTEEN_DEFAULT_TABLES": "false",
        "THIRTEEN_BOT_DELAY": "0",
        "THIRTEEN_BOT_BUDGET": "0.01",
        "THIRTEEN_ADMINS": "boss",
        "THIRTEEN_RATE_LIMITS": "false",
        "THIRTEEN_ARGON2_MEMORY_KIB": "8192",
        "THIRTEEN_ARGON2_TIME_COST": "1",
        "THIRTEEN_DISCOVER_SECONDS": "0.2",
        # the same server after a restart (a new port each time): it takes its tables back at
        # once; several processes of one room are given names of their own
        "THIRTEEN_PROCESS_NAME": "room",
        **{f"THIRTEEN_{k.upper()}": v for k, v in settings.items()},
    }
    process = RoomProcess(["serve", "--port", str(port)], env)
    started = threading.Event()
    log: list[str] = []
    said = threading.Condition()

    def read() -> None:
        assert process.output is not None
        for line in process.output:
            with said:
                log.append(line)
                said.notify_all()
            if "Uvicorn running on" in line:
                started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert started.wait(60), "".join(log[-20:])
        yield Served(f"http://127.0.0.1:{port}", process, log, said)
    finally:
        process.kill()
        process.wait(30)
        reader.join(10)
        process.close()


__all__ = [
    "Postgres",
    "RedisServer",
    "Served",
    "assert_audit_clean",
    "free_port",
    "lease_holder",
    "missing",
    "room_process",
    "rooms_in_threads",
    "serve_in_thread",
]
