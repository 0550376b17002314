"""What each viewer may know: ``view(state, seat)`` and the spectator's ``view(state, None)``.

A view never holds the deck, another player's unplaced cards or discards, a Chinese Poker hand
or a fantasyland board before the showdown, or a surrendered hand (RULES §2–§5). It is the only
thing a server sends; :func:`view_to_json` is its wire form.

>>> from thirteen.engine.rules import get_rules
>>> from thirteen.engine.state import new_table
>>> view_to_json(view(new_table(get_rules("ofc")), None))["phase"]
'waiting'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from thirteen.engine.cards import DECK, Card, format_cards
from thirteen.engine.naturals import find_naturals
from thirteen.engine.records import quick_init
from thirteen.engine.state import (
    Board,
    Phase,
    Seat,
    TableState,
    deciders,
    discards_due,
    may_decide,
)


@quick_init
@dataclass(frozen=True)
class SeatView:
    seat: int
    player: str
    stack: int
    sitting_out: bool
    leaving: bool
    fantasyland_next: int | None
    """Cards this player will get in fantasyland on their next hand (public knowledge)."""


@quick_init
@dataclass(frozen=True)
class BoardView:
    """A player's hand as the viewer sees it. Hidden rows are empty with ``face_down`` set."""

    seat: int
    position: int
    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]
    face_down: bool
    """The player has set cards the viewer may not see yet (or ever, if surrendered)."""
    cards_dealt: int
    cards_unplayed: int
    cards_discarded: int
    street: int
    fantasyland: int | None
    outcome: str
    natural: str | None
    deadline: float | None
    timed_out: bool


@quick_init
@dataclass(frozen=True)
class MyCards:
    """What only the viewing player knows: cards to play, own discards, naturals held."""

    seat: int
    cards: tuple[Card, ...]
    discards: tuple[Card, ...]
    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]
    naturals: tuple[str, ...]
    must_act: bool
    deadline: float | None
    mode: str
    """``"street"``: play the cards with ``place``; ``"set"``: set 13 at once (``set_hand``)."""
    discard_now: int
    room: tuple[int, int, int]
    can_surrender: bool


@quick_init
@dataclass(frozen=True)
class PlayerResultView:
    seat: int
    total: int
    money: int
    foul: bool
    royalties: int
    fan: int
    natural: str | None
    surrendered: bool
    fantasyland_next: int | None
    against: tuple[tuple[int, int], ...]
    """(opponent seat, units won from them)."""


@quick_init
@dataclass(frozen=True)
class HandView:
    number: int
    button: int
    commitment: str
    street: int
    to_act: tuple[tuple[int, float | None], ...]
    boards: tuple[BoardView, ...]
    me: MyCards | None
    results: tuple[PlayerResultView, ...] | None


@quick_init
@dataclass(frozen=True)
class TableView:
    viewer: int | None
    rules: str
    state_id: int
    phase: str
    clock: float
    button: int | None
    next_deal_at: float | None
    seats: tuple[SeatView | None, ...]
    hand: HandView | None
    point_value: int = 1
    """Minor units of money (or tournament chips) one point is worth now."""


def _rows_visible(state: TableState, board: Board, viewer: int | None) -> bool:
    if viewer == board.seat:
        return True
    if board.outcome == "surrendered":
        return False
    if board.outcome == "natural":
        return True
    showdown = state.phase == Phase.SHOWDOWN
    if not state.rules.is_ofc or board.in_fantasyland:
        return showdown
    return True  # OFC street cards are face up once played


def _board_view(state: TableState, board: Board, viewer: int | None) -> BoardView:
    if viewer == board.seat:
        return _shown_board(board, True, False)
    visible = _rows_visible(state, board, viewer)
    has_hidden = not visible and bool(board.front or board.middle or board.back)
    return _shown_board(board, visible, has_hidden or board.outcome == "surrendered")


@lru_cache(maxsize=1024)
def _shown_board(board: Board, visible: bool, face_down: bool) -> BoardView:
    """A board as a viewer sees it: the same for every viewer who sees as much, and for
    every view while the board does not change (most of them, in OFC)."""
    return BoardView(
        seat=board.seat,
        position=board.position,
        front=board.front if visible else (),
        middle=board.middle if visible else (),
        back=board.back if visible else (),
        face_down=face_down,
        cards_dealt=len(board.dealt),
        cards_unplayed=len(board.pending),
        cards_discarded=len(board.discards),
        street=board.street,
        fantasyland=board.fantasyland,
        outcome=board.outcome,
        natural=board.natural,
        deadline=board.deadline,
        timed_out=board.timed_out,
    )


def _my_cards(state: TableState, board: Board, must: bool) -> MyCards:
    rules = state.rules
    naturals: tuple[str, ...] = ()
    if must and not rules.is_ofc and len(board.pending) == 13 and rules.natural_payouts:
        naturals = tuple(
            n.name for n in find_naturals(board.pending) if rules.natural_payout(n.name) is not None
        )
    ofc_street = rules.is_ofc and not board.in_fantasyland
    return MyCards(
        seat=board.seat,
        cards=board.pending,
        discards=board.discards,
        front=board.front,
        middle=board.middle,
        back=board.back,
        naturals=naturals,
        must_act=must,
        deadline=board.deadline if must else None,
        mode="street" if ofc_street else "set",
        discard_now=discards_due(rules, board) if ofc_street else 0,
        room=board.room,
        can_surrender=must and rules.surrender,
    )


def _results(state: TableState) -> tuple[PlayerResultView, ...] | None:
    hand = state.hand
    if hand is None or hand.result is None or hand.settlement is None:
        return None
    seats = [b.seat for b in hand.boards]
    out = []
    for i, (board, player) in enumerate(zip(hand.boards, hand.result.players, strict=True)):
        out.append(
            PlayerResultView(
                seat=board.seat,
                total=player.total,
                money=hand.settlement[i],
                foul=player.foul,
                royalties=player.royalties,
                fan=player.fan,
                natural=board.natural,
                surrendered=player.surrendered,
                fantasyland_next=player.fantasyland_cards,
                against=tuple(
                    (seats[j], hand.result.matrix[i][j]) for j in range(len(seats)) if j != i
                ),
            )
        )
    return tuple(out)


@lru_cache(maxsize=256)
def _seat_views(seats: tuple[Seat | None, ...]) -> tuple[SeatView | None, ...]:
    """The seats as everyone sees them (the same for every view while nobody's seat changes)."""
    return tuple(
        None
        if s is None
        else SeatView(i, s.player, s.stack, s.sitting_out, s.leaving, s.fantasyland)
        for i, s in enumerate(seats)
    )


def view(state: TableState, viewer: int | None) -> TableView:
    """The table as seat ``viewer`` (or a spectator, ``None``) may see it."""
    seats = _seat_views(state.seats)
    hand_view = None
    hand = state.hand
    if hand is not None:
        mine = hand.board_of(viewer) if viewer is not None else None
        due = deciders(state)
        hand_view = HandView(
            number=hand.number,
            button=hand.button,
            commitment=hand.commitment,
            street=hand.street,
            to_act=tuple(sorted(due.items())),
            boards=tuple([_board_view(state, b, viewer) for b in hand.boards]),
            me=_my_cards(state, mine, mine.seat in due) if mine is not None else None,
            results=_results(state),
        )
    return TableView(
        viewer=viewer,
        rules=state.rules.name,
        state_id=state.state_id,
        phase=state.phase.value,
        clock=state.clock,
        button=state.button,
        next_deal_at=state.next_deal_at,
        seats=seats,
        hand=hand_view,
        point_value=state.config.point_value,
    )


def my_cards(state: TableState, seat: int) -> MyCards | None:
    """What only ``seat`` knows, as its view's ``hand.me`` shows it, without building the rest of
    the view (for a player that reads nothing else)."""
    hand = state.hand
    board = hand.board_of(seat) if hand is not None else None
    if board is None:
        return None
    return _my_cards(state, board, state.phase == Phase.PLAYING and may_decide(state, board))


def unseen_cards(table_view: TableView) -> tuple[Card, ...]:
    """The cards the viewer has not seen (deck order): everything the view does not show."""
    seen: set[Card] = set()
    hand = table_view.hand
    if hand is not None:
        for board in hand.boards:
            seen.update(board.front + board.middle + board.back)
        if hand.me is not None:
            me = hand.me
            seen.update(me.cards + me.front + me.middle + me.back + me.discards)
    return tuple(c for c in DECK if c not in seen)


_CARD_FIELDS = {"front", "middle", "back", "cards", "discards"}


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}
"""Each type's dataclass field names (``None``: not a dataclass), looked up once: a view is
turned into JSON for every seat after every action."""


def _field_names(cls: type) -> tuple[str, ...] | None:
    try:
        return _FIELD_NAMES[cls]
    except KeyError:
        names = None
        if dataclasses.is_dataclass(cls):
            names = tuple(f.name for f in dataclasses.fields(cls))
        _FIELD_NAMES[cls] = names
        return names


def _to_json(value: Any, name: str = "") -> Any:
    if value is None or isinstance(value, str | int | float):
        return value
    names = _field_names(type(value))
    if names is not None:
        return {n: _to_json(getattr(value, n), n) for n in names}
    if name in _CARD_FIELDS and isinstance(value, tuple):
        return format_cards(value)
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


def view_to_json(table_view: TableView) -> dict[str, Any]:
    """A view as JSON-ready data, cards as text (``"As Kd"``)."""
    out = _to_json(table_view)
    assert isinstance(out, dict)
    return out
