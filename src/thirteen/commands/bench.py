"""``thirteen bench``: speed against reference implementations run in the same process."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.table import Table

from thirteen.bench import SUITES, suite
from thirteen.bench.report import format_value, render_lines
from thirteen.commands.common import console, emit, fail, quote


def bench_command(
    suites: Annotated[
        list[str] | None, typer.Argument(help="Suites to run (default: all).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per suite.")] = False,
) -> None:
    """Measure speed against reference implementations run in the same process."""
    chosen = suites or list(SUITES)
    for name in chosen:
        if name not in SUITES:
            fail(f"There is no benchmark {quote(name)}; suites: {', '.join(SUITES)}.")
    for name in chosen:
        with console.status(f"benchmark {name}…"):
            report = suite(name)()
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
