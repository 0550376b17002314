"""``thirteen``: one command line for every job.

Every command validates its input at the edge. Bad input ends with exit code 2 and one clear line
on stderr; nothing is half-done.

This module answers ``thirteen --help`` at once: commands are listed from :data:`COMMANDS` and
each command's module is imported only when that command runs.
"""

from __future__ import annotations

import sys

import typer

from thirteen.commands.lazy import MARKUP, Lazy, lazy_group

COMMANDS = {
    "solve": Lazy(
        "thirteen.commands.solve:solve_app", "Solvers: best settings, fantasyland, OFC placements."
    ),
    "simulate": Lazy(
        "thirteen.commands.simulate:simulate", "Random players on a real table, hand after hand."
    ),
    "duel": Lazy(
        "thirteen.commands.duel:duel", "Bots against each other: points per hand, 95 % interval."
    ),
    "demo": Lazy(
        "thirteen.commands.demo:demo", "The bots play hands of every preset on a real table."
    ),
    "verify": Lazy(
        "thirteen.commands.verify:verify", "Check a hand history: its commitment and its replay."
    ),
    "review": Lazy(
        "thirteen.commands.review:review_command",
        "Your decisions in hand histories against the solvers.",
    ),
    "eval": Lazy(
        "thirteen.commands.evaluate:eval_command",
        "Evaluate hands: JSON with category and strength.",
    ),
    "score": Lazy(
        "thirteen.commands.score:score_command", "Score a showdown of final hands; prints JSON."
    ),
    "rules": Lazy(
        "thirteen.commands.rules:rules_command", "List the presets, or show every setting of one."
    ),
    "serve": Lazy(
        "thirteen.commands.serve:serve_command", "Serve the card room (HTTP and WebSocket)."
    ),
    "admin": Lazy(
        "thirteen.commands.admin:admin_app", "Operator tools: migrate, audit, tables, roles."
    ),
    "bench": Lazy(
        "thirteen.commands.bench:bench_command", "Speed against reference implementations."
    ),
}
"""Every command: its implementation (imported when it runs) and its line in ``--help``."""

app = typer.Typer(
    cls=lazy_group(COMMANDS),
    name="thirteen",
    help="Thirteen: Chinese Poker and Open-Face Chinese Poker — engine, card room and bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=MARKUP,
)


@app.callback()
def thirteen() -> None:
    """Thirteen: Chinese Poker and Open-Face Chinese Poker — engine, card room and bots."""


def main() -> None:
    """Console-script entry point: run the app, turning refusals into exit code 2."""
    try:
        app()
    except Exception as e:
        from thirteen.commands.common import refusal

        message = refusal(e)
        if message is None:
            raise
        sys.stderr.write(f"thirteen: {message}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
