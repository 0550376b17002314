"""Duplicate duel: the card-removal setter against today's (full-deck tables), heads-up.

    nice .venv/bin/python benchmarks/setter_removal_duel.py --rules chinese-1-6 --deals 200000
    nice .venv/bin/python benchmarks/setter_removal_duel.py --rules chinese-2-4 \\
        --overrides '{"royalty_mode": "off", "natural_payouts": {}}' --deals 200000

Each deal is two hands from one shuffled deck, played twice: the new setter holds hand A against
today's setter on hand B, then today's setter holds A against the new one on B. The new
setter's result for the deal is the sum of its two games (today's setter against itself would
score exactly 0 on both together), so only the hands the two set differently count and the luck
of the cards cancels. Reported: points per hand (the deal's sum over its two hands) with a 95%
interval (1.96 standard errors over deals), how often the settings differ, and each setter's
mean time per hand in the batch (threads over hands). Scoring is the compiled scorer of
``scripts/make_setter_tables.py``, cross-checked against the engine on the first 300 pairs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from make_setter_tables import (  # noqa: E402
    Played,
    _cross_check,
    _duel,
    deal,
    play,
    royalty_rows,
    strengths_of,
)

from thirteen.bots import _setter_search as setter_search  # noqa: E402
from thirteen.bots._setter_removal import (  # noqa: E402
    SUITS,
    Removal,
    build_removal,
    load_banks,
    search_many_removal,
)
from thirteen.bots._setter_tables import model_for  # noqa: E402
from thirteen.engine.rules import Rules, get_rules  # noqa: E402

CHUNK = 2_000


def play_removal(hands: Any, removal: Removal) -> Played:
    """Set every hand with the card-removal search (and decide naturals and surrenders)."""
    m = removal.model
    n = len(hands)
    out = Played(np.empty((n, 3), np.int32), np.empty(n, np.int32), np.empty(n, np.float64))
    for start in range(0, n, CHUNK):
        part = slice(start, min(n, start + CHUNK))
        search_many_removal(
            hands[part],
            *setter_search.SEARCH_TABLES,
            *m.search_args,
            *removal.search_args,
            *m.decide_args,
            out.picks[part],
            out.actions[part],
            out.evs[part],
        )
    return out


def duel(rules: Rules, deals: int, seed: int, suits: bool = SUITS) -> dict[str, Any]:
    m = model_for(rules)
    removal = build_removal(load_banks()[rules.scoring], rules, suits=suits)
    roy = royalty_rows(rules)
    rng = np.random.default_rng([seed, 14])
    dealt = deal(rng, 2 * deals)  # hands 2i and 2i+1 come from one deck
    a = np.ascontiguousarray(dealt[0::2])
    b = np.ascontiguousarray(dealt[1::2])
    play(a[:64], m)
    play_removal(a[:64], removal)  # compile or load the cache before timing
    start = time.perf_counter()
    old_a, old_b = play(a, m), play(b, m)
    old_seconds = time.perf_counter() - start
    start = time.perf_counter()
    new_a, new_b = play_removal(a, removal), play_removal(b, removal)
    new_seconds = time.perf_counter() - start
    _cross_check(rules, a, old_a, False, roy, m)
    _cross_check(rules, a, new_a, False, roy, m)
    rows = {
        name: strengths_of(hands, p.picks, False)
        for name, hands, p in (
            ("old_a", a, old_a),
            ("old_b", b, old_b),
            ("new_a", a, new_a),
            ("new_b", b, new_b),
        )
    }
    args = (roy, m.payout, m.surrender_cost, m.scoop, m.overall)
    first = _duel(new_a.actions, rows["new_a"], old_b.actions, rows["old_b"], *args)
    second = _duel(new_b.actions, rows["new_b"], old_a.actions, rows["old_a"], *args)
    per_deal = (first + second) / 2  # points per hand
    changed = np.concatenate(
        [
            np.any(new_a.picks != old_a.picks, axis=1) | (new_a.actions != old_a.actions),
            np.any(new_b.picks != old_b.picks, axis=1) | (new_b.actions != old_b.actions),
        ]
    )
    mean = float(per_deal.mean())
    half = float(1.96 * per_deal.std(ddof=1) / np.sqrt(deals))
    return {
        "rules": rules.name,
        "overrides": {
            "royalty_mode": rules.royalty_mode,
            "naturals": [name for name, _ in rules.natural_payouts],
        },
        "deals": deals,
        "seed": seed,
        "suits": suits,
        "points_per_hand": round(mean, 5),
        "ci95": [round(mean - half, 5), round(mean + half, 5)],
        "hands_set_differently": round(float(changed.mean()), 4),
        "us_per_hand_old": round(old_seconds / (2 * deals) * 1e6, 1),
        "us_per_hand_new": round(new_seconds / (2 * deals) * 1e6, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="chinese-1-6")
    parser.add_argument("--overrides", default="{}", help="rule overrides as JSON")
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--suits",
        choices=("on", "off"),
        default="on" if SUITS else "off",
        help="weigh the bank's hands by suits too (the shipped setter: on)",
    )
    args = parser.parse_args()
    rules = get_rules(args.rules, json.loads(args.overrides) or None)
    found = duel(rules, args.deals, args.seed, args.suits == "on")
    print(json.dumps(found), flush=True)


if __name__ == "__main__":
    main()
