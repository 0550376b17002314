"""Measure what entering fantasyland is worth, per opponent, for the OFC players.

For each preset and each fantasyland size, heads-up on a real table (thirteen.engine.table):
seat 0 starts the hand in fantasyland with N cards and sets them with the exact solver; seat 1
plays the streets with the heuristic player. The same deals are then played with seat 0 on the
streets too (heuristic against heuristic). The worth of one fantasyland hand is the difference
of seat 0's mean points, and the worth of *entering* fantasyland adds the chance to stay times
the worth of a repeat hand (a fixed point for the repeat size):

    V(repeat) = A(repeat) / (1 - stay(repeat)),   V(N) = A(N) + stay(N) * V(repeat)

Usage: python scripts/ofc_fantasyland_value.py [--hands 3000] [--seed 1] [PRESET ...]
Prints one JSON object per preset (the figures go into thirteen.bots._ofc_model).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics

from thirteen.bots.arena import play_hand as arena_hand
from thirteen.bots.arena import seated_table, seeded_deal
from thirteen.bots.ofc_heuristic import HeuristicOFCBot
from thirteen.engine.deck import Deal
from thirteen.engine.rules import Rules, get_rules


def play_hand(rules: Rules, deal: Deal, fantasyland: int | None) -> tuple[int, bool]:
    """Seat 0's points, and whether it stays in fantasyland (``fantasyland`` cards or none)."""
    table = seated_table(rules, 2, fantasyland=None if fantasyland is None else {0: fantasyland})
    bot = HeuristicOFCBot(rules)
    state = arena_hand(table, [bot, bot], deal, 0.0, budget=0.0).state
    hand = state.hand
    assert hand is not None
    assert hand.result is not None
    index = hand.index_of(0)
    player = hand.result.players[index]
    return player.total, fantasyland is not None and player.fantasyland_cards is not None


def measure(rules: Rules, cards: int, hands: int, seed: int) -> dict[str, float]:
    """Mean extra points of a fantasyland hand of ``cards`` cards, and the chance to stay."""
    rng = random.Random(seed)
    diffs: list[int] = []
    stays = 0
    for _ in range(hands):
        deal = seeded_deal(rng)
        in_fl, stay = play_hand(rules, deal, cards)
        normal, _ = play_hand(rules, deal, None)
        diffs.append(in_fl - normal)
        stays += stay
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return {"extra": mean, "ci95": half, "stay": stays / hands}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "presets", nargs="*", default=["ofc", "ofc-pineapple", "ofc-pineapple-progressive"]
    )
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in args.presets:
        rules = get_rules(name)
        sizes = sorted({c for _, c in rules.fantasyland_entry})
        repeat = rules.fantasyland_repeat_cards or min(sizes)
        sizes = sorted(set(sizes) | {repeat})
        found = {n: measure(rules, n, args.hands, args.seed + n) for n in sizes}
        base = found[repeat]
        repeat_worth = base["extra"] / (1.0 - base["stay"])
        worth = {n: f["extra"] + f["stay"] * repeat_worth for n, f in found.items()}
        print(
            json.dumps(
                {
                    "rules": name,
                    "hands": args.hands,
                    "per_size": {str(n): found[n] for n in sizes},
                    "repeat_cards": repeat,
                    "worth": {str(n): round(v, 2) for n, v in worth.items()},
                }
            )
        )


if __name__ == "__main__":
    main()
