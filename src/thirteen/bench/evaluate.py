"""The evaluator against eval7's and phevaluator's per-hand loops, and ``thirteen eval -`` as a
whole process."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from thirteen.bench.report import Report, best_rate, random_hands
from thirteen.engine.cards import format_cards
from thirteen.engine.evaluate import evaluate3, evaluate5, evaluate_batch


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


__all__ = ["bench_eval_cli", "bench_evaluate"]
