"""Commands known by name and imported only when they run.

``thirteen --help`` lists every command from a table of names, targets and one-line helps
(:class:`Lazy`); a command's module (and whatever it needs: numpy, numba, the bots) is imported
only when that command is chosen, which includes ``thirteen COMMAND --help``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup

MARKUP: Any = None
"""How ``--help`` texts are rendered (Typer's ``rich_markup_mode``): plain, as click does, which
needs no import of rich and so answers at once, on a terminal or in a pipe."""


SHORT_HELP = 60


@dataclass(frozen=True)
class Lazy:
    """A command by reference: ``target`` is ``"module:attribute"``, a command function or a
    ``typer.Typer`` of sub-commands; ``help`` is the short line ``--help`` lists for it (at most
    :data:`SHORT_HELP` characters, so that it is never cut)."""

    target: str
    help: str

    def load(self, name: str) -> Any:
        """The command itself (importing its module)."""
        module, _, attribute = self.target.partition(":")
        found = getattr(importlib.import_module(module), attribute)
        if isinstance(found, typer.Typer):
            return typer.main.get_command(found)
        app = typer.Typer(add_completion=False, rich_markup_mode=MARKUP)
        app.command(name)(found)
        return typer.main.get_command(app)


class _Placeholder(TyperCommand):
    """What a group lists for a command that is not imported yet."""


def lazy_group(commands: Mapping[str, Lazy]) -> type[TyperGroup]:
    """A Typer group class that lists ``commands`` and imports each only when it is chosen."""

    class LazyGroup(TyperGroup):
        def __init__(self, **attrs: Any) -> None:
            super().__init__(**attrs)
            for name, entry in commands.items():
                self.commands.setdefault(
                    name, _Placeholder(name, help=entry.help, rich_markup_mode=MARKUP)
                )

        def resolve_command(self, ctx: Any, args: list[str]) -> Any:
            name, command, rest = super().resolve_command(ctx, args)
            if name is not None and isinstance(command, _Placeholder):
                command = self.commands[name] = commands[name].load(name)
            return name, command, rest

    return LazyGroup
