"""The room benchmark: its quick mode end to end against a real server process, and the
arithmetic behind its figures. Sane values only — speed goals are the benchmark's to report."""

from __future__ import annotations

import asyncio
import gc
import math
import os
import subprocess
import sys
import warnings
from dataclasses import replace

import pytest
from services import missing

from thirteen.bench.room.client import bounded
from thirteen.bench.room.figures import bucket_quantile, knee_of, parse_metrics, percentile
from thirteen.bench.room.load import bench_room
from thirteen.bench.room.machine import engine_hand_ms, pin, pinning
from thirteen.bench.room.meter import collector_held
from thirteen.bench.room.options import QUICK, RoomOptions, options_from_env, options_with
from thirteen.bench.room.report import Results, report_of
from thirteen.bench.room.servers import server_compresses
from thirteen.bench.services import ServiceMissingError


def test_the_quick_run_reports_every_figure() -> None:
    everywhere = os.sched_getaffinity(0)
    pinned = len(everywhere) >= 2  # --pin: the room on a core, the generator apart
    soak = replace(QUICK, pin=pinned, soak_minutes=3 / 60, soak_window=1.0)  # 3 windows of 1 s
    report = bench_room(soak)
    assert os.sched_getaffinity(0) == everywhere  # the run gave this thread its cores back
    rows = {what: value for what, value, _ in report.rows}
    assert report.suite == "room"
    (fast,) = QUICK.fast_tables
    full = f"full speed, {fast} tables"
    assert rows[f"{full}: sockets"] == fast * QUICK.seats
    assert rows[f"{full}: hands/s"] == rows["full speed: most hands/s"] > 0
    assert rows[f"{full}: actions/s"] > 0
    assert rows[f"{full}: journaled actions/s"] >= rows[f"{full}: actions/s"]
    # every hand sends each seat several frames that each hold the whole table's view
    assert rows[f"{full}: loopback bytes per hand"] > 1000 * QUICK.seats
    for step in QUICK.steps:
        at = f"human pace, {step} tables"
        assert rows[f"{at}: sockets"] == step * QUICK.seats
        assert rows[f"{at}: actions/s"] > 0
        assert rows[f"{at}: generator's collection before the window"] > 0
    for at in [full, *(f"human pace, {step} tables" for step in QUICK.steps)]:
        p50, p95, p99 = (rows[f"{at}: {q}"] for q in ("p50", "p95", "p99"))
        assert 0 < p50 <= p95 <= p99, at
        assert rows[f"{at}: server p99 (histogram)"] > 0
        assert rows[f"{at}: server loop lag p99 (histogram)"] >= 0, at  # NaN: none observed
    assert rows["idle sockets"] == QUICK.idle_sockets
    assert math.isfinite(rows["idle socket, deflate offered: server memory"])
    assert rows["idle socket, deflate offered: server RSS before"] > 10  # MiB: a real process
    assert set(report.ratios) == {
        "goal 100 KiB ÷ KiB per idle socket",
        "full-speed hands/s ÷ goal 300",
        f"goal 50 ms ÷ p99 at {QUICK.steps[-1]} tables",
        "goal 6× ÷ server CPU per hand in simulate's hands",
    }
    # the yardstick: a hand of the engine alone, and the room's full-speed hand against it
    engine = rows["simulate, chinese-1-6, 3 players: CPU a hand (before, after)"]
    assert engine > 0
    times = rows["full speed: server CPU per hand ÷ simulate's hand"]
    assert times == pytest.approx(rows[f"{full}: server CPU per hand"] / engine)
    assert any(note.startswith("simulate's hand (chinese-1-6") for note in report.notes)
    # the collector's pauses in every window (start-up's collection is in none of them), and
    # the soak: the last step's tables measured window after window, with memory's trend
    assert rows[f"{full}: collector pauses"] >= 0
    assert 0 <= rows[f"{full}: time paused for the collector"] < 100
    last = QUICK.steps[-1]
    for n in (1, 2, 3):
        on = f"soak, {last} tables, window {n}"
        assert rows[f"{on}: server RSS"] > 10, on  # MiB: a real process
        assert rows[f"{on}: hands/s"] >= 0, on
    assert f"soak, {last} tables, window 4: server RSS" not in rows
    first, final = (rows[f"soak, {last} tables, window {n}: server RSS"] for n in (1, 3))
    assert rows["soak: server RSS, last window less first"] == pytest.approx(final - first)
    assert math.isfinite(rows["soak: server RSS trend"])
    (machine,) = [note for note in report.notes if note.startswith("machine:")]
    assert ("pinned: the room" in machine) == pinned, machine
    assert not any(note.startswith("refused actions") for note in report.notes), report.notes


def test_pinning_keeps_a_process_and_its_children_on_their_cores() -> None:
    cores = pinning()
    assert cores.room.isdisjoint(cores.generator)
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    try:
        pin(child.pid, cores.room)
        assert os.sched_getaffinity(child.pid) == cores.room
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(30)
    assert "load generator on core" in cores.describe()


def test_the_yardstick_is_timed_on_the_room_s_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """Simulate's hand divides the room's CPU a hand: with ``--pin`` it is timed on the room's
    core, and the thread goes back to the generator's."""
    from thirteen.bench.room import load

    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("pinning needs two cores")
    cores = pinning()
    timed_on: list[set[int]] = []

    def probe(hands: int) -> float:
        timed_on.append(os.sched_getaffinity(0))
        return engine_hand_ms(hands)

    monkeypatch.setattr(load, "engine_hand_ms", probe)
    everywhere = os.sched_getaffinity(0)
    pin(0, cores.generator)
    try:
        ms = load._yardstick(replace(QUICK, pin=True), cores)
        assert os.sched_getaffinity(0) == cores.generator
        assert load._yardstick(QUICK, None) > 0  # not pinned: where the thread is
    finally:
        pin(0, frozenset(everywhere))
    assert ms > 0
    assert timed_on == [set(cores.room), set(cores.generator)]


def test_the_generator_s_collector_is_off_while_it_measures() -> None:
    """The generator measures latencies on its own loop: its collector neither runs in a
    window (it is off) nor leaves the window's garbage behind (it is back on after)."""

    def cycle() -> None:
        a: list[object] = []
        a.append(a)

    assert gc.isenabled()
    collections: list[int] = []

    def counting(phase: str, info: dict[str, int]) -> None:
        collections.append(info["generation"])

    gc.callbacks.append(counting)
    try:
        with collector_held():
            assert not gc.isenabled()
            collections.clear()  # the one before the window is the window's own
            for _ in range(10 * gc.get_threshold()[0]):  # ten times what starts a collection
                cycle()
            assert collections == []
        assert gc.isenabled()
        gc.disable()
        try:  # a collector off before stays off
            with collector_held():
                pass
            assert not gc.isenabled()
        finally:
            gc.enable()
    finally:
        gc.callbacks.remove(counting)


def test_one_failed_job_stops_the_others() -> None:
    """``bounded``: one job's error goes on to the caller, and the others are stopped first.
    Those running are cancelled, those waiting never start, and none is left to fail later
    with nobody to hear it (a 1,000-table run's seating once ended with three tracebacks from
    its shutdown)."""
    started: list[int] = []
    cancelled: list[int] = []

    async def job(i: int) -> int:
        started.append(i)
        if i == 0:
            raise RuntimeError("could not sit")
        try:
            await asyncio.Event().wait()  # until stopped
        except asyncio.CancelledError:
            cancelled.append(i)
            raise
        return i

    async def run() -> None:
        with pytest.raises(RuntimeError, match="could not sit"):
            await bounded(2, (job(i) for i in range(6)))
        assert asyncio.all_tasks() == {asyncio.current_task()}

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        asyncio.run(run())
        gc.collect()  # a job never started would warn here that it was never awaited
    assert caught == []
    assert 0 in started
    assert len(started) < 6
    assert sorted(cancelled) == sorted(set(started) - {0})


def test_two_processes_share_the_tables_and_relay_sockets() -> None:
    """Two ``thirteen serve`` processes on a throwaway PostgreSQL and Redis: each runs its
    share of the tables and settles hands, and players reach both, so some sockets are relayed."""
    options = replace(QUICK, processes=2, steps=(2,), fast_tables=(2,), idle_sockets=20, seats=3)
    try:
        report = bench_room(options)
    except ServiceMissingError as e:
        missing(e.what)
        return
    rows = {what: value for what, value, _ in report.rows}
    assert rows["server processes"] == 2
    for at in ("full speed, 2 tables", "human pace, 2 tables"):
        assert rows[f"{at}: sockets"] == 6
        assert rows[f"{at}: hands/s"] > 0
        assert 0 < rows[f"{at}: p50"] <= rows[f"{at}: p99"], at
        # the k-th socket goes k processes on from its table's: every other one is relayed
        # (50 %, unless a table changed process during the run)
        assert 0 < rows[f"{at}: relayed sockets"] < 100, at
        assert rows[f"{at}: PostgreSQL and Redis CPU"] >= 0
        assert rows[f"{at}: server CPU per hand"] > 0
        for n in (0, 1):
            on = f"{at}, process {n}"
            assert rows[f"{on}: sockets"] > 0, on
            assert rows[f"{on}: hands/s"] > 0, on
            assert rows[f"{on}: RSS"] > 10, on  # MiB: a real process
        assert sum(rows[f"{at}, process {n}: sockets"] for n in (0, 1)) == 6
        assert sum(rows[f"{at}, process {n}: tables"] for n in (0, 1)) == 2
        cpu = sum(rows[f"{at}, process {n}: CPU"] for n in (0, 1))
        assert rows[f"{at}: server CPU"] == pytest.approx(cpu)
    assert math.isfinite(rows["idle socket, deflate offered: server memory"])
    assert any(note.startswith("2 processes on one PostgreSQL") for note in report.notes)
    assert not any(note.startswith("refused actions") for note in report.notes), report.notes


def test_several_processes_need_postgresql() -> None:
    with pytest.raises(ValueError, match="PostgreSQL"):
        options_with(RoomOptions(), processes=2, database="sqlite")
    with pytest.raises(ValueError, match="PostgreSQL"):
        options_with(RoomOptions(), processes=3, database_url="sqlite+aiosqlite:///x.db")
    assert options_with(RoomOptions(), processes=2).processes == 2
    assert options_from_env({"THIRTEEN_BENCH_PROCESSES": "3"}).processes == 3
    assert options_from_env({"THIRTEEN_BENCH_REDIS_URL": "redis://r/1"}).redis_url == "redis://r/1"


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50
    assert percentile(values, 0.99) == 99
    assert percentile(values, 1.0) == 100
    assert percentile([7.0], 0.5) == 7
    assert math.isnan(percentile([], 0.5))


def test_histogram_quantiles_interpolate_within_a_bucket() -> None:
    text = "\n".join(
        [
            "# HELP thirteen_action_seconds x",
            'thirteen_action_seconds_bucket{le="0.001"} 0.0',
            'thirteen_action_seconds_bucket{le="0.01"} 50.0',
            'thirteen_action_seconds_bucket{le="0.1"} 100.0',
            'thirteen_action_seconds_bucket{le="+Inf"} 100.0',
            "thirteen_action_seconds_count 100.0",
        ]
    )
    metrics = parse_metrics(text)
    assert metrics["thirteen_action_seconds_count"] == 100
    buckets = sorted((float(k.split('"')[1]), v) for k, v in metrics.items() if k.endswith('"}'))
    assert bucket_quantile(buckets, 0.5) == pytest.approx(0.01)
    assert bucket_quantile(buckets, 0.25) == pytest.approx(0.0055)
    assert bucket_quantile(buckets, 0.99) == pytest.approx(0.0982)
    assert math.isnan(bucket_quantile([(math.inf, 0.0)], 0.5))


def test_the_knee_is_where_p99_doubles() -> None:
    assert knee_of([(50, 10.0), (100, 12.0), (200, 15.0), (400, 40.0)]) == 400
    assert knee_of([(50, 10.0), (100, 9.0), (200, 18.0)]) == 200
    assert knee_of([(50, 10.0), (100, 12.0)]) is None
    assert knee_of([]) is None


def test_options_from_words_and_the_environment() -> None:
    options = options_with(RoomOptions(), steps="10, 20", pace="1,3", step_seconds=5.0)
    assert options.steps == (10, 20)
    assert options.pace == (1.0, 3.0)
    assert options.step_seconds == 5
    assert options_with(RoomOptions(), pace="2").pace == (2.0, 2.0)
    env = {"THIRTEEN_BENCH_QUICK": "1", "THIRTEEN_BENCH_TABLES": "3", "THIRTEEN_BENCH_IDLE": "7"}
    from_env = options_from_env(env)
    assert options_from_env({"THIRTEEN_BENCH_FAST_TABLES": "0"}).fast_tables == ()
    assert from_env.steps == (3,)
    assert from_env.idle_sockets == 7
    assert from_env.fast_tables == QUICK.fast_tables
    assert options_from_env({}) == RoomOptions()
    with pytest.raises(ValueError, match="option"):
        options_with(RoomOptions(), speed=3)
    with pytest.raises(ValueError, match="seats"):
        options_with(RoomOptions(), seats=5)
    assert options_with(RoomOptions(), human_showdown=8.0).human_showdown == 8
    assert options_from_env({"THIRTEEN_BENCH_SHOWDOWN": "8"}).human_showdown == 8
    assert options_from_env({"THIRTEEN_BENCH_PIN": "1"}).pin
    assert not options_from_env({"THIRTEEN_BENCH_PIN": "0"}).pin
    with pytest.raises(ValueError, match="showdown"):
        options_with(RoomOptions(), human_showdown=0.0)


def test_the_servers_compress_as_the_environment_says() -> None:
    """The bench's servers inherit ``THIRTEEN_WS_COMPRESSION``; its note says which it was."""
    assert server_compresses({}) is True
    assert server_compresses({"THIRTEEN_WS_COMPRESSION": "0"}) is False
    assert server_compresses({"THIRTEEN_WS_COMPRESSION": "false"}) is False
    assert server_compresses({"THIRTEEN_WS_COMPRESSION": "true"}) is True
    assert server_compresses({"THIRTEEN_WS_COMPRESSION": "1"}) is True


def test_the_report_says_why_setup_requests_were_tried_again() -> None:
    results = Results([], [], [], 1024, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), "sqlite+aiosqlite")
    assert not any("tried again" in note for note in report_of(QUICK, results).notes)
    results.retried = {"ReadTimeout": 1, "HTTP 500": 2}
    (note,) = [n for n in report_of(QUICK, results).notes if "tried again" in n]
    assert note.endswith(": 3 (HTTP 500: 2, ReadTimeout: 1)")
