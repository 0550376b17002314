"""``thirteen review``: every decision of a player's hands against the solvers (issue 34).

Reads players' copies of hand histories (as the room hands them out, JSON or text, or as
``thirteen simulate --histories`` writes them), rebuilds each decision from what the player
could see, and values the play made against the play the solvers rank first
(:mod:`thirteen.review`; ``docs/review.md``). Every file is read and rebuilt before any is
reviewed, so a bad one stops the command before it has spent any time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from thirteen.commands.common import MAX_BUDGET, check_budget, emit, fail, name_of
from thirteen.engine.errors import RuleError

if TYPE_CHECKING:
    from thirteen.review.figures import DecisionReview, HandReview
    from thirteen.review.rebuild import Rebuilt
    from thirteen.review.summary import Summary


def _rebuild(source: str, seat: int | None) -> Rebuilt:
    from thirteen.commands.verify import load_history
    from thirteen.engine.history_text import history_from_text
    from thirteen.review.rebuild import read_history, rebuild_seat

    loaded = load_history(source)
    try:
        data = history_from_text(loaded) if isinstance(loaded, str) else loaded
        full = read_history(data).full  # --seat is for full histories; a copy has its own
        return rebuild_seat(data, seat if full else None)
    except RuleError as e:
        fail(f"{name_of(source)}: {e}")


def _plus_minus(value: float, error: float) -> str:
    return f"{value:.2f}" if error == 0 else f"{value:.2f} ± {error:.2f}"


def _ev(value: float | None) -> str:
    return "" if value is None else f"{value:+.2f}"


def _what(d: DecisionReview) -> str:
    return f"street {d.street}" if d.street is not None else d.decision


def _hand_table(source: str, review: HandReview) -> None:
    from thirteen.commands.common import print_table
    from thirteen.engine.cards import format_cards

    points = "" if review.points is None else f"{review.points:+d} points"
    if review.fouled:
        points += " (fouled)"
    title = (
        f"{source}: hand {review.hand}, {review.rules}, seat {review.seat} "
        f"({review.player}): {points}; lost {_plus_minus(review.loss, review.loss_se)}"
    )
    rows = [
        [
            str(n),
            _what(d) + (" (timed out)" if d.timed_out else ""),
            format_cards(sorted(d.cards, reverse=True)),
            d.choice.text,
            "" if d.is_best else d.best.text,
            _ev(d.ev_choice),
            _ev(d.ev_best),
            _plus_minus(d.loss, d.loss_se),
            d.kind or "",
        ]
        for n, d in enumerate(review.decisions, 1)
    ]
    headers = ["#", "decision", "cards", "you played", "best (if other)", "EV", "best EV"]
    print_table(title, [*headers, "loss", "kind"], rows, right={0, 5, 6, 7})
    if review.cut is not None:
        typer.echo(review.cut)


def _summary_tables(sources: Sequence[str], summary: Summary) -> None:
    from thirteen.commands.common import print_table

    low, high = summary.interval
    typer.echo(
        f"{summary.hands} hand{'s' if summary.hands != 1 else ''}, {summary.decisions} "
        f"decisions, {summary.mistakes} of them lost points; {summary.points:+d} points won, "
        f"{summary.fouls} fouled. EV lost a hand: {summary.loss_per_hand:.2f}, 95 % interval "
        f"{low:.2f} to {high:.2f} ({summary.loss:.2f} in all)."
    )
    if summary.worst:
        rows = [
            [
                sources[w.hand],
                _what(w.decision),
                w.decision.choice.text,
                w.decision.best.text,
                _plus_minus(w.decision.loss, w.decision.loss_se),
                w.decision.kind or "",
            ]
            for w in summary.worst
        ]
        headers = ["file", "decision", "you played", "best", "loss", "kind"]
        print_table("The worst decisions", headers, rows, right={4})
    if summary.kinds:
        total = summary.loss or 1.0
        rows = [
            [kind, str(f.decisions), f"{f.loss:.2f}", f"{f.loss / total:.0%}"]
            for kind, f in summary.kinds.items()
        ]
        headers = ["kind", "decisions", "points lost", "share"]
        print_table("By kind of mistake", headers, rows, right={1, 2, 3})


def review_command(
    files: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="FILE...",
            help="Hand histories (JSON or text): players' copies, or full ones with --seat.",
        ),
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option("--seat", help="The seat to review in full histories (a copy has its own)."),
    ] = None,
    budget: Annotated[
        float,
        typer.Option(
            "--budget",
            help="Seconds of sampling per OFC street and stage, at the Monte Carlo player's "
            "fixed rate of work (the same review on every machine).",
        ),
    ] = 0.25,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the OFC sampling.")] = 1,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="One JSON object a hand, then one with the summary."),
    ] = False,
) -> None:
    """Review every decision of a player's hands against the solvers: the play they rank first,
    the EV of yours and of theirs, and the points yours gave up — from what you could see when
    you decided. Chinese Poker by the setter, fantasyland by the exact solver (both exact), OFC
    streets by the Monte Carlo player with a fixed budget and seed (loss ± its standard error).

    Then a summary: EV lost a hand with its 95 % interval, the worst decisions, and the loss by
    kind of mistake (docs/review.md defines each kind).
    """
    if not files:
        fail("Give the hand histories to review: thirteen review FILE…")
    check_budget(budget, "--budget", "of sampling", MAX_BUDGET, zero=False)
    if seat is not None and seat < 0:
        fail(f"--seat is a seat number from 0, not {seat}.")
    rebuilt = [_rebuild(source, seat) for source in files]
    from thirteen.commands.duel import progress_bar  # a run's counting bar, as a duel's
    from thirteen.review.figures import ReviewSettings
    from thirteen.review.hand import review_rebuilt
    from thirteen.review.summary import summarize

    settings = ReviewSettings(budget, seed)
    total = sum(len(r.decisions) for r in rebuilt)
    reviews: list[HandReview] = []
    with progress_bar("decisions") as bar:
        task = bar.add_task("reviewing", total=total)
        for item in rebuilt:
            reviews.append(review_rebuilt(item, settings, lambda _, __: bar.advance(task)))
    summary = summarize(reviews)
    if as_json:
        for source, review in zip(files, reviews, strict=True):
            emit({"file": source, **review.to_json()})
        emit({"summary": {**summary.to_json(), "settings": settings.to_json()}})
        return
    for source, review in zip(files, reviews, strict=True):
        _hand_table(source, review)
    _summary_tables(files, summary)
