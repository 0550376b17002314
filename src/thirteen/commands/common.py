"""Plumbing shared by every command: refusals, reading input, printing JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from rich.console import Console

console = Console()


class UsageError(Exception):
    """Bad input to a command: reported as one line on stderr, exit code 2."""


def fail(message: str) -> NoReturn:
    raise UsageError(message)


def read_text(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    path = Path(source)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        fail(f"There is no file {source}.")
    except IsADirectoryError:
        fail(f"{source} is a directory, not a file.")
    except UnicodeDecodeError:
        fail(f"{source} is not UTF-8 text.")
    except OSError as e:
        fail(f"Cannot read {source}: {e.strerror}.")


def hand_texts(args: list[str], where: str) -> list[tuple[str, str]]:
    """Hands given on the command line (one hand, called ``where``) or, for ``-``, one per
    non-blank line of standard input (called ``line N``): ``(text, where)`` pairs."""
    if args == ["-"]:
        return [(line, f"line {n}") for n, line in enumerate(sys.stdin, 1) if line.strip()]
    return [(" ".join(args), where)]


def load_json(source: str) -> Any:
    text = read_text(source)
    name = "standard input" if source == "-" else source
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        fail(f"{name} is not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}.")


def emit(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
