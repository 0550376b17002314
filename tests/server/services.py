"""Real services for the server tests: a throwaway PostgreSQL cluster, a Redis server, and the
room itself under uvicorn on free loopback ports.

Without the binaries a test that needs them is skipped — unless ``THIRTEEN_REQUIRE_SERVICES=1``
(CI), where a missing service fails the run instead of hiding it.
"""

from __future__ import annotations

import asyncio
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from thirteen.server.db.session import Database, migrate
from thirteen.server.serve import serve_in_thread
from thirteen.server.settings import Settings, load_settings

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


def run_with_db(url: str, body: Callable[[Database], Awaitable[T]]) -> T:
    """Run ``body`` on a migrated database at ``url`` (closed afterwards)."""

    async def main() -> T:
        await migrate(url)
        db = Database(url)
        try:
            return await body(db)
        finally:
            await db.close()

    return asyncio.run(main())


def missing(what: str) -> None:
    """Skip (or, in CI, fail) a test whose service is not installed."""
    if REQUIRED:
        pytest.fail(f"{what} is required (THIRTEEN_REQUIRE_SERVICES=1) but not installed")
    pytest.skip(f"{what} is not installed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class Postgres:
    """A PostgreSQL cluster in a temporary folder, owned by a non-root user when we are root."""

    def __init__(self) -> None:
        bindir = _pg_bin()
        if bindir is None:
            missing("PostgreSQL (initdb, pg_ctl)")
        assert bindir is not None
        self.bindir = bindir
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="thirteen-pg-"))
        self.data = self.root / "data"
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres"
            try:
                entry = pwd.getpwnam(self.user)
            except KeyError:
                subprocess.run(["useradd", "--system", self.user], check=True)
                entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "thirteen", "--auth=trust", "-E", "UTF8")
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "start",
        )
        self.counter = 0

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bindir / tool), *args]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+asyncpg://thirteen@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        self.counter += 1
        name = f"t{self.counter}"
        subprocess.run(
            [
                str(self.bindir / "psql"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "thirteen",
                "-d",
                "postgres",
                "-q",
                "-c",
                f"CREATE DATABASE {name}",
            ],
            check=True,
            capture_output=True,
        )
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


class RedisServer:
    """``redis-server`` on a free loopback port, keeping nothing on disk."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            missing("Redis (redis-server)")
        assert binary is not None
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="thirteen-redis-"))
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.root),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.process.stdout is not None
        for line in self.process.stdout:  # it says when it listens
            if "Ready to accept connections" in line:
                break
        else:
            raise RuntimeError("redis-server did not start")
        self._drain = threading.Thread(target=self.process.stdout.read, daemon=True)
        self._drain.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        self._drain.join(10)
        if self.process.stdout is not None:
            self.process.stdout.close()
        shutil.rmtree(self.root, ignore_errors=True)


@dataclass
class Served:
    """A ``thirteen serve`` process: its URL, the process, and its log lines so far."""

    url: str
    process: subprocess.Popen[str]
    log: list[str]

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)


@contextmanager
def room_process(database_url: str, folder: Path, **settings: str) -> Iterator[Served]:
    """A real ``thirteen serve`` process; yields once uvicorn says it is listening."""
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
    process = subprocess.Popen(
        [sys.executable, "-m", "thirteen.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    started = threading.Event()
    log: list[str] = []

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            log.append(line)
            if "Uvicorn running on" in line:
                started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert started.wait(60), "".join(log[-20:])
        yield Served(f"http://127.0.0.1:{port}", process, log)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
        process.wait(30)
        reader.join(10)
        assert process.stderr is not None
        process.stderr.close()


__all__ = [
    "Postgres",
    "RedisServer",
    "Served",
    "free_port",
    "missing",
    "room_process",
    "serve_in_thread",
]
