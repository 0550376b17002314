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
    return _shown_board(board, *_seen_as(state, board, viewer))


def _seen_as(state: TableState, board: Board, viewer: int | None = None) -> tuple[bool, bool]:
    """Whether ``viewer`` (not the board's player) sees the board's rows, and whether it is
    shown face down."""
    visible = _rows_visible(state, board, viewer)
    has_hidden = not visible and bool(board.front or board.middle or board.back)
    return visible, has_hidden or board.outcome == "surrendered"


PARTS_CACHED = 64
"""Boards and seats each cache of this module keeps. A table's frames take what an action left
alone from the last action's views (:class:`ViewsJson`), not from here; these serve the views
made without them (a socket's snapshot, a bot's view of its seat) and are kept small so that
what they hold dies young: 8,192 entries kept every board of a busy room alive for seconds,
for the collector to walk, and 512 still a quarter of a second at full speed — a quarter of
the objects each scheduled collection walked (17,500 a tick at 40 full-speed tables; 13,300
with 64, the time paused 2.8–3.2 % → 1.5–2.3 %; issue 33)."""


@lru_cache(maxsize=PARTS_CACHED)
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


@lru_cache(maxsize=8192)
def _declarable(cards: tuple[Card, ...], payouts: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """The naturals these 13 cards hold that the table pays (every view of the player's seat
    asks, until they set their hand; sized for a process of a thousand tables, a hand of 13
    cards to set at every seat)."""
    return tuple(n.name for n in find_naturals(cards, {name for name, _ in payouts}))


def _my_cards(state: TableState, board: Board, must: bool) -> MyCards:
    rules = state.rules
    naturals: tuple[str, ...] = ()
    if must and not rules.is_ofc and len(board.pending) == 13 and rules.natural_payouts:
        naturals = _declarable(board.pending, rules.natural_payouts)
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


@lru_cache(maxsize=PARTS_CACHED)
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


def _seat_json(s: SeatView | None) -> dict[str, Any] | None:
    if s is None:
        return None
    return {
        "seat": s.seat,
        "player": s.player,
        "stack": s.stack,
        "sitting_out": s.sitting_out,
        "leaving": s.leaving,
        "fantasyland_next": s.fantasyland_next,
    }


@lru_cache(maxsize=PARTS_CACHED)
def _seats_json(seats: tuple[SeatView | None, ...]) -> list[dict[str, Any] | None]:
    """The seats' wire form, made once while nobody's seat changes (see :func:`_seat_views`)."""
    return [_seat_json(s) for s in seats]


@lru_cache(maxsize=PARTS_CACHED)
def _board_json(b: BoardView) -> dict[str, Any]:
    """A board's wire form, made once for every view that shows it the same way."""
    return {
        "seat": b.seat,
        "position": b.position,
        "front": format_cards(b.front),
        "middle": format_cards(b.middle),
        "back": format_cards(b.back),
        "face_down": b.face_down,
        "cards_dealt": b.cards_dealt,
        "cards_unplayed": b.cards_unplayed,
        "cards_discarded": b.cards_discarded,
        "street": b.street,
        "fantasyland": b.fantasyland,
        "outcome": b.outcome,
        "natural": b.natural,
        "deadline": b.deadline,
        "timed_out": b.timed_out,
    }


def _me_json(m: MyCards) -> dict[str, Any]:
    return {
        "seat": m.seat,
        "cards": format_cards(m.cards),
        "discards": format_cards(m.discards),
        "front": format_cards(m.front),
        "middle": format_cards(m.middle),
        "back": format_cards(m.back),
        "naturals": list(m.naturals),
        "must_act": m.must_act,
        "deadline": m.deadline,
        "mode": m.mode,
        "discard_now": m.discard_now,
        "room": list(m.room),
        "can_surrender": m.can_surrender,
    }


def _result_json(r: PlayerResultView) -> dict[str, Any]:
    return {
        "seat": r.seat,
        "total": r.total,
        "money": r.money,
        "foul": r.foul,
        "royalties": r.royalties,
        "fan": r.fan,
        "natural": r.natural,
        "surrendered": r.surrendered,
        "fantasyland_next": r.fantasyland_next,
        "against": [list(pair) for pair in r.against],
    }


def _hand_json(h: HandView) -> dict[str, Any]:
    return {
        "number": h.number,
        "button": h.button,
        "commitment": h.commitment,
        "street": h.street,
        "to_act": [list(pair) for pair in h.to_act],
        "boards": [_board_json(b) for b in h.boards],
        "me": None if h.me is None else _me_json(h.me),
        "results": None if h.results is None else [_result_json(r) for r in h.results],
    }


@lru_cache(maxsize=PARTS_CACHED)
def _own_board_json(board: Board) -> dict[str, Any]:
    """A board as its own player sees it (every row), in its wire form."""
    return _board_json(_shown_board(board, True, False))


class ViewsJson:
    """The wire form of one state's view for any viewer: ``ViewsJson(state)(viewer)`` equals
    ``view_to_json(view(state, viewer))``, with what every viewer sees alike — the seats, the
    deciders, the results, each board as the players who do not hold it see it — made once for
    all of them (a table tells each of its seats about every action), and no view objects in
    between. Like :func:`view_to_json`'s, the results share their parts: read-only.

    ``previous``: the views of the table's state before this one. A part of the state that is
    the very same object there (the seats; a board, shown the same way), as an action leaves
    most of them, has its wire form taken from it as it is — no hashing it to find it in this
    module's caches, no new objects for the collector (issue 33). Only its parts are kept, not
    the chain of views before it."""

    __slots__ = (
        "_boards",
        "_due",
        "_me",
        "_own",
        "_previous",
        "_results",
        "_seats",
        "_shown",
        "_to_act",
        "state",
    )

    def __init__(self, state: TableState, previous: ViewsJson | None = None) -> None:
        self.state = state
        self._previous = previous if previous is not None and previous._seats is not None else None
        self._seats: list[dict[str, Any] | None] | None = None
        self._due: dict[int, float | None] = {}
        self._to_act: list[list[Any]] = []
        self._boards: list[dict[str, Any]] = []
        self._shown: list[tuple[Board, bool, bool]] = []
        """Each board and how the other players see it (visible, face down), as in _boards."""
        self._own: dict[int, tuple[Board, dict[str, Any]]] = {}
        """A board's wire form for its own player, by the board's place."""
        self._me: dict[int, tuple[Board, bool, dict[str, Any]]] = {}
        """A board's player's own cards (``me``) in their wire form, by the board's place, with
        whether the player must act."""
        self._results: list[dict[str, Any]] | None = None

    def _shared(self) -> list[dict[str, Any] | None]:
        state = self.state
        previous, self._previous = self._previous, None
        if previous is not None and previous.state.seats is state.seats:
            assert previous._seats is not None
            seats = self._seats = previous._seats
        else:
            seats = self._seats = _seats_json(_seat_views(state.seats))
        hand = state.hand
        if hand is not None:
            due = self._due = deciders(state)
            self._to_act = [list(pair) for pair in sorted(due.items())]
            before = previous._shown if previous is not None else []
            for i, b in enumerate(hand.boards):
                shown = (b, *_seen_as(state, b))
                if i < len(before) and before[i][0] is b and before[i] == shown:
                    assert previous is not None
                    self._boards.append(previous._boards[i])
                else:
                    self._boards.append(_board_json(_shown_board(*shown)))
                self._shown.append(shown)
            if previous is not None:
                self._own = {
                    i: own
                    for i, own in previous._own.items()
                    if i < len(hand.boards) and own[0] is hand.boards[i]
                }
                if previous.state.rules is state.rules:  # (what a player may do is the rules')
                    self._me = {
                        i: me
                        for i, me in previous._me.items()
                        if i < len(hand.boards) and me[0] is hand.boards[i]
                    }
            results = _results(state)
            self._results = None if results is None else [_result_json(r) for r in results]
        return seats

    def __call__(self, viewer: int | None) -> dict[str, Any]:
        seats = self._seats
        if seats is None:
            seats = self._shared()
        state = self.state
        hand = state.hand
        hand_json = None
        if hand is not None:
            boards = self._boards
            me = None
            if viewer is not None:
                for i, board in enumerate(hand.boards):
                    if board.seat == viewer:
                        own = self._own.get(i)
                        if own is None:
                            own = self._own[i] = (board, _own_board_json(board))
                        boards = boards.copy()
                        boards[i] = own[1]
                        must = viewer in self._due
                        mine = self._me.get(i)
                        if mine is None or mine[1] != must:
                            made = _me_json(_my_cards(state, board, must))
                            mine = self._me[i] = (board, must, made)
                        me = mine[2]
                        break
            hand_json = {
                "number": hand.number,
                "button": hand.button,
                "commitment": hand.commitment,
                "street": hand.street,
                "to_act": self._to_act,
                "boards": boards,
                "me": me,
                "results": self._results,
            }
        return {
            "viewer": viewer,
            "rules": state.rules.name,
            "state_id": state.state_id,
            "phase": state.phase.value,
            "clock": state.clock,
            "button": state.button,
            "next_deal_at": state.next_deal_at,
            "seats": seats,
            "hand": hand_json,
            "point_value": state.config.point_value,
        }


def view_to_json(table_view: TableView) -> dict[str, Any]:
    """A view as JSON-ready data, cards as text (``"As Kd"``): every field of every part, in
    declaration order. Parts that repeat from view to view (the seats, each board) are made once
    and shared between the results, so a result is read-only: copy a part before changing it."""
    v = table_view
    return {
        "viewer": v.viewer,
        "rules": v.rules,
        "state_id": v.state_id,
        "phase": v.phase,
        "clock": v.clock,
        "button": v.button,
        "next_deal_at": v.next_deal_at,
        "seats": _seats_json(v.seats),
        "hand": None if v.hand is None else _hand_json(v.hand),
        "point_value": v.point_value,
    }
