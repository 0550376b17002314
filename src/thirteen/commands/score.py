"""``thirteen score``: the showdown of every player's final hand, as JSON."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from thirteen.commands.common import emit, fail, load_json, quote
from thirteen.engine.notation import showdown_to_json, showing_from_json
from thirteen.engine.rules import Rules, get_rules
from thirteen.engine.scoring import score

MAX_INPUT = 1024 * 1024
"""Largest showdown input read: a table of four is well under a kilobyte."""


def _rules_from_input(data: dict[str, Any], option: str | None) -> Rules:
    name = data.get("rules")
    if name is not None and not isinstance(name, str):
        fail('"rules" must be a preset name such as "chinese-1-6".')
    if option and name and get_rules(option).name != get_rules(name).name:
        fail(f"The input says rules {quote(name)} but --rules says {quote(option)}; give only one.")
    overrides = data.get("rules_overrides", {})
    if not isinstance(overrides, dict):
        fail('"rules_overrides" must be an object of settings.')
    return get_rules(option or name or "chinese-1-6", overrides)


def score_command(
    source: Annotated[
        str, typer.Argument(metavar="[FILE|-]", help="JSON input; - is stdin.")
    ] = "-",
    rules_name: Annotated[
        str | None, typer.Option("--rules", help="Preset, when the input names none.")
    ] = None,
) -> None:
    """Score a showdown given every player's final hand; prints JSON.

    Input: {"rules": PRESET, "rules_overrides": {...}, "players": [{"front": "Qs Qd 2c",
    "middle": "...", "back": "..."} | {"natural": "six-pairs", "cards": "..."} |
    {"surrender": true, "cards": "..."}, optionally with "in_fantasyland": true]}.
    Every hand shows its 13 cards.
    """
    data = load_json(source, MAX_INPUT)
    if not isinstance(data, dict):
        fail('The input must be a JSON object with "players".')
    unknown = set(data) - {"rules", "rules_overrides", "players"}
    if unknown:
        field = quote(sorted(unknown)[0], mark="'")
        fail(f"Unknown field {field}; use rules, rules_overrides and players.")
    rules = _rules_from_input(data, rules_name)
    players = data.get("players")
    if not isinstance(players, list):
        fail('"players" must be a list of hands.')
    if len(players) > rules.max_players:
        seats = rules.max_players
        fail(f"A {rules.name} table seats at most {seats}; the input has {len(players):,} players.")
    hands = [showing_from_json(p, f"player {i}") for i, p in enumerate(players, 1)]
    result = score(rules, hands)
    emit({"rules": rules.name, **showdown_to_json(result)})
