"""What a table is at one moment: seats, the hand in play, each player's board, and the
queries every layer above asks of it (who must act, when something is due).

Data only: the transition function that changes a state is :mod:`thirteen.engine.table`; views,
legal actions and the automatic moves build on this module, and the table builds on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, TypeVar

from thirteen.engine.actions import AUTOPLAY
from thirteen.engine.cards import Card
from thirteen.engine.deck import Deal
from thirteen.engine.errors import RuleError
from thirteen.engine.records import quick_init, renew
from thirteen.engine.rules import Rules
from thirteen.engine.scoring import Showdown

ROW_CAPACITY = {"front": 3, "middle": 5, "back": 5}


class Phase(StrEnum):
    """Where the table is: no hand yet, a hand in play, or a showdown on show."""

    WAITING = "waiting"
    PLAYING = "playing"
    SHOWDOWN = "showdown"


@dataclass(frozen=True, kw_only=True)
class TableConfig:
    """What an operator sets for a table besides the rules: seats and money."""

    rules: Rules
    seats: int
    min_buy_in: int = 1
    max_buy_in: int = 1_000_000_000
    point_value: int = 1
    """Minor units of money one point is worth."""

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= self.rules.max_players:
            raise RuleError(
                "bad_table",
                f"A {self.rules.name} table has 2 to {self.rules.max_players} seats, "
                f"not {self.seats}.",
            )
        if not 1 <= self.min_buy_in <= self.max_buy_in:
            raise RuleError("bad_table", "The buy-in range must run from at least 1 upwards.")
        if self.point_value < 1:
            raise RuleError("bad_table", "A point must be worth at least one minor unit.")


@quick_init
@dataclass(frozen=True)
class Seat:
    """A seated player. ``fantasyland``: cards for the next hand they are dealt in."""

    player: str
    stack: int
    sitting_out: bool = False
    sat_out_at: float | None = None
    leaving: bool = False
    fantasyland: int | None = None
    sit_out_after_hand: bool = False


Outcome = Literal["playing", "set", "natural", "surrendered"]


@quick_init
@dataclass(frozen=True)
class Board:
    """One player's hand in progress.

    ``dealt`` holds every card dealt so far; ``pending`` the ones not yet played. For OFC the
    rows fill street by street; for Chinese Poker and fantasyland they are set all at once.
    """

    seat: int
    position: int
    dealt: tuple[Card, ...]
    pending: tuple[Card, ...]
    front: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    back: tuple[Card, ...] = ()
    discards: tuple[Card, ...] = ()
    street: int = 0
    fantasyland: int | None = None
    outcome: Outcome = "playing"
    natural: str | None = None
    deadline: float | None = None
    timed_out: bool = False

    @property
    def rows(self) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
        return (self.front, self.middle, self.back)

    @property
    def placed(self) -> tuple[Card, ...]:
        return self.front + self.middle + self.back

    @property
    def in_fantasyland(self) -> bool:
        return self.fantasyland is not None

    @property
    def room(self) -> tuple[int, int, int]:
        """Free places in front, middle and back."""
        return (3 - len(self.front), 5 - len(self.middle), 5 - len(self.back))


@quick_init
@dataclass(frozen=True)
class HandState:
    """The hand in play (or just finished, during the showdown)."""

    number: int
    button: int
    deal: Deal
    commitment: str
    """What the table published before the deal: the deck's root bound to the hand's header."""
    slice_size: int
    boards: tuple[Board, ...]
    street: int
    turn: int | None
    """Sequential OFC: the index in ``boards`` of the player to act on the street."""
    started_at: float
    result: Showdown | None = None
    settlement: tuple[int, ...] | None = None
    """Money each board won or lost (by board index), once settled."""
    autoplay: int = AUTOPLAY
    """The version of the table's automatic moves this hand plays by: its ``start_hand``'s
    (:data:`thirteen.engine.actions.AUTOPLAY`)."""

    def board_of(self, seat: int) -> Board | None:
        for b in self.boards:
            if b.seat == seat:
                return b
        return None

    def index_of(self, seat: int) -> int:
        for i, b in enumerate(self.boards):
            if b.seat == seat:
                return i
        raise KeyError(seat)


@quick_init
@dataclass(frozen=True)
class TableState:
    """Everything about a table at one moment. Compare with ``==``; never mutate."""

    config: TableConfig
    seats: tuple[Seat | None, ...]
    button: int | None = None
    hands_played: int = 0
    hand: HandState | None = None
    phase: Phase = Phase.WAITING
    next_deal_at: float | None = None
    clock: float = 0.0
    state_id: int = 0

    @property
    def rules(self) -> Rules:
        return self.config.rules


Record = TypeVar("Record", Seat, Board, HandState, TableState)


def evolve(record: Record, /, **changes: Any) -> Record:
    """``dataclasses.replace(record, **changes)`` for the table's own records, several times
    quicker (the table copies a few records on every action): :func:`.records.renew`."""
    return renew(record, **changes)


def new_table(
    rules: Rules,
    *,
    seats: int | None = None,
    min_buy_in: int = 1,
    max_buy_in: int = 1_000_000_000,
    point_value: int = 1,
) -> TableState:
    """An empty table for these rules (as many seats as the game allows, unless told)."""
    config = TableConfig(
        rules=rules,
        seats=rules.max_players if seats is None else seats,
        min_buy_in=min_buy_in,
        max_buy_in=max_buy_in,
        point_value=point_value,
    )
    return TableState(config=config, seats=(None,) * config.seats)


# --------------------------------------------------------------------------------- queries
def dealt_in_next(state: TableState) -> list[int]:
    """Seats that would be dealt in if a hand started now."""
    return [
        i
        for i, s in enumerate(state.seats)
        if s is not None and not s.sitting_out and not s.leaving and s.stack > 0
    ]


def deciders(state: TableState) -> dict[int, float | None]:
    """Seats that must act now, with their deadlines (empty when nobody but the dealer may)."""
    hand = state.hand
    if state.phase != Phase.PLAYING or hand is None:
        return {}
    rules = state.config.rules
    if rules.game != "ofc":
        return {b.seat: b.deadline for b in hand.boards if b.outcome == "playing"}
    # may_decide for every board, with what it reads looked up once (asked on every action)
    street = hand.street
    if rules.turn_order == "sequential":
        on_turn = hand.boards[hand.turn].seat if hand.turn is not None else None
        return {
            b.seat: b.deadline
            for b in hand.boards
            if b.outcome == "playing"
            and (b.fantasyland is not None or (b.street == street and b.seat == on_turn))
        }
    return {
        b.seat: b.deadline
        for b in hand.boards
        if b.outcome == "playing" and (b.fantasyland is not None or b.street == street)
    }


def may_decide(state: TableState, board: Board) -> bool:
    hand = state.hand
    if hand is None or board.outcome != "playing":
        return False
    rules = state.config.rules
    if rules.game != "ofc" or board.fantasyland is not None:
        return True
    if board.street != hand.street:
        return False
    if rules.turn_order == "sequential":
        return hand.turn is not None and hand.boards[hand.turn].seat == board.seat
    return True


def played_at_once(state: TableState, seat: int) -> bool:
    """Whether the table makes ``seat``'s decisions as soon as they open, without waiting for
    the time limit: the player is leaving after this hand, or timed out earlier in it and has
    not come back (``sit_in``). The server submits :class:`~thirteen.engine.actions.Timeout`
    for it at once (:func:`next_deadline`)."""
    s = state.seats[seat]
    hand = state.hand
    board = hand.board_of(seat) if hand is not None else None
    if s is None or board is None:
        return False
    return s.leaving or (board.timed_out and s.sit_out_after_hand)


def next_deadline(state: TableState) -> tuple[float, str, int | None] | None:
    """The earliest time something is due: ``(time, what, seat)``; for a server's scheduler.

    ``what`` is ``"decision"`` (submit :class:`Timeout` for the seat; due now for a seat
    :func:`played_at_once`), ``"sit-out"`` (submit
    :class:`Timeout` to unseat), or ``"deal"`` (a new hand may start).
    """
    due: list[tuple[float, str, int | None]] = []
    for seat, deadline in deciders(state).items():
        if deadline is not None:
            at_once = played_at_once(state, seat)
            due.append((min(deadline, state.clock) if at_once else deadline, "decision", seat))
    limit = state.rules.sit_out_seconds
    for i, s in enumerate(state.seats):
        if (
            s is not None
            and s.sitting_out
            and s.sat_out_at is not None
            and not is_in_hand(state, i)
        ):
            due.append((s.sat_out_at + limit, "sit-out", i))
    if state.phase != Phase.PLAYING and len(dealt_in_next(state)) >= min_players_to_deal(state):
        due.append((state.next_deal_at or state.clock, "deal", None))
    return min(due) if due else None


def min_players_to_deal(state: TableState) -> int:
    return max(2, state.rules.min_players)


def is_in_hand(state: TableState, seat: int) -> bool:
    return (
        state.phase == Phase.PLAYING
        and state.hand is not None
        and state.hand.board_of(seat) is not None
    )


def discards_due(rules: Rules, board: Board) -> int:
    """Cards ``board`` must discard on the street it is playing (none on the first)."""
    return rules.discards_on(board.street)


__all__ = [
    "ROW_CAPACITY",
    "Board",
    "HandState",
    "Outcome",
    "Phase",
    "Seat",
    "TableConfig",
    "TableState",
    "dealt_in_next",
    "deciders",
    "discards_due",
    "evolve",
    "is_in_hand",
    "may_decide",
    "min_players_to_deal",
    "new_table",
    "next_deadline",
]
