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
NEEDS: dict[str, tuple[str, ...]] = {"room": ("httpx",), "chaos": ("httpx",)}
"""What a suite cannot run without, beyond the room's own dependencies: the ``bench`` extra
(``pip install 'thirteen[bench]'``). The reference libraries the speed suites compare against
(eval7, phevaluator, in the same extra) are measured when installed and noted when not."""
EXTRA = "pip install 'thirteen[bench]'"


def missing(name: str) -> list[str]:
    """What suite ``name`` needs and this installation lacks."""
    absent = []
    for module in NEEDS.get(name, ()):
        try:
            importlib.import_module(module)
        except ImportError:
            absent.append(module)
    return absent


def suite(name: str) -> Callable[[], Report]:
    """The function that runs suite ``name`` (imported now); ``KeyError`` for an unknown name."""
    module, function = SUITES[name]
    runner: Callable[[], Report] = getattr(
        importlib.import_module(f"thirteen.bench.{module}"), function
    )
    return runner


__all__ = ["EXTRA", "NEEDS", "SUITES", "Report", "missing", "suite"]
