"""``thirteen bench``: speed against reference implementations run in the same process, and
the card room under load (``thirteen bench room``)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated

import typer
from rich.table import Table

from thirteen.bench import EXTRA, SUITES, missing, suite
from thirteen.bench.report import Report, format_value, render_lines
from thirteen.commands.common import console, emit, fail, quote

ROOM_HELP = "room suite only: "


def bench_command(
    suites: Annotated[
        list[str] | None, typer.Argument(help="Suites to run (default: all).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per suite.")] = False,
    quick: Annotated[
        bool, typer.Option("--quick", help=ROOM_HELP + "a few tables for a few seconds.")
    ] = False,
    tables: Annotated[
        str | None,
        typer.Option(help=ROOM_HELP + "human-paced tables at each step, e.g. 50,100,200."),
    ] = None,
    seconds: Annotated[
        float | None, typer.Option(min=0.5, help=ROOM_HELP + "seconds measured at each step.")
    ] = None,
    pace: Annotated[
        str | None, typer.Option(help=ROOM_HELP + "seconds a human seat waits, e.g. 2,5.")
    ] = None,
    showdown: Annotated[
        float | None,
        typer.Option(
            help=ROOM_HELP + "seconds a human-paced table shows its showdown (default 1; "
            "the presets' own is 8)."
        ),
    ] = None,
    fast_tables: Annotated[
        str | None,
        typer.Option(help=ROOM_HELP + "tables at full speed, one run each, e.g. 4,16,40."),
    ] = None,
    idle: Annotated[
        int | None, typer.Option(min=0, help=ROOM_HELP + "idle sockets for the memory figure.")
    ] = None,
    preset: Annotated[str | None, typer.Option(help=ROOM_HELP + "the tables' preset.")] = None,
    database_url: Annotated[
        str | None,
        typer.Option(
            help=ROOM_HELP + "the servers' database (default: a fresh SQLite file, or a "
            "throwaway PostgreSQL for several processes)."
        ),
    ] = None,
    database: Annotated[
        str | None,
        typer.Option(
            help=ROOM_HELP + "sqlite or postgres (a throwaway cluster started for the run); "
            "default: sqlite for one process, postgres for several."
        ),
    ] = None,
    processes: Annotated[
        int | None,
        typer.Option(
            min=1,
            help=ROOM_HELP + "thirteen serve processes on one PostgreSQL and one Redis "
            "(throwaway ones unless --database-url / --redis-url); players reach any of them.",
        ),
    ] = None,
    redis_url: Annotated[
        str | None,
        typer.Option(help=ROOM_HELP + "the Redis of several processes (default: a throwaway one)."),
    ] = None,
    soak: Annotated[
        float | None,
        typer.Option(
            min=0,
            help=ROOM_HELP + "minutes the last step's tables keep playing after it, measured "
            "a minute at a time (memory, latency, collector pauses).",
        ),
    ] = None,
    pin: Annotated[
        bool,
        typer.Option(
            "--pin",
            help=ROOM_HELP + "the room (and its database) on one core, this load generator on "
            "the others, so the room's figures are its own.",
        ),
    ] = False,
) -> None:
    """Measure speed against reference implementations run in the same process.

    The room suite starts a real server and plays on it over WebSockets; its options (or
    THIRTEEN_BENCH_* variables) size the run.
    """
    chosen = suites or list(SUITES)
    for name in chosen:
        if name not in SUITES:
            fail(f"There is no benchmark {quote(name)}; suites: {', '.join(SUITES)}.")
        absent = missing(name)
        if absent:
            fail(f"thirteen bench {name} needs {', '.join(absent)}, not installed: {EXTRA}.")
    room_given: dict[str, object] = {
        "steps": tables,
        "step_seconds": seconds,
        "pace": pace,
        "human_showdown": showdown,
        "fast_tables": fast_tables,
        "idle_sockets": idle,
        "preset": preset,
        "database_url": database_url,
        "database": database,
        "processes": processes,
        "pin": pin or None,
        "soak_minutes": soak,
        "redis_url": redis_url,
    }
    for name in chosen:
        with console.status(f"benchmark {name}…") as status:
            runner: Callable[[], Report] = suite(name)
            if name == "room":
                runner = room_runner(quick, room_given, status.update)
            report = runner()
        if as_json:
            emit(report.to_json())
        elif not console.is_terminal:
            sys.stdout.write("\n".join(render_lines(report)) + "\n")
        else:
            table = Table(title=f"benchmark: {name}", title_justify="left")
            table.add_column("what")
            table.add_column("value", justify="right")
            table.add_column("unit")
            for what, value, unit in report.rows:
                table.add_row(what, format_value(value), unit)
            for what, ratio in report.ratios.items():
                table.add_row(f"[bold]{what}[/]", f"[bold]{ratio:.1f}×[/]", "ratio")
            console.print(table)
            for note in report.notes:
                console.print(f"[dim]{note}[/]")


def room_runner(
    quick: bool, given: dict[str, object], show: Callable[[str], None]
) -> Callable[[], Report]:
    """The room suite with the command's options over the environment's."""
    from thirteen.bench.room.load import bench_room
    from thirteen.bench.room.options import QUICK, options_from_env, options_with

    try:
        options = options_with(QUICK if quick else options_from_env(), **given)
    except ValueError as e:
        fail(f"{e}.")
    return lambda: bench_room(options, lambda line: show(f"benchmark room: {line}…"))
