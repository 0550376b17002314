"""``thirteen simulate``'s speed: hands per second for every preset with random players."""

from __future__ import annotations

import random

from thirteen.bench.report import Report
from thirteen.bots.arena import play
from thirteen.bots.base import RandomBot
from thirteen.engine.rules import PRESETS


def bench_simulate(hands: int = 300) -> Report:
    """``thirteen simulate``'s hands per second for every preset (random players, 3 seats or
    the most the game allows), and how the time splits between the engine and the players."""
    report = Report("simulate")
    for name, rules in PRESETS.items():
        players = min(3, rules.max_players)
        bots = [RandomBot(random.Random(i)) for i in range(players)]
        result = play(rules, bots, hands, seed=1)
        report.rows.append((f"{name} ({players} players)", result.hands_per_second, "hands/s"))
        engine = result.seconds_engine / result.seconds_total
        player = result.seconds_bots / result.seconds_total
        report.rows.append(
            (f"{name}: engine / players share", 100 * engine, f"% / {100 * player:.0f} %")
        )
        report.ratios[f"{name}: engine time per player time"] = (
            result.seconds_engine / result.seconds_bots if result.seconds_bots else float("inf")
        )
    report.notes.append(
        "engine = apply + who acts + legal actions (+ the view, for a player that reads one: "
        "the random player reads only its legal actions); players = the random bot choosing a "
        "move; the rest is the arena's own bookkeeping."
    )
    return report


__all__ = ["bench_simulate"]
