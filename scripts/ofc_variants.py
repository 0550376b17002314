"""Variants of the strong OFC player, measured: duplicate duels of each variant against one
opponent on the same deals (``thirteen duel``'s seeding), compared deal by deal with the first.

Usage: python scripts/ofc_variants.py --variant base learns:rollout_learns=1
       [--rules ofc-pineapple] [--opponent heuristic] [--hands 300] [--seed 2026]
       [--budget 0.1] [--out DIR] [--report [--out DIR DIR …]]

A variant is ``NAME`` or ``NAME:setting=value,setting=value`` with settings from
``thirteen.bots._ofc_values.P_NAMES`` (``foul_aversion``, ``rollout_learns``,
``rollout_foul_penalty``, …) set on the strong player's model (a variant without settings is
today's player; ``rollout_learns=0,rollout_foul_penalty=0`` the player before issue 14), and
``adapt=0`` turns off its reading of the opponent (``MonteCarloOFCBot.adapt``: on by default;
the strong opponent plays with it off, as the player before it did). The
variants run one after the other in this process (one core: the machine is shared), each
writing ``DIR/NAME.json`` when done; a variant whose file is already there is not played again.
Then the table: points a hand with a 95 % interval, the paired difference with the first
variant (per deal, so most of the card luck cancels), foul and fantasyland rates with 95 %
intervals (normal approximation over hands) and their paired differences with the first, the
opponent's rates on the same cards and the variant's difference from them, paired deal by deal
(recorded since 2026-11-26; earlier runs show "—").
``--report`` with several ``--out`` directories (runs of other seeds) pools their deals.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from pathlib import Path
from typing import Any

from thirteen.bots.arena import play
from thirteen.bots.ofc_mc import MonteCarloOFCBot
from thirteen.bots.registry import make_bot
from thirteen.engine.rules import get_rules

Z95 = 1.959963984540054


def parse(variant: str) -> tuple[str, dict[str, float]]:
    name, _, settings = variant.partition(":")
    changes = {}
    for item in filter(None, settings.split(",")):
        key, _, value = item.partition("=")
        changes[key] = float(value)
    return name, changes


def one(args: argparse.Namespace, name: str, changes: dict[str, float]) -> dict[str, Any]:
    """Play the duel of one variant and return its per-deal points, fouls and fantasylands."""
    rules = get_rules(args.rules)
    rng = random.Random(args.seed)  # the seeding of ``thirteen duel``
    strong = make_bot("strong", rules, seed=rng.randrange(2**31))
    assert isinstance(strong, MonteCarloOFCBot)
    settings = dict(changes)
    strong.adapt = bool(settings.pop("adapt", 1.0))
    if settings:
        strong.model = strong.model.with_params(**settings)
    other = make_bot(args.opponent, rules, seed=rng.randrange(2**31))
    if isinstance(other, MonteCarloOFCBot):
        other.adapt = False
    started = time.perf_counter()
    result = play(
        rules, [strong, other], args.hands, seed=args.seed, budget=args.budget, duplicate=True
    )
    me, them = result.bots
    return {
        "variant": name,
        "settings": changes,
        "rules": rules.name,
        "opponent": args.opponent,
        "seed": args.seed,
        "budget": args.budget,
        "deals": result.deals,
        "hands": me.hands,
        "per_deal": me.per_hand,
        "fouls_per_deal": me.fouls_per_deal,
        "fantasylands_per_deal": me.fantasylands_per_deal,
        "fouls": me.fouls,
        "fantasylands": me.fantasylands_earned,
        "opponent_fouls": them.fouls,
        "opponent_fantasylands": them.fantasylands_earned,
        "opponent_fouls_per_deal": them.fouls_per_deal,
        "opponent_fantasylands_per_deal": them.fantasylands_per_deal,
        "seconds": time.perf_counter() - started,
        "careful_decisions": strong.careful_decisions,
        "decisions": strong.decisions,
        "read_foul_rate": strong.read.foul_rate,
    }


PER_DEAL = ("per_deal", "fouls_per_deal", "fantasylands_per_deal")
OPPONENT_PER_DEAL = ("opponent_fouls_per_deal", "opponent_fantasylands_per_deal")


def pooled(paths: list[Path]) -> dict[str, Any]:
    """One variant's runs (on different deals) as one run."""
    runs = [json.loads(path.read_text()) for path in paths]
    out = dict(runs[0])
    for key in (
        "deals",
        "hands",
        "fouls",
        "fantasylands",
        "opponent_fouls",
        "opponent_fantasylands",
        "seconds",
    ):
        out[key] = sum(r[key] for r in runs)
    for key in (*PER_DEAL, *OPPONENT_PER_DEAL):
        if all(key in r for r in runs):  # the opponent's are in runs since 2026-11-26
            out[key] = [x for r in runs for x in r[key]]
        else:
            out.pop(key, None)
    return out


def against_opponent(run: dict[str, Any], key: str, rotations: int) -> str:
    """The variant's rate minus its opponent's on the same cards, paired deal by deal (in
    duplicate both play every seat of every deal), when the run recorded the opponent's."""
    theirs = run.get(f"opponent_{key}")
    if theirs is None:
        return "—"
    return paired(run[key], theirs, rotations, True)


def rate(count: int, n: int) -> str:
    if n == 0:
        return "—"
    p = count / n
    half = Z95 * math.sqrt(p * (1 - p) / n)
    return f"{p:.1%} ± {half:.1%}"


def mean_ci(values: list[int] | list[float], per: int, percent: bool = False) -> str:
    mean = statistics.fmean(values) / per
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) / per
    if percent:
        return f"{mean:+.1%} [{mean - half:+.1%}, {mean + half:+.1%}]"
    return f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def paired(a: list[int], b: list[int], per: int, percent: bool = False) -> str:
    return mean_ci([x - y for x, y in zip(a, b, strict=True)], per, percent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", nargs="+", default=["base"])
    parser.add_argument("--rules", default="ofc-pineapple")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--budget", type=float, default=0.1)
    parser.add_argument("--out", nargs="+", default=["variants"])
    parser.add_argument(
        "--report",
        action="store_true",
        help="only print the table (of every --out directory pooled: other seeds' deals)",
    )
    args = parser.parse_args()
    variants = [parse(v) for v in args.variant]
    if not args.report:
        if len(args.out) != 1:
            parser.error("play into one --out directory (several only with --report)")
        out = args.out[0]
        Path(out).mkdir(exist_ok=True)
        for name, changes in variants:
            path = Path(out, f"{name}.json")
            if path.exists():
                continue
            found = one(args, name, changes)
            path.write_text(json.dumps(found), encoding="utf-8")
            print(f"{name}: {found['deals']} deals in {found['seconds']:.0f} s", flush=True)
    runs = [pooled([Path(d, f"{name}.json") for d in args.out]) for name, _ in variants]
    base = runs[0]
    print(
        "| variant | points/hand [95 %] | vs first, paired [95 %] | fouls | fouls vs first "
        "| fantasyland | fantasyland vs first | opponent fouls | opponent fantasyland "
        "| fouls, fantasyland vs the opponent's, paired | deals |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---:|")
    for f in runs:
        rotations = f["hands"] // f["deals"]
        first = f is base
        print(
            f"| {f['variant']} | {mean_ci(f['per_deal'], rotations)} "
            f"| {'—' if first else paired(f['per_deal'], base['per_deal'], rotations)} "
            f"| {rate(f['fouls'], f['hands'])} "
            f"| {'—' if first else paired(f['fouls_per_deal'], base['fouls_per_deal'], rotations, True)} "  # noqa: E501
            f"| {rate(f['fantasylands'], f['hands'])} "
            f"| {'—' if first else paired(f['fantasylands_per_deal'], base['fantasylands_per_deal'], rotations, True)} "  # noqa: E501
            f"| {rate(f['opponent_fouls'], f['hands'])} "
            f"| {rate(f['opponent_fantasylands'], f['hands'])} "
            f"| {against_opponent(f, 'fouls_per_deal', rotations)}, "
            f"{against_opponent(f, 'fantasylands_per_deal', rotations)} | {f['deals']} |"
        )


if __name__ == "__main__":
    main()
