"""Run the ``thirteen`` entry point in-process and capture what a shell would see."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from thirteen.cli import main


@dataclass
class Run:
    code: int
    out: str
    err: str


CLI = Callable[..., Run]
"""The ``cli`` fixture (``tests/conftest.py``): ``cli(args, stdin="")`` runs ``thirteen ARGS``."""


def run_cli(
    args: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str | bytes = "",
) -> Run:
    """``stdin`` as bytes is read as a real standard input is (through its binary buffer)."""
    monkeypatch.setattr(sys, "argv", ["thirteen", *args])
    if isinstance(stdin, bytes):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    else:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = 0
    try:
        main()
    except SystemExit as e:
        code = int(e.code or 0)
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)
