"""How soon a dead process's tables run again on another (two processes, PostgreSQL and Redis),
against the bounds `docs/deploy.md` states:

- killed (its connection to Redis closes): gone from the bus for ``GONE_SECONDS``, noticed
  within ``WATCH_SECONDS`` more, its tables taken at once — whatever its lease;
- paused, its connection left open (as a lost machine's): its lease decides — never before it
  runs out (at least two thirds of a lease after its last beat), and at most a lease and one
  look (``THIRTEEN_DISCOVER_SECONDS``) after.

Time runs from the signal to the table's first frame on a socket through the survivor (the
room holds the handshake while the table is between processes)."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from services import (
    Postgres,
    RedisServer,
    Served,
    assert_audit_clean,
    lease_holder,
    room_process,
)

from thirteen.client import RoomClient, TableConnection
from thirteen.server.tables.bus import GONE_SECONDS, WATCH_SECONDS


@contextmanager
def two_processes(
    postgres: Postgres, redis: RedisServer, folder: Path, lease: float, discover: float
) -> Iterator[tuple[str, Served, Served, int, TableConnection]]:
    """p1 and p2; a table of bots that p1 runs, its showdown on show (nothing being written),
    and a spectator's socket at it through p2."""
    url = postgres.new_database()
    with ExitStack() as stack:
        p1, p2 = (
            stack.enter_context(
                room_process(
                    url,
                    folder,
                    process_name=name,
                    redis_url=redis.url,
                    lease_seconds=str(lease),
                    discover_seconds=str(discover),
                )
            )
            for name in ("p1", "p2")
        )
        boss = stack.enter_context(RoomClient(p1.url))
        boss.sign_up("boss", "the chief's password")
        table_id = boss.create_table(
            "chinese-1-6", bots=2, bot_level="heuristic", rules={"showdown_seconds": 600}
        )["id"]
        assert lease_holder(url, table_id) == "p1"
        watcher = stack.enter_context(RoomClient(p2.url))
        watch = watcher.open_table(table_id, watch_only=True)
        stack.callback(watch.close)
        if watch.view["phase"] != "showdown":
            watch.wait(lambda f: (f.get("view") or {}).get("phase") == "showdown")
        yield url, p1, p2, table_id, watch


def answers_again(
    watch: TableConnection, since: float, deadline: float, closed: int = 1012
) -> float:
    """Seconds from ``since`` until the table answers through the spectator's process: its
    socket is closed (``closed``: the table moved) and, reconnected, gets the table's snapshot."""
    while watch.receive(timeout=max(0.1, deadline - time.monotonic())) is not None:
        assert time.monotonic() < deadline, "the spectator's socket was not closed"
    assert watch.closed is not None
    assert watch.closed[0] == closed, watch.closed
    watch.connect()
    return time.monotonic() - since


def test_a_killed_process_tables_are_taken_as_soon_as_it_is_gone_from_the_bus(
    postgres: Postgres, redis_server: RedisServer, tmp_path: Path
) -> None:
    lease = 60.0  # neither its lease nor a regular look (every minute) can move the table
    with two_processes(postgres, redis_server, tmp_path, lease, 60.0) as (url, p1, _, tid, watch):
        killed = time.monotonic()
        p1.kill()
        took = answers_again(watch, killed, killed + 30)
        print(f"\nthe table answered on p2 {took:.2f} s after kill -9 (lease {lease:g} s)")
        assert lease_holder(url, tid) == "p2"
        # p1 is gone from the bus once missing for GONE_SECONDS: not sooner, and long before
        # its lease could have run out (two thirds of a lease after its last beat at least)
        assert took >= GONE_SECONDS
        assert took < 2 * lease / 3
        # the bound itself: GONE_SECONDS + WATCH_SECONDS to notice (1.25 s), then one look and
        # the table's rebuild (a fraction of a second); slack for a slow, shared machine
        assert took < GONE_SECONDS + WATCH_SECONDS + 5
    assert_audit_clean(url)


def test_a_stopped_process_tables_are_taken_as_soon_as_it_leaves_the_bus(
    postgres: Postgres, redis_server: RedisServer, tmp_path: Path
) -> None:
    """A clean stop (SIGTERM) gives its leases back before it leaves the bus: the others take
    its tables at the look they make when it leaves, not at their next regular one."""
    with two_processes(postgres, redis_server, tmp_path, 60.0, 60.0) as (url, p1, _, tid, watch):
        stopped = time.monotonic()
        p1.process.send_signal(signal.SIGTERM)
        took = answers_again(watch, stopped, stopped + 30, closed=1001)  # "restarting"
        print(f"\nthe table answered on p2 {took:.2f} s after p1 was told to stop")
        assert lease_holder(url, tid) == "p2"
        assert took < WATCH_SECONDS + 5  # a look within WATCH_SECONDS of its leaving; slack
    assert_audit_clean(url)


def test_a_paused_process_keeps_its_tables_until_its_lease_runs_out(
    postgres: Postgres, redis_server: RedisServer, tmp_path: Path
) -> None:
    lease, look = 3.0, 0.2
    with two_processes(postgres, redis_server, tmp_path, lease, look) as (url, p1, _, tid, watch):
        paused = time.monotonic()
        p1.process.send_signal(signal.SIGSTOP)  # still on the bus: only the lease can tell
        try:
            took = answers_again(watch, paused, paused + 30)
        finally:
            p1.process.send_signal(signal.SIGCONT)
        print(f"\nthe table answered on p2 {took:.2f} s after p1 paused (lease {lease:g} s)")
        assert lease_holder(url, tid) == "p2"
        # not before its lease ran out (it beats every third of a lease: its last beat was
        # at most a third before the pause, give or take the beat's own time) ...
        assert took >= lease / 2
        # ... and within a lease and a look of it, then the rebuild (slack as above)
        assert took < lease + look + 5
        # back from its pause, p1 finds at its next renewal that the lease is taken, and stops
        # the table (its writes would be refused: the audit below is clean)
        assert p1.wait_log("lease lost", 30), "".join(p1.log[-20:])
    assert_audit_clean(url)
