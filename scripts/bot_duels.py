"""Run the duels of ``docs/duels.md`` one after another and print the results as Markdown.

Each duel is the command line shown in the table (``thirteen duel ... --duplicate --seed S
--json``), run as a subprocess so the figures come from exactly that command. Results are also
appended as JSON lines to ``--out``.

Usage: python scripts/bot_duels.py [--out duels.jsonl] [--only PRESET ...] [--quick]
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

OFC = ["ofc", "ofc-pineapple", "ofc-pineapple-progressive", "open-face-cards"]
CHINESE = ["chinese-1-6", "chinese-2-4", "chinese-1-4", "chinese-1-3"]
SEED = 2026
BUDGET = 0.1


def plan(quick: bool) -> list[list[str]]:
    """The duels: (preset, bots, deals, budget) as command lines."""
    scale = 10 if quick else 1
    duels: list[tuple[str, str, int, float]] = []
    for preset in OFC:
        duels.append((preset, "strong,heuristic", 400 // scale, BUDGET))
        duels.append((preset, "heuristic,random", 2000 // scale, BUDGET))
        duels.append((preset, "strong,random", 150 // scale, BUDGET))
    for preset in CHINESE:
        duels.append((preset, "strong,heuristic", 5000 // scale, BUDGET))
        duels.append((preset, "heuristic,random", 5000 // scale, BUDGET))
        duels.append((preset, "strong,random", 5000 // scale, BUDGET))
    return [
        [
            *("thirteen", "duel", "--rules", p, "--bots", b, "--hands", str(n), "--duplicate"),
            *("--seed", str(SEED), "--budget", f"{budget:g}", "--json"),
        ]
        for p, b, n, budget in duels
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("duels.jsonl"))
    parser.add_argument("--only", nargs="*", default=None, help="presets to run")
    parser.add_argument("--quick", action="store_true", help="a tenth of the deals")
    args = parser.parse_args()
    exe = Path(sys.executable).with_name("thirteen")
    print("| preset | duel | points/hand (bot 1) | 95 % interval | fouls | FL | deals | s |")
    print("|---|---|---|---|---|---|---|---|")
    for command in plan(args.quick):
        if args.only and command[3] not in args.only:
            continue
        start = time.perf_counter()
        done = subprocess.run([str(exe), *command[1:]], capture_output=True, text=True, check=True)
        seconds = time.perf_counter() - start
        data = json.loads(done.stdout)
        data["command"] = shlex.join(command)
        data["seconds"] = round(seconds, 1)
        with args.out.open("a", encoding="utf-8") as out:
            out.write(json.dumps(data) + "\n")
        one, two = data["bots"]
        low, high = one["ci95"]
        print(
            f"| {data['rules']} | {one['bot']} vs {two['bot']} | {one['points_per_hand']:+.2f} "
            f"| [{low:+.2f}, {high:+.2f}] | {one['foul_rate']:.1%} / {two['foul_rate']:.1%} "
            f"| {one['fantasyland_rate']:.1%} / {two['fantasyland_rate']:.1%} "
            f"| {data['deals']} | {seconds:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
