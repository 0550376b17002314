"""The room benchmark's options: how big and how long a run is (:class:`RoomOptions`), the
smoke run (:data:`QUICK`), and the words of the command line and the ``THIRTEEN_BENCH_*``
variables that set them (:func:`options_with`, :func:`options_from_env`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any


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
    soak_minutes: float = 0.0
    """After the last step, that step's tables keep playing this long, measured a minute at a
    time (the server's RSS, latency and collector pauses each minute): does memory stay flat?"""
    soak_window: float = 60.0
    """Seconds each of the soak's measurements lasts."""
    engine_hands: int = 2000
    """Hands of ``simulate`` timed before and after the run: the machine's speed now. About a
    second each way: a 300-hand reading (0.15–0.25 s) varied by a quarter from one reading to
    the next here (the speed dips for a fraction of a second now and then), and the ratio, a
    division by it, was as noisy (issue 33)."""
    pin: bool = False
    """The room (its processes and database) on one core, the load generator on the others
    (``os.sched_setaffinity``), so that the room's figures are not the generator's: on a
    2-core machine the two otherwise take turns on both."""


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
    engine_hands=20,
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


ENV_OPTIONS: dict[str, tuple[str, Callable[[str], Any]]] = {
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
    "THIRTEEN_BENCH_PIN": ("pin", lambda v: v not in ("", "0", "false")),
    "THIRTEEN_BENCH_SOAK": ("soak_minutes", float),
}
"""Environment variables for ``benchmarks/run.py`` (``THIRTEEN_BENCH_QUICK=1`` starts from
:data:`QUICK`). The database is ``THIRTEEN_BENCH_DATABASE_URL``, not the room's own
``THIRTEEN_DATABASE_URL``: a benchmark must never write into an operator's room by accident."""


def options_from_env(environ: dict[str, str] | None = None) -> RoomOptions:
    env = os.environ if environ is None else environ
    base = QUICK if env.get("THIRTEEN_BENCH_QUICK", "") not in ("", "0", "false") else RoomOptions()
    given = {name: kind(env[var]) for var, (name, kind) in ENV_OPTIONS.items() if env.get(var)}
    return options_with(base, **given)


__all__ = [
    "ENV_OPTIONS",
    "QUICK",
    "RoomOptions",
    "database_kind",
    "options_from_env",
    "options_with",
    "parse_numbers",
]
