"""Review one hand: :func:`review_hand` (and :func:`review_json`, for a worker process).

A review is a pure function of the history's JSON and the :class:`ReviewSettings`: the same
copy reviewed again gives the same review, on any machine. It takes a few seconds of CPU for an
OFC hand (about ``2 × budget`` a street the player did not play as the solvers would, and
``budget`` one they did) and milliseconds for Chinese Poker; the room runs it off its event loop
in a worker and stores :meth:`HandReview.to_json` with the hand.

>>> import random
>>> from thirteen.bots.arena import play_hand, seated_table, seeded_deal
>>> from thirteen.bots.registry import make_bot
>>> from thirteen.engine.history import redact_history
>>> from thirteen.engine.rules import get_rules
>>> rules = get_rules("chinese-1-6")
>>> bots = [make_bot("strong", rules), make_bot("strong", rules)]
>>> played = play_hand(seated_table(rules, 2), bots, seeded_deal(random.Random(5)), 0.0,
...                    record=True)
>>> review = review_hand(redact_history(played.history, 0))
>>> [(d.decision, d.method, d.loss) for d in review.decisions]
[('setting', 'setter', 0.0)]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from thirteen.engine.rules import Rules
from thirteen.review.exact import review_fantasyland, review_setting
from thirteen.review.figures import DecisionReview, HandReview, ReviewSettings
from thirteen.review.rebuild import Decision, Rebuilt, rebuild_seat
from thirteen.review.streets import review_street

__all__ = ["Progress", "review_decision", "review_hand", "review_json", "review_rebuilt"]

Progress = Callable[[int, int], None]
"""Told ``(decisions reviewed, decisions in the hand)`` after each decision."""


def review_decision(rules: Rules, decision: Decision, settings: ReviewSettings) -> DecisionReview:
    """One decision, by the solver for it: the setter (Chinese Poker), the exact fantasyland
    solver (a fantasyland hand), the Monte Carlo player (an OFC street)."""
    hand = decision.view.hand
    assert hand is not None
    assert hand.me is not None
    if not rules.is_ofc:
        return review_setting(rules, decision)
    if hand.me.mode == "set":
        return review_fantasyland(rules, decision)
    return review_street(rules, decision, settings)


def review_rebuilt(
    rebuilt: Rebuilt, settings: ReviewSettings | None = None, progress: Progress | None = None
) -> HandReview:
    """The review of a rebuilt copy (:func:`~thirteen.review.rebuild.rebuild`)."""
    settings = ReviewSettings() if settings is None else settings
    read = rebuilt.read
    rules = read.start.rules
    reviewed: list[DecisionReview] = []
    total = len(rebuilt.decisions)
    for decision in rebuilt.decisions:
        reviewed.append(review_decision(rules, decision, settings))
        if progress is not None:
            progress(len(reviewed), total)
    points = fouled = None
    if read.result is not None and rebuilt.seat in read.result["seats"]:
        i = read.result["seats"].index(rebuilt.seat)
        points, fouled = int(read.result["totals"][i]), bool(read.result["fouls"][i])
    occupant = read.start.seats[rebuilt.seat]
    return HandReview(
        hand=read.hand,
        rules=rules.name,
        seat=rebuilt.seat,
        player=occupant.player if occupant is not None else "",
        commitment=read.commitment,
        decisions=tuple(reviewed),
        points=points,
        fouled=fouled,
        settings=settings,
        cut=rebuilt.cut,
    )


def review_hand(
    data: Any,
    *,
    seat: int | None = None,
    settings: ReviewSettings | None = None,
    progress: Progress | None = None,
) -> HandReview:
    """Review the decisions of one player in one hand, from the history's JSON: a player's copy
    (as the room hands it out, or ``thirteen simulate --histories`` writes it), or a full
    history with ``seat`` (redacted for that seat first).

    Raises :class:`~thirteen.engine.errors.RuleError` (a
    :class:`~thirteen.review.rebuild.ReviewError` among them) with a sentence when the JSON is
    not a history that can be reviewed.
    """
    return review_rebuilt(rebuild_seat(data, seat), settings, progress)


def review_json(
    data: Any, seat: int | None = None, budget: float | None = None, seed: int | None = None
) -> dict[str, Any]:
    """:func:`review_hand` from plain data to plain data (what a worker process takes and gives
    back): the review's JSON (:meth:`HandReview.to_json`)."""
    defaults = ReviewSettings()
    settings = ReviewSettings(
        defaults.budget if budget is None else budget, defaults.seed if seed is None else seed
    )
    return review_hand(data, seat=seat, settings=settings).to_json()
