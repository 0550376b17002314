"""``thirteen duel``: bots against each other on a real table, with a confidence interval.

Each bot's result is its points per hand with a 95 % interval from the spread of its per-deal
points (deals are independent; with ``--duplicate`` a deal's points are summed over the seat
rotations, which cancels most of the card luck).
"""

from __future__ import annotations

import math
import random
import statistics
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from thirteen.bots.arena import ArenaResult, BotStats, play
from thirteen.bots.base import Bot
from thirteen.bots.registry import make_bot
from thirteen.commands.common import MAX_BUDGET, check_budget, console, emit, fail
from thirteen.commands.histories import HistoriesOption, HistoryWriter, history_name
from thirteen.engine.rules import get_rules

Z95 = 1.959963984540054


def interval(stats: BotStats, rotations: int) -> tuple[float, float, float]:
    """Points per hand and its 95 % interval ``(mean, low, high)`` from per-deal points.

    With fewer than two deals the interval is unknown (``nan``).
    """
    deals = stats.per_hand
    mean = stats.points / stats.hands if stats.hands else 0.0
    if len(deals) < 2:
        return mean, math.nan, math.nan
    half = Z95 * statistics.stdev(deals) / math.sqrt(len(deals)) / rotations
    return mean, mean - half, mean + half


def progress_bar(unit: str = "deals") -> Progress:
    """``unit`` done of all, time spent and left, on stderr (so JSON on stdout stays clean); only
    on a terminal, and removed when the run ends (a duel's deals, a review's decisions)."""
    err = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )


def duel_json(
    result: ArenaResult, labels: list[str], rotations: int, settings: dict[str, Any]
) -> dict[str, Any]:
    """The duel's results as JSON-ready data."""
    bots = []
    for label, stats in zip(labels, result.bots, strict=True):
        mean, low, high = interval(stats, rotations)
        bots.append(
            {
                "bot": label,
                "hands": stats.hands,
                "points": stats.points,
                "points_per_hand": round(mean, 6),
                "ci95": None if math.isnan(low) else [round(low, 6), round(high, 6)],
                "foul_rate": round(stats.foul_rate, 6),
                "fantasyland_rate": round(stats.fantasyland_rate, 6),
                "hands_in_fantasyland": stats.hands_in_fantasyland,
            }
        )
    return {
        **settings,
        "deals": result.deals,
        "tables_per_deal": rotations,
        "bots": bots,
        "hands_per_second": round(result.hands_per_second, 3),
        "seconds_bots": round(result.seconds_bots, 3),
    }


def duel(
    rules_name: Annotated[str, typer.Option("--rules", help="Preset to play.")] = "ofc-pineapple",
    bots_text: Annotated[
        str,
        typer.Option(
            "--bots", help="Bots by level, one per seat: e.g. expert,club (beginner, random, …)."
        ),
    ] = "heuristic,random",
    hands: Annotated[int, typer.Option("--hands", help="Deals to play.")] = 100,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate",
            help="Play each deal once per rotation of the bots over the seats (same cards).",
        ),
    ] = False,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Reproducible deals and bots (a seeded bot works by count)."),
    ] = None,
    budget: Annotated[
        float, typer.Option("--budget", help="Seconds each bot may think per decision.")
    ] = 0.1,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")] = False,
    histories: HistoriesOption = None,
) -> None:
    """Play bots against each other and report points per hand with a 95 % interval."""
    rules = get_rules(rules_name)
    names = [n.strip() for n in bots_text.split(",")]
    if any(not n for n in names):
        fail("--bots lists bot levels separated by commas, e.g. strong,heuristic.")
    if not 2 <= len(names) <= rules.max_players:
        fail(f"{rules.name} is played by 2 to {rules.max_players} bots, not {len(names)}.")
    if hands < 1:
        fail("Play at least one hand (--hands 1 or more).")
    writer = None if histories is None else HistoryWriter(histories)
    check_budget(budget, "--budget", "per decision", MAX_BUDGET)
    rng = random.Random(seed)
    bots: list[Bot] = [
        make_bot(name, rules, seed=None if seed is None else rng.randrange(2**31)) for name in names
    ]
    labels = [f"{i + 1}:{name.lower()}" for i, name in enumerate(names)]
    rotations = len(bots) if duplicate else 1
    with progress_bar() as bar:
        task = bar.add_task(f"{rules.name}: {' vs '.join(labels)}", total=hands)
        result = play(
            rules,
            bots,
            hands,
            seed=seed,
            budget=budget,
            duplicate=duplicate,
            on_deal=lambda done: bar.update(task, completed=done),
            on_hand=None
            if writer is None
            else lambda table, history: writer.write(
                history, history_name(rules.name, history, table if duplicate else None)
            ),
        )
    settings = {
        "rules": rules.name,
        "duplicate": duplicate,
        "seed": seed,
        "budget": budget,
    }
    if as_json:
        emit(duel_json(result, labels, rotations, settings))
        return
    mode = f"duplicate, {rotations} tables per deal" if duplicate else "one table"
    table = Table(title=f"{rules.name}: {hands} deals ({mode}), budget {budget:g} s per decision")
    table.add_column("bot", justify="left")
    for column in ("points/hand", "95% interval", "fouls", "fantasyland", "hands"):
        table.add_column(column, justify="right")
    for label, stats in zip(labels, result.bots, strict=True):
        mean, low, high = interval(stats, rotations)
        shown = "n/a" if math.isnan(low) else f"[{low:+.3f}, {high:+.3f}]"
        table.add_row(
            label,
            f"{mean:+.3f}",
            shown,
            f"{stats.foul_rate:.1%}",
            f"{stats.fantasyland_rate:.1%}",
            str(stats.hands),
        )
    console.print(table)
    console.print(
        f"{result.deals:,} deals, {result.hands_played:,} hands each in "
        f"{result.seconds_total:,.1f} s ({result.hands_per_second:,.1f} hands per second); "
        f"{result.seconds_bots:,.1f} s thinking in total"
    )
    if writer is not None:
        console.print(writer.summary(), highlight=False, soft_wrap=True)
