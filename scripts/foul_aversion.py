"""The strong OFC player's foul aversion, measured: duplicate duels against an opponent with the
aversion set to each value, on the same deals (``thirteen duel``'s seeding), compared deal by
deal with the first value.

Usage: python scripts/foul_aversion.py --aversion 10 14 18 [--rules ofc-pineapple]
       [--opponent heuristic] [--hands 300] [--seed 2026] [--budget 0.1] [--out DIR]

Each aversion's duel runs in its own process (``--one A`` runs one and writes ``DIR/A.json``);
then the table: points a hand with a 95 % interval, the paired difference with the first
aversion (per deal, so most of the card luck cancels), foul and fantasyland rates with 95 %
intervals (normal approximation over hands).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
from pathlib import Path

from thirteen.bots.arena import play
from thirteen.bots.ofc_mc import MonteCarloOFCBot
from thirteen.bots.registry import make_bot
from thirteen.engine.rules import get_rules

Z95 = 1.959963984540054


def one(args: argparse.Namespace, aversion: float) -> None:
    """Play the duel at ``aversion`` and write its per-deal points and rates."""
    rules = get_rules(args.rules)
    rng = random.Random(args.seed)  # the seeding of ``thirteen duel``
    strong = make_bot("strong", rules, seed=rng.randrange(2**31))
    assert isinstance(strong, MonteCarloOFCBot)
    strong.model = strong.model.with_params(foul_aversion=aversion)
    other = make_bot(args.opponent, rules, seed=rng.randrange(2**31))
    result = play(
        rules, [strong, other], args.hands, seed=args.seed, budget=args.budget, duplicate=True
    )
    me = result.bots[0]
    out = {
        "aversion": aversion,
        "rules": rules.name,
        "opponent": args.opponent,
        "deals": result.deals,
        "hands": me.hands,
        "per_deal": me.per_hand,
        "fouls": me.fouls,
        "fantasylands": me.fantasylands_earned,
        "opponent_fouls": result.bots[1].fouls,
        "seconds_bots": result.seconds_bots,
    }
    Path(args.out, f"{aversion:g}.json").write_text(json.dumps(out), encoding="utf-8")


def rate(count: int, n: int) -> str:
    p = count / n
    half = Z95 * math.sqrt(p * (1 - p) / n)
    return f"{p:.1%} ± {half:.1%}"


def mean_ci(values: list[int], rotations: int) -> str:
    mean = statistics.fmean(values) / rotations
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) / rotations
    return f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--aversion", type=float, nargs="*", default=[10.0, 14.0, 18.0])
    parser.add_argument("--one", type=float, default=None)
    parser.add_argument("--rules", default="ofc-pineapple")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--budget", type=float, default=0.1)
    parser.add_argument("--out", default="aversion")
    parser.add_argument("--report", action="store_true", help="only print the table")
    args = parser.parse_args()
    Path(args.out).mkdir(exist_ok=True)
    if args.one is not None:
        one(args, args.one)
        return
    if not args.report:
        common = [
            f"--{k}={v}"
            for k, v in vars(args).items()
            if k in ("rules", "opponent", "hands", "seed", "budget", "out")
        ]
        runs = [
            subprocess.Popen([sys.executable, __file__, "--one", str(a), *common])
            for a in args.aversion
        ]
        for run in runs:
            run.wait()
    found = [json.loads(Path(args.out, f"{a:g}.json").read_text()) for a in args.aversion]
    base = found[0]
    print(
        "| aversion | points/hand [95 %] | vs first, paired [95 %] | fouls | fantasyland "
        "| opponent fouls | deals |"
    )
    print("|---:|---|---|---|---|---|---:|")
    for f in found:
        diffs = [a - b for a, b in zip(f["per_deal"], base["per_deal"], strict=True)]
        paired = "—" if f is base else mean_ci(diffs, 2)
        print(
            f"| {f['aversion']:g} | {mean_ci(f['per_deal'], 2)} | {paired} "
            f"| {rate(f['fouls'], f['hands'])} | {rate(f['fantasylands'], f['hands'])} "
            f"| {rate(f['opponent_fouls'], f['hands'])} | {f['deals']} |"
        )


if __name__ == "__main__":
    main()
