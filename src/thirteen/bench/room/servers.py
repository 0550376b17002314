"""The rooms the benchmark starts: ``thirteen serve`` processes with the bench's settings (a
fresh database each, journaling on, sign-ups cheap, no rate limits), and what they stand on —
PostgreSQL and Redis, the run's own throwaway ones (:mod:`thirteen.bench.services`) or given."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import httpx
from pydantic import TypeAdapter

from thirteen.bench.room.machine import pin, process_tree
from thirteen.bench.room.options import RoomOptions, database_kind
from thirteen.bench.services import Postgres, RedisServer, dying_with_us, free_port
from thirteen.server.settings import Settings


def server_compresses(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the bench's servers compress their frames: they inherit
    ``THIRTEEN_WS_COMPRESSION`` from this environment (unset: the room's default)."""
    env = os.environ if environ is None else environ
    given = env.get("THIRTEEN_WS_COMPRESSION")
    if given is None:
        return bool(Settings.model_fields["ws_compression"].default)
    return TypeAdapter(bool).validate_python(given)


@dataclass
class Backing:
    """What the servers stand on: PostgreSQL and Redis, the run's own or given (SQLite needs
    neither)."""

    kind: str
    """``sqlite`` or ``postgres``."""
    database_url: str = ""
    """Given: every server of the run uses it."""
    redis_url: str = ""
    postgres: Postgres | None = None
    redis: RedisServer | None = None

    def database_for(self, folder: Path, name: str) -> str:
        """The database of the servers called ``name``: a fresh one unless one was given."""
        if self.database_url:
            return self.database_url
        if self.postgres is not None:
            return self.postgres.new_database()
        return f"sqlite+aiosqlite:///{folder / (name + '.db')}"

    def pids(self) -> list[int]:
        """The processes of the run's own PostgreSQL and Redis (their CPU is the room's too)."""
        return [
            *(self.postgres.pids() if self.postgres else []),
            *(self.redis.pids() if self.redis else []),
        ]

    def stop(self) -> None:
        for service in (self.redis, self.postgres):
            if service is not None:
                with contextlib.suppress(Exception):
                    service.stop()


def start_backing(options: RoomOptions, cores: frozenset[int] | None = None) -> Backing:
    """PostgreSQL and Redis for the run: the given URLs, or throwaway servers on loopback
    (:mod:`thirteen.bench.services`) when the run needs them — kept on ``cores`` if given."""
    backing = Backing(database_kind(options), options.database_url, options.redis_url)
    try:
        if backing.kind == "postgres" and not backing.database_url:
            backing.postgres = Postgres(max_connections=400)
        if options.processes > 1 and not backing.redis_url:
            backing.redis = RedisServer()
            backing.redis_url = backing.redis.url
        if cores is not None:  # their children to come (a connection's backend) inherit it
            for pid in backing.pids():
                for each in process_tree(pid):
                    pin(each, cores)
    except BaseException:
        backing.stop()
        raise
    return backing


@dataclass
class Server:
    """A ``thirteen serve`` process started for the benchmark."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path
    name: str
    """Its ``THIRTEEN_PROCESS_NAME``: the name its tables' leases carry."""
    database_url: str

    @property
    def pid(self) -> int:
        return self.process.pid

    def tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def server_command(port: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "thirteen.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]


def server_env(
    database_url: str, folder: Path, admin: str, *, process_name: str = "", redis_url: str = ""
) -> dict[str, str]:
    """A bench server's environment: ``folder`` is its data folder (several processes of one
    room share it, hence its signing key)."""
    inherited = {
        k: v
        for k, v in os.environ.items()
        if k not in ("THIRTEEN_REDIS_URL", "THIRTEEN_PROCESS_NAME", "THIRTEEN_SIGNING_KEY")
    }
    return {
        **inherited,
        "THIRTEEN_DATABASE_URL": database_url,
        "THIRTEEN_DATA_DIR": str(folder),
        "THIRTEEN_DEFAULT_TABLES": "false",
        "THIRTEEN_BOT_DELAY": "0",
        "THIRTEEN_ADMINS": admin,
        "THIRTEEN_RATE_LIMITS": "false",  # thousands of accounts from one address
        # argon2id at its cheapest: thousands of bench accounts sign up in seconds
        "THIRTEEN_ARGON2_MEMORY_KIB": "64",
        "THIRTEEN_ARGON2_TIME_COST": "1",
        **({"THIRTEEN_PROCESS_NAME": process_name} if process_name else {}),
        **({"THIRTEEN_REDIS_URL": redis_url} if redis_url else {}),
    }


@contextlib.asynccontextmanager
async def served(
    options: RoomOptions,
    backing: Backing,
    folder: Path,
    admin: str,
    name: str,
    cores: frozenset[int] | None = None,
) -> AsyncIterator[list[Server]]:
    """``options.processes`` server processes of one room, ready (``/healthz`` answers on
    each) and kept on ``cores`` if given; stopped with SIGTERM afterwards."""
    database_url = backing.database_for(folder, name)
    servers: list[Server] = []
    try:
        for n in range(options.processes):
            port = free_port()
            log = folder / (f"{name}.log" if options.processes == 1 else f"{name}-p{n}.log")
            process_name = f"{name}-p{n}"
            env = server_env(
                database_url, folder, admin, process_name=process_name, redis_url=backing.redis_url
            )
            with log.open("wb") as out:
                process = subprocess.Popen(
                    dying_with_us(server_command(port)),  # a killed run leaves no room behind
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            if cores is not None:  # before it starts a thread: each inherits it
                pin(process.pid, cores)
            servers.append(
                Server(f"http://127.0.0.1:{port}", process, log, process_name, database_url)
            )
        await asyncio.gather(*(ready(server) for server in servers))
        yield servers
    finally:
        for server in servers:
            if server.process.poll() is None:
                server.process.send_signal(signal.SIGTERM)
        for server in servers:
            try:
                await asyncio.to_thread(server.process.wait, 30)
            except subprocess.TimeoutExpired:
                server.process.kill()
                await asyncio.to_thread(server.process.wait, 30)


async def ready(server: Server) -> None:
    """Once the server answers ``/healthz``; raises if it exits or takes two minutes."""
    async with httpx.AsyncClient(base_url=server.url, timeout=5) as http:
        deadline = time.monotonic() + 120
        while True:
            if server.process.poll() is not None:
                raise RuntimeError(
                    f"the server exited ({server.process.returncode}):\n{server.tail()}"
                )
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/healthz")).status_code == 200:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start:\n{server.tail()}")
            await asyncio.sleep(0.1)


__all__ = [
    "Backing",
    "Server",
    "ready",
    "served",
    "server_command",
    "server_compresses",
    "server_env",
    "start_backing",
]
