"""A long fuzzing run against a room of its own: the protocol state machine of the test suite
(tests/server/protocol_machine.py) until it has sent ``--messages`` protocol messages (not
counting the pings of its deliberate floods), from ``--workers`` processes at once, then
schemathesis over every operation of /openapi.json with ``--api-examples`` examples per
operation and mode (tests/server/api_fuzz.py).

The room is served in this process on a loopback port, on SQLite (a temporary file) or on a
throwaway PostgreSQL cluster (``--database postgresql``; needs PostgreSQL's binaries). Every
failure is printed with the steps that led to it and counted; the run goes on after one.

Usage:
    PYTHONPATH=src python scripts/fuzz_room.py [--messages 100000] [--api-examples 300]
        [--workers 3] [--database sqlite|postgresql] [--audit-every 20] [--wait 0.5]
        [--minutes 0]

``--minutes`` bounds the state machine's part on a busy machine: the workers stop starting
batches then, and the run reports what they sent, fuzzes the API and audits as usual.

A recorded run (2 cores, SQLite, 4 workers, 2026-11-23; flood pings were still counted toward
the target then): 101,940 messages sent (70,852 of them flood pings, 31,088 others), 96,888
frames read, 1,156 examples (tables), 7,656 acks, 2,268 resent ids, 5,865 reconnects, 5,527
ledger audits, 36,448 frames through the leak oracle, 0 failures, 39 min; schemathesis 6,621
examples over 29 operation runs, 0 failures, no 5xx; final audit clean. The run before it
found the action type that killed a socket's handler (``{"type": []}``).

Runs of 2026-11-25 (6 workers, ``--wait 0.2``, the two cores shared with other measurements):
about 109,000 messages (flood pings included; stopped after 53 min) found a client-side race —
a request sent on a pooled HTTP connection as the room closed it, both at 5 s of idleness
(``thirteen.client.KEEPALIVE_EXPIRY`` is now 2 s); then 47,765 messages (14,439 not in floods)
and 583 examples in 79 min found twice the same gap in the machine's oracle (``not_in_hand``, a
seat sat out after a timeout and dealt out of the next hand, is a timing refusal). The room
answered every message with a frame or a sentence; no 5xx.

The run of 2026-11-26 (HEAD 41c45a0, 6 workers, ``--wait 0.2 --audit-every 1000 --api-examples
50``, the two cores shared with OFC duels at a lower priority for most of it): **100,523
messages not in floods** (354,377 in all, 253,854 flood pings), 345,431 frames read, 3,934
examples (tables), 25,614 acks, 112,777 frames through the leak oracle, a ledger audit at the end
of every example (3,934; the counter did not count those then), 2 failures, 92 min;
schemathesis 3,592 examples over 85 runs, 0 failures, no 5xx; final audit clean. Both failures
were one bug of the room's, fixed in 4d225da: a table opened while the lease renewal was reading
the leases was stopped as "lost" (the reading predated its lease), so the first socket to it was
refused with "moving" until the room's next look took it back. An audit every 20 steps (the
default) reads the whole ledger each time: as the database grows it comes to cost the workers
more than the fuzzing — a first attempt that day made 31,462 messages outside floods in 35 min,
slowing from 1,350 to 510 a minute, and was stopped; with an audit only at each example's end
the rate held at 900–1,500 a minute.

Again after the fix (HEAD 29d87c0, the same settings plus ``--minutes 90``, the cores shared
with OFC duels for the last third): **0 failures** — 90,042 messages not in floods (306,829 in
all, 216,787 flood pings), 302,636 frames read, 3,407 examples, 22,998 acks, 6,908 resent ids,
16,171 reconnects, 100,068 frames through the leak oracle, a ledger audit at each example's end
(3,407), stopped by ``--minutes`` at 91 min (the rate fell from about 1,250 to 770 a minute as
the database grew and the duels took their share); schemathesis 3,592 examples over 85 runs, 0
failures, no 5xx (200: 236, 201: 45, 202: 1, 204: 2, 400: 104, 401: 1,210, 403: 318, 404: 743,
409: 5, 422: 928); final audit clean.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "server"))

from hypothesis import HealthCheck, Phase, settings  # noqa: E402
from hypothesis.stateful import run_state_machine_as_test  # noqa: E402

from thirteen.client import RoomClient  # noqa: E402

BOSS = ("boss", "the chief's password")
BATCH = 10
"""Examples per Hypothesis run; a worker runs batches until it has sent its share."""
STEPS = 100


def machine_worker(job: dict[str, Any]) -> dict[str, Any]:
    """One process: batches of the state machine until ``job["messages"]`` are sent."""
    from protocol_machine import ProtocolMachine, Shared

    counts: Counter[str] = Counter()
    failures: list[str] = []
    examples = 0
    with RoomClient(job["url"]) as boss:
        boss.log_in(*BOSS)
        shared = Shared(job["url"], job["database_url"], boss)

        class Machine(ProtocolMachine):
            audit_every = job["audit_every"]
            wait_seconds = job["wait"]

        Machine.shared = shared
        try:
            while (
                shared.counts["messages"] - shared.counts["flood messages"] < job["messages"]
                and time.time() < job["until"]
            ):
                before = shared.counts["tables"]
                try:
                    run_state_machine_as_test(
                        Machine,
                        settings=settings(
                            max_examples=BATCH,
                            stateful_step_count=STEPS,
                            database=None,
                            deadline=None,
                            suppress_health_check=list(HealthCheck),
                            # no shrinking: against a live room it takes longer than the run
                            phases=[Phase.explicit, Phase.generate],
                        ),
                    )
                except Exception:
                    failures.append(traceback.format_exc())
                    print(failures[-1], file=sys.stderr, flush=True)
                examples += shared.counts["tables"] - before
                print(
                    f"worker {job['worker']}: {shared.counts['messages']:,} messages "
                    f"({shared.counts['flood messages']:,} in floods), "
                    f"{examples} examples, {len(failures)} failures",
                    file=sys.stderr,
                    flush=True,
                )
        finally:
            shared.close()
        counts.update(shared.counts)
    return {"counts": counts, "failures": failures, "examples": examples}


def machine_summary(
    counts: Counter[str], examples: int, failures: list[str], seconds: float
) -> str:
    return (
        f"protocol machine: {counts['messages']:,} messages sent "
        f"({counts['flood messages']:,} of them in floods), {counts['frames']:,} frames "
        f"read, {examples:,} examples (tables), {counts['acks']:,} acks, "
        f"{counts['audits']:,} ledger audits, {counts['frames checked for leaks']:,} frames "
        f"through the leak oracle, {len(failures)} failures, {seconds:.0f} s\n  "
        + ", ".join(f"{k}: {v:,}" for k, v in sorted(counts.items()))
    )


def serve(database: str, root: Path) -> tuple[Any, str, Any]:
    """Start the room; (context manager to leave, its URL, the PostgreSQL cluster or None)."""
    from services import Postgres, serve_in_thread

    from thirteen.server.http.app import create_app
    from thirteen.server.settings import load_settings

    cluster = None
    if database == "postgresql":
        cluster = Postgres()
        database_url = cluster.new_database()
    else:
        database_url = f"sqlite+aiosqlite:///{root / 'room.db'}"
    room_settings = load_settings(
        database_url=database_url,
        data_dir=root,
        argon2_memory_kib=8192,
        argon2_time_cost=1,
        default_tables=False,
        bot_delay=0,
        bot_budget=0.02,
        admins=BOSS[0],
        log_level="error",
        rate_limits=False,  # the fuzzer opens accounts and sockets far faster than people
    )
    context = serve_in_thread(create_app(room_settings))
    return context, database_url, cluster


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--api-examples", type=int, default=300)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--audit-every", type=int, default=20)
    parser.add_argument("--wait", type=float, default=0.5, help="seconds a wait step may take")
    parser.add_argument(
        "--minutes",
        type=float,
        default=0.0,
        help="stop the state machine after this long even if short of --messages (0: never); "
        "the API fuzz and the final audit still run",
    )
    args = parser.parse_args()
    # SIGTERM unwinds like Ctrl-C: the pool's context terminates its workers, which would
    # otherwise outlive this process and keep fuzzing a room that is gone
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))

    from api_fuzz import ApiReport, Identity, fuzz_api
    from test_play import run_audit

    started = time.monotonic()
    started_wall = time.time()
    with tempfile.TemporaryDirectory(prefix="thirteen-fuzz-") as tmp:
        context, database_url, cluster = serve(args.database, Path(tmp))
        try:
            with context as url:
                with RoomClient(url) as boss:
                    boss.sign_up(*BOSS)
                per_worker = -(-args.messages // max(1, args.workers))
                jobs = [
                    {
                        "url": url,
                        "database_url": database_url,
                        "messages": per_worker,
                        "audit_every": args.audit_every,
                        "wait": args.wait,
                        "worker": n,
                        "until": started_wall + 60 * args.minutes if args.minutes else math.inf,
                    }
                    for n in range(max(1, args.workers))
                ]
                spawn = multiprocessing.get_context("spawn")
                with spawn.Pool(len(jobs)) as pool:
                    results = pool.map(machine_worker, jobs)
                counts: Counter[str] = Counter()
                failures: list[str] = []
                examples = 0
                for result in results:
                    counts.update(result["counts"])
                    failures += result["failures"]
                    examples += result["examples"]
                machine_seconds = time.monotonic() - started
                print(machine_summary(counts, examples, failures, machine_seconds), flush=True)

                api = ApiReport()
                with RoomClient(url) as boss, RoomClient(url) as ann:
                    boss.log_in(*BOSS)
                    ann.sign_up("ann", "password of A-N-N")
                    table = boss.create_table("ofc", bots=1, bot_level="random")
                    identities = {
                        "player": Identity(ann, "password of A-N-N"),
                        "admin": Identity(boss, BOSS[1]),
                    }
                    fuzz_api(
                        url,
                        identities,
                        examples=args.api_examples,
                        pinned={"table_id": {"table_id": table["id"]}},
                        report=api,
                        stop_on_failure=False,
                    )
            from thirteen.server.settings import load_settings

            problems = run_audit(load_settings(database_url=database_url, data_dir=Path(tmp)))
        finally:
            if cluster is not None:
                cluster.stop()

    seconds = time.monotonic() - started
    print(f"database: {args.database}; workers: {args.workers}; {seconds:.0f} s in all")
    statuses = ", ".join(f"{k}: {v:,}" for k, v in sorted(api.statuses.items()))
    print(
        f"schemathesis: {api.total:,} examples over {len(api.examples)} runs, "
        f"{len(api.failures)} failures; statuses {statuses}"
    )
    for failure in api.failures:
        print(f"  {failure}")
    print(f"final audit: {problems or 'clean'}")
    return 1 if failures or api.failures or problems else 0


if __name__ == "__main__":
    sys.exit(main())
