"""Benchmark of the Chinese Poker setter against a naive loop measured in the same run.

The setter (:func:`thirteen.bots.setter.best_setting`) is timed hand by hand, as a caller sees it
(validation, the card-removal weighing of the bank, the compiled search over all 72,072 splits,
naturals and surrender included; and once more without card removal, the setter before it). The
naive loop is what one would write first: every split with ``itertools``, each row evaluated with
eval7, the foul check and a simple EV (the sum of the rows' values from the same tables) in
Python. The ratio is naive time per hand over the setter's mean time per hand.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from itertools import combinations

import numpy as np

from thirteen.bench.report import Report, best_rate, random_hands
from thirteen.bots._setter_tables import model_for
from thirteen.bots.setter import best_setting
from thirteen.engine.cards import Card
from thirteen.engine.evaluate import evaluate
from thirteen.engine.rules import get_rules

Naive = Callable[[Sequence[Card]], tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]


def _naive_setter() -> Naive | None:
    """The naive loop, or ``None`` when eval7 is not installed."""
    try:
        import eval7
    except ImportError:
        return None
    deck = [eval7.Card("23456789TJQKA"[c >> 2] + "cdhs"[c & 3]) for c in range(52)]
    lin = model_for(get_rules("chinese-1-6")).lin.tolist()
    # eval7's values mapped to the shared scale once per distinct value (a dict lookup per row).
    scale: dict[int, int] = {}

    def strength(cards: list[Card]) -> int:
        value = eval7.evaluate([deck[c] for c in cards])
        s = scale.get(value)
        if s is None:
            s = scale[value] = evaluate(cards)
        return s

    def naive(cards: Sequence[Card]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        best = -1e9
        pick: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())
        for back in combinations(cards, 5):
            rest = [c for c in cards if c not in back]
            sb = strength(list(back))
            for middle in combinations(rest, 5):
                front = [c for c in rest if c not in middle]
                sm = strength(list(middle))
                sf = strength(front)
                if not sf <= sm <= sb:
                    continue
                ev = lin[0][sf] + lin[1][sm] + lin[2][sb]
                if ev > best:
                    best, pick = ev, (tuple(front), middle, back)
        return pick

    return naive


def _per_hand_ms(fn: Callable[[list[int]], object], hands: list[list[int]]) -> list[float]:
    times = []
    for hand in hands:
        start = time.perf_counter()
        fn(hand)
        times.append((time.perf_counter() - start) * 1e3)
    return times


def bench_setter(n: int = 2_000, naive_hands: int = 4) -> Report:
    """Setter ms per hand (median, mean, p99 over ``n`` hands) for each Chinese preset and the
    lowball variant, and the naive loop's ms per hand on ``naive_hands`` of the same hands."""
    report = Report("setter")
    hands = [list(map(int, h)) for h in random_hands(n, 13, seed=3)]
    presets = {
        "chinese-1-6": get_rules("chinese-1-6"),
        "chinese-2-4": get_rules("chinese-2-4"),
        "chinese-1-4": get_rules("chinese-1-4"),
        "chinese-1-3": get_rules("chinese-1-3"),
        "chinese-1-6 lowball middle": get_rules("chinese-1-6", {"lowball_middle": True}),
    }
    means: dict[str, float] = {}
    for name, rules in presets.items():
        best_setting(hands[0], rules)  # compile (or load the cache) and build the model

        def one(hand: list[int], rules: object = rules) -> object:
            return best_setting(hand, rules)  # type: ignore[arg-type]

        cpu = time.process_time()
        times = _per_hand_ms(one, hands)
        cpu_ms = (time.process_time() - cpu) * 1e3 / len(hands)
        means[name] = statistics.fmean(times)
        report.rows.append((f"{name}: median", statistics.median(times), "ms/hand"))
        report.rows.append((f"{name}: mean", means[name], "ms/hand"))
        report.rows.append((f"{name}: 99th percentile", float(np.percentile(times, 99)), "ms/hand"))
        # CPU time is what a busy machine's other processes move least
        report.rows.append((f"{name}: mean CPU time", cpu_ms, "ms/hand"))
    for name in ("chinese-1-6", "chinese-2-4"):
        rules = presets[name]
        best_setting(hands[0], rules, card_removal=False)

        def old(hand: list[int], rules: object = rules) -> object:
            return best_setting(hand, rules, card_removal=False)  # type: ignore[arg-type]

        cpu = time.process_time()
        times = _per_hand_ms(old, hands)
        cpu_ms = (time.process_time() - cpu) * 1e3 / len(hands)
        label = f"{name} without card removal"
        report.rows.append((f"{label}: mean", statistics.fmean(times), "ms/hand"))
        report.rows.append((f"{label}: mean CPU time", cpu_ms, "ms/hand"))
    rules = presets["chinese-1-6"]

    def batch() -> int:
        for hand in hands[:500]:
            best_setting(hand, rules)
        return 500

    report.rows.append(("chinese-1-6 throughput (one thread)", best_rate(batch), "hands/s"))
    naive = _naive_setter()
    if naive is None:
        report.notes.append("eval7 is not installed (pip install eval7); naive loop not measured.")
        return report
    naive_times = _per_hand_ms(naive, hands[:naive_hands])
    naive_ms = statistics.fmean(naive_times)
    report.rows.append((f"naive loop (eval7, {naive_hands} hands): mean", naive_ms, "ms/hand"))
    report.ratios["naive loop / setter (chinese-1-6, mean per hand)"] = (
        naive_ms / means["chinese-1-6"]
    )
    report.notes.append(
        f"setter timed over {n:,} hands per preset (an exact search of all 72,072 splits "
        "each time); the naive loop scores only the rows' linear values, so it does less work "
        "per split."
    )
    return report
