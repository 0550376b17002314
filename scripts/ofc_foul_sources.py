"""Where the strong OFC player's fouls come from: a duplicate duel of two strong players (the
seeding of ``thirteen duel``) with every street decision's analysis kept and joined to how the
hand ended, then a report:

- **calibration**: by street, the foul and fantasyland rates the sampling predicted for the
  option played against what the hands then did (the predictions come from rollouts by the
  heuristic, which plays the streets after the decision worse than the player itself does);
- **chases**: hands in which the player, before the last two streets, chose an option its own
  sampling gave at least ``--risk`` chance to foul (a fantasyland chase, nearly always: queens
  or better kept for the front) — their share of the hands, of the fouls, of the fantasylands,
  and what the safest option of those decisions would have given up.

Usage:
    PYTHONPATH=src python scripts/ofc_foul_sources.py [--rules ofc-pineapple] [--hands 300]
        [--seed 2040] [--budget 0.1] [--out fouls-2040.json]
    PYTHONPATH=src python scripts/ofc_foul_sources.py --report fouls-2040.json [more.json …]

The duel writes ``--out`` every ten deals (a stopped run keeps what it played). Measured
figures are in docs/duels.md ("Where the fouls come from").
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

from thirteen.bots.arena import play
from thirteen.bots.ofc_mc import Analysis, MonteCarloOFCBot
from thirteen.engine.history import HandHistory, replay
from thirteen.engine.rules import Rules, get_rules
from thirteen.engine.views import TableView

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ofc_variants import rate

LAST_STREETS = 2
"""Decisions this close to the end are not counted as a chase's start (the board is made)."""


class Recording(MonteCarloOFCBot):
    """The strong player, keeping each decision's analysis until its hand ends."""

    def __init__(self, rules: Rules, seed: int) -> None:
        super().__init__(rules, seed=seed)
        self.decisions: list[dict[str, Any]] = []

    def analyze(self, view: TableView, budget: float) -> Analysis:
        result = super().analyze(view, budget)
        assert view.hand is not None
        me = next(b for b in view.hand.boards if b.seat == view.viewer)
        sampled = [o for o in result.options if o.deals]
        safest = min(sampled, key=lambda o: (o.foul_rate, o.behind))
        best = result.best
        self.decisions.append(
            {
                "placed": len(me.front) + len(me.middle) + len(me.back),
                "foul": best.foul_rate,
                "fantasyland": best.fantasyland_rate,
                "deals": best.deals,
                "safest_foul": safest.foul_rate,
                "safest_fantasyland": safest.fantasyland_rate,
                "safest_behind": safest.behind,
            }
        )
        return result


def duel(args: argparse.Namespace) -> None:
    rules = get_rules(args.rules)
    rng = random.Random(args.seed)  # the seeding of ``thirteen duel``
    bots = [Recording(rules, rng.randrange(2**31)) for _ in range(2)]
    hands: list[dict[str, Any]] = []

    def on_hand(table: int, history: HandHistory) -> None:
        hand = replay(history).hand
        assert hand is not None
        assert hand.result is not None
        for board, player in zip(hand.boards, hand.result.players, strict=True):
            bot = bots[(board.seat + table) % len(bots)]  # ``play`` rotates bots by table
            hands.append(
                {
                    "foul": bool(player.foul),
                    "fantasyland": player.fantasyland_cards is not None,
                    "in_fantasyland": board.fantasyland is not None,
                    "decisions": bot.decisions,
                }
            )
            bot.decisions = []

    def on_deal(number: int) -> None:
        if number % 10 == 0 or number == args.hands:
            Path(args.out).write_text(json.dumps(hands), encoding="utf-8")
            print(f"{number} deals", file=sys.stderr, flush=True)

    play(
        rules,
        bots,
        args.hands,
        seed=args.seed,
        budget=args.budget,
        duplicate=True,
        on_hand=on_hand,
        on_deal=on_deal,
    )


def report(paths: list[str], risk: float) -> None:
    hands: list[dict[str, Any]] = []
    for path in paths:
        hands += json.loads(Path(path).read_text(encoding="utf-8"))
    normal = [h for h in hands if h["decisions"]]
    fouls = sum(h["foul"] for h in hands)
    lands = sum(h["fantasyland"] for h in hands)
    print(
        f"{len(hands)} hands ({len(hands) - len(normal)} in fantasyland): fouls "
        f"{rate(fouls, len(hands))}, fantasyland earned {rate(lands, len(hands))}"
    )
    print("\ncalibration: predicted (option played) against realized, hands on the streets")
    print(
        "| cards placed | predicted risk | hands | foul predicted | foul realized "
        "| fantasyland predicted | fantasyland realized |"
    )
    print("|---:|---|---:|---:|---|---:|---|")
    streets = sorted({d["placed"] for h in normal for d in h["decisions"]})
    for placed in streets[:-1]:
        for low, high in ((0.0, 0.1), (0.1, 0.3), (0.3, 1.01)):
            rows = [
                (d, h)
                for h in normal
                for d in h["decisions"]
                if d["placed"] == placed and low <= d["foul"] < high
            ]
            if not rows:
                continue
            n = len(rows)
            print(
                f"| {placed} | {low:.1f}–{min(high, 1.0):.1f} | {n} "
                f"| {statistics.mean(d['foul'] for d, _ in rows):.1%} "
                f"| {rate(sum(h['foul'] for _, h in rows), n)} "
                f"| {statistics.mean(d['fantasyland'] for d, _ in rows):.1%} "
                f"| {rate(sum(h['fantasyland'] for _, h in rows), n)} |"
            )
    last = streets[-LAST_STREETS] if len(streets) >= LAST_STREETS else 0
    chases: list[dict[str, Any]] = []
    rest: list[dict[str, Any]] = []
    for h in normal:
        chased = any(d["foul"] >= risk for d in h["decisions"] if d["placed"] < last)
        (chases if chased else rest).append(h)
    chase_fouls = sum(h["foul"] for h in chases)
    chase_lands = sum(h["fantasyland"] for h in chases)
    print(
        f"\nchases (an option with >= {risk:.0%} foul chosen before {last} cards were placed): "
        f"{len(chases)} hands ({len(chases) / len(normal):.1%} of those on the streets); "
        f"{chase_fouls} fouls ({rate(chase_fouls, len(chases))} of them; "
        f"{chase_fouls / max(1, fouls):.0%} of all fouls), {chase_lands} fantasylands "
        f"({rate(chase_lands, len(chases))}; {chase_lands / max(1, lands):.0%} of all)"
    )
    print(
        f"the other {len(rest)} hands: fouls {rate(sum(h['foul'] for h in rest), len(rest))}, "
        f"fantasyland {rate(sum(h['fantasyland'] for h in rest), len(rest))}"
    )
    risky = [d for h in chases for d in h["decisions"] if d["placed"] < last and d["foul"] >= risk]
    if not risky:
        return
    behind = sorted(d["safest_behind"] for d in risky)
    chosen = statistics.mean(d["foul"] for d in risky)
    print(
        f"the {len(risky)} risky decisions: chosen foul {chosen:.1%}"
        f" fantasyland {statistics.mean(d['fantasyland'] for d in risky):.1%}; their safest "
        f"option foul {statistics.mean(d['safest_foul'] for d in risky):.1%} fantasyland "
        f"{statistics.mean(d['safest_fantasyland'] for d in risky):.1%}, behind by a median "
        f"{behind[len(behind) // 2]:.2f} points (ranking value, foul aversion included)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="ofc-pineapple")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2040)
    parser.add_argument("--budget", type=float, default=0.1)
    parser.add_argument("--out", default="fouls.json")
    parser.add_argument("--risk", type=float, default=0.3)
    parser.add_argument("--report", nargs="+", metavar="JSON")
    args = parser.parse_args()
    if args.report:
        report(args.report, args.risk)
    else:
        duel(args)
        report([args.out], args.risk)


if __name__ == "__main__":
    main()
