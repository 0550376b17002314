"""The bot interface the table calls: ``choose(view, legal, budget) -> action``.

A bot sees only what its seat's view shows (:func:`thirteen.engine.views.view`) — never the
table state — so it cannot know a hidden card. ``legal`` describes what the seat may do now
(:class:`Legal`); ``budget`` is how many seconds it may think.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from thirteen.engine.actions import Action, Place, SetHand, Surrender
from thirteen.engine.autoplay import Placement, placements
from thirteen.engine.cards import Card
from thirteen.engine.errors import IllegalActionError
from thirteen.engine.views import MyCards, TableView


@dataclass(frozen=True)
class Legal:
    """What the viewing seat may do now, derived from its view."""

    seat: int
    mode: str
    """``"street"``: :class:`Place` the street's cards; ``"set"``: :class:`SetHand` 13 of them."""
    cards: tuple[Card, ...]
    rows: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    room: tuple[int, int, int]
    discard: int
    naturals: tuple[str, ...]
    can_surrender: bool

    def placements(self) -> list[Placement]:
        """Every legal street placement (mode ``"street"``)."""
        return placements(self.cards, self.room, self.discard)

    def place(self, placement: Placement) -> Place:
        """The action that plays a ``(front, middle, back, discard)`` placement."""
        front, middle, back, discard = placement
        return Place(seat=self.seat, front=front, middle=middle, back=back, discard=discard)


def legal_actions(table_view: TableView) -> Legal:
    """What the viewer of ``table_view`` may do; :class:`IllegalActionError` if nothing."""
    hand = table_view.hand
    me: MyCards | None = hand.me if hand is not None else None
    if me is None or not me.must_act:
        raise IllegalActionError("not_your_turn", "This seat has nothing to decide now.")
    return Legal(
        seat=me.seat,
        mode=me.mode,
        cards=me.cards,
        rows=(me.front, me.middle, me.back),
        room=me.room,
        discard=me.discard_now,
        naturals=me.naturals,
        can_surrender=me.can_surrender,
    )


class Bot(Protocol):
    """Anything that can play a seat."""

    name: str

    def choose(self, view: TableView, legal: Legal, budget: float) -> Action: ...


class RandomBot:
    """A uniformly random legal player (a random setting may well foul): the baseline."""

    name = "random"

    def __init__(self, rng: random.Random | None = None, surrender_rate: float = 0.0) -> None:
        self.rng = rng or random.Random()
        self.surrender_rate = surrender_rate

    def choose(self, view: TableView, legal: Legal, budget: float) -> Action:
        rng = self.rng
        if legal.can_surrender and rng.random() < self.surrender_rate:
            return Surrender(seat=legal.seat)
        if legal.mode == "street":
            return legal.place(rng.choice(legal.placements()))
        cards = list(legal.cards)
        rng.shuffle(cards)
        return SetHand(
            seat=legal.seat,
            front=tuple(cards[:3]),
            middle=tuple(cards[3:8]),
            back=tuple(cards[8:13]),
        )


__all__ = ["Bot", "Legal", "RandomBot", "legal_actions"]
