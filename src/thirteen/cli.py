"""``thirteen``: one command line for every job.

Every command validates its input at the edge. Bad input ends with exit code 2 and one clear line
on stderr; nothing is half-done.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.table import Table

from thirteen.commands.common import UsageError, console, emit, fail, load_json
from thirteen.commands.demo import demo
from thirteen.commands.duel import duel
from thirteen.commands.simulate import simulate
from thirteen.commands.solve import load_solvers, solve_app
from thirteen.commands.verify import verify
from thirteen.engine.cards import format_cards, parse_cards
from thirteen.engine.errors import RuleError
from thirteen.engine.evaluate import category_name, describe, evaluate, lowball
from thirteen.engine.notation import showdown_to_json, showing_from_json
from thirteen.engine.rules import PRESETS, Rules, get_rules
from thirteen.engine.scoring import score

app = typer.Typer(
    name="thirteen",
    help="Thirteen: Chinese Poker and Open-Face Chinese Poker — engine, card room and bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


load_solvers()
app.add_typer(solve_app, name="solve")
app.command("simulate")(simulate)
app.command("duel")(duel)
app.command("demo")(demo)
app.command("verify")(verify)


# --------------------------------------------------------------------------------- eval
def _eval_line(text: str, where: str, low: bool) -> str:
    try:
        cards = parse_cards(text)
    except RuleError as e:
        fail(f"{where}: {e}")
    n = len(cards)
    if low:
        if n != 5:
            fail(f"{where}: a lowball hand has 5 cards, not {n}.")
        return json.dumps({"cards": format_cards(cards), "lowball": lowball(cards)})
    if n not in (3, 5):
        fail(f"{where}: a hand has 3 or 5 cards, not {n}.")
    strength = evaluate(cards)
    return json.dumps(
        {
            "cards": format_cards(cards),
            "category": category_name(strength),
            "strength": strength,
            "description": describe(strength),
        }
    )


@app.command("eval")
def eval_command(
    cards: Annotated[
        list[str] | None,
        typer.Argument(help="One hand of 3 or 5 cards (e.g. As Ks Qd), or - to read stdin."),
    ] = None,
    low: Annotated[
        bool, typer.Option("--lowball", help="2-7 lowball value instead (5 cards).")
    ] = False,
) -> None:
    """Evaluate hands: one JSON object per hand with cards, category and strength.

    Strength is one int scale for 3- and 5-card hands; higher is stronger. With - every
    non-blank line of standard input is one hand; nothing is printed unless all are valid.
    """
    if not cards:
        fail("Give a hand (e.g. thirteen eval As Ks Qd) or - to read hands from stdin.")
    if cards == ["-"]:
        out: list[str] = []
        for number, line in enumerate(sys.stdin, 1):
            if line.strip():
                out.append(_eval_line(line, f"line {number}", low))
        if out:
            sys.stdout.write("\n".join(out) + "\n")
        return
    sys.stdout.write(_eval_line(" ".join(cards), "hand", low) + "\n")


# --------------------------------------------------------------------------------- score
def _rules_from_input(data: dict[str, Any], option: str | None) -> Rules:
    name = data.get("rules")
    if name is not None and not isinstance(name, str):
        fail('"rules" must be a preset name such as "chinese-1-6".')
    if option and name and get_rules(option).name != get_rules(name).name:
        fail(f'The input says rules "{name}" but --rules says "{option}"; give only one.')
    overrides = data.get("rules_overrides", {})
    if not isinstance(overrides, dict):
        fail('"rules_overrides" must be an object of settings.')
    return get_rules(option or name or "chinese-1-6", overrides)


@app.command("score")
def score_command(
    source: Annotated[
        str, typer.Argument(metavar="[FILE|-]", help="JSON input; - is stdin.")
    ] = "-",
    rules_name: Annotated[
        str | None, typer.Option("--rules", help="Preset, when the input names none.")
    ] = None,
) -> None:
    """Score a showdown given every player's final hand; prints JSON.

    Input: {"rules": PRESET, "rules_overrides": {...}, "players": [{"front": "Qs Qd 2c",
    "middle": "...", "back": "..."} | {"natural": "six-pairs", "cards": "..."} |
    {"surrender": true, "cards": "..."}, optionally with "in_fantasyland": true]}.
    """
    data = load_json(source)
    if not isinstance(data, dict):
        fail('The input must be a JSON object with "players".')
    unknown = set(data) - {"rules", "rules_overrides", "players"}
    if unknown:
        fail(f"Unknown field {sorted(unknown)[0]!r}; use rules, rules_overrides and players.")
    rules = _rules_from_input(data, rules_name)
    players = data.get("players")
    if not isinstance(players, list):
        fail('"players" must be a list of hands.')
    hands = [showing_from_json(p, f"player {i}") for i, p in enumerate(players, 1)]
    result = score(rules, hands)
    emit({"rules": rules.name, **showdown_to_json(result)})


# --------------------------------------------------------------------------------- rules
@app.command("rules")
def rules_command(
    preset: Annotated[str | None, typer.Argument(help="A preset to show in full.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the settings as JSON.")] = False,
) -> None:
    """List the presets, or show every setting of one."""
    if preset is None:
        if as_json:
            emit({name: r.to_dict() for name, r in PRESETS.items()})
            return
        table = Table(title="Presets (thirteen rules NAME shows every setting)")
        table.add_column("preset", no_wrap=True, style="bold")
        for column in ("game", "players", "scoring", "streets", "fantasyland"):
            table.add_column(column)
        for name, r in PRESETS.items():
            table.add_row(
                name,
                r.game,
                f"{r.min_players}-{r.max_players}",
                r.scoring,
                r.streets_text,
                ", ".join(f"{k} {v}" for k, v in r.fantasyland_entry) or "-",
            )
        console.print(table)
        return
    rules = get_rules(preset)
    if as_json:
        emit(rules.to_dict())
        return
    table = Table(title=f"{rules.name}", show_lines=False)
    table.add_column("setting", style="bold")
    table.add_column("value")
    table.add_column("meaning", style="dim")
    for name, value, doc in rules.describe():
        table.add_row(name, value, doc)
    console.print(table)


# --------------------------------------------------------------------------------- bench
@app.command("bench")
def bench_command(
    suites: Annotated[
        list[str] | None, typer.Argument(help="Suites to run (default: all).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per suite.")] = False,
) -> None:
    """Measure speed against reference implementations run in the same process."""
    from thirteen.bench import SUITES, suite
    from thirteen.bench.report import format_value, render_lines

    chosen = suites or list(SUITES)
    for name in chosen:
        if name not in SUITES:
            fail(f"There is no benchmark {name!r}; suites: {', '.join(SUITES)}.")
    for name in chosen:
        with console.status(f"benchmark {name}…"):
            report = suite(name)()
        if as_json:
            emit(report.to_json())
        elif not console.is_terminal:
            sys.stdout.write("\n".join(render_lines(report)) + "\n")
        else:
            table = Table(title=f"benchmark: {name}", title_justify="left")
            table.add_column("what")
            table.add_column("value", justify="right")
            table.add_column("unit")
            for what, value, unit in report.rows:
                table.add_row(what, format_value(value), unit)
            for what, ratio in report.ratios.items():
                table.add_row(f"[bold]{what}[/]", f"[bold]{ratio:.1f}×[/]", "ratio")
            console.print(table)
            for note in report.notes:
                console.print(f"[dim]{note}[/]")


# --------------------------------------------------------------------------------- entry
def main() -> None:
    """Console-script entry point: run the app, turning refusals into exit code 2."""
    try:
        app()
    except (UsageError, RuleError) as e:
        sys.stderr.write(f"thirteen: {e}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
