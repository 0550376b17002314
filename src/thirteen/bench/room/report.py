"""The room benchmark's report: what a run found (:class:`Results`) as the one report format
of every benchmark (:class:`thirteen.bench.report.Report`) — rows for the idle sockets, each
full-speed run and each human-paced step (and each process of several), the ratios to the
goals, and notes on the machine, the run's settings and whatever went wrong."""

from __future__ import annotations

import os
import platform
from collections import Counter
from dataclasses import dataclass, field

from thirteen.bench.report import Report
from thirteen.bench.room.figures import Measured, knee_of
from thirteen.bench.room.meter import SETTLE
from thirteen.bench.room.options import RoomOptions
from thirteen.bench.room.servers import server_compresses

GOAL_P99_MS = 50.0
GOAL_HANDS = 300.0
GOAL_KIB = 100.0
GOAL_ENGINE_RATIO = 6.0
"""A hand's server CPU at full speed at most this many times a hand of ``simulate``."""


@dataclass
class Results:
    """What a run found, for :func:`report_of`: each idle-socket measurement as (deflate
    offered, KiB per socket, RSS before in KiB), the full-speed runs, the human-paced steps, and
    the machine's state around them."""

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
    pinned: str = ""
    """Which cores the room and the generator had (``--pin``); empty: they shared them all."""
    soak: list[Measured] = field(default_factory=list)
    """The soak's windows (``soak_minutes``), in order."""
    engine_ms: tuple[float, float] = (0.0, 0.0)
    """A hand of ``thirteen simulate --rules chinese-1-6 --players 3`` in CPU ms, measured
    before the run and after it (:func:`~thirteen.bench.room.machine.engine_hand_ms`)."""


def process_rows(at: str, measured: Measured) -> list[tuple[str, float, str]]:
    """A window's CPU per hand and the collector's pauses; PostgreSQL's and Redis's CPU when
    the run started them; the relayed sockets and each process's figures when there are
    several."""
    rows: list[tuple[str, float, str]] = [
        (f"{at}: collector pauses", measured.gc_pauses / measured.seconds, "/s"),
        (f"{at}: collector pauses over 25 ms", measured.gc_long_pauses, "pauses"),
        (f"{at}: time paused for the collector", 100 * measured.gc_seconds / measured.seconds, "%"),
    ]
    if measured.commits > 0:  # how much the group writer groups
        rows.append((f"{at}: pieces a commit", measured.pieces / measured.commits, "pieces"))
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


def soak_rows(windows: list[Measured]) -> list[tuple[str, float, str]]:
    """Each soak window's RSS, p99 and long collector pauses, and how RSS moved over the soak:
    from the first window to the last, and its least-squares slope an hour (after the first
    window, which still holds the step's warm-up)."""
    if not windows:
        return []
    rows: list[tuple[str, float, str]] = []
    at, elapsed = [], 0.0
    for n, w in enumerate(windows, 1):
        elapsed += w.seconds
        at.append(elapsed)
        on = f"soak, {w.tables} tables, window {n}"
        rows += [
            (f"{on}: server RSS", w.server_rss_kib / 1024, "MiB"),
            (f"{on}: p99", w.latency(0.99), "ms"),
            (f"{on}: hands/s", w.hands / w.seconds, "hands/s"),
            (f"{on}: collector pauses over 25 ms", w.gc_long_pauses, "pauses"),
        ]
    rss = [w.server_rss_kib / 1024 for w in windows]
    rows.append(("soak: server RSS, last window less first", rss[-1] - rss[0], "MiB"))
    xs, ys = at[1:], rss[1:]
    if len(xs) >= 2:
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
            (x - mx) ** 2 for x in xs
        )
        rows.append(("soak: server RSS trend", 3600 * slope, "MiB/hour"))
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
            (f"{at}: server loop lag p99 (histogram)", fast.server_lag_p99, "ms"),
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
            (f"{at}: server loop lag p99 (histogram)", step.server_lag_p99, "ms"),
            (f"{at}: server CPU", 100 * step.server_cpu, "% of a core"),
            (f"{at}: generator CPU", 100 * step.generator_cpu, "% of a core"),
            (f"{at}: generator loop lag p99", step.lag_p99, "ms"),
            (f"{at}: generator's collection before the window", step.generator_collect, "ms"),
            (f"{at}: server RSS", step.server_rss_kib / 1024, "MiB"),
        ]
        rows += process_rows(at, step)
    rows += soak_rows(results.soak)
    knee = knee_of([(s.tables, s.latency(0.99)) for s in results.steps])
    if knee is not None:
        rows.append(("knee: first step with p99 ≥ 2× the lowest before", float(knee), "tables"))
    if results.idle:
        report.ratios["goal 100 KiB ÷ KiB per idle socket"] = GOAL_KIB / max(
            results.idle[0][1], 1e-9
        )
    if best is not None:
        report.ratios["full-speed hands/s ÷ goal 300"] = best.hands / best.seconds / GOAL_HANDS
    engine = sum(results.engine_ms) / 2
    if engine > 0:
        rows.append(("simulate, chinese-1-6, 3 players: CPU a hand (before, after)", engine, "ms"))
        cheapest = min(
            (1000 * m.server_cpu * m.seconds / m.hands for m in results.fast if m.hands),
            default=None,
        )
        if cheapest is not None:
            times = cheapest / engine
            rows.append(("full speed: server CPU per hand ÷ simulate's hand", times, "×"))
            goal = f"goal {GOAL_ENGINE_RATIO:g}× ÷ server CPU per hand in simulate's hands"
            report.ratios[goal] = GOAL_ENGINE_RATIO / times
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
        f"{platform.python_version()}, {platform.system()} {platform.release()}; "
        + (
            results.pinned
            if results.pinned
            else "the server and this load generator share those cores"
        )
        + " (and other jobs may run on them)"
    )
    notes.append(
        "load average before {:.2f} {:.2f} {:.2f}, after {:.2f} {:.2f} {:.2f}".format(
            *results.load_before, *results.load_after
        )
    )
    if results.engine_ms[0] > 0:
        notes.append(
            "simulate's hand (chinese-1-6, 3 random players, the engine alone, {:,} hands{}): "
            "{:.3f} ms of CPU before the run, {:.3f} ms after".format(
                options.engine_hands,
                ", on the room's core" if results.pinned else "",
                *results.engine_ms,
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
        "latency: an action's send (in the window) to the last of its table's sockets "
        "receiving that state's frame, measured here (one clock); server histogram: arrival "
        "to the last frame queued, interpolated within its buckets; this generator runs on "
        "uvloop, its collector off while it measures (it collects first, then waits "
        f"{SETTLE:g} s for what fell due meanwhile before the window opens)"
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


__all__ = [
    "GOAL_ENGINE_RATIO",
    "GOAL_HANDS",
    "GOAL_KIB",
    "GOAL_P99_MS",
    "Results",
    "process_rows",
    "report_of",
    "soak_rows",
]
