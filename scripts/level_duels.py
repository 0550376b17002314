"""A duplicate duel of two bot levels bounded by time as well as by deals: the same deals, seats
and seeding as ``thirteen duel --duplicate --seed S`` (so N deals here are the first N of that
duel), with the running result written to ``--out`` after every deal — a busy machine can stop
it at any time and keep what was played.

Usage: python scripts/level_duels.py --rules ofc-pineapple --bots club,expert --hands 600
       --minutes 30 [--seed 2026] [--budget 0.1] --out club-expert.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from pathlib import Path

from thirteen.bots.arena import play_hand, seated_table, seeded_deal
from thirteen.bots.registry import make_bot
from thirteen.engine.rules import get_rules

Z95 = 1.959963984540054


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="ofc-pineapple")
    parser.add_argument("--bots", default="club,expert")
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--budget", type=float, default=0.1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rules = get_rules(args.rules)
    names = args.bots.split(",")
    n = len(names)
    rng = random.Random(args.seed)  # as thirteen duel seeds its bots
    bots = [make_bot(name, rules, seed=rng.randrange(2**31)) for name in names]
    deals = random.Random(args.seed)  # as arena.play draws its deals
    tables = [seated_table(rules, n) for _ in range(n)]
    clocks = [0.0] * n
    per_deal: list[list[int]] = [[] for _ in names]
    hands, fouls, fantasylands = [0] * n, [0] * n, [0] * n
    started = time.perf_counter()
    cpu = time.process_time()
    for _ in range(args.hands):
        deal = seeded_deal(deals)
        points = [0] * n
        for shift in range(n):
            seat_bot = [(seat + shift) % n for seat in range(n)]
            played = play_hand(
                tables[shift],
                [bots[b] for b in seat_bot],
                deal,
                clocks[shift],
                budget=args.budget,
            )
            state = played.state
            hand = state.hand
            assert hand is not None
            assert hand.result is not None
            for board, player in zip(hand.boards, hand.result.players, strict=True):
                b = seat_bot[board.seat]
                hands[b] += 1
                points[b] += player.total
                fouls[b] += player.foul
                fantasylands[b] += player.fantasyland_cards is not None
            tables[shift], clocks[shift] = state, played.clock
        for b in range(n):
            per_deal[b].append(points[b])
        done = len(per_deal[0])
        out: dict[str, object] = {
            "rules": rules.name,
            "bots": names,
            "seed": args.seed,
            "budget": args.budget,
            "deals": done,
            "seconds": round(time.perf_counter() - started, 1),
            "cpu_seconds": round(time.process_time() - cpu, 1),
            "results": [],
        }
        for b, name in enumerate(names):
            mean = statistics.fmean(per_deal[b]) / n
            half = (
                Z95 * statistics.stdev(per_deal[b]) / math.sqrt(done) / n if done > 1 else math.nan
            )
            out["results"].append(  # type: ignore[attr-defined]
                {
                    "bot": f"{b + 1}:{name}",
                    "points_per_hand": round(mean, 4),
                    "ci95": [round(mean - half, 4), round(mean + half, 4)],
                    "foul_rate": round(fouls[b] / hands[b], 4),
                    "fantasyland_rate": round(fantasylands[b] / hands[b], 4),
                    "hands": hands[b],
                }
            )
        args.out.write_text(json.dumps(out), encoding="utf-8")
        if time.perf_counter() - started > 60 * args.minutes:
            break


if __name__ == "__main__":
    main()
