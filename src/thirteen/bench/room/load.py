"""``thirteen bench room``: the card room under load, over real WebSockets on loopback.

A real ``thirteen serve`` process (journaling on, SQLite in a temporary folder unless told
otherwise; or several, below) serves bot clients run here, in another process, on one asyncio
loop: accounts sign up over HTTP, an admin opens tables, the accounts sit and play legal moves
from their own views (:func:`thirteen.client.legal_move`).

What is measured:

* **idle sockets** — the server's RSS before and after opening spectator sockets on tables with
  nobody playing, divided by their number (with and without permessage-deflate offered);
* **full speed** — every seat acts as soon as its frame says so, showdowns last a moment:
  hands and actions a second, and latencies;
* **human pace** — each seat waits a random few seconds before acting; the number of tables
  steps up (the tables of earlier steps go on playing) and each step reports its latencies; the
  *knee* is the first step whose p99 is at least twice the lowest p99 before it.

Latency is from an action's send to the last of its table's sockets receiving the frame with
the ``state_id`` the action's ack names (every socket is in this process: one clock). The
server's own histogram (``thirteen_action_seconds``, arrival to the last frame queued) is read
from ``/metrics`` and reported beside it.

With ``--processes N`` the room is N ``thirteen serve`` processes on one PostgreSQL and one
Redis (throwaway ones started here, :mod:`thirteen.bench.services`, unless their URLs are
given): tables are opened through each process in turn, so each runs about 1/N of them, and the
players' requests and sockets go to every process in turn as behind a round-robin proxy, so
(N-1)/N of the sockets are relayed to their table's process over Redis. Hands, CPU and RSS are
reported per process and summed; the throwaway PostgreSQL's and Redis's CPU beside them.

Options come from :class:`RoomOptions`: ``thirteen bench room --quick --tables 50,100 …`` or
``THIRTEEN_BENCH_*`` variables (:func:`options_from_env`, for ``benchmarks/run.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import os
import platform
import random
import resource
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import httpx
import orjson
from pydantic import TypeAdapter
from sqlalchemy import select
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from thirteen.bench.report import Report
from thirteen.bench.services import Postgres, RedisServer, free_port
from thirteen.client import KEEPALIVE_EXPIRY, legal_move
from thirteen.engine.rules import Rules, get_rules
from thirteen.server.db.models import GameTable
from thirteen.server.db.session import make_engine
from thirteen.server.settings import Settings

CLOSE_MOVED = 1012
"""A socket's table moved to another of the room's processes: reconnect and resend."""
CLOSE_TRY_AGAIN = 1013
"""A handshake for a table between processes was not held long enough: try again shortly."""
PASSWORD = "bench password"
SESSION_COOKIE = "thirteen_session"
GOAL_P99_MS = 50.0
GOAL_HANDS = 300.0
GOAL_KIB = 100.0

SEND_RATE = 18.0
"""Messages a second a client sends at most: the room drops a socket past 20 a second (a
bucket of 20 refilled 20 a second, docs/protocol.md), so "full speed" is just under that."""

RETRIES = 5
"""Times a setup request the room failed (5xx, or an action's ``internal``) is tried again."""
PATIENCE = 600.0
"""Seconds a setup step (a sign-up, a seat) may take: an overloaded room is slow, not broken."""

Progress = Callable[[str], None]


@dataclass(frozen=True)
class RoomOptions:
    """How big and how long: the defaults are the issue's full run (a few minutes)."""

    steps: tuple[int, ...] = (50, 100, 200, 400, 700, 1000)
    """Human-paced tables at each step of the knee (cumulative: earlier tables keep playing)."""
    seats: int = 3
    """Players (and sockets) at each table."""
    step_seconds: float = 20.0
    warmup_seconds: float = 6.0
    """After a step's tables have sat down, before its window opens."""
    pace: tuple[float, float] = (2.0, 5.0)
    """A human-paced seat waits this many seconds (uniformly at random) before each action."""
    human_showdown: float = 1.0
    """``showdown_seconds`` at human-paced tables (the next hand waits this long). A harsher
    load than the room's own tables, whose presets show a showdown for 8 s: more hands a
    second for the same tables."""
    fast_tables: tuple[int, ...] = (4, 16, 40)
    """Tables at full speed, one measurement each (fresh tables every time): more tables means
    more transactions contending for the database at once."""
    fast_seconds: float = 20.0
    fast_showdown: float = 0.001
    idle_sockets: int = 1000
    idle_compression: tuple[bool, ...] = (True, False)
    """Idle sockets measured with the client offering permessage-deflate (as browsers and the
    websockets library do), and without; each on a fresh server."""
    compression: bool = True
    """Whether the playing clients offer permessage-deflate."""
    preset: str = "chinese-1-6"
    database: str = ""
    """``sqlite`` or ``postgres``; empty: SQLite for one process, PostgreSQL for several. For
    PostgreSQL without a ``database_url`` the run starts a throwaway cluster of its own."""
    database_url: str = ""
    """The servers' database; empty: a fresh SQLite file, or a fresh database in the run's own
    PostgreSQL cluster, for each server. A database given here (PostgreSQL) is shared by every
    server of the run and keeps what earlier runs wrote."""
    redis_url: str = ""
    """The Redis joining several processes; empty: a throwaway ``redis-server`` of the run's own
    (started only for two processes or more)."""
    keep: str = ""
    """A folder to keep the servers' logs and SQLite files in; empty: a temporary one."""
    processes: int = 1
    """``thirteen serve`` processes on one database (and one Redis when more than one), each
    under its own ``THIRTEEN_PROCESS_NAME``: tables are opened through each in turn (each runs
    about 1/N of them) and every player's HTTP requests and socket go to any of them, as behind a
    round-robin proxy, so about (N-1)/N of the sockets are relayed to their table's process."""
    seed: int = 1


QUICK = RoomOptions(
    steps=(2, 4),
    seats=3,
    step_seconds=2.0,
    warmup_seconds=0.5,
    pace=(0.05, 0.3),
    human_showdown=0.2,
    fast_tables=(3,),
    fast_seconds=2.0,
    idle_sockets=40,
    idle_compression=(True,),
)
"""A smoke run of a few tables and a few seconds (the test suite runs it end to end)."""


def parse_numbers(text: str) -> tuple[float, ...]:
    """``"50,100, 200"`` as numbers; ``ValueError`` for anything else."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise ValueError(f"expected numbers separated by commas, not {text!r}")
    return tuple(float(p) for p in parts)


def options_with(base: RoomOptions, **given: Any) -> RoomOptions:
    """``base`` with every option in ``given`` that is not ``None`` (text converted)."""
    known = {f.name for f in fields(RoomOptions)}
    changes: dict[str, Any] = {}
    for name, value in given.items():
        if value is None:
            continue
        if name not in known:
            raise ValueError(f"no room benchmark option {name!r}")
        if name in ("steps", "fast_tables"):
            numbers = parse_numbers(value) if isinstance(value, str) else value
            value = tuple(int(n) for n in numbers if n > 0)
            if name == "steps" and not value:
                raise ValueError("the steps need at least one number of tables")
        elif name == "pace" and isinstance(value, str):
            low, high = (parse_numbers(value) * 2)[:2]
            value = (min(low, high), max(low, high))
        elif name == "idle_compression" and isinstance(value, str):
            value = tuple(v.strip() == "deflate" for v in value.split(",") if v.strip())
        changes[name] = value
    options = replace(base, **changes)
    if not 2 <= options.seats <= 4:
        raise ValueError("a table has 2 to 4 seats")
    if options.processes < 1:
        raise ValueError("the room needs at least one process")
    if not 0 < options.human_showdown <= 60:
        raise ValueError("a human-paced showdown lasts more than 0 and at most 60 seconds")
    if options.database not in ("", "sqlite", "postgres"):
        raise ValueError(f"the database is sqlite or postgres, not {options.database!r}")
    if options.processes > 1 and database_kind(options) == "sqlite":
        raise ValueError("several processes share one PostgreSQL database, not SQLite")
    return options


def database_kind(options: RoomOptions) -> str:
    """``sqlite`` or ``postgres``: what the run's servers use."""
    if options.database_url:
        return "sqlite" if options.database_url.startswith("sqlite") else "postgres"
    return options.database or ("postgres" if options.processes > 1 else "sqlite")


ENV_OPTIONS = {
    "THIRTEEN_BENCH_TABLES": ("steps", str),
    "THIRTEEN_BENCH_SEATS": ("seats", int),
    "THIRTEEN_BENCH_SECONDS": ("step_seconds", float),
    "THIRTEEN_BENCH_PACE": ("pace", str),
    "THIRTEEN_BENCH_SHOWDOWN": ("human_showdown", float),
    "THIRTEEN_BENCH_FAST_TABLES": ("fast_tables", str),
    "THIRTEEN_BENCH_FAST_SECONDS": ("fast_seconds", float),
    "THIRTEEN_BENCH_IDLE": ("idle_sockets", int),
    "THIRTEEN_BENCH_PRESET": ("preset", str),
    "THIRTEEN_BENCH_DATABASE": ("database", str),
    "THIRTEEN_BENCH_DATABASE_URL": ("database_url", str),
    "THIRTEEN_BENCH_REDIS_URL": ("redis_url", str),
    "THIRTEEN_BENCH_PROCESSES": ("processes", int),
    "THIRTEEN_BENCH_KEEP": ("keep", str),
}
"""Environment variables for ``benchmarks/run.py`` (``THIRTEEN_BENCH_QUICK=1`` starts from
:data:`QUICK`). The database is ``THIRTEEN_BENCH_DATABASE_URL``, not the room's own
``THIRTEEN_DATABASE_URL``: a benchmark must never write into an operator's room by accident."""


def options_from_env(environ: dict[str, str] | None = None) -> RoomOptions:
    env = os.environ if environ is None else environ
    base = QUICK if env.get("THIRTEEN_BENCH_QUICK", "") not in ("", "0", "false") else RoomOptions()
    given = {name: kind(env[var]) for var, (name, kind) in ENV_OPTIONS.items() if env.get(var)}
    return options_with(base, **given)


# ----------------------------------------------------------------------------- the machine
def raise_fd_limit() -> int:
    """Raise this process's open-file limit to the hard limit (a server started from here
    inherits it); the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process descended from it (from ``/proc``)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(children.get(p, []))
    return found


def rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and its descendants, KiB (``VmRSS``)."""
    total = 0
    for p in process_tree(pid):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of ``pid`` and its descendants, seconds."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for p in process_tree(pid):
        with contextlib.suppress(OSError):
            parts = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(parts[11]) + int(parts[12])
    return total / ticks


def loopback_bytes() -> int | None:
    """Bytes sent over the loopback interface since boot (``/proc/net/dev``); ``None`` where
    that cannot be read."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/net/dev").read_text().splitlines():
            name, _, counters = line.partition(":")
            if name.strip() == "lo":
                return int(counters.split()[8])
    return None


def server_compresses(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the bench's servers compress their frames: they inherit
    ``THIRTEEN_WS_COMPRESSION`` from this environment (unset: the room's default)."""
    env = os.environ if environ is None else environ
    given = env.get("THIRTEEN_WS_COMPRESSION")
    if given is None:
        return bool(Settings.model_fields["ws_compression"].default)
    return TypeAdapter(bool).validate_python(given)


# ----------------------------------------------------------------------------- figures
def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 < q ≤ 1) of sorted values; NaN for none."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def parse_metrics(text: str) -> dict[str, float]:
    """Prometheus text exposition as ``{"name{labels}": value}``."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        key, _, value = line.rpartition(" ")
        with contextlib.suppress(ValueError):
            out[key] = float(value)
    return out


def histogram(metrics: dict[str, float], name: str) -> list[tuple[float, float]]:
    """A histogram's cumulative buckets ``(le, count)``, in order."""
    prefix = f'{name}_bucket{{le="'
    buckets = [
        (float(key[len(prefix) : key.index('"', len(prefix))]), value)
        for key, value in metrics.items()
        if key.startswith(prefix)
    ]
    return sorted(buckets)


def bucket_quantile(buckets: list[tuple[float, float]], q: float) -> float:
    """``q`` quantile of cumulative buckets, interpolated inside its bucket as Prometheus'
    ``histogram_quantile`` does; NaN when empty."""
    if not buckets or buckets[-1][1] <= 0:
        return math.nan
    rank = q * buckets[-1][1]
    low, below = 0.0, 0.0
    for le, count in buckets:
        if count >= rank:
            if math.isinf(le):
                return low
            if count <= below:
                return le
            return low + (le - low) * (rank - below) / (count - below)
        low, below = le, count
    return low


def bucket_delta(
    after: list[tuple[float, float]], before: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    earlier = dict(before)
    return [(le, count - earlier.get(le, 0.0)) for le, count in after]


def total(metrics: dict[str, float], name: str) -> float:
    return sum(v for k, v in metrics.items() if k == name or k.startswith(name + "{"))


def knee_of(steps: Sequence[tuple[int, float]]) -> int | None:
    """The first step (tables) whose p99 is at least twice the lowest p99 before it."""
    lowest = math.inf
    for tables, p99 in steps:
        if p99 >= 2 * lowest:
            return tables
        lowest = min(lowest, p99)
    return None


# ----------------------------------------------------------------------------- the servers
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


def start_backing(options: RoomOptions) -> Backing:
    """PostgreSQL and Redis for the run: the given URLs, or throwaway servers on loopback
    (:mod:`thirteen.bench.services`) when the run needs them."""
    backing = Backing(database_kind(options), options.database_url, options.redis_url)
    try:
        if backing.kind == "postgres" and not backing.database_url:
            backing.postgres = Postgres(max_connections=400)
        if options.processes > 1 and not backing.redis_url:
            backing.redis = RedisServer()
            backing.redis_url = backing.redis.url
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
    options: RoomOptions, backing: Backing, folder: Path, admin: str, name: str
) -> AsyncIterator[list[Server]]:
    """``options.processes`` server processes of one room, ready (``/healthz`` answers on
    each); stopped with SIGTERM afterwards."""
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
                    server_command(port),
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
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


# ----------------------------------------------------------------------------- clients
@dataclass(frozen=True)
class Account:
    name: str
    cookie: str
    csrf: str

    @property
    def headers(self) -> dict[str, str]:
        return {"cookie": f"{SESSION_COOKIE}={self.cookie}", "x-csrf-token": self.csrf}


@dataclass
class Window:
    """What happened while a measurement window was open."""

    recording: bool = False
    latencies: list[float] = field(default_factory=list)
    ending: list[float] = field(default_factory=list)
    """Latencies of the actions that ended a hand (their transaction settles it)."""
    actions: int = 0
    client_hands: int = 0
    lag: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)


class TableLoad:
    """One table's sockets: latencies from a send to the last socket's frame of that state."""

    def __init__(self, load: Load, table_id: int, sockets: int) -> None:
        self.load = load
        self.id = table_id
        self.sockets = sockets
        self.sent: dict[int, float] = {}
        self.seen: dict[int, list[float]] = {}
        self.ended: set[int] = set()
        self.players: list[Player] = []

    def frame(self, state_id: int, at: float, *, ends_hand: bool = False) -> None:
        self.seen.setdefault(state_id, []).append(at)
        if ends_hand:
            self.ended.add(state_id)
        self._settle(state_id)

    def acked(self, state_id: int, sent: float) -> None:
        self.sent[state_id] = sent
        self._settle(state_id)
        if len(self.seen) > 32 or len(self.sent) > 32:  # states no action of ours made
            for book in (self.seen, self.sent):
                for old in [k for k in book if k < state_id - 16]:
                    del book[old]
            self.ended = {k for k in self.ended if k >= state_id - 16}

    def _settle(self, state_id: int) -> None:
        times = self.seen.get(state_id)
        if times is None or len(times) < self.sockets or state_id not in self.sent:
            return
        latency = max(times) - self.sent.pop(state_id)
        del self.seen[state_id]
        window = self.load.window
        if window.recording:
            window.latencies.append(latency)
            if state_id in self.ended:
                window.ending.append(latency)
        self.ended.discard(state_id)


class Player:
    """A seat's socket: reads every frame, and acts when its view says it must."""

    def __init__(
        self, load: Load, table: TableLoad, account: Account, seat: int, *, fast: bool
    ) -> None:
        self.load = load
        self.table = table
        self.account = account
        self.seat = seat
        self.fast = fast
        self.rng = random.Random(hash((load.options.seed, table.id, seat)))
        self.ws: ClientConnection | None = None
        self.view: dict[str, Any] = {}
        self.state_id = -1
        self.seated = False
        self.acting = False
        self.closing = False
        self.sent: dict[str, float] = {}
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.unanswered: dict[str, str] = {}
        """Messages sent whose ``ack`` or ``error`` has not come, by id."""
        self.snapshot = asyncio.get_running_loop().create_future()
        self.ids = itertools.count(1)
        self.reader: asyncio.Task[None] | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.next_send = 0.0
        self.via = (load.opened.get(table.id, 0) + next(load.socket_turns)) % len(load.servers)
        """The process this seat's socket reaches: the k-th socket opened goes k processes
        on from its table's, so only every N-th lands on its table's process and (N-1)/N are
        relayed — what a round-robin proxy, blind to tables, gives on average."""

    async def open(self, buy_in: int) -> None:
        ticket = await self.load.ticket(self.account)
        path = f"/ws/tables/{self.table.id}?ticket={ticket}"
        self.ws = await self.load.connect(path, via=self.via)
        self.reader = asyncio.create_task(self._read())
        await asyncio.wait_for(self.snapshot, PATIENCE)
        for attempt in range(RETRIES + 1):
            answer = await self.request({"type": "sit", "seat": self.seat, "buy_in": buy_in})
            if answer.get("code") not in ("internal", "moved") or attempt == RETRIES:
                break
            self.load.retried[f"sit answered {answer.get('code')}"] += 1
            await asyncio.sleep(0.5 * 2**attempt)
        if answer["type"] != "ack":
            raise RuntimeError(f"could not sit: {answer}")
        self.seated = True
        self._consider()

    async def request(self, action: dict[str, Any]) -> dict[str, Any]:
        ident = f"s{next(self.ids)}"
        future = asyncio.get_running_loop().create_future()
        self.waiting[ident] = future
        await self._send(ident, json.dumps({"type": "action", "id": ident, "action": action}))
        return await asyncio.wait_for(future, PATIENCE)

    async def _send(self, ident: str, message: str) -> None:
        """Send ``message``, kept until its answer comes: a socket closed meanwhile (its table
        moved to another process) sends it again, with the same id, once it reconnects."""
        self.unanswered[ident] = message
        if self.ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await self.ws.send(message)

    async def _read(self) -> None:
        try:
            while True:
                assert self.ws is not None
                try:
                    async for raw in self.ws:
                        at = time.perf_counter()
                        self._take(orjson.loads(raw), at)
                except ConnectionClosed:
                    pass
                code = self.ws.close_code
                if self.closing or code not in (CLOSE_MOVED, CLOSE_TRY_AGAIN):
                    return
                if not await self._reconnect(code):
                    return
        finally:
            self.closing = True
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError("the socket closed"))

    async def _reconnect(self, code: int) -> bool:
        """As the protocol asks after a 1012 (the table moved to another process) or a 1013
        (it is moving: try again in a moment): a new ticket, the same process, ``since`` the
        last state seen, and what was not answered sent again with the same ids."""
        self.load.reconnects += 1
        for attempt in range(RETRIES + 1):
            if code == CLOSE_TRY_AGAIN or attempt:
                await asyncio.sleep(0.2 * 2**attempt)
            try:
                ticket = await self.load.ticket(self.account)
                since = f"&since={self.state_id}" if self.state_id >= 0 else ""
                path = f"/ws/tables/{self.table.id}?ticket={ticket}{since}"
                self.ws = await self.load.connect(path, via=self.via)
            except (OSError, InvalidStatus, RuntimeError, httpx.HTTPError):
                continue
            for ident, message in list(self.unanswered.items()):
                if ident in self.unanswered:
                    with contextlib.suppress(ConnectionClosed):
                        await self.ws.send(message)
            return True
        return False

    def _take(self, frame: dict[str, Any], at: float) -> None:
        kind = frame.get("type")
        if kind in ("update", "snapshot"):
            self.state_id = frame["state_id"]
            self.view = frame["view"]
            if kind == "update":
                settled = sum(1 for e in frame["events"] if e["event"] == "HandSettled")
                self.table.frame(self.state_id, at, ends_hand=settled > 0)
                if self.seat == 0 and self.load.window.recording:
                    self.load.window.client_hands += settled
            elif not self.snapshot.done():
                self.snapshot.set_result(None)
        elif kind in ("ack", "error"):
            ident = frame.get("id", "")
            self.unanswered.pop(ident, None)
            future = self.waiting.pop(ident, None)
            if future is not None and not future.done():
                future.set_result(frame)
            sent = self.sent.pop(ident, None)
            if sent is not None:
                self.acting = False
                if kind == "ack":
                    self.table.acked(frame["state_id"], sent)
                    if self.load.window.recording:
                        self.load.window.actions += 1
            if kind == "error" and self.load.window.recording:
                self.load.window.errors[frame.get("code", "?")] += 1
        elif kind == "closing":
            self.closing = True
        self._consider()

    def _must_act(self) -> dict[str, Any] | None:
        hand = self.view.get("hand")
        me: dict[str, Any] | None = hand.get("me") if hand else None
        return me if me is not None and me["must_act"] else None

    def _consider(self) -> None:
        if self.acting or self.closing or not self.seated or self._must_act() is None:
            return
        self.acting = True
        delay = 0.0 if self.fast else self.rng.uniform(*self.load.options.pace)
        task = asyncio.create_task(self._act(delay))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _act(self, delay: float) -> None:
        wait = max(delay, self.next_send - time.monotonic())
        if wait > 0:
            await asyncio.sleep(wait)
        self.next_send = time.monotonic() + 1 / SEND_RATE
        me = self._must_act()
        if me is None or self.closing or self.ws is None:
            self.acting = False
            return
        move = legal_move(me, self.load.rules, self.rng)
        ident = f"a{next(self.ids)}"
        message = json.dumps(
            {"type": "action", "id": ident, "state_id": self.state_id, "action": move}
        )
        self.sent[ident] = time.perf_counter()
        await self._send(ident, message)

    async def close(self) -> None:
        self.closing = True
        for task in list(self.tasks):
            task.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 10)
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 10)


@dataclass
class ProcessFigures:
    """One server process in a measurement window."""

    name: str
    tables: int
    """Tables it ran at the window's end (held their leases)."""
    sockets: int
    """Players' sockets it accepted (its own tables' or relayed to another process)."""
    hands: float
    cpu: float
    """Cores' worth of CPU it used (1.0: a whole core)."""
    rss_kib: int


@dataclass
class Measured:
    """One measurement window."""

    tables: int
    sockets: int
    seconds: float
    latencies: list[float]
    ending: list[float]
    actions: int
    hands: float
    client_hands: int
    server_actions: float
    server_p50: float
    server_p99: float
    server_cpu: float
    generator_cpu: float
    lag_p99: float
    server_rss_kib: int
    errors: dict[str, int]
    seating_seconds: float = 0.0
    """How long the step's new tables took to seat (tickets, sockets, buy-ins)."""
    processes: list[ProcessFigures] = field(default_factory=list)
    relayed: int = 0
    """Players' sockets on a process other than their table's (relayed over Redis)."""
    backing_cpu: float | None = None
    """Cores' worth of CPU the run's own PostgreSQL and Redis used (``None``: none started)."""
    loopback_bytes: int | None = None
    """Bytes sent over loopback during the window: the sockets' frames and their TCP/IP
    headers both ways (and the database's and Redis's traffic when they run on loopback too);
    ``None`` where it cannot be read."""

    def latency(self, q: float) -> float:
        return percentile(self.latencies, q) * 1000

    def ending_latency(self, q: float) -> float:
        """Milliseconds, the ``q`` quantile of the actions that ended a hand."""
        return percentile(self.ending, q) * 1000


async def bounded(limit: int, jobs: Iterable[Awaitable[Any]]) -> list[Any]:
    """Await ``jobs`` with at most ``limit`` running at once; their results in order."""
    gate = asyncio.Semaphore(limit)

    async def one(job: Awaitable[Any]) -> Any:
        async with gate:
            return await job

    return await asyncio.gather(*(one(j) for j in jobs))


class Load:
    """The load generator against one server: accounts, tables, players, measurements."""

    def __init__(
        self,
        servers: list[Server],
        options: RoomOptions,
        admin: str,
        progress: Progress,
        backing: Backing | None = None,
    ) -> None:
        self.servers = servers
        self.options = options
        self.admin_name = admin
        self.progress = progress
        self.backing = backing
        self.https = [
            httpx.AsyncClient(
                base_url=server.url,
                timeout=PATIENCE,
                limits=httpx.Limits(
                    max_connections=64,
                    max_keepalive_connections=64,
                    keepalive_expiry=KEEPALIVE_EXPIRY,
                ),
            )
            for server in servers
        ]
        self.turns = itertools.count()
        """Requests without a process of their own go to each process in turn."""
        self.socket_turns = itertools.count()
        self.opened: dict[int, int] = {}
        """The process each table was opened through (and so first run by)."""
        self.rules: Rules = get_rules(options.preset)
        self.window = Window()
        token = secrets.token_hex(3)
        self.names = (f"b{token}x{n}" for n in itertools.count())
        self.admin: Account | None = None
        self.human: list[TableLoad] = []
        self.lagging: asyncio.Task[None] | None = None
        self.retried: Counter[str] = Counter()
        """Setup requests tried again after the room failed them, by why."""
        self.reconnects = 0
        """Sockets opened again after a 1012 or 1013 (their table moved between processes)."""
        self.failure = ""

    async def __aenter__(self) -> Load:
        self.admin = await self.sign_up(self.admin_name)
        self.lagging = asyncio.create_task(self._watch_lag())
        return self

    async def __aexit__(self, *_: object) -> None:
        if self.lagging is not None:
            self.lagging.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.lagging
        for http in self.https:
            await http.aclose()

    async def _watch_lag(self) -> None:
        """How late this loop wakes: a busy generator inflates every latency it measures."""
        tick = 0.05
        while True:
            start = time.perf_counter()
            await asyncio.sleep(tick)
            if self.window.recording:
                self.window.lag.append(time.perf_counter() - start - tick)

    # ------------------------------------------------------------------ HTTP
    async def call(
        self,
        method: str,
        path: str,
        account: Account | None = None,
        body: Any = None,
        *,
        allow: tuple[int, ...] = (),
        via: int | None = None,
    ) -> httpx.Response:
        """The response to a request (to process ``via``, or the next in turn), tried again
        while the room answers 5xx or drops the connection; raises for any other error status
        but those in ``allow``."""
        http = self.https[next(self.turns) % len(self.https) if via is None else via]
        for attempt in range(RETRIES + 1):
            try:
                r = await http.request(
                    method, path, json=body, headers=account.headers if account else None
                )
            except httpx.TransportError as e:
                # a keep-alive connection the server closed as it was reused, a request the
                # server failed by closing the connection instead of answering 500, or one it was
                # too busy to answer within the client's timeout
                if attempt == RETRIES:
                    raise
                self.retried[type(e).__name__] += 1
                await asyncio.sleep(0.5 * 2**attempt)
                continue
            finally:
                http.cookies.clear()  # one client for every account: cookies go by hand
            if r.status_code < 500 or attempt == RETRIES:
                break
            # an overloaded room says "nothing was changed" (a database busy past its timeout)
            self.retried[f"HTTP {r.status_code}"] += 1
            await asyncio.sleep(0.5 * 2**attempt)
        if r.status_code >= 400 and r.status_code not in allow:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:200]}")
        return r

    async def sign_up(self, name: str) -> Account:
        body = {"name": name, "password": PASSWORD}
        r = await self.call("POST", "/api/accounts", body=body, allow=(409,))
        if r.status_code == 409:
            # Signing up opens the account, then logs in, in two transactions: a try that
            # failed in the second (a database busy past its timeout, under load) left the
            # account made, so the try after it finds the name taken. Bench names are unique,
            # so the account is this one: log in to it.
            r = await self.call("POST", "/api/session", body=body)
        return Account(name, r.cookies[SESSION_COOKIE], r.json()["csrf_token"])

    async def ticket(self, account: Account) -> str:
        ticket: str = (await self.call("POST", "/api/tickets", account)).json()["ticket"]
        return ticket

    async def connect(
        self, path: str, *, compression: bool | None = None, via: int = 0
    ) -> ClientConnection:
        deflate = self.options.compression if compression is None else compression
        url = "ws" + self.servers[via].url.removeprefix("http") + path
        for attempt in range(5):
            try:
                return await connect(
                    url,
                    compression="deflate" if deflate else None,
                    max_size=2**22,
                    open_timeout=120,
                    ping_interval=None,  # the server pings; browsers do not ping either
                    close_timeout=5,
                )
            except (OSError, InvalidStatus):  # a full accept backlog: try again shortly
                if attempt == 4:
                    raise
                await asyncio.sleep(0.2 * (attempt + 1))
        raise AssertionError("unreachable")

    async def metrics(self) -> list[dict[str, float]]:
        """Each process's ``/metrics``, in the order of :attr:`servers`."""
        return [
            parse_metrics((await self.call("GET", "/metrics", via=n)).text)
            for n in range(len(self.servers))
        ]

    async def owners(self, table_ids: Iterable[int]) -> dict[int, str]:
        """The process running each table now (its lease's holder, from the database)."""
        ids = list(table_ids)
        if len(self.servers) == 1:
            return dict.fromkeys(ids, self.servers[0].name)
        engine = make_engine(self.servers[0].database_url)
        try:
            async with engine.connect() as conn:
                rows = await conn.execute(
                    select(GameTable.id, GameTable.lease_owner).where(GameTable.id.in_(ids))
                )
                return {int(table_id): str(owner) for table_id, owner in rows}
        finally:
            await engine.dispose()

    async def create_table(self, showdown: float, via: int | None = None) -> int:
        body = {
            "preset": self.options.preset,
            "rules": {"showdown_seconds": showdown},
            "bots": 0,
            "seats": self.options.seats,
            "min_buy_in": 100,
            "max_buy_in": 5000,
        }
        via = next(self.turns) % len(self.servers) if via is None else via
        r = await self.call("POST", "/api/tables", self.admin, body, via=via)
        table_id: int = r.json()["id"]
        self.opened[table_id] = via
        return table_id

    async def close_table(self, table_id: int) -> None:
        await self.call("DELETE", f"/api/tables/{table_id}", self.admin)

    # ------------------------------------------------------------------ tables
    async def prepare(self, count: int, *, fast: bool) -> list[tuple[int, list[Account]]]:
        """``count`` empty tables and an account for each of their seats."""
        seats = self.options.seats
        accounts: list[Account] = await bounded(
            16, (self.sign_up(next(self.names)) for _ in range(count * seats))
        )
        showdown = self.options.fast_showdown if fast else self.options.human_showdown
        # through each process in turn: the process that opens a table runs it
        n = len(self.servers)
        ids: list[int] = await bounded(
            8, (self.create_table(showdown, via=i % n) for i in range(count))
        )
        return [(table_id, accounts[i * seats : (i + 1) * seats]) for i, table_id in enumerate(ids)]

    async def seat(
        self, prepared: list[tuple[int, list[Account]]], *, fast: bool
    ) -> list[TableLoad]:
        """Every seat of the prepared tables taken by a bench client that plays."""
        tables = [TableLoad(self, table_id, len(accounts)) for table_id, accounts in prepared]
        players = [
            Player(self, table, account, seat, fast=fast)
            for table, (_, accounts) in zip(tables, prepared, strict=True)
            for seat, account in enumerate(accounts)
        ]
        for player in players:
            player.table.players.append(player)
        await bounded(32, (p.open(5000) for p in players))
        return tables

    async def close_tables(self, tables: list[TableLoad]) -> None:
        """Close the tables (hands in play finish), then every socket."""
        await bounded(16, (self.close_table(t.id) for t in tables))
        readers = [p.reader for t in tables for p in t.players if p.reader is not None]
        if readers:
            await asyncio.wait(readers, timeout=60)
        await bounded(64, (p.close() for t in tables for p in t.players))

    # ------------------------------------------------------------------ measuring
    async def measure(self, seconds: float, tables: list[TableLoad]) -> Measured:
        pids = [server.pid for server in self.servers]
        backing = self.backing.pids() if self.backing is not None else []
        before = await self.metrics()
        cpu_before = [cpu_seconds(pid) for pid in pids]
        backing_cpu, own_cpu = sum(cpu_seconds(p) for p in backing), time.process_time()
        wire = loopback_bytes()
        start = time.perf_counter()
        self.window = Window(recording=True)
        await asyncio.sleep(seconds)
        self.window.recording = False
        elapsed = time.perf_counter() - start
        cpu = [cpu_seconds(pid) - was for pid, was in zip(pids, cpu_before, strict=True)]
        backing_cpu = sum(cpu_seconds(p) for p in backing) - backing_cpu
        own_cpu = time.process_time() - own_cpu
        wire_after = loopback_bytes()
        after = await self.metrics()
        owners = await self.owners(t.id for t in tables)
        name = "thirteen_action_seconds"
        buckets: dict[float, float] = {}
        for now, was in zip(after, before, strict=True):
            for le, count in bucket_delta(histogram(now, name), histogram(was, name)):
                buckets[le] = buckets.get(le, 0.0) + count
        merged = sorted(buckets.items())
        ran = Counter(owners.values())
        processes = [
            ProcessFigures(
                name=server.name,
                tables=ran.get(server.name, 0),
                sockets=sum(1 for t in tables for p in t.players if p.via == n),
                hands=total(now, "thirteen_hands_total") - total(was, "thirteen_hands_total"),
                cpu=used / elapsed,
                rss_kib=rss_kib(server.pid),
            )
            for n, (server, now, was, used) in enumerate(
                zip(self.servers, after, before, cpu, strict=True)
            )
        ]
        relayed = sum(
            1
            for t in tables
            for p in t.players
            if self.servers[p.via].name != owners.get(t.id, self.servers[p.via].name)
        )
        window = self.window
        return Measured(
            tables=len(tables),
            sockets=sum(len(t.players) for t in tables),
            seconds=elapsed,
            latencies=sorted(window.latencies),
            ending=sorted(window.ending),
            actions=window.actions,
            hands=sum(p.hands for p in processes),
            client_hands=window.client_hands,
            server_actions=sum(
                total(now, f"{name}_count") - total(was, f"{name}_count")
                for now, was in zip(after, before, strict=True)
            ),
            server_p50=bucket_quantile(merged, 0.5) * 1000,
            server_p99=bucket_quantile(merged, 0.99) * 1000,
            server_cpu=sum(cpu) / elapsed,
            generator_cpu=own_cpu / elapsed,
            lag_p99=percentile(sorted(window.lag), 0.99) * 1000,
            server_rss_kib=sum(p.rss_kib for p in processes),
            errors=dict(window.errors),
            processes=processes,
            relayed=relayed,
            backing_cpu=backing_cpu / elapsed if backing else None,
            loopback_bytes=None if wire is None or wire_after is None else wire_after - wire,
        )

    def rss(self) -> int:
        """KiB resident in every server process."""
        return sum(rss_kib(server.pid) for server in self.servers)

    async def idle_memory(self, sockets: int, *, compression: bool) -> tuple[float, int]:
        """KiB of server RSS (every process's) per idle spectator socket, and the RSS before
        them. With several processes the tables are spread and so are the sockets."""
        n = len(self.servers)
        tables = [
            await self.create_table(self.options.human_showdown, via=i % n) for i in range(10)
        ]

        async def spectate(i: int) -> ClientConnection:
            path = f"/ws/tables/{tables[i % 10]}"
            return await self.connect(path, compression=compression, via=(i // 10) % n)

        warm = await bounded(32, (spectate(i) for i in range(20)))  # first-use costs, not sockets
        await bounded(32, (ws.close() for ws in warm))
        await self._until_connections(0)
        await asyncio.sleep(1.0)
        before = self.rss()
        idle = await bounded(32, (spectate(i) for i in range(sockets)))
        await self._until_connections(sockets)
        await asyncio.sleep(1.0)
        after = self.rss()
        await bounded(64, (ws.close() for ws in idle))
        await self._until_connections(0)
        await bounded(8, (self.close_table(t) for t in tables))
        return (after - before) / sockets, before

    async def _until_connections(self, count: int, timeout: float = 60) -> None:
        """Until the processes count ``count`` sockets in all (each counts those it accepted)."""
        deadline = time.monotonic() + timeout
        while sum(m.get("thirteen_ws_connections", -1) for m in await self.metrics()) != count:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server never counted {count} sockets")
            await asyncio.sleep(0.1)

    async def full_speed(self, count: int) -> Measured:
        self.progress(f"full speed: seating {count} tables")
        tables = await self.seat(await self.prepare(count, fast=True), fast=True)
        await asyncio.sleep(max(1.0, self.options.warmup_seconds / 2))
        self.progress(f"full speed: measuring {self.options.fast_seconds:g} s")
        measured = await self.measure(self.options.fast_seconds, tables)
        self.progress(
            f"full speed, {count} tables: {measured.hands / measured.seconds:.1f} hands/s, "
            f"p99 {measured.latency(0.99):.0f} ms; closing the tables"
        )
        await self.close_tables(tables)
        return measured

    async def knee(self) -> list[Measured]:
        """Every step's accounts and tables are made first, while the room is idle (under load
        every sign-up and table waits its turn); each step then seats its new tables."""
        most = max(self.options.steps)
        self.progress(f"human pace: {most * self.options.seats} accounts, {most} tables")
        prepared = await self.prepare(most, fast=False)
        steps = []
        for target in self.options.steps:
            missing = prepared[len(self.human) : target]
            start = time.perf_counter()
            if missing:
                self.progress(f"human pace: seating {len(missing)} more tables ({target} in all)")
                try:
                    self.human += await self.seat(missing, fast=False)
                except (RuntimeError, OSError, TimeoutError, ConnectionClosed) as e:
                    self.failure = f"seating {target} tables failed, the steps end there: {e}"
                    self.progress(self.failure)
                    break
            seated = time.perf_counter() - start
            await asyncio.sleep(self.options.warmup_seconds)
            self.progress(f"human pace, {target} tables: measuring {self.options.step_seconds:g} s")
            measured = await self.measure(self.options.step_seconds, self.human)
            measured.seating_seconds = seated
            steps.append(measured)
            self.progress(
                f"human pace, {target} tables: p50 {measured.latency(0.5):.0f} ms, p95 "
                f"{measured.latency(0.95):.0f} ms, p99 {measured.latency(0.99):.0f} ms, "
                f"{measured.hands / measured.seconds:.1f} hands/s"
            )
        return steps

    async def close_all(self) -> None:
        await bounded(64, (p.close() for t in self.human for p in t.players))


# ----------------------------------------------------------------------------- the run
@dataclass
class Results:
    idle: list[tuple[bool, float, int]]
    fast: list[Measured]
    steps: list[Measured]
    fd_limit: int
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float]
    database: str
    retried: dict[str, int] = field(default_factory=dict)
    """Setup requests tried again, by why (an HTTP status, an exception, an action's code)."""
    failure: str = ""
    reconnects: int = 0


async def run(options: RoomOptions, progress: Progress) -> Results:
    fd_limit = raise_fd_limit()
    load_before = os.getloadavg()
    admin = f"boss{secrets.token_hex(4)}"
    idle: list[tuple[bool, float, int]] = []
    with contextlib.ExitStack() as stack:
        if options.keep:
            folder = Path(options.keep)
            folder.mkdir(parents=True, exist_ok=True)
        else:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="thirteen-room-")))
        if database_kind(options) == "postgres" and not options.database_url:
            progress("starting PostgreSQL")
        backing = await asyncio.to_thread(start_backing, options)
        stack.callback(backing.stop)
        for n, compression in enumerate(options.idle_compression[1:], 1):
            if not options.idle_sockets:
                break
            async with (
                served(options, backing, folder, admin, f"idle{n}") as servers,
                Load(servers, options, admin, progress, backing) as load,
            ):
                progress(f"idle sockets: {options.idle_sockets}, deflate {compression}")
                kib, base = await load.idle_memory(options.idle_sockets, compression=compression)
                idle.append((compression, kib, base))
        async with (
            served(options, backing, folder, f"{admin}m", "room") as servers,
            Load(servers, options, f"{admin}m", progress, backing) as load,
        ):
            if options.idle_sockets and options.idle_compression:
                compression = options.idle_compression[0]
                progress(f"idle sockets: {options.idle_sockets}, deflate {compression}")
                kib, base = await load.idle_memory(options.idle_sockets, compression=compression)
                idle.insert(0, (compression, kib, base))
            fast = [await load.full_speed(count) for count in options.fast_tables]
            try:
                steps = await load.knee() if options.steps else []
            finally:
                progress("stopping")
                await load.close_all()
            retried, failure, reconnects = dict(load.retried), load.failure, load.reconnects
    database = (options.database_url or "sqlite+aiosqlite").split("://")[0]
    if not options.database_url and database_kind(options) == "postgres":
        database = "postgresql+asyncpg (a throwaway cluster started for the run)"
    return Results(
        idle,
        fast,
        steps,
        fd_limit,
        load_before,
        os.getloadavg(),
        database,
        retried,
        failure,
        reconnects,
    )


def process_rows(at: str, measured: Measured) -> list[tuple[str, float, str]]:
    """A window's CPU per hand; PostgreSQL's and Redis's CPU when the run started them; the
    relayed sockets and each process's figures when there are several."""
    rows: list[tuple[str, float, str]] = []
    hands = measured.hands / measured.seconds
    if hands > 0:  # what a hand costs, however much of a core the server was given
        rows.append((f"{at}: server CPU per hand", 1000 * measured.server_cpu / hands, "ms"))
        if measured.loopback_bytes is not None:
            rows.append(
                (f"{at}: loopback bytes per hand", measured.loopback_bytes / measured.hands, "B")
            )
    if measured.backing_cpu is not None:
        rows.append((f"{at}: PostgreSQL and Redis CPU", 100 * measured.backing_cpu, "% of a core"))
        if hands > 0:
            rows.append(
                (
                    f"{at}: PostgreSQL and Redis CPU per hand",
                    1000 * measured.backing_cpu / hands,
                    "ms",
                )
            )
    if len(measured.processes) < 2:
        return rows
    share = measured.relayed / measured.sockets if measured.sockets else 0.0
    rows.append((f"{at}: relayed sockets", 100 * share, "% of sockets"))
    for n, process in enumerate(measured.processes):
        on = f"{at}, process {n}"
        rows += [
            (f"{on}: tables", float(process.tables), "tables"),
            (f"{on}: sockets", float(process.sockets), "sockets"),
            (f"{on}: hands/s", process.hands / measured.seconds, "hands/s"),
            (f"{on}: CPU", 100 * process.cpu, "% of a core"),
            (f"{on}: RSS", process.rss_kib / 1024, "MiB"),
        ]
    return rows


def report_of(options: RoomOptions, results: Results) -> Report:
    report = Report("room")
    rows = report.rows
    rows.append(("server processes", float(options.processes), "processes"))
    for compression, kib, base in results.idle:
        how = "deflate offered" if compression else "no compression"
        rows.append((f"idle socket, {how}: server memory", kib, "KiB/socket"))
        rows.append((f"idle socket, {how}: server RSS before", base / 1024, "MiB"))
    if results.idle:
        rows.append(("idle sockets", float(options.idle_sockets), "sockets"))
    best = max(results.fast, key=lambda m: m.hands / m.seconds, default=None)
    if best is not None:
        rows.append(("full speed: most hands/s", best.hands / best.seconds, "hands/s"))
    for fast in results.fast:
        at = f"full speed, {fast.tables} tables"
        rows += [
            (f"{at}: sockets", float(fast.sockets), "sockets"),
            (f"{at}: hands/s", fast.hands / fast.seconds, "hands/s"),
            (f"{at}: actions/s", fast.actions / fast.seconds, "actions/s"),
            (f"{at}: journaled actions/s", fast.server_actions / fast.seconds, "actions/s"),
            (f"{at}: p50", fast.latency(0.5), "ms"),
            (f"{at}: p95", fast.latency(0.95), "ms"),
            (f"{at}: p99", fast.latency(0.99), "ms"),
            (f"{at}: p50, actions ending a hand", fast.ending_latency(0.5), "ms"),
            (f"{at}: p99, actions ending a hand", fast.ending_latency(0.99), "ms"),
            (f"{at}: server p50 (histogram)", fast.server_p50, "ms"),
            (f"{at}: server p99 (histogram)", fast.server_p99, "ms"),
            (f"{at}: server CPU", 100 * fast.server_cpu, "% of a core"),
            (f"{at}: generator CPU", 100 * fast.generator_cpu, "% of a core"),
        ]
        rows += process_rows(at, fast)
    for step in results.steps:
        at = f"human pace, {step.tables} tables"
        rows += [
            (f"{at}: sockets", float(step.sockets), "sockets"),
            (f"{at}: hands/s", step.hands / step.seconds, "hands/s"),
            (f"{at}: actions/s", step.actions / step.seconds, "actions/s"),
            (f"{at}: p50", step.latency(0.5), "ms"),
            (f"{at}: p95", step.latency(0.95), "ms"),
            (f"{at}: p99", step.latency(0.99), "ms"),
            (f"{at}: p50, actions ending a hand", step.ending_latency(0.5), "ms"),
            (f"{at}: p99, actions ending a hand", step.ending_latency(0.99), "ms"),
            (f"{at}: server p99 (histogram)", step.server_p99, "ms"),
            (f"{at}: server CPU", 100 * step.server_cpu, "% of a core"),
            (f"{at}: generator CPU", 100 * step.generator_cpu, "% of a core"),
            (f"{at}: generator loop lag p99", step.lag_p99, "ms"),
            (f"{at}: server RSS", step.server_rss_kib / 1024, "MiB"),
        ]
        rows += process_rows(at, step)
    knee = knee_of([(s.tables, s.latency(0.99)) for s in results.steps])
    if knee is not None:
        rows.append(("knee: first step with p99 ≥ 2× the lowest before", float(knee), "tables"))
    if results.idle:
        report.ratios["goal 100 KiB ÷ KiB per idle socket"] = GOAL_KIB / max(
            results.idle[0][1], 1e-9
        )
    if best is not None:
        report.ratios["full-speed hands/s ÷ goal 300"] = best.hands / best.seconds / GOAL_HANDS
    if results.steps:
        last = results.steps[-1]
        report.ratios[f"goal 50 ms ÷ p99 at {last.tables} tables"] = GOAL_P99_MS / max(
            last.latency(0.99), 1e-9
        )
    errors: Counter[str] = Counter()
    for m in [*results.steps, *results.fast]:
        errors.update(m.errors)
    notes = report.notes
    notes.append(
        f"machine: {os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.system()} {platform.release()}; the server and "
        "this load generator share those cores (and other jobs may run on them)"
    )
    notes.append(
        "load average before {:.2f} {:.2f} {:.2f}, after {:.2f} {:.2f} {:.2f}".format(
            *results.load_before, *results.load_after
        )
    )
    notes.append(
        f"database: {results.database}; preset {options.preset}, {options.seats} seats a table; "
        f"human pace {options.pace[0]:g}-{options.pace[1]:g} s a decision, showdown "
        f"{options.human_showdown:g} s; full speed showdown {options.fast_showdown:g} s; "
        f"windows {options.step_seconds:g} s (full speed {options.fast_seconds:g} s); "
        f"clients offer deflate: {options.compression}; the server compresses "
        f"(THIRTEEN_WS_COMPRESSION): {server_compresses()}; "
        f"server processes: {options.processes}; "
        f"open-file limit {results.fd_limit}"
    )
    notes.append(
        "latency: an action's send to the last of its table's sockets receiving that state's "
        "frame, measured here (one clock); server histogram: arrival to the last frame queued, "
        "interpolated within its buckets"
    )
    if options.processes > 1:
        notes.append(
            f"{options.processes} processes on one PostgreSQL and one Redis: tables opened "
            "through each in turn (the opener runs a table), the k-th socket on the process k "
            "on from its table's (every N-th on its table's own) and every other request on the "
            "next in turn, as behind a round-robin proxy; a socket on a process other than its "
            "table's is relayed over Redis. Server CPU and RSS are summed over the processes; a "
            "process's tables are those whose lease it held at the window's end"
        )
    if results.steps:
        notes.append(
            "seconds to seat each step's new tables: "
            + ", ".join(f"{s.tables} tables {s.seating_seconds:.0f} s" for s in results.steps)
        )
    if results.retried:
        notes.append(
            f"setup requests tried again (the room failed them, dropped them or was too busy to "
            f"answer in time): {sum(results.retried.values())} ("
            + ", ".join(f"{why}: {n}" for why, n in sorted(results.retried.items()))
            + ")"
        )
    if results.reconnects:
        notes.append(
            f"sockets closed with 1012/1013 (their table moved to another process) and opened "
            f"again, resending what was unanswered: {results.reconnects}; the frames they missed "
            "came in the snapshot, so those actions have no latency sample"
        )
    if results.failure:
        notes.append(results.failure)
    if knee is None and results.steps:
        notes.append(f"knee: none up to {results.steps[-1].tables} tables")
    if errors:
        notes.append("refused actions: " + ", ".join(f"{k} {v}" for k, v in sorted(errors.items())))
    return report


def bench_room(options: RoomOptions | None = None, progress: Progress | None = None) -> Report:
    """Run the room benchmark (options from the environment when not given)."""
    chosen = options_from_env() if options is None else options
    results = asyncio.run(run(chosen, progress or (lambda _: None)))
    return report_of(chosen, results)


__all__ = [
    "QUICK",
    "RoomOptions",
    "bench_room",
    "bucket_quantile",
    "knee_of",
    "options_from_env",
    "options_with",
    "parse_metrics",
    "percentile",
]
