"""``thirteen simulate``: random players in every seat, hand after hand, on a real table."""

from __future__ import annotations

import random
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from thirteen.bots.arena import ArenaResult, play
from thirteen.bots.base import RandomBot
from thirteen.commands.common import console, emit, fail
from thirteen.commands.histories import HistoriesOption, HistoryWriter, history_name
from thirteen.engine.rules import get_rules


def progress_bar() -> Progress:
    """A progress bar on stderr, so JSON on stdout stays clean."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )


def arena_json(result: ArenaResult) -> dict[str, Any]:
    return {
        "hands": result.deals,
        "totals": [b.points for b in result.bots],
        "foul_rate": [round(b.foul_rate, 6) for b in result.bots],
        "fantasyland_rate": [round(b.fantasyland_rate, 6) for b in result.bots],
        "hands_per_second": round(result.hands_per_second, 3),
        "engine_share": round(result.seconds_engine / result.seconds_total, 4)
        if result.seconds_total
        else 0.0,
        "player_share": round(result.seconds_bots / result.seconds_total, 4)
        if result.seconds_total
        else 0.0,
    }


def simulate(
    rules_name: Annotated[str, typer.Option("--rules", help="Preset to play.")] = "chinese-1-6",
    players: Annotated[int, typer.Option("--players", help="Players at the table.")] = 2,
    hands: Annotated[int, typer.Option("--hands", help="Hands to play.")] = 100,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Reproducible deals (tests and benchmarks only).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")] = False,
    histories: HistoriesOption = None,
) -> None:
    """Play hands with a simple legal random player in every seat and report what happened."""
    rules = get_rules(rules_name)
    if not 2 <= players <= rules.max_players:
        fail(f"{rules.name} is played by 2 to {rules.max_players} players, not {players}.")
    if hands < 1:
        fail("Play at least one hand (--hands 1 or more).")
    writer = None if histories is None else HistoryWriter(histories)
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(rng.random()), surrender_rate=0.01) for _ in range(players)]
    with progress_bar() as bar:
        task = bar.add_task(f"{rules.name}, {players} players", total=hands)
        result = play(
            rules,
            bots,
            hands,
            seed=seed,
            on_deal=lambda done: bar.update(task, completed=done),
            on_hand=None
            if writer is None
            else lambda _, history: writer.write(history, history_name(rules.name, history)),
        )
    if as_json:
        emit({"rules": rules.name, "players": players, **arena_json(result)})
        return
    table = Table(title=f"{hands} hands of {rules.name}, {players} random players")
    for column in ("seat", "points", "per hand", "fouls", "fantasyland"):
        table.add_column(column, justify="right")
    for seat, b in enumerate(result.bots):
        table.add_row(
            str(seat),
            f"{b.points:+d}",
            f"{b.points / hands:+.3f}",
            f"{b.foul_rate:.1%}",
            f"{b.fantasyland_rate:.1%}",
        )
    console.print(table)
    share = result.seconds_engine / result.seconds_total if result.seconds_total else 0.0
    console.print(
        f"{result.hands_per_second:,.0f} hands per second "
        f"({share:.0%} of the time in the engine, the rest in the players)"
    )
    if writer is not None:
        console.print(writer.summary(), highlight=False, soft_wrap=True)
