"""``thirteen eval``: one JSON line per hand, with its category and strength.

Hands from standard input are read one line at a time and their answers kept in a temporary
file until every line has proved valid, so memory stays small however long the input is.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from typing import Annotated

import typer

from thirteen.commands.common import fail, input_lines
from thirteen.engine.cards import format_cards, parse_cards
from thirteen.engine.errors import RuleError
from thirteen.engine.evaluate import category_name, describe, evaluate, lowball


def _eval_line(text: str, where: str, low: bool) -> str:
    try:
        cards = parse_cards(text)
    except RuleError as e:
        fail(f"{where}: {e}")
    n = len(cards)
    if low:
        if n != 5:
            fail(f"{where}: a lowball hand has 5 cards, not {n}.")
        return json.dumps({"cards": format_cards(cards), "lowball": lowball(cards)})
    if n not in (3, 5):
        fail(f"{where}: a hand has 3 or 5 cards, not {n}.")
    strength = evaluate(cards)
    return json.dumps(
        {
            "cards": format_cards(cards),
            "category": category_name(strength),
            "strength": strength,
            "description": describe(strength),
        }
    )


def eval_command(
    cards: Annotated[
        list[str] | None,
        typer.Argument(help="One hand of 3 or 5 cards (e.g. As Ks Qd), or - to read stdin."),
    ] = None,
    low: Annotated[
        bool, typer.Option("--lowball", help="2-7 lowball value instead (5 cards).")
    ] = False,
) -> None:
    """Evaluate hands: one JSON object per hand with cards, category and strength.

    Strength is one int scale for 3- and 5-card hands; higher is stronger. With - every
    non-blank line of standard input is one hand; nothing is printed unless all are valid.
    """
    if not cards:
        fail("Give a hand (e.g. thirteen eval As Ks Qd) or - to read hands from stdin.")
    if cards != ["-"]:
        sys.stdout.write(_eval_line(" ".join(cards), "hand", low) + "\n")
        return
    with tempfile.SpooledTemporaryFile(1 << 20, "w+", encoding="utf-8") as answers:
        hands = 0
        for number, line in input_lines():
            if line.strip():
                answers.write(_eval_line(line, f"line {number}", low) + "\n")
                hands += 1
        if not hands:
            fail("Standard input holds no hands: give one hand per line.")
        answers.seek(0)
        shutil.copyfileobj(answers, sys.stdout)
