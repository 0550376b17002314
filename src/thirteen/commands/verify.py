"""``thirteen verify``: check a hand history's deal against its commitment and its replay."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from thirteen.commands.common import console, fail, parse_json, read_text
from thirteen.engine.errors import RuleError
from thirteen.engine.history import history_from_text, verify_history


def load_history(source: str) -> Any:
    """A history from a file (JSON, or the text form) or ``-``."""
    text = read_text(source)
    name = "standard input" if source == "-" else source
    if text.lstrip().startswith("#"):
        try:
            return history_from_text(text)
        except (RuleError, ValueError, KeyError, IndexError) as e:
            fail(f"{name} is not a readable text hand history ({e}).")
    return parse_json(text, name)


def verify(
    source: Annotated[str, typer.Argument(metavar="FILE", help="A hand history (JSON or text).")],
) -> None:
    """Check a hand history: the deal against the published commitment, and (when the history
    is full) that the actions replay to the recorded result. Exit code 2 when it does not verify."""
    data = load_history(source)
    report = verify_history(data)
    for check in report.checks:
        console.print(f"[green]ok[/]  {check}")
    if not report.ok:
        fail("the history does not verify: " + "; ".join(report.problems) + ".")
