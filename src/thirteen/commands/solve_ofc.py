"""``thirteen solve ofc``: the best way to play an OFC street, with the worth of the alternatives.

The board is written ``"front: Qs Qd / middle: 9c 9d / back: As Ad Kc"`` (rows may be left out
or empty; ``top``/``bottom`` are accepted, and unnamed rows are read front, middle, back). The
strong player's sampling (:mod:`thirteen.bots.ofc_mc`) evaluates each placement against
opponents drawn from a reference field of finished boards (the heuristic player's, from full
random decks: their cards are not known, so card removal is not modelled for them); ``--dead``
cards (other boards, your discards) are out of your later streets.

Options are ranked by the EV shown (points as the rules score them, fantasyland at its worth),
not by the strong player's foul aversion. A third of ``--budget`` goes to successive halving;
the rest, only as needed, to sampling the top pick against every option it does not yet lead
by two standard errors of the paired difference. When the budget runs out first, the answer
says the top options are within noise of each other.
"""

from __future__ import annotations

import math
from contextlib import AbstractContextManager, nullcontext
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

from thirteen.bots import _ofc_rollouts as ofc_rollouts
from thirteen.bots._ofc_model import Opponent, Rows, Situation, later_streets, model_for
from thirteen.bots.advice import gamble_text, percent, placement_text
from thirteen.bots.ofc_mc import STEPS_PER_SECOND, Analysis, Option, analyze, reference_field
from thirteen.commands.common import MAX_BUDGET, check_budget, console, emit, fail
from thirteen.engine.cards import DECK, Card, format_cards, parse_cards
from thirteen.engine.errors import RuleError
from thirteen.engine.notation import ROW_ALIASES
from thirteen.engine.royalties import ROW_SIZES, ROWS
from thirteen.engine.rules import Rules, get_rules

ROW_INDEX = {alias: ROWS.index(row) for alias, row in ROW_ALIASES.items()} | {"mid": 1}
"""Which row each name in ``--board`` means."""
HALVING_SHARE = 1 / 3
"""Share of ``--budget`` for the successive halving; the rest separates the top pick."""


def parse_board(text: str) -> Rows:
    """Rows from ``"front: Qs Qd / middle: 9c / back: As Ad"``; refuses with a clear sentence."""
    rows: list[list[Card] | None] = [None, None, None]
    parts = [part.strip() for part in text.split("/")] if text.strip() else []
    if len(parts) > 3:
        fail("--board has three rows at most: front, middle and back, separated by '/'.")
    for position, part in enumerate(parts):
        name, colon, cards_text = part.partition(":")
        if colon:
            key = name.strip().lower()
            if key not in ROW_INDEX:
                fail(f"--board: {name.strip()!r} is not a row; rows are front, middle and back.")
            index = ROW_INDEX[key]
        else:
            index, cards_text = position, part
        if rows[index] is not None:
            fail(f"--board names the {ROWS[index]} twice.")
        try:
            cards = parse_cards(cards_text)
        except RuleError as e:
            fail(f"--board, {ROWS[index]}: {e}")
        capacity = ROW_SIZES[ROWS[index]]
        if len(cards) > capacity:
            fail(f"--board: the {ROWS[index]} holds {capacity} cards, not {len(cards)}.")
        rows[index] = cards
    front, middle, back = (tuple(r or ()) for r in rows)
    return front, middle, back


def _cards(text: str, option: str) -> list[Card]:
    try:
        return parse_cards(text)
    except RuleError as e:
        fail(f"{option}: {e}")


def street_of(rules: Rules, placed: int) -> int:
    """The street a board with ``placed`` cards plays next; refuses a count between streets."""
    starts = _boundaries(rules)
    if placed in starts:
        return starts.index(placed)
    if placed >= 13:
        fail("The board is complete: there is no street left to play.")
    sizes = ", ".join(map(str, starts))
    return fail(
        f"On an {rules.name} table a board has {sizes} cards between streets, not {placed}."
    )


def _boundaries(rules: Rules) -> list[int]:
    """Cards on a board when each street starts."""
    out, done = [], 0
    for street, size in enumerate(rules.streets):
        out.append(done)
        done += size - rules.discards_on(street)
    return out


def _number(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 4)


def _option_json(option: Option, best: bool) -> dict[str, Any]:
    front, middle, back, discard = option.placement
    return {
        "front": format_cards(front),
        "middle": format_cards(middle),
        "back": format_cards(back),
        "discard": format_cards(discard),
        "ev": _number(option.ev),
        "ev_se": _number(option.stderr),
        "behind_best": _number(option.behind),
        "behind_best_se": _number(option.behind_se),
        "within_noise": None if best else option.within_noise,
        "deals": option.deals,
        "foul_rate": _number(option.foul_rate),
        "fantasyland_rate": _number(option.fantasyland_rate),
        "fantasyland_ev": _number(option.fantasyland_ev),
        "heuristic": round(option.heuristic, 4),
    }


def _plus_minus(value: float, error: float, sign: str = "") -> str:
    """``"+4.15 ± 0.21"``; three decimals when the error is below 0.01."""
    if math.isnan(error):
        return f"{value:{sign}.2f}"
    digits = 2 if error >= 0.005 else 3
    return f"{value:{sign}.{digits}f} ± {error:.{digits}f}"


def _gap(option: Option) -> str:
    """How far an option is behind the best: ``"4.15 ± 0.21"``."""
    return _plus_minus(option.behind, option.behind_se)


def _verdict(result: Analysis) -> str:
    """One sentence on how sure the top pick is."""
    runner = next((o for o in result.options[1:] if o.deals), None)
    if runner is None:
        return "the only option sampled."
    close = result.close
    if not close:
        return (
            f"ahead of the next best ({_placement_text(runner)}) by {_gap(runner)} points, "
            f"paired over {runner.deals:,} deals."
        )
    more = f" and {len(close) - 1} more" if len(close) > 1 else ""
    return (
        f"within noise of {_placement_text(close[0])} ({_gap(close[0])} points behind){more}: "
        "the sampling cannot tell them apart."
    )


def _placement_text(option: Option) -> str:
    return placement_text(option.placement)


def solve_ofc(
    rules_name: Annotated[str, typer.Option("--rules", help="OFC preset.")] = "ofc-pineapple",
    board: Annotated[
        str,
        typer.Option("--board", help='Your rows: "front: Qs Qd / middle: 9c / back: As Ad".'),
    ] = "",
    cards_text: Annotated[str, typer.Option("--cards", help="The street's cards to play.")] = "",
    dead_text: Annotated[
        str, typer.Option("--dead", help="Cards seen elsewhere (other boards, your discards).")
    ] = "",
    opponents: Annotated[
        int, typer.Option("--opponents", help="Opponents to score against (from the field).")
    ] = 1,
    top: Annotated[int, typer.Option("--top", help="Alternatives to show.")] = 5,
    budget: Annotated[
        float,
        typer.Option(
            "--budget",
            help="Most seconds of sampling; less when the top pick is clear sooner.",
        ),
    ] = 3.0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sampling.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")] = False,
) -> None:
    """The recommended placement for an OFC street, with the expected value of alternatives.

    EVs are points for this hand against the given number of opponents (fantasyland counted
    at its worth, fouls at their cost), from the same sampled deals for every option. Options
    are ranked by that EV; the top pick is sampled against the others until it leads each by
    two standard errors of the paired difference, or the answer says they are within noise.
    """
    rules = get_rules(rules_name)
    if not rules.is_ofc:
        fail(f"{rules.name} is not an OFC game; thirteen solve ofc plays OFC streets.")
    rows = parse_board(board)
    cards = _cards(cards_text, "--cards")
    dead = _cards(dead_text, "--dead")
    placed = sum(len(r) for r in rows)
    street = street_of(rules, placed)
    size = rules.streets[street]
    if len(cards) != size:
        fail(
            f"Street {street + 1} of {rules.name} deals {size} card{'s' if size != 1 else ''}; "
            f"--cards gives {len(cards)}."
        )
    seen: dict[Card, str] = {}
    for where, group in (("--board", [c for r in rows for c in r]), ("--cards", cards)):
        for card in group:
            if card in seen:
                fail(f"{format_cards([card])} is given twice ({seen[card]} and {where}).")
            seen[card] = where
    for card in dead:
        if card in seen:
            fail(f"{format_cards([card])} is given twice ({seen[card]} and --dead).")
        seen[card] = "--dead"
    if not 1 <= opponents <= rules.max_players - 1:
        fail(f"{rules.name} has 1 to {rules.max_players - 1} opponents, not {opponents}.")
    if top < 1:
        fail("Show at least one option (--top 1 or more).")
    check_budget(budget, "--budget", "of sampling", MAX_BUDGET, zero=False)
    sizes, discards = later_streets(rules, street + 1)
    unseen = tuple(c for c in DECK if c not in seen)
    if len(unseen) < sum(sizes):
        fail(
            f"Only {len(unseen)} cards are left unseen; the rest of this board needs {sum(sizes)}."
        )
    situation = Situation(
        rows=rows,
        cards=tuple(cards),
        discard=rules.discards_on(street),
        unseen=unseen,
        streets=sizes,
        discards=discards,
        opponents=(Opponent(ofc_rollouts.OPP_FIELD),) * opponents,
    )
    status: AbstractContextManager[Any] = nullcontext() if as_json else console.status("sampling…")
    steps = budget * STEPS_PER_SECOND
    with status:
        result = analyze(
            model_for(rules).by_ev(),
            situation,
            steps=steps * HALVING_SHARE,
            seed=seed,
            field=reference_field(rules),
            sample_single=True,
            separate=steps * (1 - HALVING_SHARE),
        )
    shown = [o for o in result.options if o.deals][:top]
    gamble = gamble_text(result)
    if as_json:
        emit(
            {
                "rules": rules.name,
                "street": street + 1,
                "board": {name: format_cards(r) for name, r in zip(ROWS, rows, strict=True)},
                "cards": format_cards(cards),
                "dead": format_cards(dead),
                "discard": situation.discard,
                "opponents": opponents,
                "ranked_by": "ev",
                "clear": result.clear,
                "deals": result.deals,
                "best": _option_json(result.best, True),
                "gamble": gamble,
                "options": [_option_json(o, i == 0) for i, o in enumerate(shown)],
            }
        )
        return
    table = Table(
        title=f"{rules.name}, street {street + 1}: {format_cards(cards)}; ranked by EV, "
        f"{result.deals:,} deals, {opponents} opponent{'s' if opponents > 1 else ''}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("#", justify="right")
    table.add_column("placement")
    table.add_column("EV ▼", justify="right")
    table.add_column("behind #1", justify="right")
    table.add_column("fouls", justify="right")
    table.add_column("FL", justify="right")
    table.add_column("deals", justify="right")
    for rank, option in enumerate(shown, 1):
        ev = _plus_minus(option.ev, option.stderr, "+")
        behind = "" if rank == 1 else _gap(option) + (" ~" if option.within_noise else "")
        table.add_row(
            str(rank),
            _placement_text(option),
            ev,
            behind,
            percent(option.foul_rate),
            percent(option.fantasyland_rate),
            f"{option.deals:,}",
        )
    console.print(table)
    console.print(f"[bold]Play:[/] {_placement_text(result.best)} — {_verdict(result)}")
    if gamble is not None:
        console.print(gamble)
    if result.close:
        console.print("(~ marks options within noise of #1: a bigger --budget may separate them.)")
