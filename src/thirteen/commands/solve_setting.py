"""``thirteen solve setting``: the best way to set 13 Chinese Poker cards.

Input is validated before anything is printed: with ``-`` every non-blank line of standard input
is one hand of 13 cards, and one bad line refuses the whole input.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from thirteen.bots.setter import SetterChoice, SetterTablesError, Setting, best_setting
from thirteen.commands.common import console, emit, fail, hand_texts
from thirteen.engine.cards import RANKS, Card, format_cards, parse_cards, rank_of
from thirteen.engine.errors import RuleError
from thirteen.engine.evaluate import describe, evaluate
from thirteen.engine.naturals import NATURAL_TITLES
from thirteen.engine.rules import PRESETS, Rules, get_rules


def _rules(name: str, overrides: str | None, lowball: bool) -> Rules:
    changes: dict[str, Any] = {}
    if overrides:
        try:
            loaded = json.loads(overrides)
        except json.JSONDecodeError as e:
            fail(f"--overrides is not valid JSON: {e.msg}.")
        if not isinstance(loaded, dict):
            fail('--overrides must be a JSON object of settings, e.g. {"surrender": false}.')
        changes.update(loaded)
    if lowball:
        changes["lowball_middle"] = True
    rules = get_rules(name, changes or None)
    if rules.game != "chinese":
        chinese = ", ".join(n for n, r in PRESETS.items() if r.game == "chinese")
        fail(f"{rules.name} is an OFC game; the setter plays Chinese Poker ({chinese}).")
    return rules


def _hand(text: str, where: str) -> list[Card]:
    try:
        cards = parse_cards(text)
    except RuleError as e:
        fail(f"{where}: {e}")
    if len(cards) != 13:
        fail(f"{where}: a Chinese Poker hand has 13 cards, not {len(cards)}.")
    return cards


def _setting_json(s: Setting) -> dict[str, Any]:
    return {
        "front": format_cards(s.front),
        "middle": format_cards(s.middle),
        "back": format_cards(s.back),
        "ev": round(s.ev, 4),
    }


def _choice_json(cards: list[Card], rules: Rules, choice: SetterChoice) -> dict[str, Any]:
    out: dict[str, Any] = {
        "cards": format_cards(cards),
        "rules": rules.name,
        "front": format_cards(choice.front),
        "middle": format_cards(choice.middle),
        "back": format_cards(choice.back),
        "ev": round(choice.ev, 4),
        "natural": choice.natural,
        "surrender": choice.surrender,
        "play_ev": round(choice.play_ev, 4),
    }
    if choice.alternatives:
        out["alternatives"] = [_setting_json(s) for s in choice.alternatives]
    return out


def _describe(cards: tuple[Card, ...], row: str, rules: Rules, natural: bool) -> str:
    if row == "middle" and rules.lowball_middle and not natural:
        ranks = "-".join(RANKS[rank_of(c)] for c in sorted(cards, reverse=True))
        return f"2-7 low {ranks}"
    return describe(evaluate(cards))


def _render(cards: list[Card], rules: Rules, choice: SetterChoice) -> None:
    table = Table(title=f"{format_cards(cards)}  [dim]({rules.name})[/]", title_justify="left")
    table.add_column("row", style="bold")
    table.add_column("cards")
    table.add_column("hand", style="dim")
    for row, shown in (("front", choice.front), ("middle", choice.middle), ("back", choice.back)):
        table.add_row(
            row, format_cards(shown), _describe(shown, row, rules, choice.natural is not None)
        )
    console.print(table)
    if choice.natural is not None:
        title = NATURAL_TITLES[choice.natural]
        console.print(
            f"[bold green]Declare {title}[/]: worth {choice.ev:+.2f} per opponent "
            f"(playing the best setting: {choice.play_ev:+.2f})."
        )
    elif choice.surrender:
        console.print(
            f"[bold red]Surrender[/] ({choice.ev:+.2f} per opponent): the best setting above "
            f"is expected to lose more ({choice.play_ev:+.2f})."
        )
    else:
        console.print(f"Expected: [bold]{choice.ev:+.2f}[/] units per opponent.")
    for number, alt in enumerate(choice.alternatives, 2):
        console.print(
            f"  [dim]#{number}: {format_cards(alt.front)} | {format_cards(alt.middle)} | "
            f"{format_cards(alt.back)}  {alt.ev:+.3f}[/]"
        )


def setting_command(
    cards: Annotated[
        list[str] | None,
        typer.Argument(help="13 cards (e.g. As Ad Kc …), or - to read one hand per line."),
    ] = None,
    rules_name: Annotated[
        str, typer.Option("--rules", help="Chinese Poker preset (chinese-1-6, chinese-2-4, …).")
    ] = "chinese-1-6",
    lowball: Annotated[
        bool, typer.Option("--lowball-middle", help="Play the 2-7 lowball middle variant.")
    ] = False,
    overrides: Annotated[
        str | None,
        typer.Option("--overrides", help='Other settings as JSON, e.g. {"surrender": false}.'),
    ] = None,
    top: Annotated[
        int, typer.Option("--top", min=0, max=20, help="Also list the next best settings.")
    ] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per hand.")] = False,
) -> None:
    """Find the best setting of 13 cards, and whether to declare a natural or surrender.

    "ev" is the expected units won from each opponent (naturals and surrenders included).
    With --json each hand prints one line: cards, rules, front, middle, back, ev, natural,
    surrender, play_ev (and alternatives with --top).
    """
    if not cards:
        fail("Give 13 cards (e.g. thirteen solve setting As Ad Kc …) or - to read stdin.")
    rules = _rules(rules_name, overrides, lowball)
    hands = [_hand(text, where) for text, where in hand_texts(cards, "hand")]
    try:
        choices = [best_setting(hand, rules, alternatives=top) for hand in hands]
    except SetterTablesError as e:
        fail(str(e))
    for hand, choice in zip(hands, choices, strict=True):
        if as_json:
            emit(_choice_json(hand, rules, choice))
        else:
            _render(hand, rules, choice)
