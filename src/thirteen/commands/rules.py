"""``thirteen rules``: the presets, or every setting of one."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from thirteen.commands.common import emit, print_table
from thirteen.engine.rules import PRESETS, aliases_of, get_rules


def rules_command(
    preset: Annotated[
        str | None,
        typer.Argument(help="A preset (or another name for one, in any case) to show in full."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the settings as JSON.")] = False,
) -> None:
    """List the presets, or show every setting of one.

    Names are not case-sensitive, and some presets have shorter names too: chinese means
    chinese-1-6, pineapple ofc-pineapple, progressive ofc-pineapple-progressive, ofcards
    open-face-cards (the list shows them all).
    """
    if preset is None:
        if as_json:
            emit({name: r.to_dict() for name, r in PRESETS.items()})
            return
        rows = [
            [
                name,
                r.game,
                f"{r.min_players}-{r.max_players}",
                r.scoring,
                r.streets_text,
                ", ".join(f"{k} {v}" for k, v in r.fantasyland_entry) or "-",
            ]
            for name, r in PRESETS.items()
        ]
        headers = ["preset", "game", "players", "scoring", "streets", "fantasyland"]
        title = "Presets (thirteen rules NAME shows every setting)"
        print_table(title, headers, rows, styles=["bold"], no_wrap=[0])
        others = "; ".join(
            f"{' or '.join(aliases)} for {name}"
            for name in PRESETS
            if (aliases := aliases_of(name))
        )
        sys.stdout.write(f"Other names: {others}. Names are not case-sensitive.\n")
        return
    rules = get_rules(preset)
    if as_json:
        emit(rules.to_dict())
        return
    also = ", ".join(aliases_of(rules.name))
    title = f"{rules.name} (also called {also})" if also else rules.name
    rows = [list(row) for row in rules.describe()]
    print_table(title, ["setting", "value", "meaning"], rows, styles=["bold", "", "dim"])
