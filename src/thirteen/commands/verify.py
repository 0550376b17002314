"""``thirteen verify``: check everything a hand history states, and say exactly what was checked."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from thirteen.commands.common import console, fail, parse_json, read_text
from thirteen.engine.history import Verification, verify_history, verify_text

VERIFIED, FAILED, UNREADABLE, PARTIAL = 0, 1, 2, 3
"""Exit codes: everything verified; something is false; not a readable history; only part of it
could be verified (a player's copy)."""

TEXT_START = "# Thirteen hand history"


def load_history(source: str) -> str | Any:
    """A text history (as text) or a JSON history (parsed) from a file or ``-``."""
    text = read_text(source)
    if text.removeprefix("\ufeff").startswith(TEXT_START):
        return text
    return parse_json(text, "standard input" if source == "-" else source)


def verify(
    source: Annotated[
        str, typer.Argument(metavar="FILE", help="A hand history (JSON or text), or - for stdin.")
    ],
) -> None:
    """Check everything a hand history states: its header (hand number, rules, seats, stacks)
    and its deck against the commitment published before the deal, and — for a full history —
    that every action replays in time order, each decision within its deadline, to the recorded
    result. In the text form, every line must be what the history gives.

    Exit 0: everything in the file is verified. Exit 3: a player's copy — its opened cards match
    the commitment, but its actions and result cannot be replayed (the room's signature will
    prove them). Exit 1: something the file states is false. Exit 2: not a readable history.
    """
    loaded = load_history(source)
    report = verify_text(loaded) if isinstance(loaded, str) else verify_history(loaded)
    finish(report)


def finish(report: Verification) -> None:
    """Print what was checked and exit with the code of the report's status."""
    if report.status == "unreadable":
        fail(f"not a readable hand history: {report.problems[0]}")
    for check in report.checks:
        console.print(f"[green]ok[/]  {check}", highlight=False, soft_wrap=True)
    if report.status == "failed":
        sys.stderr.write(
            "thirteen: the history does not verify: " + "; ".join(report.problems) + ".\n"
        )
        raise typer.Exit(FAILED)
    for item in report.unchecked:
        console.print(f"[yellow]not checked[/]  {item}", highlight=False, soft_wrap=True)
    if report.status == "partial":
        console.print(
            f"partly verified: only what is marked ok is proven. Compare the commitment "
            f"{report.commitment} with the one the table published before the deal.",
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(PARTIAL)
    console.print(
        f"verified: everything in this history holds. Compare the commitment {report.commitment} "
        "with the one the table published before the deal.",
        highlight=False,
        soft_wrap=True,
    )
