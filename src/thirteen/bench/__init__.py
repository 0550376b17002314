"""Every benchmark, by name: ``thirteen bench NAME`` and ``benchmarks/run.py`` run these.

A suite's module is imported only when it runs (the setter's tables, numba kernels and the
reference libraries load then, not when the CLI starts).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from thirteen.bench.report import Report

SUITES: dict[str, tuple[str, str]] = {
    "evaluate": ("evaluate", "bench_evaluate"),
    "eval-cli": ("evaluate", "bench_eval_cli"),
    "simulate": ("simulate", "bench_simulate"),
    "fantasyland": ("fantasyland", "bench_fantasyland"),
    "setter": ("setter", "bench_setter"),
    "bots": ("bots", "bench_bots"),
    "room": ("room.load", "bench_room"),
    "chaos": ("chaos", "bench_chaos"),
}
"""Suite name -> (module in this package, function returning a :class:`Report`)."""


def suite(name: str) -> Callable[[], Report]:
    """The function that runs suite ``name`` (imported now); ``KeyError`` for an unknown name."""
    module, function = SUITES[name]
    runner: Callable[[], Report] = getattr(
        importlib.import_module(f"thirteen.bench.{module}"), function
    )
    return runner


__all__ = ["SUITES", "Report", "suite"]
