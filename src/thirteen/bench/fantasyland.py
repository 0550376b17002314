"""Benchmark of the exact fantasyland solver against the plain exhaustive search.

Random deals of 14 to 17 cards under ``ofc-pineapple-progressive`` (the preset that deals every
one of those sizes), with the default stay value. Each hand is timed on its own; the exhaustive
reference solves a prefix of the same hands, and every answer it gives is compared with the
solver's (value and row strengths must be equal).
"""

from __future__ import annotations

import time

import numpy as np

from thirteen.bench.report import Report, random_hands
from thirteen.bots._fantasyland_reference import reference_solve
from thirteen.bots.fantasyland import default_stay_value, solve_fantasyland
from thirteen.engine.rules import get_rules

PUBLISHED_HANDS_PER_SECOND = {14: 149.0, 17: 1.5}
"""The fastest public solver's published speed (another machine): the brief's anchor."""

DEFAULT_PLAN: tuple[tuple[int, int, int], ...] = (
    (14, 200, 100),
    (15, 150, 30),
    (16, 100, 8),
    (17, 60, 3),
)
"""(cards, hands solved, of which also solved by the exhaustive reference)."""


def _key(
    royalties: int, stays: bool, stay_value: float, strengths: tuple[int, int, int]
) -> tuple[float, int, int, int]:
    return (royalties + (stay_value if stays else 0.0), strengths[2], strengths[1], strengths[0])


def bench_fantasyland(
    plan: tuple[tuple[int, int, int], ...] = DEFAULT_PLAN, seed: int = 7
) -> Report:
    """Milliseconds per hand (median, mean, p90) for 14–17 cards, and the exhaustive ratio."""
    report = Report("fantasyland")
    rules = get_rules("ofc-pineapple-progressive")
    stay_value = default_stay_value(rules)
    solve_fantasyland(list(range(17)), rules)  # load the compiled kernel before timing
    reference_solve(list(range(13)), rules, stay_value)
    mismatches = 0
    for size, count, checked in plan:
        hands = [[int(c) for c in h] for h in random_hands(count, size, seed=seed + size)]
        times = []
        answers = []
        for hand in hands:
            start = time.perf_counter()
            best = solve_fantasyland(hand, rules, stay_value=stay_value)
            times.append(time.perf_counter() - start)
            answers.append(_key(best.royalties, best.stays, stay_value, best.strengths))
        ms = np.array(times) * 1000
        median = float(np.median(ms))
        report.rows.append((f"{size} cards: median ({count} hands)", median, "ms/hand"))
        report.rows.append((f"{size} cards: mean", float(ms.mean()), "ms/hand"))
        report.rows.append((f"{size} cards: p90", float(np.percentile(ms, 90)), "ms/hand"))
        report.rows.append((f"{size} cards: max", float(ms.max()), "ms/hand"))
        report.rows.append((f"{size} cards: throughput", 1000 / float(ms.mean()), "hands/s"))
        if size in PUBLISHED_HANDS_PER_SECOND:
            report.ratios[f"{size} cards: hands/s / published fastest"] = (
                1000 / float(ms.mean()) / PUBLISHED_HANDS_PER_SECOND[size]
            )
        if not checked:
            continue
        ref_times = []
        for hand, answer in zip(hands[:checked], answers, strict=False):
            start = time.perf_counter()
            ref = reference_solve(hand, rules, stay_value)
            ref_times.append(time.perf_counter() - start)
            if _key(ref.royalties, ref.stays, stay_value, ref.strengths) != answer:
                mismatches += 1
        ref_ms = np.array(ref_times) * 1000
        ref_median = float(np.median(ref_ms))
        report.rows.append(
            (f"{size} cards: exhaustive reference median ({checked} hands)", ref_median, "ms/hand")
        )
        same = float(np.median(ms[:checked]))
        report.ratios[f"{size} cards: exhaustive / solver (median, same hands)"] = ref_median / same
    report.notes.append(
        f"rules ofc-pineapple-progressive, stay value {stay_value:g}; "
        f"{mismatches} answers differed from the exhaustive reference"
    )
    report.notes.append(
        "published fastest: 149 hands/s for 14 cards and 1.5 for 17 (another machine)"
    )
    return report
