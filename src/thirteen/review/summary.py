"""Many hands' reviews summed up: the EV lost a hand with its interval, the worst decisions, and
the loss by kind of mistake (``thirteen review``'s summary; the room's "Review my session").

The interval is for the player's mean loss a hand over hands like these: Student's t at 95 %
with the spread of the hands' losses (each hand's sampling error is part of that spread); a
single hand's interval is its own sampling error. Losses are never negative, so neither is the
interval's lower end.

>>> summary = summarize([])
>>> summary.hands, summary.loss_per_hand
(0, 0.0)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from thirteen.review.figures import DecisionReview, HandReview
from thirteen.review.kinds import KINDS

__all__ = ["WORST", "KindFigures", "Summary", "Worst", "summarize", "t_quantile"]

WORST = 5
"""Decisions the summary lists as the worst."""

_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
"""Student's t, 97.5 % quantile, for 1 to 30 degrees of freedom."""


def t_quantile(freedom: int) -> float:
    """Student's t 97.5 % quantile (two-sided 95 %) for ``freedom`` degrees of freedom; the
    normal 1.96 from 120 on, and a linear blend between 30 and 120."""
    if freedom < 1:
        raise ValueError("At least one degree of freedom.")
    if freedom <= 30:
        return _T975[freedom - 1]
    if freedom >= 120:
        return 1.96
    return 2.042 + (1.98 - 2.042) * (freedom - 30) / 90  # t(120) = 1.980


@dataclass(frozen=True)
class Worst:
    """One of the worst decisions: which hand (by its place in the list) and the decision."""

    hand: int
    """The index of the hand in the reviews summarized."""
    decision: DecisionReview


@dataclass(frozen=True)
class KindFigures:
    """One kind of mistake: how many decisions, and the points they lost together."""

    decisions: int
    loss: float


@dataclass(frozen=True)
class Summary:
    hands: int
    decisions: int
    mistakes: int
    """Decisions that lost points (a loss above 0)."""
    points: int
    """Points the player won over the hands (the copies' results)."""
    fouls: int
    """Hands the player fouled."""
    timeouts: int
    """Decisions the table made when the player's time ran out."""
    loss: float
    loss_per_hand: float
    loss_per_hand_se: float
    interval: tuple[float, float]
    """95 % interval of the mean loss a hand (module notes)."""
    kinds: dict[str, KindFigures]
    """Every kind with at least one decision, in :data:`~thirteen.review.kinds.KINDS` order."""
    worst: tuple[Worst, ...]
    cut: int
    """Hands whose review stops early (``HandReview.cut``)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "decisions": self.decisions,
            "mistakes": self.mistakes,
            "points": self.points,
            "fouls": self.fouls,
            "timeouts": self.timeouts,
            "loss": round(self.loss, 4),
            "loss_per_hand": round(self.loss_per_hand, 4),
            "loss_per_hand_se": round(self.loss_per_hand_se, 4),
            "interval": [round(x, 4) for x in self.interval],
            "kinds": {
                k: {"decisions": f.decisions, "loss": round(f.loss, 4)}
                for k, f in self.kinds.items()
            },
            "worst": [
                {"hand": w.hand, "index": w.decision.index, "loss": round(w.decision.loss, 4)}
                for w in self.worst
            ],
            "cut": self.cut,
        }


def summarize(reviews: Sequence[HandReview], worst: int = WORST) -> Summary:
    """The summary of ``reviews`` (module notes); ``worst``: how many decisions to list."""
    n = len(reviews)
    losses = [r.loss for r in reviews]
    mean = sum(losses) / n if n else 0.0
    if n >= 2:
        se = statistics.stdev(losses) / math.sqrt(n)
        half = t_quantile(n - 1) * se
    elif n == 1:
        se = reviews[0].loss_se
        half = 1.96 * se
    else:
        se = half = 0.0
    decisions = [(i, d) for i, r in enumerate(reviews) for d in r.decisions]
    kinds: dict[str, KindFigures] = {}
    for kind in KINDS:
        mine = [d for _, d in decisions if d.kind == kind]
        if mine:
            kinds[kind] = KindFigures(len(mine), sum(d.loss for d in mine))
    ranked = sorted((p for p in decisions if p[1].loss > 0), key=lambda p: -p[1].loss)
    return Summary(
        hands=n,
        decisions=len(decisions),
        mistakes=sum(1 for _, d in decisions if d.loss > 0),
        points=sum(r.points or 0 for r in reviews),
        fouls=sum(1 for r in reviews if r.fouled),
        timeouts=sum(1 for _, d in decisions if d.timed_out),
        loss=sum(losses),
        loss_per_hand=mean,
        loss_per_hand_se=se,
        interval=(max(0.0, mean - half), mean + half),
        kinds=kinds,
        worst=tuple(Worst(i, d) for i, d in ranked[:worst]),
        cut=sum(1 for r in reviews if r.cut is not None),
    )
