"""``--histories DIR``: write every hand a command plays as histories ``thirteen verify`` checks.

Each hand gives ``NAME.json`` and ``NAME.txt`` (the full history: the whole deck, every action,
the result) and, for each seat dealt in, ``NAME-seatN.json`` and ``NAME-seatN.txt``: that
player's copy, opening only the cards they saw.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from thirteen.commands.common import fail
from thirteen.engine.history import HandHistory, history_to_json, redact_history
from thirteen.engine.history_text import history_to_text

HistoriesOption = Annotated[
    Path | None,
    typer.Option(
        "--histories",
        metavar="DIR",
        help="Write each hand's history (JSON and text) and each seat's own copy into DIR.",
    ),
]


class HistoryWriter:
    """Writes histories into one directory (made if missing)."""

    def __init__(self, directory: Path) -> None:
        if directory.exists() and not directory.is_dir():
            fail(f"--histories {directory}: that is a file, not a directory.")
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            fail(f"--histories {directory}: cannot make the directory ({e.strerror}).")
        self.directory = directory
        self.written = 0

    def write(self, history: HandHistory, name: str) -> None:
        """Write the full history as ``name`` and each dealt-in seat's copy as ``name-seatN``."""
        full = history_to_json(history)
        self._write(name, full)
        for seat in sorted(full["result"]["seats"] if full["result"] else []):
            self._write(f"{name}-seat{seat}", redact_history(history, seat))
        self.written += 1

    def summary(self) -> str:
        """One line: how many hands were written where, and how to check them."""
        return (
            f"{self.written} hand histories in {self.directory} (NAME.json / NAME.txt, and each "
            f"seat's copy NAME-seatN.*); check one with: thirteen verify FILE"
        )

    def _write(self, name: str, data: dict[str, Any]) -> None:
        path = self.directory / name
        try:
            Path(f"{path}.json").write_text(
                json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
            )
            Path(f"{path}.txt").write_text(history_to_text(data), encoding="utf-8")
        except OSError as e:
            fail(f"Cannot write the history {path}: {e.strerror}.")


def history_name(rules: str, history: HandHistory, table: int | None = None) -> str:
    """``RULES-hand-00001`` (``RULES-table2-hand-00001`` when a command plays several tables)."""
    where = "" if table is None else f"-table{table}"
    return f"{rules}{where}-hand-{history.start.hands_played + 1:05d}"


__all__ = ["HistoriesOption", "HistoryWriter", "history_name"]
