"""``thirteen solve fantasyland``: the exact best setting of a fantasyland hand."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

from thirteen.bots.fantasyland import FantasylandSolution, solve_fantasyland
from thirteen.commands.common import console, emit, fail, hand_texts
from thirteen.engine.cards import Card, format_cards, parse_cards
from thirteen.engine.errors import RuleError
from thirteen.engine.evaluate import describe
from thirteen.engine.royalties import ROWS
from thirteen.engine.rules import Rules, get_rules

DEFAULT_PRESETS = {13: "ofc", 14: "ofc-pineapple"}
"""The preset used for a hand of this size when none is given; 15 to 17 cards: progressive."""
PROGRESSIVE = "ofc-pineapple-progressive"


def default_preset(size: int) -> str:
    """The preset whose fantasyland deals ``size`` cards (15 to 17: progressive)."""
    return DEFAULT_PRESETS.get(size, PROGRESSIVE)


def _fantasyland_rules(name: str) -> Rules:
    rules = get_rules(name)
    if not rules.fantasyland:
        fail(f"{rules.name} has no fantasyland.")
    return rules


def _read_hand(text: str, where: str, rules: Rules | None) -> tuple[list[Card], Rules]:
    """Cards and rules for one hand, or a refusal naming ``where`` it came from."""
    prefix = f"{where}: " if where else ""
    try:
        cards = parse_cards(text)
    except RuleError as e:
        fail(f"{prefix}{e}")
    if not 13 <= len(cards) <= 17:
        fail(f"{prefix}a fantasyland hand has 13 to 17 cards, not {len(cards)}.")
    if rules is None:
        return cards, _fantasyland_rules(default_preset(len(cards)))
    sizes = dealt_sizes(rules)
    if len(cards) not in sizes:
        dealt = " or ".join(map(str, sizes))
        fail(f"{prefix}fantasyland in {rules.name} deals {dealt} cards, not {len(cards)}.")
    return cards, rules


def dealt_sizes(rules: Rules) -> list[int]:
    """How many cards a fantasyland of these rules may deal, fewest first."""
    sizes = {cards for _, cards in rules.fantasyland_entry}
    if rules.fantasyland_repeat_cards is not None:
        sizes.add(rules.fantasyland_repeat_cards)
    return sorted(sizes)


def _as_json(cards: list[Card], rules: Rules, best: FantasylandSolution) -> dict[str, Any]:
    return {
        "cards": format_cards(cards),
        "rules": rules.name,
        "front": format_cards(best.front),
        "middle": format_cards(best.middle),
        "back": format_cards(best.back),
        "discards": format_cards(best.discards),
        "royalties": best.royalties,
        "royalty_rows": dict(zip(ROWS, best.royalty_rows, strict=True)),
        "hands": {row: describe(s) for row, s in zip(ROWS, best.strengths, strict=True)},
        "stays": best.stays,
        "stay_value": best.stay_value,
        "value": best.value,
    }


def _show(cards: list[Card], rules: Rules, best: FantasylandSolution) -> None:
    table = Table(
        title=f"fantasyland: {len(cards)} cards, {rules.name}",
        title_justify="left",
    )
    table.add_column("row")
    table.add_column("cards", no_wrap=True)
    table.add_column("hand")
    table.add_column("royalties", justify="right")
    for row, row_cards, strength, units in zip(
        ROWS,
        (best.front, best.middle, best.back),
        best.strengths,
        best.royalty_rows,
        strict=True,
    ):
        table.add_row(row, format_cards(row_cards), describe(strength), str(units))
    table.add_row("discards", format_cards(best.discards) or "-", "", "")
    console.print(table)
    stays = (
        f"[bold]stays[/] in fantasyland (worth {best.stay_value:g})"
        if best.stays
        else "does not stay in fantasyland"
    )
    console.print(
        f"royalties [bold]{best.royalties}[/] · {stays} · value [bold]{best.value:g}[/]",
        highlight=False,
    )


def fantasyland_command(
    cards: Annotated[
        list[str] | None,
        typer.Argument(help="13 to 17 cards (e.g. As Ad Kh ...), or - for one hand per line."),
    ] = None,
    rules_name: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help="Preset (default by hand size: 13 ofc, 14 ofc-pineapple, "
            "15-17 ofc-pineapple-progressive).",
        ),
    ] = None,
    stay_value: Annotated[
        float | None,
        typer.Option(
            "--stay-value",
            help="What staying in fantasyland is worth in royalty units (default per preset).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per hand.")] = False,
) -> None:
    """The best way to set a fantasyland hand: most royalties plus the worth of staying.

    Never fouls. With - every non-blank line of standard input is one hand; nothing is printed
    unless every line is valid.
    """
    if not cards:
        fail("Give 13 to 17 cards (e.g. thirteen solve fantasyland As Ad Kh ...) or -.")
    rules = _fantasyland_rules(rules_name) if rules_name else None
    hands = [_read_hand(text, where, rules) for text, where in hand_texts(cards, "")]
    solved = [(hand, r, solve_fantasyland(hand, r, stay_value=stay_value)) for hand, r in hands]
    for hand, r, best in solved:
        if as_json:
            emit(_as_json(hand, r, best))
        else:
            _show(hand, r, best)
