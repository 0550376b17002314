"""Estimate what staying in fantasyland is worth, for the solver's default ``stay_value``.

For each preset, deal many random repeat-fantasyland hands (13 cards in ``ofc``, 14 in the
pineapple presets) and solve each twice with the exact solver:

- ``a``: the most royalties any legal setting earns (stay value 0);
- ``b``: the most royalties a setting that stays earns (stay value so large that staying always
  wins), or nothing if no setting stays.

The best a fantasyland hand can do when one more fantasyland hand is worth ``W`` is
``max(a, b + W)``. The default stay value is the fixed point

    W = mean over deals of max(a, b + W),

i.e. a fantasyland hand is worth its solved royalties, counting its own chance to stay again at
the same worth. ``f(W) = mean(max(a, b + W))`` is convex with slope (the share of deals that
stay) below 1, so the fixed point is unique; the script finds it by bisection and reports a
standard error (the spread of ``max(a, b + W)`` divided by ``sqrt(N)``, scaled by
``1 / (1 - stay rate)`` as the fixed point amplifies it).

Usage: ``python scripts/fantasyland_stay_value.py [--deals N] [--seed S] [--baseline X]``.
``--baseline`` subtracts what an ordinary (non-fantasyland) hand is worth in the same units,
for anyone who has an estimate of it; the shipped defaults use 0.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from thirteen.bots.fantasyland import solve_fantasyland
from thirteen.engine.rules import get_rules

PRESETS = ("ofc", "ofc-pineapple", "ofc-pineapple-progressive")
NEVER = -1.0e9  # b for a deal where no setting stays
HUGE = 1_000_000.0


def repeat_size(name: str) -> int:
    rules = get_rules(name)
    if rules.fantasyland_repeat_cards is not None:
        return rules.fantasyland_repeat_cards
    return min(cards for _, cards in rules.fantasyland_entry)


def solve_deals(name: str, deals: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rules = get_rules(name)
    size = repeat_size(name)
    rng = np.random.default_rng(seed)
    best = np.empty(deals)
    best_staying = np.empty(deals)
    for i in range(deals):
        hand = [int(c) for c in rng.choice(52, size, replace=False)]
        best[i] = solve_fantasyland(hand, rules, stay_value=0.0).royalties
        staying = solve_fantasyland(hand, rules, stay_value=HUGE)
        best_staying[i] = staying.royalties if staying.stays else NEVER
    return best, best_staying


def fixed_point(a: np.ndarray, b: np.ndarray, baseline: float) -> float:
    def excess(w: float) -> float:
        return float(np.maximum(a, b + w).mean()) - baseline - w

    low, high = 0.0, float(a.max()) + 1.0
    if excess(low) <= 0:
        return 0.0
    for _ in range(100):
        mid = (low + high) / 2
        if excess(mid) > 0:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--baseline", type=float, default=0.0)
    args = parser.parse_args()
    for name in PRESETS:
        start = time.perf_counter()
        a, b = solve_deals(name, args.deals, args.seed)
        w = fixed_point(a, b, args.baseline)
        choice = np.maximum(a, b + w)
        stays = (b + w >= a) & (b > NEVER)
        rate = float(stays.mean())
        error = float(choice.std(ddof=1)) / math.sqrt(len(a)) / (1 - rate)
        print(
            f"{name}: {repeat_size(name)} cards, {len(a):,} deals, "
            f"{time.perf_counter() - start:.0f} s\n"
            f"  mean best royalties (stay value 0): {a.mean():.3f}\n"
            f"  deals with a setting that stays: {(b > NEVER).mean():.2%}\n"
            f"  fixed point W = {w:.3f} ± {error:.3f} (stay rate at W: {rate:.2%}, "
            f"mean royalties at W: {np.where(stays, b, a).mean():.3f})"
        )


if __name__ == "__main__":
    main()
