"""A play: one way to make a decision — a setting, a street's placement, a natural, a surrender.

>>> from thirteen.engine.cards import parse_cards
>>> play = Play("place", front=tuple(parse_cards("Qd")), discard=tuple(parse_cards("2s")))
>>> play.text
'front Qd, discard 2s'
>>> Play.from_json(play.to_json()) == play
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from thirteen.engine.actions import Action, DeclareNatural, Place, SetHand, Surrender
from thirteen.engine.cards import Card, format_cards, parse_cards
from thirteen.engine.legal import Placement
from thirteen.engine.naturals import check_natural

__all__ = ["ROWS", "Play", "PlayAction", "placement_play", "play_of"]

PlayAction = Literal["set", "place", "natural", "surrender"]
ROWS = ("front", "middle", "back")
_ACTIONS: tuple[PlayAction, ...] = ("set", "place", "natural", "surrender")


@dataclass(frozen=True)
class Play:
    """A decision's play. ``set``: the rows of a setting (13 cards; a fantasyland hand's others
    are ``discard``); ``place``: the cards a street adds to each row and its discards;
    ``natural``: the natural declared (its rows as it is shown); ``surrender``."""

    action: PlayAction
    front: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    back: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    natural: str | None = None

    @property
    def rows(self) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
        return (self.front, self.middle, self.back)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card the play names."""
        return self.front + self.middle + self.back + self.discard

    def same(self, other: Play) -> bool:
        """Whether ``other`` is the same play (each row and the discard compared as sets)."""
        return self.key() == other.key()

    def key(self) -> tuple[object, ...]:
        return (
            self.action,
            self.natural,
            *(frozenset(cards) for cards in (*self.rows, self.discard)),
        )

    @property
    def text(self) -> str:
        """``"front Qd, back 7c, discard 2s"``, ``"declare six-pairs"``, ``"surrender"``."""
        if self.action == "surrender":
            return "surrender"
        if self.action == "natural":
            return f"declare {self.natural}"
        parts = [
            f"{name} {format_cards(_sorted(cards))}"
            for name, cards in zip((*ROWS, "discard"), (*self.rows, self.discard), strict=True)
            if cards
        ]
        return ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """``{"action": "place", "front": "Qd", "middle": "", "back": "", "discard": "2s"}``
        (``natural`` too for a natural); rows strongest rank first."""
        out: dict[str, Any] = {"action": self.action}
        if self.action == "natural":
            out["natural"] = self.natural
        if self.action != "surrender":
            for name, cards in zip((*ROWS, "discard"), (*self.rows, self.discard), strict=True):
                out[name] = format_cards(_sorted(cards))
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Play:
        """The play :meth:`to_json` wrote."""
        action = data["action"]
        if action not in _ACTIONS:
            raise ValueError(f"Unknown play {action!r}.")
        rows = [tuple(parse_cards(data.get(name, ""))) for name in (*ROWS, "discard")]
        return cls(action, rows[0], rows[1], rows[2], rows[3], data.get("natural"))


def _sorted(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(cards, reverse=True))


def play_of(move: Action, cards: tuple[Card, ...] = ()) -> Play:
    """The play a move makes; ``cards``: the hand it was made from (what a fantasyland setting
    leaves out; a natural's rows)."""
    if isinstance(move, Surrender):
        return Play("surrender")
    if isinstance(move, DeclareNatural):
        shown = check_natural(move.natural, cards)  # the rows it is shown with
        return Play("natural", shown.front, shown.middle, shown.back, natural=move.natural)
    if isinstance(move, Place):
        return Play("place", move.front, move.middle, move.back, move.discard)
    assert isinstance(move, SetHand)
    kept = set(move.front + move.middle + move.back)
    left = tuple(c for c in cards if c not in kept)
    return Play("set", move.front, move.middle, move.back, left)


def placement_play(placement: Placement) -> Play:
    """A street placement ``(front, middle, back, discard)`` as a play."""
    front, middle, back, discard = placement
    return Play("place", front, middle, back, discard)
