"""``thirteen solve …``: the solvers, each a module ``thirteen.commands.solve_*`` imported only
when its sub-command runs (a new solver adds one line to :data:`SOLVERS`)."""

from __future__ import annotations

import typer

from thirteen.commands.lazy import MARKUP, Lazy, lazy_group

SOLVERS = {
    "setting": Lazy(
        "thirteen.commands.solve_setting:setting_command",
        "Best setting of 13 cards; natural or surrender.",
    ),
    "fantasyland": Lazy(
        "thirteen.commands.solve_fantasyland:fantasyland_command",
        "Best fantasyland setting: royalties plus staying.",
    ),
    "ofc": Lazy(
        "thirteen.commands.solve_ofc:solve_ofc",
        "Best placement for an OFC street, with alternatives.",
    ),
}

solve_app = typer.Typer(
    cls=lazy_group(SOLVERS),
    name="solve",
    help="Solvers: best Chinese Poker settings, fantasyland, OFC placements.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=MARKUP,
)


@solve_app.callback()
def solve() -> None:
    """Solvers: best Chinese Poker settings, fantasyland, OFC placements."""
