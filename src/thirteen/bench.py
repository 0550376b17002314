"""Benchmarks, measured against reference implementations in the same run and reported as ratios.

Each suite returns a :class:`Report`: rows of (name, rate, unit) and the ratios that matter. The
CLI (``thirteen bench``) prints them; ``benchmarks/`` keeps the numbers of recorded runs.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from thirteen.engine.cards import format_cards
from thirteen.engine.evaluate import evaluate3, evaluate5, evaluate_batch


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


def bench_evaluate(n: int = 200_000) -> Report:
    """Per-hand and batch 5-card evaluation against eval7 and phevaluator's per-hand loops."""
    report = Report("evaluate")
    hands = random_hands(n, 5)
    as_lists = hands.tolist()
    as_tuples = [tuple(h) for h in as_lists]

    def ours_single() -> int:
        for a, b, c, d, e in as_tuples:
            evaluate5(a, b, c, d, e)
        return n

    def ours_batch() -> int:
        evaluate_batch(hands)
        return n

    threes = random_hands(n, 3)

    def ours_batch3() -> int:
        evaluate_batch(threes)
        return n

    three_tuples = [tuple(h) for h in threes.tolist()]

    def ours_single3() -> int:
        for a, b, c in three_tuples:
            evaluate3(a, b, c)
        return n

    rates = {
        "thirteen evaluate5 (per hand)": best_rate(ours_single),
        "thirteen evaluate_batch (5 cards)": best_rate(ours_batch),
        "thirteen evaluate3 (per hand)": best_rate(ours_single3),
        "thirteen evaluate_batch (3 cards)": best_rate(ours_batch3),
    }
    references: dict[str, float] = {}
    try:
        import eval7

        deck = [eval7.Card("23456789TJQKA"[c >> 2] + "cdhs"[c & 3]) for c in range(52)]
        e7_hands = [[deck[c] for c in h] for h in as_lists]

        def eval7_loop() -> int:
            for h in e7_hands:
                eval7.evaluate(h)
            return n

        references["eval7 (per hand)"] = best_rate(eval7_loop)
    except ImportError:
        report.notes.append("eval7 is not installed (pip install eval7); not measured.")
    try:
        from phevaluator import evaluate_cards

        def phe_loop() -> int:
            for a, b, c, d, e in as_tuples:
                evaluate_cards(a, b, c, d, e)
            return n

        references["phevaluator (per hand)"] = best_rate(phe_loop)
    except ImportError:
        report.notes.append("phevaluator is not installed (pip install phevaluator); not measured.")
    for name, rate in {**rates, **references}.items():
        report.rows.append((name, rate, "hands/s"))
    if references:
        fastest_name, fastest = max(references.items(), key=lambda kv: kv[1])
        report.ratios["batch / fastest reference loop"] = (
            rates["thirteen evaluate_batch (5 cards)"] / fastest
        )
        report.ratios["per hand / fastest reference loop"] = (
            rates["thirteen evaluate5 (per hand)"] / fastest
        )
        report.notes.append(f"fastest reference per-hand loop: {fastest_name}")
    return report


def bench_eval_cli(lines: int = 100_000) -> Report:
    """``thirteen eval -`` over many lines, as a user runs it (a separate process)."""
    report = Report("eval-cli")
    hands = random_hands(lines, 5, seed=2)
    text = "\n".join(format_cards(map(int, h)) for h in hands) + "\n"
    script = Path(sys.executable).parent / "thirteen"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "thirteen.cli"]
    start = time.perf_counter()
    done = subprocess.run(
        [*command, "eval", "-"], input=text, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        report.notes.append(f"thirteen eval failed: {done.stderr.strip()}")
        return report
    out = done.stdout.splitlines()
    json.loads(out[-1])
    report.rows.append((f"thirteen eval - ({lines:,} lines, whole process)", elapsed, "s"))
    report.rows.append(("lines per second", lines / elapsed, "lines/s"))
    return report


def bench_simulate(hands: int = 300) -> Report:
    """``thirteen simulate``'s hands per second for every preset (random players, 3 seats or
    the most the game allows), and how the time splits between the engine and the players."""
    import random

    from thirteen.bots.arena import play
    from thirteen.bots.base import RandomBot
    from thirteen.engine.rules import PRESETS

    report = Report("simulate")
    for name, rules in PRESETS.items():
        players = min(3, rules.max_players)
        bots = [RandomBot(random.Random(i)) for i in range(players)]
        result = play(rules, bots, hands, seed=1)
        report.rows.append((f"{name} ({players} players)", result.hands_per_second, "hands/s"))
        engine = result.seconds_engine / result.seconds_total
        player = result.seconds_bots / result.seconds_total
        report.rows.append(
            (f"{name}: engine / players share", 100 * engine, f"% / {100 * player:.0f} %")
        )
        report.ratios[f"{name}: engine time per player time"] = (
            result.seconds_engine / result.seconds_bots if result.seconds_bots else float("inf")
        )
    report.notes.append(
        "engine = apply + view + legal actions; players = the random bot choosing a move; "
        "the rest is the arena's own bookkeeping."
    )
    return report


def _fantasyland() -> Report:
    from thirteen.bench_fantasyland import bench_fantasyland

    return bench_fantasyland()


def _setter() -> Report:
    from thirteen.bench_setter import bench_setter

    return bench_setter()


def _bots() -> Report:
    from thirteen.bench_bots import bench_bots

    return bench_bots()


SUITES: dict[str, Callable[[], Report]] = {
    "evaluate": bench_evaluate,
    "eval-cli": bench_eval_cli,
    "simulate": bench_simulate,
    "fantasyland": _fantasyland,
    "setter": _setter,
    "bots": _bots,
}
