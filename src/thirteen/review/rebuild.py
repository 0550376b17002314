"""A player's decisions rebuilt from their copy of a hand's history — and from nothing else.

A player's copy (:func:`~thirteen.engine.history.redact_history`) opens only the cards that
player saw, writes other players' discards ``??``, and keeps every action. It cannot be replayed
as it is: the table deals from a whole deck. :func:`rebuild` completes the deck and replays it:

1. Every position the copy opens gets its card.
2. A card another player's action names (an OFC street's rows, a setting) but the copy does not
   open — the rows of a board that was later surrendered, which were face up while it played —
   goes to a free position of that player's slice for that street (each dealing position owns a
   fixed slice of the deck: ``engine/table.py``).
3. Every other position gets one of the cards left, lowest card first: *stand-ins* for cards
   the player never saw (the deck still to come, other players' discards and surrendered hands).
4. The hand is replayed from the copy's table with that deck; another player's hidden discards
   are what their street leaves once its rows are placed, and the hand's commitment is the
   copy's.

Before each decision of the player the rebuilt table is projected with
:func:`~thirteen.engine.views.view` for the player's seat: a view never shows the deck, another
player's unplaced cards or discards, nor a set hand before the showdown, so the stand-ins never
appear in it, and the view is the one the player had (``tests/test_review_rebuild.py`` compares
it with the view the full history gives, decision by decision). Only those views leave this
module.

One thing a copy cannot tell: when the table played another player's OFC street on a timeout
and that player held a card the copy does not show (their hidden discards, or the street's card
still to discard, in the pineapple games), the table's automatic move looked at it. Replayed with
a stand-in, it may place other cards or rows than it did, so the rebuild stops before it
(:attr:`Rebuilt.cut` says so, and how many of the player's decisions it leaves out). A hidden
setting the table made on a timeout (a fantasyland hand) is shown to nobody before the showdown,
so the rebuild goes on; only the final check that the hand ends with the copy's result is then
left out.

>>> from thirteen.bots.arena import play_hand, seated_table, seeded_deal
>>> from thirteen.bots.base import RandomBot
>>> from thirteen.engine.history import redact_history
>>> from thirteen.engine.rules import get_rules
>>> import random
>>> rules = get_rules("chinese-1-6")
>>> bots = [RandomBot(random.Random(1)), RandomBot(random.Random(2))]
>>> played = play_hand(seated_table(rules, 2), bots, seeded_deal(random.Random(3)), 0.0,
...                    record=True)
>>> rebuilt = rebuild(read_history(redact_history(played.history, 1)))
>>> [(d.kind, len(d.view.hand.me.cards)) for d in rebuilt.decisions]
[('setting', 13)]
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from thirteen.engine.actions import (
    Action,
    DeclareNatural,
    Place,
    SetHand,
    StartHand,
    Surrender,
    Timeout,
)
from thirteen.engine.autoplay import auto_action
from thirteen.engine.cards import DECK, Card, format_cards
from thirteen.engine.deck import SALT_BYTES, Deal, root_digest, verify_openings
from thirteen.engine.errors import RuleError
from thirteen.engine.history import ReadHistory, read_history, result_summary
from thirteen.engine.rules import Rules
from thirteen.engine.state import Phase, TableState, deciders, evolve
from thirteen.engine.table import apply
from thirteen.engine.views import TableView, view

__all__ = [
    "Decision",
    "Rebuilt",
    "ReviewError",
    "decision_kind",
    "known_cards",
    "read_history",
    "rebuild",
]


class ReviewError(RuleError):
    """A history that cannot be reviewed, with a sentence that says why."""

    def __init__(self, message: str) -> None:
        super().__init__("not_reviewable", message)


@dataclass(frozen=True)
class Decision:
    """One decision of the player, as they faced it."""

    index: int
    """The decision's action in the history's actions (0 is the deal)."""
    view: TableView
    """The player's view just before they decided."""
    action: Action
    """What the copy records: the move, or the :class:`Timeout` that made it."""
    move: Action
    """The move made: the action itself, or the table's automatic move on a timeout."""
    kind: str
    """What was decided (:func:`decision_kind`)."""

    @property
    def timed_out(self) -> bool:
        return isinstance(self.action, Timeout)


def decision_kind(rules: Rules, move: Action) -> str:
    """What a move decided: ``"setting"``, ``"natural"`` or ``"surrender"`` in Chinese Poker;
    ``"street"``, ``"fantasyland"`` (a fantasyland hand set at once) or ``"surrender"`` in OFC."""
    if isinstance(move, Surrender):
        return "surrender"
    if isinstance(move, DeclareNatural):
        return "natural"
    if isinstance(move, Place):
        return "street"
    return "fantasyland" if rules.is_ofc else "setting"


@dataclass(frozen=True)
class Rebuilt:
    """A player's copy, rebuilt: their decisions, each with the view they had."""

    read: ReadHistory
    seat: int
    decisions: tuple[Decision, ...]
    known: frozenset[Card]
    """Every card the copy shows the player: opened, or named by an action."""
    cut: str | None = None
    """Why the rebuild stopped before the end of the hand (``None`` when it did not)."""


_DECISIONS = (SetHand, Place, DeclareNatural, Surrender, Timeout)


def known_cards(read: ReadHistory) -> frozenset[Card]:
    """Every card a player's copy shows: its openings and the cards its actions name."""
    cards = {o.card for o in read.openings}
    for move in read.moves:
        for name in ("front", "middle", "back", "discard"):
            cards.update(getattr(move, name, ()))
    return frozenset(cards)


def _player_seat(read: ReadHistory) -> int:
    if read.full:
        raise ReviewError(
            "This is a full history (every seat's cards): review a player's copy, or name the "
            "seat to review."
        )
    if not isinstance(read.viewer, int):
        raise ReviewError("A spectator's copy holds no decisions to review; review a player's.")
    return read.viewer


def _slices(read: ReadHistory) -> tuple[TableState, dict[int, tuple[int, int]]]:
    """The table just after a deal of this hand (any deck), and each dealt-in seat's slice of
    the deck: ``seat -> (first position, slice size)``."""
    zeros = [bytes(SALT_BYTES)] * 52
    dealt, _ = apply(read.start, StartHand(deal=Deal.from_order(DECK, zeros), at=read.start_at))
    hand = dealt.hand
    assert hand is not None
    return dealt, {b.seat: (b.position * hand.slice_size, hand.slice_size) for b in hand.boards}


def _street_span(read: ReadHistory, dealt: TableState, seat: int, street: int, base: int) -> range:
    """The deck positions of ``seat``'s cards for its ``street``-th decision."""
    rules = read.start.rules
    hand = dealt.hand
    assert hand is not None
    board = hand.board_of(seat)
    assert board is not None
    if not rules.is_ofc or board.in_fantasyland:
        return range(base, base + len(board.dealt))
    begin = base + sum(rules.streets[:street])
    return range(begin, begin + rules.streets[street])


def _complete_deck(read: ReadHistory, seat: int) -> Deal:
    """The copy's deck completed with the cards its actions name and stand-ins (see the module
    notes). Raises :class:`ReviewError` when the copy contradicts itself."""
    order: list[Card | None] = [None] * 52
    salts = [bytes(SALT_BYTES)] * 52
    for o in read.openings:
        order[o.position] = o.card
        salts[o.position] = o.salt
    placed = {c: p for p, c in enumerate(order) if c is not None}
    dealt, slices = _slices(read)
    streets: dict[int, int] = {}
    for i, move in enumerate(read.moves):
        who = getattr(move, "seat", None)
        if who == seat or who not in slices or not isinstance(move, Place | SetHand | Timeout):
            continue
        street = streets.get(who, 0)
        streets[who] = street + 1  # a timeout in the hand plays the seat's street too
        if isinstance(move, Timeout):
            continue
        span = _street_span(read, dealt, who, street, slices[who][0])
        for card in (*move.front, *move.middle, *move.back, *getattr(move, "discard", ())):
            where = placed.get(card)
            if where is None:
                free = next((p for p in span if order[p] is None), None)
                if free is None:
                    raise ReviewError(
                        f"Action {i + 2} plays {format_cards([card])}, which cannot have been "
                        f"dealt to seat {who} then: the copy contradicts itself."
                    )
                order[free] = card
                placed[card] = free
            elif where not in span:
                raise ReviewError(
                    f"Action {i + 2} plays {format_cards([card])}, which the copy deals "
                    "elsewhere: the copy contradicts itself."
                )
    left = iter(c for c in DECK if c not in placed)
    full = [c if c is not None else next(left) for c in order]
    return Deal.from_order(full, salts)


def _hidden_discard(state: TableState, move: Place, count: int) -> Place:
    """Another player's street with its hidden discards filled in: what it does not place."""
    hand = state.hand
    assert hand is not None
    board = hand.board_of(move.seat)
    kept = set(move.front + move.middle + move.back)
    pending = () if board is None else board.pending
    discard = tuple(c for c in pending if c not in kept)
    if len(discard) != count:
        raise ReviewError(
            f"Seat {move.seat}'s street discards {count} hidden card(s), but "
            f"{len(discard)} are left to discard: the copy contradicts itself."
        )
    return replace(move, discard=discard)


def rebuild(read: ReadHistory) -> Rebuilt:
    """The copy's player and their decisions, each with the view they had (module notes).

    Raises :class:`ReviewError` for a full history or a spectator's copy, a copy whose opened
    cards do not match its commitment, a seat not dealt in, or a copy that does not replay.
    """
    seat = _player_seat(read)
    if not verify_openings(root_digest(read.leaves), read.leaves, read.openings):
        raise ReviewError("The copy's opened cards do not match its commitment.")
    deal = _complete_deck(read, seat)
    state, _ = apply(read.start, StartHand(deal=deal, at=read.start_at, autoplay=read.autoplay))
    hand = state.hand
    assert hand is not None
    if hand.board_of(seat) is None:
        raise ReviewError(f"Seat {seat} was not dealt into this hand: it made no decisions.")
    state = evolve(state, hand=evolve(hand, commitment=read.commitment))
    known = known_cards(read)
    decisions: list[Decision] = []
    cut: str | None = None
    check = True
    for i, move in enumerate(read.moves):
        who = getattr(move, "seat", None)
        if who == seat and isinstance(move, _DECISIONS) and seat in deciders(state):
            made = auto_action(state, seat) if isinstance(move, Timeout) else move
            kind = decision_kind(state.rules, made)
            decisions.append(Decision(i + 1, view(state, seat), move, made, kind))
        elif isinstance(move, Timeout) and who is not None and _sees_stand_ins(state, who, known):
            if _plays_face_up(state, who):
                left = sum(
                    1
                    for m in read.moves[i + 1 :]
                    if getattr(m, "seat", None) == seat and isinstance(m, _DECISIONS)
                )
                cut = (
                    f"Seat {who}'s street at action {i + 2} was played by the table on a "
                    "timeout, from cards this copy does not show (a hidden discard, or a hand "
                    f"surrendered later): the review cannot rebuild it, nor the {left} "
                    f"decision(s) of seat {seat} after it."
                )
                break
            check = False  # a hidden setting: no view shows it before the showdown
        if i in read.hidden and isinstance(move, Place):
            move = _hidden_discard(state, move, read.hidden[i])
        try:
            state, _ = apply(state, move)
        except RuleError as e:
            raise ReviewError(f"Action {i + 2} of the copy does not replay: {e}") from None
    if cut is None and check:
        _check_result(read, state)
    return Rebuilt(read, seat, tuple(decisions), known, cut)


def _sees_stand_ins(state: TableState, who: int, known: frozenset[Card]) -> bool:
    """Whether the table's automatic move for ``who`` would look at a stand-in: a card of their
    hand or their discards that the copy does not show (the rest of what that move reads — the
    rows on the table — the copy shows)."""
    hand = state.hand
    assert hand is not None
    board = hand.board_of(who)
    return board is not None and not set(board.pending + board.discards) <= known


def _plays_face_up(state: TableState, who: int) -> bool:
    """Whether ``who`` plays OFC streets, face up (not a hand set at once, hidden)."""
    hand = state.hand
    assert hand is not None
    board = hand.board_of(who)
    return state.rules.is_ofc and board is not None and not board.in_fantasyland


def _check_result(read: ReadHistory, state: TableState) -> None:
    """The rebuilt hand must end as the copy says it did."""
    if state.phase != Phase.SHOWDOWN:
        raise ReviewError("The copy's actions stop before the showdown: an action is missing.")
    if read.result is not None and result_summary(state) != read.result:
        raise ReviewError(
            "The rebuilt hand does not end with the copy's result: the copy contradicts itself."
        )


def rebuild_seat(data: object, seat: int | None = None) -> Rebuilt:
    """:func:`rebuild` of a history's JSON: a player's copy, or a full history with ``seat``
    (redacted for that seat first, so the review sees no more than that player's copy)."""
    read = read_history(data)
    if read.full:
        if seat is None:
            raise ReviewError(
                "This is a full history (every seat's cards): name the seat to review, or "
                "review a player's copy."
            )
        from thirteen.engine.history import HandHistory, redact_history

        history = HandHistory(start=read.start, actions=read.actions, result=read.result)
        seats = [] if read.result is None else list(read.result["seats"])
        if seat not in seats:
            raise ReviewError(f"Seat {seat} was not dealt into this hand: it made no decisions.")
        read = read_history(redact_history(history, seat))
    elif seat is not None and read.viewer != seat:
        raise ReviewError(
            f"This is seat {read.viewer}'s copy, not seat {seat}'s: a copy holds one player's view."
        )
    return rebuild(read)
