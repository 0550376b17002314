"""Benchmark of the OFC players: how fast each one decides, per OFC preset.

Each player plays whole hands on a real table (the arena) against the heuristic player; a
wrapper times every decision it makes. The heuristic is timed over all its street decisions.
The Monte Carlo player is run twice: seeded (a fixed amount of work per decision, ``budget``
seconds at its calibrated rate), so the time it takes shows how well that rate fits this
machine — wall-clock time, and the thread's CPU time, which other processes on a shared machine
do not inflate — and by the clock (no seed), which must stop within its budget.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from thirteen.bench.report import Report
from thirteen.bots.arena import play
from thirteen.bots.base import Bot
from thirteen.bots.ofc_heuristic import HeuristicOFCBot
from thirteen.bots.ofc_mc import MonteCarloOFCBot
from thirteen.engine.actions import Action
from thirteen.engine.legal import Legal
from thirteen.engine.rules import PRESETS, Rules
from thirteen.engine.views import TableView


@dataclass
class _Timed:
    """A bot that records how long each street decision took."""

    bot: Bot
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    """The thread's CPU seconds for each decision."""
    deals: int = 0
    name: str = ""

    def __post_init__(self) -> None:
        self.name = self.bot.name

    def choose(self, view: TableView, legal: Legal, budget: float) -> Action:
        start, cpu = time.perf_counter(), time.thread_time()
        action = self.bot.choose(view, legal, budget)
        if legal.mode == "street":
            self.seconds.append(time.perf_counter() - start)
            self.cpu.append(time.thread_time() - cpu)
            analysis = getattr(self.bot, "last_analysis", None)
            self.deals += analysis.deals if analysis is not None else 0
        return action

    def clear(self) -> None:
        self.seconds.clear()
        self.cpu.clear()
        self.deals = 0


def _timed_run(rules: Rules, bot: Bot, hands: int, *, budget: float, warm_budget: float) -> _Timed:
    """``bot`` heads-up against the heuristic player, each street decision timed (after a
    one-hand warm-up that compiles what it needs)."""
    timed = _Timed(bot)
    play(rules, [timed, HeuristicOFCBot(rules)], 1, seed=0, budget=warm_budget)
    timed.clear()
    play(rules, [timed, HeuristicOFCBot(rules)], hands, seed=1, budget=budget)
    return timed


def bench_bots(
    hands: int = 40, strong_hands: int = 4, budget: float = 0.05, clock_hands: int = 2
) -> Report:
    """Decisions per second and milliseconds per decision of each OFC player, per preset, and
    the strong player's time per decision against its budget (seeded and by the clock)."""
    report = Report("bots")
    for name, rules in PRESETS.items():
        if not rules.is_ofc:
            continue
        runs = {
            "heuristic": _timed_run(
                rules, HeuristicOFCBot(rules), hands, budget=budget, warm_budget=budget
            ),
            "strong": _timed_run(
                rules,
                MonteCarloOFCBot(rules, seed=1),
                strong_hands,
                budget=budget,
                warm_budget=0.001,
            ),
        }
        for level, timed in runs.items():
            spent, count = sum(timed.seconds), len(timed.seconds)
            report.rows.append((f"{name}: {level}", count / spent, "decisions/s"))
            report.rows.append((f"{name}: {level}", 1000 * spent / count, "ms/decision"))
        strong = runs["strong"]
        clocked = _timed_run(
            rules, MonteCarloOFCBot(rules), clock_hands, budget=budget, warm_budget=budget
        )
        count = len(strong.seconds)
        report.rows.append((f"{name}: strong", strong.deals / count, "sampled deals/decision"))
        for what, seconds in (
            ("strong, seeded: wall time", strong.seconds),
            ("strong, seeded: CPU time", strong.cpu),
            ("strong, by the clock: wall time", clocked.seconds),
        ):
            mean = sum(seconds) / len(seconds)
            report.rows.append((f"{name}: {what} / budget", mean / budget, "mean"))
            report.rows.append((f"{name}: {what} / budget", max(seconds) / budget, "worst"))
        report.ratios[f"{name}: strong, seeded: CPU time per decision / budget"] = (
            sum(strong.cpu) / count / budget
        )
    report.notes.append(
        f"strong: Monte Carlo player with a budget of {budget:g} s per decision, heads-up "
        "against the heuristic player; seeded, the budget is converted to work at its "
        "calibrated rate (wall time includes waiting for a shared CPU, CPU time does not); "
        "by the clock, it stops at 80 % of the budget."
    )
    return report


__all__ = ["bench_bots"]
