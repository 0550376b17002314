"""What a review says: each decision's figures, a hand's, and the settings that made them.

Every figure is in points (the table's units) against all the player's opponents in the hand.
A review's JSON (:meth:`HandReview.to_json`) is what ``thirteen review --json`` prints, one
object a hand, and what the room stores with the hand; :meth:`HandReview.from_json` reads it
back. ``docs/review.md`` says what each figure means and how it is computed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from thirteen.engine.cards import Card, format_cards, parse_cards
from thirteen.review.plays import ROWS, Play

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_SEED",
    "REVIEW_VERSION",
    "DecisionReview",
    "HandReview",
    "ReviewSettings",
]

REVIEW_VERSION = 1
"""The version of a review's JSON (a stored review of another version is made again)."""
DEFAULT_BUDGET = 0.25
"""Seconds of the Monte Carlo player's sampling at its fixed rate, per stage, per OFC street."""
DEFAULT_SEED = 1

Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


@dataclass(frozen=True)
class ReviewSettings:
    """How the OFC streets are sampled: ``budget`` seconds at the Monte Carlo player's fixed
    rate of work steps (``bots.ofc_mc.STEPS_PER_SECOND``; never the clock, so the review is the
    same on every machine) for each of the two stages, from ``seed``. Chinese Poker and
    fantasyland are exact and need neither."""

    budget: float = DEFAULT_BUDGET
    seed: int = DEFAULT_SEED

    def to_json(self) -> dict[str, Any]:
        return {"budget": self.budget, "seed": self.seed}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReviewSettings:
        return cls(float(data["budget"]), int(data["seed"]))


def _number(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else round(value, 4)


def _real(value: Any) -> float | None:
    return None if value is None else float(value)


@dataclass(frozen=True)
class DecisionReview:
    """One decision: what the player played, what the solvers rank first, and the cost.

    ``ev_choice`` and ``ev_best`` are expected points of the two plays against every opponent
    (``None`` for a street with one legal play); ``loss`` is how many points the player's play
    gives up against the best, never negative, with ``loss_se`` its standard error (0 where the
    valuation is exact). ``kind`` says what kind of mistake the play is, when it is not the best
    (``review.kinds``)."""

    index: int
    """The decision's action in the history's actions (0 is the deal)."""
    decision: str
    """``setting``, ``natural``, ``surrender`` (Chinese Poker), ``street``, ``fantasyland``."""
    street: int | None
    """The OFC street (1 is the first), for a street decision."""
    cards: tuple[Card, ...]
    """The cards the player had to play."""
    board: Rows
    """The player's rows before the decision (OFC streets)."""
    choice: Play
    best: Play
    ev_choice: float | None
    ev_best: float | None
    loss: float
    loss_se: float
    method: str
    """``setter``, ``fantasyland solver``, ``monte carlo`` or ``forced`` (one legal play)."""
    kind: str | None
    timed_out: bool
    """The table made the play when the player's time ran out."""
    opponents: int
    deals: int = 0
    """Deals the Monte Carlo comparison sampled (both plays on each)."""
    foul_rate_choice: float | None = None
    foul_rate_best: float | None = None
    fantasyland_rate_choice: float | None = None
    fantasyland_rate_best: float | None = None

    @property
    def is_best(self) -> bool:
        return self.choice.same(self.best)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "decision": self.decision,
            "street": self.street,
            "cards": format_cards(self.cards),
            "board": {name: format_cards(row) for name, row in zip(ROWS, self.board, strict=True)},
            "choice": self.choice.to_json(),
            "best": self.best.to_json(),
            "is_best": self.is_best,
            "ev_choice": _number(self.ev_choice),
            "ev_best": _number(self.ev_best),
            "loss": _number(self.loss),
            "loss_se": _number(self.loss_se),
            "method": self.method,
            "kind": self.kind,
            "timed_out": self.timed_out,
            "opponents": self.opponents,
            "deals": self.deals,
            "foul_rate_choice": _number(self.foul_rate_choice),
            "foul_rate_best": _number(self.foul_rate_best),
            "fantasyland_rate_choice": _number(self.fantasyland_rate_choice),
            "fantasyland_rate_best": _number(self.fantasyland_rate_best),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DecisionReview:
        board = data["board"]
        return cls(
            index=int(data["index"]),
            decision=str(data["decision"]),
            street=None if data["street"] is None else int(data["street"]),
            cards=tuple(parse_cards(data["cards"])),
            board=(
                tuple(parse_cards(board["front"])),
                tuple(parse_cards(board["middle"])),
                tuple(parse_cards(board["back"])),
            ),
            choice=Play.from_json(data["choice"]),
            best=Play.from_json(data["best"]),
            ev_choice=_real(data["ev_choice"]),
            ev_best=_real(data["ev_best"]),
            loss=float(data["loss"]),
            loss_se=float(data["loss_se"]),
            method=str(data["method"]),
            kind=data["kind"],
            timed_out=bool(data["timed_out"]),
            opponents=int(data["opponents"]),
            deals=int(data["deals"]),
            foul_rate_choice=_real(data["foul_rate_choice"]),
            foul_rate_best=_real(data["foul_rate_best"]),
            fantasyland_rate_choice=_real(data["fantasyland_rate_choice"]),
            fantasyland_rate_best=_real(data["fantasyland_rate_best"]),
        )


@dataclass(frozen=True)
class HandReview:
    """Every decision of one player in one hand, from their copy of its history."""

    hand: int
    rules: str
    seat: int
    player: str
    commitment: str
    decisions: tuple[DecisionReview, ...]
    points: int | None
    """What the player won in the hand (the copy's result)."""
    fouled: bool | None
    settings: ReviewSettings
    cut: str | None = None
    """Why the review stops before the player's last decision (``review.rebuild``), if it does."""

    @property
    def loss(self) -> float:
        """Points the hand's decisions gave up against the solvers' plays."""
        return sum(d.loss for d in self.decisions)

    @property
    def loss_se(self) -> float:
        """Standard error of :attr:`loss` (the decisions' sampling is independent)."""
        return math.sqrt(sum(d.loss_se**2 for d in self.decisions))

    def to_json(self) -> dict[str, Any]:
        return {
            "review_version": REVIEW_VERSION,
            "hand": self.hand,
            "rules": self.rules,
            "seat": self.seat,
            "player": self.player,
            "commitment": self.commitment,
            "points": self.points,
            "fouled": self.fouled,
            # from the decisions' figures as written, so that a review read back writes the same
            "loss": _number(sum(round(d.loss, 4) for d in self.decisions)),
            "loss_se": _number(math.sqrt(sum(round(d.loss_se, 4) ** 2 for d in self.decisions))),
            "settings": self.settings.to_json(),
            "cut": self.cut,
            "decisions": [d.to_json() for d in self.decisions],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HandReview:
        """A review :meth:`to_json` wrote; ``ValueError`` for another version (review the hand
        again) or anything malformed."""
        if data.get("review_version") != REVIEW_VERSION:
            raise ValueError(
                f"A review of version {data.get('review_version')!r}, not {REVIEW_VERSION}."
            )
        try:
            return cls(
                hand=int(data["hand"]),
                rules=str(data["rules"]),
                seat=int(data["seat"]),
                player=str(data["player"]),
                commitment=str(data["commitment"]),
                decisions=tuple(DecisionReview.from_json(d) for d in data["decisions"]),
                points=None if data["points"] is None else int(data["points"]),
                fouled=None if data["fouled"] is None else bool(data["fouled"]),
                settings=ReviewSettings.from_json(data["settings"]),
                cut=data["cut"],
            )
        except (KeyError, TypeError) as e:
            raise ValueError(f"A malformed review ({type(e).__name__}: {e}).") from None
