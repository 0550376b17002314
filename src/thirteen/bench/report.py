"""The one report format of every benchmark: rows of (what, value, unit), the ratios that
matter and notes; printed as a table on a terminal, as plain lines to a pipe, or as JSON.

Suites measure their reference implementations in the same run, so ratios compare across
machines. ``thirteen bench NAME`` and ``benchmarks/run.py`` both print through here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt


@dataclass
class Report:
    """What a suite measured: ``rows`` of (what, value, unit) and named ``ratios``."""

    suite: str
    rows: list[tuple[str, float, str]] = field(default_factory=list)
    ratios: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "suite": self.suite,
            "rows": [{"what": w, "value": v, "unit": u} for w, v, u in self.rows],
            "ratios": self.ratios,
            "notes": self.notes,
        }


def best_rate(fn: Callable[[], int], repeat: int = 3) -> float:
    """Items per second of ``fn`` (which returns how many items it did), best of ``repeat``."""
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        n = fn()
        elapsed = time.perf_counter() - start
        best = max(best, n / elapsed)
    return best


def random_hands(n: int, size: int, seed: int = 1) -> npt.NDArray[np.int8]:
    """``n`` random hands of ``size`` distinct cards as an ``(n, size)`` array."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 52))
    return np.argsort(keys, axis=1)[:, :size].astype(np.int8)


def render_lines(report: Report) -> list[str]:
    """A report as plain lines: ``what: value unit``, then ratios and notes."""
    lines = [f"benchmark: {report.suite}"]
    for what, value, unit in report.rows:
        lines.append(f"  {what}: {format_value(value)} {unit}")
    for what, ratio in report.ratios.items():
        lines.append(f"  {what}: {ratio:.1f}x")
    lines.extend(f"  note: {note}" for note in report.notes)
    return lines


def format_value(value: float) -> str:
    """Large figures with thousands separators, small ones with three significant digits."""
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


__all__ = ["Report", "best_rate", "format_value", "random_hands", "render_lines"]
