"""Plumbing shared by every command: refusals, reading input, printing JSON and tables.

Input is read defensively: a file or standard input is UTF-8 text (a byte-order mark at the start
is allowed), lines and documents have a size limit, JSON may not nest without end or hold numbers
no game needs, and whatever a message quotes from the input is cut short and escaped
(:func:`~thirteen.engine.errors.quote`).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from thirteen.commands.plain import plain_lines
from thirteen.engine.errors import RuleError, quote

if TYPE_CHECKING:
    from rich.console import Console

    console: Console
    """Where commands print for people: plain lines when standard output is not a terminal
    (made on first use: see :mod:`thirteen.commands.output`)."""

__all__ = [
    "MAX_BUDGET",
    "UsageError",
    "check_budget",
    "console",
    "emit",
    "fail",
    "hand_texts",
    "input_lines",
    "load_json",
    "parse_json",
    "plain_lines",
    "print_table",
    "quote",
    "read_text",
    "refusal",
]

MAX_LINE = 4_096
"""Longest line of hands read from standard input (a hand is a few dozen characters)."""
MAX_TEXT = 16 * 1024 * 1024
"""Largest document (JSON or a hand history) read whole."""
MAX_DIGITS = 20
"""Most digits of a number in JSON input: more than any count, seed or setting needs."""
MAX_BUDGET = 3600.0
"""Most seconds a ``--budget`` may give (an hour: more is a typo, and would overflow counts)."""
MAX_MESSAGE = 400
"""Longest message a refusal prints."""
BOM = "\ufeff"


class UsageError(Exception):
    """Bad input to a command: reported as one line on stderr, exit code 2."""


def fail(message: str) -> NoReturn:
    raise UsageError(message)


def refusal(error: BaseException) -> str | None:
    """The one line to print for a refused input (``None`` when ``error`` is a real failure):
    on one line, at most :data:`MAX_MESSAGE` characters, nothing unprintable, one final stop."""
    if not isinstance(error, UsageError | RuleError):
        return None
    raw = str(error)
    text = " ".join(raw[: 4 * MAX_MESSAGE].split())
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: MAX_MESSAGE + 1])
    if len(text) > MAX_MESSAGE or len(raw) > 4 * MAX_MESSAGE:
        text = text[:MAX_MESSAGE] + "…"
    while text.endswith("..") and not text.endswith("..."):
        text = text[:-1]
    return text


def name_of(source: str) -> str:
    """How messages name an input: ``standard input`` or the quoted file name (its end, when
    it is long)."""
    if source == "-":
        return "standard input"
    return quote(source if len(source) <= 60 else "…" + source[-59:], limit=60)


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError as e:
        fail(f"{name} is not UTF-8 text: byte {e.start + 1:,} is {data[e.start]:#04x}.")


def read_text(source: str, limit: int = MAX_TEXT) -> str:
    """The whole text of a file or of standard input (``-``), at most ``limit`` bytes."""
    name = name_of(source)
    if source == "-":
        stream = getattr(sys.stdin, "buffer", None)
        data: bytes | str = stream.read(limit + 1) if stream else sys.stdin.read(limit + 1)
    else:
        try:
            with Path(source).open("rb") as file:
                data = file.read(limit + 1)
        except FileNotFoundError:
            fail(f"There is no file {name}.")
        except IsADirectoryError:
            fail(f"{name} is a directory, not a file.")
        except OSError as e:
            fail(f"Cannot read {name}: {e.strerror}.")
    if len(data) > limit:
        fail(f"{name} is larger than {limit:,} bytes: too large for this input.")
    return _decode(data, name) if isinstance(data, bytes) else data.removeprefix(BOM)


def input_lines() -> Iterator[tuple[int, str]]:
    """``(number, line)`` for each line of standard input, read one at a time; refuses a line
    longer than :data:`MAX_LINE` and text that is not UTF-8."""
    stream = getattr(sys.stdin, "buffer", None)
    number = 0
    while True:
        raw: bytes | str = (
            stream.readline(MAX_LINE + 1) if stream else sys.stdin.readline(MAX_LINE + 1)
        )
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE and raw[-1:] not in ("\n", b"\n"):
            fail(f"line {number} is longer than {MAX_LINE:,} characters: it is not a hand.")
        line = _decode(raw, f"line {number}") if isinstance(raw, bytes) else raw
        yield number, line.removeprefix(BOM) if number == 1 else line


def hand_texts(args: list[str], where: str) -> list[tuple[str, str]]:
    """Hands given on the command line (one hand, called ``where``) or, for ``-``, one per
    non-blank line of standard input (called ``line N``): ``(text, where)`` pairs."""
    if args == ["-"]:
        hands = [(line, f"line {n}") for n, line in input_lines() if line.strip()]
        if not hands:
            fail("Standard input holds no hands: give one hand per line.")
        return hands
    return [(" ".join(args), where)]


def parse_json(text: str, name: str) -> Any:
    """JSON text as Python data; refuses deep nesting, huge numbers, ``NaN`` and infinities."""

    def whole(digits: str) -> int:
        size = len(digits.lstrip("-"))
        if size > MAX_DIGITS:
            fail(f"{name} holds a number of {size:,} digits, more than any setting needs.")
        return int(digits)

    def real(digits: str) -> float:
        value = float(digits) if len(digits) <= 64 else math.inf
        if not math.isfinite(value):
            fail(f"{name} holds the number {quote(digits, limit=20)}, which no setting needs.")
        return value

    def constant(word: str) -> NoReturn:
        fail(f"{name} is not valid JSON: {word} is not a JSON number.")

    try:
        return json.loads(text, parse_int=whole, parse_float=real, parse_constant=constant)
    except json.JSONDecodeError as e:
        fail(f"{name} is not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}.")
    except RecursionError:
        fail(f"{name} nests arrays or objects too deeply.")


def load_json(source: str, limit: int = MAX_TEXT) -> Any:
    """JSON from a file or standard input (``-``): see :func:`read_text` and :func:`parse_json`."""
    return parse_json(read_text(source, limit), name_of(source))


def check_budget(value: float, option: str, what: str, most: float, *, zero: bool = True) -> float:
    """A time budget in seconds up to ``most`` (from 0, or above 0 unless ``zero``), or a
    refusal naming ``option``; ``what`` completes "seconds …", e.g. ``"of sampling"``."""
    span = f"from 0 to {most:g}" if zero else f"more than 0, at most {most:g}"
    if not (math.isfinite(value) and (value >= 0 if zero else value > 0) and value <= most):
        fail(f"{option} is seconds {what}, {span}; not {value:g}.")
    return value


def print_table(
    title: str,
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    right: Collection[int] = (),
    styles: Sequence[str] = (),
    no_wrap: Collection[int] = (),
) -> None:
    """A table for people: drawn by rich on a terminal, else as :func:`plain_lines` (which
    needs no import of rich). Cells are plain text; ``styles`` are the columns' rich styles,
    and the columns numbered in ``no_wrap`` are never wrapped on a terminal."""
    if not sys.stdout.isatty():
        sys.stdout.write("\n".join(plain_lines(title, headers, rows, right)) + "\n")
        return
    from rich.table import Table

    from thirteen.commands.output import shared_console

    table = Table(title=title)
    for i, header in enumerate(headers):
        style = styles[i] if i < len(styles) else ""
        justify: Any = "right" if i in right else "left"
        table.add_column(header, justify=justify, style=style, no_wrap=i in no_wrap)
    for row in rows:
        table.add_row(*row)
    shared_console().print(table)


def emit(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def __getattr__(name: str) -> Any:
    if name == "console":
        from thirteen.commands.output import shared_console

        return shared_console()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
