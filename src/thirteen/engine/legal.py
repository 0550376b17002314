"""What a seat may do now: :func:`legal_actions` and every legal OFC street placement.

Derived from the seat's own view, so a bot, the server's hints and a browser's enabled buttons
all see the same choices and nothing hidden.

>>> from thirteen.engine.rules import get_rules
>>> from thirteen.engine.state import new_table
>>> from thirteen.engine.views import view
>>> legal_actions(view(new_table(get_rules("ofc")), 0))
Traceback (most recent call last):
...
thirteen.engine.errors.IllegalActionError: This seat has nothing to decide now.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product
from typing import overload

from thirteen.engine.actions import Place
from thirteen.engine.cards import Card
from thirteen.engine.errors import IllegalActionError
from thirteen.engine.records import quick_init
from thirteen.engine.rules import Rules
from thirteen.engine.state import Board, TableState, discards_due
from thirteen.engine.views import MyCards, TableView, my_cards

Placement = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
"""A street played: the cards for front, middle and back, and the discards."""


@quick_init
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

    def placements(self) -> Placements:
        """Every legal street placement (mode ``"street"``), in the order of :func:`placements`,
        without listing them: a random player draws one by index."""
        return Placements(self.cards, self.room, self.discard)

    def place(self, placement: Placement) -> Place:
        """The action that plays a ``(front, middle, back, discard)`` placement."""
        front, middle, back, discard = placement
        return Place(seat=self.seat, front=front, middle=middle, back=back, discard=discard)


def legal_actions(table_view: TableView) -> Legal:
    """What the viewer of ``table_view`` may do; :class:`IllegalActionError` if nothing."""
    hand = table_view.hand
    return _legal(hand.me if hand is not None else None)


def legal_for(state: TableState, seat: int) -> Legal:
    """``legal_actions(view(state, seat))`` without building the view: for a player that reads
    nothing but its legal actions (the arena's random player)."""
    return _legal(my_cards(state, seat))


def _legal(me: MyCards | None) -> Legal:
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


def street_placements(rules: Rules, board: Board) -> list[Placement]:
    """Every legal ``(front, middle, back, discard)`` for the street ``board`` must play."""
    return placements(board.pending, board.room, discards_due(rules, board))


@cache
def _assignments(count: int, room: tuple[int, int, int]) -> tuple[tuple[int, ...], ...]:
    """Every way to send ``count`` cards to rows 0/1/2 without overfilling ``room``."""
    return tuple(
        rows
        for rows in product(range(3), repeat=count)
        if rows.count(0) <= room[0] and rows.count(1) <= room[1] and rows.count(2) <= room[2]
    )


def placements(cards: Sequence[Card], room: Sequence[int], discards: int) -> list[Placement]:
    """Every way to put ``cards`` into rows with this much ``room``, discarding ``discards``."""
    out: list[Placement] = []
    room3 = (room[0], room[1], room[2])
    for discard in combinations(cards, discards):
        keep = [c for c in cards if c not in discard]
        for rows in _assignments(len(keep), room3):
            split: tuple[list[Card], list[Card], list[Card]] = ([], [], [])
            for card, row in zip(keep, rows, strict=True):
                split[row].append(card)
            out.append((tuple(split[0]), tuple(split[1]), tuple(split[2]), discard))
    return out


@cache
def _discard_sets(count: int, discards: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every choice of ``discards`` of ``count`` cards, in `combinations` order, as the positions
    kept and the positions discarded."""
    return tuple(
        (tuple(i for i in range(count) if i not in dropped), dropped)
        for dropped in combinations(range(count), discards)
    )


class Placements(Sequence[Placement]):
    """:func:`placements` as a sequence that lists nothing: its length is a product and its
    ``i``-th placement is built on demand, so drawing one uniformly costs one placement, not all
    of them (a street of five cards has 232)."""

    def __init__(self, cards: Sequence[Card], room: Sequence[int], discards: int) -> None:
        self.cards = tuple(cards)
        self.room = (room[0], room[1], room[2])
        self.discards = discards
        self._discard_sets = _discard_sets(len(self.cards), discards)
        keep = len(self.cards) - discards
        self._rows = _assignments(keep, self.room) if keep >= 0 else ()
        self._size = len(self._discard_sets) * len(self._rows)

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> Placement: ...

    @overload
    def __getitem__(self, index: slice) -> list[Placement]: ...

    def __getitem__(self, index: int | slice) -> Placement | list[Placement]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = self._size
        if not -size <= index < size:
            raise IndexError("placement index out of range")
        discard_set, assignment = divmod(index % size, len(self._rows))
        kept, dropped = self._discard_sets[discard_set]
        cards = self.cards
        split: tuple[list[Card], list[Card], list[Card]] = ([], [], [])
        for i, row in zip(kept, self._rows[assignment], strict=True):
            split[row].append(cards[i])
        discard = tuple([cards[i] for i in dropped])
        return (tuple(split[0]), tuple(split[1]), tuple(split[2]), discard)

    def __iter__(self) -> Iterator[Placement]:
        return iter(placements(self.cards, self.room, self.discards))


__all__ = [
    "Legal",
    "Placement",
    "Placements",
    "legal_actions",
    "legal_for",
    "placements",
    "street_placements",
]
