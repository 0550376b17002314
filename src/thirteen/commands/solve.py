"""``thirteen solve …``: every module ``thirteen.commands.solve_*`` adds its sub-command here.

Each such module decorates its command with ``@solve_app.command("name")``; importing the
modules (below) registers them, so a new solver needs no edit elsewhere.
"""

from __future__ import annotations

import importlib
import pkgutil

import typer

import thirteen.commands

solve_app = typer.Typer(
    help="Solvers: best Chinese Poker settings, fantasyland, OFC placements.",
    no_args_is_help=True,
)


def load_solvers() -> None:
    """Import every ``solve_*`` command module so its command is registered."""
    for info in pkgutil.iter_modules(thirteen.commands.__path__):
        if info.name.startswith("solve_"):
            importlib.import_module(f"thirteen.commands.{info.name}")
