"""``thirteen demo`` (what ``make run`` shows until the card room exists): the bots play a hand
of every preset on a real table, and the showdown is printed."""

from __future__ import annotations

import random
from typing import Annotated

import typer
from rich.table import Table

from thirteen.bots.arena import play_hand, seated_table, seeded_deal
from thirteen.bots.registry import make_bot
from thirteen.commands.common import check_budget, console
from thirteen.commands.histories import HistoriesOption, HistoryWriter, history_name
from thirteen.engine.cards import Card, format_cards
from thirteen.engine.deck import fresh_deal
from thirteen.engine.evaluate import describe, evaluate
from thirteen.engine.rules import PRESETS
from thirteen.engine.state import TableState

SEATS = ("strong", "heuristic", "random")
"""The bot level in each seat, as far as the game has seats."""


def _row(cards: tuple[Card, ...]) -> str:
    return f"{format_cards(cards)}  [dim]{describe(evaluate(cards))}[/]" if cards else ""


def showdown_table(state: TableState, levels: list[str], title: str) -> Table:
    """The finished hand of ``state``: each seat's rows, royalties, fantasyland and total."""
    hand = state.hand
    assert hand is not None
    assert hand.result is not None
    table = Table(title=title, title_justify="left")
    for column in ("seat", "front", "middle", "back", "royalties", "total", "FL next"):
        table.add_column(
            column, justify="left" if column in ("seat", "front", "middle", "back") else "right"
        )
    seats = sorted(zip(hand.boards, hand.result.players, strict=True), key=lambda bp: bp[0].seat)
    for board, player in seats:
        seat = f"{board.seat} {levels[board.seat]}"
        if board.in_fantasyland:
            seat += " [magenta](fantasyland)[/]"
        if player.natural is not None:
            rows = [player.natural.title, format_cards(player.natural.middle), ""]
        elif player.surrendered:
            rows = ["[dim]surrendered[/]", "", ""]
        else:
            rows = [_row(board.front), _row(board.middle), _row(board.back)]
            if player.foul:
                rows[0] = "[red]FOUL[/] " + rows[0]
        upcoming = f"{player.fantasyland_cards} cards" if player.fantasyland else ""
        table.add_row(seat, *rows, str(player.royalties), f"[bold]{player.total:+d}[/]", upcoming)
    return table


def demo(
    hands: Annotated[int, typer.Option(min=1, max=20, help="Hands per preset.")] = 1,
    seed: Annotated[int | None, typer.Option(help="Seed the deals and the bots.")] = None,
    budget: Annotated[
        float, typer.Option(help="Seconds the strong bot thinks per decision (at most 5).")
    ] = 0.05,
    histories: HistoriesOption = None,
) -> None:
    """Bots (strong, heuristic, random) play hands of every preset on a real table."""
    writer = None if histories is None else HistoryWriter(histories)
    check_budget(budget, "--budget", "per decision", 5.0)
    rng = random.Random(seed)
    for name, rules in PRESETS.items():
        levels = list(SEATS[: min(rules.max_players, len(SEATS))])
        bots = [
            make_bot(level, rules, seed=None if seed is None else rng.randrange(2**31))
            for level in levels
        ]
        state, clock = seated_table(rules, len(bots)), 0.0
        for number in range(1, hands + 1):
            deal = seeded_deal(rng) if seed is not None else fresh_deal()
            with console.status(f"{name}: the bots are playing hand {number}…"):
                played = play_hand(
                    state, bots, deal, clock, budget=budget, record=writer is not None
                )
            state, clock = played.state, played.clock
            console.print(showdown_table(state, levels, f"{name}, hand {number}"))
            if writer is not None and played.history is not None:
                writer.write(played.history, history_name(name, played.history))
    if writer is not None:
        console.print(writer.summary(), highlight=False, soft_wrap=True)
