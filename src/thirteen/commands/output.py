"""What people read: rich tables on a terminal, plain lines anywhere else.

A table piped to another program or a file is printed as aligned plain lines (title, header,
one line per row), never wrapped, so a hand is never split across lines; long sentences are not
wrapped either. Machine-readable output is the ``--json`` of each command.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from thirteen.commands.plain import plain_lines


def _plain(cell: Any) -> str:
    if isinstance(cell, Text):
        return cell.plain
    if isinstance(cell, str):
        return Text.from_markup(cell).plain
    return str(cell)


def plain_table(table: Table) -> Text:
    """A rich table as :func:`~thirteen.commands.common.plain_lines`."""
    headers = [_plain(c.header) for c in table.columns]
    rows = list(zip(*([_plain(cell) for cell in c.cells] for c in table.columns), strict=True))
    right = [i for i, c in enumerate(table.columns) if c.justify == "right"]
    title = _plain(table.title) if table.title else ""
    return Text("\n".join(plain_lines(title, headers, rows, right)))


class PlainWhenPiped(Console):
    """A console that prints tables as plain lines, unwrapped, when it is not a terminal."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        if not self.is_terminal:
            objects = tuple(plain_table(o) if isinstance(o, Table) else o for o in objects)
            kwargs.setdefault("soft_wrap", True)
        super().print(*objects, **kwargs)


@cache
def shared_console() -> Console:
    """The console every command prints to (standard output)."""
    return PlainWhenPiped()
