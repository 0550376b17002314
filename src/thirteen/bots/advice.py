"""Advice in words from the strong OFC player's analysis of a street: the placements written
out, and the warning when the top choice is a **gamble** — one sentence shared by
``thirteen solve ofc`` and the hint a practice table gives (``server/http/assist.py``).

A gamble, precisely: the top option fouls on at least :data:`GAMBLE_FOUL` of its sampled deals,
and on at least :data:`GAMBLE_MARGIN` more of them than the *safer play* — the best-ranked
other option among those that foul least (within :data:`SAFE_SLACK` of the lowest foul rate of
the options sampled on at least :data:`MIN_DEALS` deals). The sentence says how often the top
option fouls, why it is first anyway (the fantasyland it reaches and what that is worth in its
EV, when it reaches fantasyland more often than the safer play; otherwise its points), and what
the safer play fouls and gives up in EV.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from thirteen.bots.ofc_mc import Analysis, Option
from thirteen.engine.cards import format_cards
from thirteen.engine.legal import Placement


def percent(rate: float) -> str:
    """``"13%"`` for 0.125: a chance as the room shows it everywhere — halves round up, as the
    browser's ``Math.round`` does (Python's ``:.0%`` would round them to even: ``"12%"``)."""
    return f"{math.floor(rate * 100 + 0.5)}%"


GAMBLE_FOUL = 0.25
"""A top option that fouls less often than this (a quarter of its deals) is no gamble."""
GAMBLE_MARGIN = 0.15
"""…nor one that fouls less than 15 percentage points more often than the safer play."""
SAFE_SLACK = 0.10
"""The safer play fouls within 10 percentage points of the least-fouling option."""
MIN_DEALS = 30
"""Options sampled on fewer deals have too rough a foul rate to count as the safer play."""
MORE_FANTASYLAND = 0.05
"""The top option is said to be first for its fantasyland when it reaches it this much more
often than the safer play (5 percentage points)."""


def placement_text(placement: Placement) -> str:
    """``"front Qd, back 7c, discard 2s"`` (empty rows left out)."""
    parts = []
    for name, cards in zip(("front", "middle", "back", "discard"), placement, strict=True):
        if cards:
            parts.append(f"{name} {format_cards(cards)}")
    return ", ".join(parts)


@dataclass(frozen=True)
class Gamble:
    """A top option that is a gamble (see the module notes), and the safer play beside it."""

    best: Option
    safer: Option
    gap: float
    """How many points of EV the safer play gives up: paired on the deals both were played on
    (``safer.behind``) when the ranking is by EV alone, else the difference of their EVs."""

    @property
    def text(self) -> str:
        """The warning in words."""
        best, safer = self.best, self.safer
        why = "on its points (what it scores when it holds outweighs the fouls)"
        if best.fantasyland_rate >= safer.fantasyland_rate + MORE_FANTASYLAND:
            why = (
                f"because it reaches fantasyland {percent(best.fantasyland_rate)} of the time "
                f"(worth about {best.fantasyland_ev:+.1f} points of its EV)"
            )
        return (
            f"A gamble: this play fouls {percent(best.foul_rate)} of the time; it is first {why}. "
            f"The safer play, {placement_text(safer.placement)}, fouls {percent(safer.foul_rate)} "
            f"and reaches fantasyland {percent(safer.fantasyland_rate)}; its EV is "
            f"{self.gap:.1f} points lower."
        )


def safer_play(options: Sequence[Option]) -> Option | None:
    """The best-ranked option after the first among those that foul least (see the module
    notes); ``None`` when no other option was sampled on :data:`MIN_DEALS` deals."""
    sampled = [o for o in options[1:] if o.deals >= MIN_DEALS]
    if not sampled:
        return None
    least = min(o.foul_rate for o in sampled)
    return next(o for o in sampled if o.foul_rate <= least + SAFE_SLACK)


def find_gamble(result: Analysis) -> Gamble | None:
    """The gamble the top option of ``result`` is, or ``None`` when it is none."""
    best = result.best
    if not best.deals or not best.foul_rate >= GAMBLE_FOUL:
        return None
    safer = safer_play(result.options)
    if safer is None or not best.foul_rate - safer.foul_rate >= GAMBLE_MARGIN:
        return None
    paired = result.aversion == 0 and math.isfinite(safer.behind)
    return Gamble(best, safer, safer.behind if paired else best.ev - safer.ev)


def gamble_text(result: Analysis) -> str | None:
    """The warning sentence when the top option of ``result`` is a gamble, else ``None``."""
    found = find_gamble(result)
    return found.text if found is not None else None


__all__ = [
    "GAMBLE_FOUL",
    "GAMBLE_MARGIN",
    "SAFE_SLACK",
    "Gamble",
    "find_gamble",
    "gamble_text",
    "placement_text",
    "safer_play",
]
