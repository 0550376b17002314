"""Tables as plain lines, for output that is not a terminal (no import of rich needed)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

ALIGN_UP_TO = 40
"""In plain tables, cells longer than this do not widen their column: they run on."""


def plain_lines(
    title: str, headers: Sequence[str], rows: Sequence[Sequence[str]], right: Collection[int] = ()
) -> list[str]:
    """A table as aligned plain lines: the title, the headers, then one line per row (columns
    two spaces apart; the columns numbered in ``right`` aligned right)."""
    columns = [
        [" ".join(str(c).split()) for c in column] for column in zip(headers, *rows, strict=True)
    ]
    widths = [max(len(c) if len(c) <= ALIGN_UP_TO else 0 for c in column) for column in columns]
    lines = [title] if title else []
    for row in zip(*columns, strict=True):
        cells = [
            cell.rjust(width) if i in right else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return lines
