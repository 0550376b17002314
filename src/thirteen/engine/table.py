"""The table: every deal from seating to showdown, as one pure transition function.

``apply(state, action) -> (state, events)``. The state is immutable; a refused action raises
:class:`IllegalActionError` (or another :class:`RuleError`) and changes nothing. Every accepted
action bumps ``state_id``. Time is an input (each action's ``at``); randomness is an input (the
deck in :class:`StartHand`). Who must act is explicit: :func:`deciders`.

Dealing: seats dealt in are ordered from the left of the button (dealing *positions*). Each
position owns a fixed slice of the deck, so the same deck order gives the same cards to the same
position whatever anyone decides (seed 004's duplicate system).

>>> from thirteen.engine.rules import get_rules
>>> from thirteen.engine.deck import Deal
>>> from thirteen.engine.actions import Sit, StartHand
>>> from thirteen.engine.state import deciders, new_table
>>> t = new_table(get_rules("chinese-1-6"))
>>> t, _ = apply(t, Sit(seat=0, player="ann", stack=1000))
>>> t, _ = apply(t, Sit(seat=2, player="bob", stack=1000))
>>> t, events = apply(t, StartHand(deal=Deal.from_order(range(52), [bytes(16)] * 52)))
>>> t.phase, [b.seat for b in t.hand.boards], sorted(deciders(t))
(<Phase.PLAYING: 'playing'>, [2, 0], [0, 2])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

from thirteen.engine.actions import (
    Action,
    DeclareNatural,
    Leave,
    Place,
    SetHand,
    SetPointValue,
    Sit,
    SitIn,
    SitOut,
    StartHand,
    Stay,
    Surrender,
    Timeout,
    TopUp,
    UseTimeBank,
    stamped,
)
from thirteen.engine.autoplay import auto_action
from thirteen.engine.cards import Card, card_name, format_cards
from thirteen.engine.errors import IllegalActionError, RuleError
from thirteen.engine.events import (
    CardsDealt,
    CardsDiscarded,
    CardsPlaced,
    Event,
    FantasylandEarned,
    HandRevealed,
    HandScored,
    HandSet,
    HandSettled,
    HandStarted,
    HandSurrendered,
    NaturalDeclared,
    PlayerLeft,
    PlayerSat,
    PlayerSatIn,
    PlayerSatOut,
    PlayerToppedUp,
    PointValueSet,
    TimeBankUsed,
    TimedOut,
    TurnStarted,
)
from thirteen.engine.naturals import check_natural
from thirteen.engine.rules import Rules
from thirteen.engine.scoring import DeclaredNatural, Showing, score
from thirteen.engine.scoring import SetHand as SetHandShowing
from thirteen.engine.scoring import Surrender as SurrenderShowing
from thirteen.engine.snapshot import hand_commitment
from thirteen.engine.state import (
    ROW_CAPACITY,
    Board,
    HandState,
    Phase,
    Seat,
    TableState,
    dealt_in_next,
    deciders,
    discards_due,
    evolve,
    is_in_hand,
    may_decide,
    min_players_to_deal,
    played_at_once,
)

# --------------------------------------------------------------------------------- apply
Handler = Callable[[TableState, float, Action], tuple[TableState, list[Event]]]


def apply(state: TableState, action: Action) -> tuple[TableState, tuple[Event, ...]]:
    """Apply one action; return the new state and the events it caused.

    Raises :class:`IllegalActionError` (or :class:`RuleError`) with a code and a sentence when
    the action is not allowed now; the state is then unchanged.
    """
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalActionError("bad_action", f"{type(action).__name__} is not a table action.")
    if not state.clock <= action.at < math.inf:
        raise _illegal(
            "time_order",
            f"An action's time must not be before the table's clock ({state.clock:.3f} s); "
            f"this one is stamped {action.at!r}.",
        )
    now = action.at
    new_state, events = handler(state, now, action)
    return evolve(new_state, clock=now, state_id=state.state_id + 1), tuple(events)


def _illegal(code: str, message: str) -> IllegalActionError:
    return IllegalActionError(code, message)


def _seat_index(state: TableState, seat: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.seats):
        raise _illegal("no_such_seat", f"This table has seats 0 to {len(state.seats) - 1}.")
    return seat


def _occupied(state: TableState, seat: int) -> Seat:
    s = state.seats[_seat_index(state, seat)]
    if s is None:
        raise _illegal("empty_seat", f"Nobody sits in seat {seat}.")
    return s


def _with_seat(state: TableState, seat: int, value: Seat | None) -> TableState:
    seats = list(state.seats)
    seats[seat] = value
    return evolve(state, seats=tuple(seats))


def _sit(state: TableState, now: float, action: Action) -> tuple[TableState, list[Event]]:
    assert isinstance(action, Sit)
    seat = _seat_index(state, action.seat)
    if state.seats[seat] is not None:
        raise _illegal("seat_taken", f"Seat {seat} is taken.")
    if not action.player.strip():
        raise _illegal("bad_player", "A player needs a name.")
    if any(s is not None and s.player == action.player for s in state.seats):
        raise _illegal("already_seated", f"{action.player} already sits at this table.")
    cfg = state.config
    if isinstance(action.stack, bool) or not cfg.min_buy_in <= action.stack <= cfg.max_buy_in:
        raise _illegal(
            "bad_buy_in",
            f"The buy-in here is {cfg.min_buy_in} to {cfg.max_buy_in}, not {action.stack}.",
        )
    new = _with_seat(state, seat, Seat(player=action.player, stack=action.stack))
    return new, [PlayerSat(seat, action.player, action.stack)]


def _leave(state: TableState, now: float, action: Action) -> tuple[TableState, list[Event]]:
    assert isinstance(action, Leave)
    s = _occupied(state, action.seat)
    if is_in_hand(state, action.seat):
        if s.leaving:
            raise _illegal("already_leaving", "You are already leaving after this hand.")
        return _with_seat(state, action.seat, evolve(s, leaving=True)), [
            PlayerSatOut(action.seat, "leaving after the hand")
        ]
    new = _with_seat(state, action.seat, None)
    return new, [PlayerLeft(action.seat, s.player, s.stack, "asked")]


def _stay(state: TableState, now: float, action: Action) -> tuple[TableState, list[Event]]:
    assert isinstance(action, Stay)
    s = _occupied(state, action.seat)
    if not s.leaving:
        raise _illegal(
            "not_leaving", "You are not leaving this table; there is nothing to take back."
        )
    return _with_seat(state, action.seat, evolve(s, leaving=False)), [PlayerSatIn(action.seat)]


def _top_up(state: TableState, now: float, action: Action) -> tuple[TableState, list[Event]]:
    assert isinstance(action, TopUp)
    s = _occupied(state, action.seat)
    if is_in_hand(state, action.seat):
        raise _illegal("in_hand", "Top up between hands, once this hand is over.")
    cap = state.config.max_buy_in
    if isinstance(action.amount, bool) or action.amount < 1 or s.stack + action.amount > cap:
        room = max(0, cap - s.stack)
        raise _illegal(
            "bad_top_up",
            f"You may add 1 to {room} chips (the table's maximum is {cap}), not {action.amount}.",
        )
    stack = s.stack + action.amount
    return _with_seat(state, action.seat, evolve(s, stack=stack)), [
        PlayerToppedUp(action.seat, action.amount, stack)
    ]


MAX_TIME_BANK = 3600.0
"""The most one use of a time bank may add (the room decides what a bank holds)."""


def _use_time_bank(state: TableState, now: float, action: Action) -> tuple[TableState, list[Event]]:
    assert isinstance(action, UseTimeBank)
    index, board = _deciding_board(state, action.seat, now)
    if not 0 < action.seconds <= MAX_TIME_BANK:
        raise _illegal(
            "bad_time_bank",
            f"A time bank adds 0 to {MAX_TIME_BANK:g} seconds, not {action.seconds!r}.",
        )
    if board.deadline is None:
        raise _illegal("no_deadline", "This decision has no time limit to extend.")
    deadline = board.deadline + action.seconds
    new = _replace_board(state, index, evolve(board, deadline=deadline))
    return new, [TimeBankUsed(action.seat, action.seconds, deadline)]


MAX_POINT_VALUE = 10**12
"""The most one point may be worth (a sanity bound, as the largest buy-in)."""


def _set_point_value(
    state: TableState, now: float, action: Action
) -> tuple[TableState, list[Event]]:
    assert isinstance(action, SetPointValue)
    value = action.value
    if state.phase == Phase.PLAYING:
        raise _illegal("in_hand", "The unit changes between hands, once this hand is over.")
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_POINT_VALUE:
        raise _illegal(
            "bad_point_value",
            f"A point is worth 1 to {MAX_POINT_VALUE:,} minor units, not {value!r}.",
        )
    previous = state.config.point_value
    if value == previous:
        raise _illegal("same_point_value", f"A point is already worth {value}.")
    config = replace(state.config, point_value=value)
    return evolve(state, config=config), [PointValueSet(value, previous)]


def _sit_out(state: TableState, now: float, action: Action) -> tuple[TableState, list[Event]]:
    assert isinstance(action, SitOut)
    s = _occupied(state, action.seat)
    if s.sitting_out:
        raise _illegal("already_sitting_out", "You are already sitting out.")
    new = _with_seat(state, action.seat, evolve(s, sitting_out=True, sat_out_at=now))
    return new, [PlayerSatOut(action.seat, "asked")]


def _sit_in(state: TableState, now: float, action: Action) -> tuple[TableState, list[Event]]:
    assert isinstance(action, SitIn)
    s = _occupied(state, action.seat)
    if not s.sitting_out and not s.sit_out_after_hand:
        raise _illegal("not_sitting_out", "You are not sitting out.")
    if s.stack <= 0:
        raise _illegal("no_chips", "You have no chips left; add chips before sitting in.")
    new = evolve(s, sitting_out=False, sat_out_at=None, sit_out_after_hand=False)
    return _with_seat(state, action.seat, new), [PlayerSatIn(action.seat)]


def _start_hand(state: TableState, now: float, action: Action) -> tuple[TableState, list[Event]]:
    assert isinstance(action, StartHand)
    rules = state.rules
    if state.phase == Phase.PLAYING:
        raise _illegal("hand_in_progress", "A hand is already in play.")
    if state.next_deal_at is not None and now < state.next_deal_at:
        raise _illegal(
            "showdown_on_show",
            f"The showdown is on show for {state.next_deal_at - now:.1f} more seconds.",
        )
    seats = dealt_in_next(state)
    if len(seats) < min_players_to_deal(state):
        raise _illegal(
            "not_enough_players",
            f"A deal needs at least {min_players_to_deal(state)} active players with chips; "
            f"{len(seats)} {'is' if len(seats) == 1 else 'are'} ready.",
        )
    fl_seats = {
        i: s.fantasyland
        for i in seats
        if (s := state.seats[i]) is not None and s.fantasyland and rules.fantasyland
    }
    button = _next_button(state, seats, frozen=bool(fl_seats) and rules.fantasyland_freezes_button)
    n = len(state.seats)
    order = sorted(seats, key=lambda s: (s - button - 1) % n)
    slice_size = max(rules.cards_per_player, rules.max_fantasyland_cards)
    boards: list[Board] = []
    events: list[Event] = []
    deck = action.deal.order
    for position, seat in enumerate(order):
        base = position * slice_size
        fl = fl_seats.get(seat)
        count = fl if fl is not None else rules.streets[0]
        cards = deck[base : base + count]
        boards.append(
            Board(seat=seat, position=position, dealt=cards, pending=cards, fantasyland=fl)
        )
    hand = HandState(
        number=state.hands_played + 1,
        button=button,
        deal=action.deal,
        commitment=hand_commitment(state, now, action.deal.root),
        slice_size=slice_size,
        boards=tuple(boards),
        street=0,
        turn=None,
        started_at=now,
        autoplay=action.autoplay,
    )
    new_seats = list(state.seats)
    for seat in order:
        s = new_seats[seat]
        assert s is not None
        if s.fantasyland is not None or s.sit_out_after_hand:  # else keep the very same seat
            new_seats[seat] = evolve(s, fantasyland=None, sit_out_after_hand=False)
    # no seat changed: the very same seats (the views of every frame reuse what they made of
    # them, as they do after any action that leaves the seats alone)
    seats_after = state.seats if new_seats == list(state.seats) else tuple(new_seats)
    events.append(
        HandStarted(
            hand.number,
            button,
            tuple(order),
            hand.commitment,
            tuple((seat, fl_seats[seat]) for seat in order if seat in fl_seats),
        )
    )
    for b in boards:
        events.append(CardsDealt(b.seat, 0, b.dealt, private_to=b.seat))
    new = evolve(
        state,
        seats=seats_after,
        button=button,
        hands_played=hand.number,
        hand=hand,
        phase=Phase.PLAYING,
        next_deal_at=None,
    )
    new, more = _open_decisions(new, now)
    return new, events + more


def _next_button(state: TableState, seats: Sequence[int], *, frozen: bool) -> int:
    """Where the button goes for the next deal (RULES §5, §3.6)."""
    n = len(state.seats)
    if state.button is None:
        start = 0  # the first deal: the top seat, or the first active seat after it
    elif frozen:
        return state.button
    else:
        start = (state.button + 1) % n
    return min(seats, key=lambda s: (s - start) % n)


def _open_decisions(
    state: TableState, now: float, boards: list[Board] | None = None
) -> tuple[TableState, list[Event]]:
    """Give deadlines to whoever must act now, dealing new streets as they open.

    ``boards``: the hand's boards as a decision just left them, when they differ from the state's.
    """
    hand = state.hand
    assert hand is not None
    rules = state.rules
    is_ofc = rules.is_ofc
    boards = list(hand.boards) if boards is None else boards
    events: list[Event] = []
    turn = hand.turn
    street = hand.street
    street_boards: list[int] = []  # OFC boards played street by street
    waiting: list[int] = []  # those of them still to play the street
    set_at_once: list[int] = []  # fantasyland boards and Chinese Poker hands with no deadline yet
    for i, b in enumerate(boards):
        if b.outcome != "playing":
            continue
        if is_ofc and b.fantasyland is None:
            street_boards.append(i)
            if b.street == street:
                waiting.append(i)
        elif b.deadline is None:
            set_at_once.append(i)
    if is_ofc:
        # Advance the street while every street player has played it.
        while street_boards and not waiting:
            street += 1
            for i in street_boards:
                b = boards[i]
                begin = b.position * hand.slice_size + sum(rules.streets[:street])
                cards = hand.deal.order[begin : begin + rules.streets[street]]
                boards[i] = evolve(b, dealt=b.dealt + cards, pending=cards)
                events.append(CardsDealt(b.seat, street, cards, private_to=b.seat))
            waiting = [i for i in street_boards if boards[i].street == street]
        if rules.turn_order == "sequential":
            turn = waiting[0] if waiting else None
            waiting = waiting[:1]
        opened = [i for i in waiting if boards[i].deadline is None]
        if opened:
            seconds = rules.first_street_seconds if street == 0 else rules.street_seconds
            deadline = now + seconds
            for i in opened:
                boards[i] = evolve(boards[i], deadline=deadline)
            events.append(TurnStarted(tuple([boards[i].seat for i in opened]), street, deadline))
    for i in set_at_once:  # timed from the deal
        b = boards[i]
        seconds = rules.fantasyland_seconds if b.in_fantasyland else rules.set_hand_seconds
        boards[i] = evolve(b, deadline=hand.started_at + seconds)
    new_hand = evolve(hand, boards=tuple(boards), street=street, turn=turn)
    return evolve(state, hand=new_hand), events


def _deciding_board(state: TableState, seat: int, now: float) -> tuple[int, Board]:
    """The board of a seat that may act now, or the reason it may not."""
    if state.phase != Phase.PLAYING or state.hand is None:
        raise _illegal("no_hand", "No hand is in play.")
    _seat_index(state, seat)
    seats = [b.seat for b in state.hand.boards]
    if seat not in seats:
        raise _illegal("not_in_hand", f"Seat {seat} is not dealt in this hand.")
    index = seats.index(seat)
    board = state.hand.boards[index]
    if board.outcome != "playing":
        raise _illegal("already_done", "You have already finished this hand.")
    if not may_decide(state, board):
        raise _illegal("not_your_turn", "It is not your turn.")
    if board.deadline is not None and now > board.deadline:
        raise _illegal(
            "too_late",
            f"Seat {seat}'s time ran out {now - board.deadline:.3f} seconds ago; "
            "only the timeout is accepted now.",
        )
    return index, board


def _replace_board(state: TableState, index: int, board: Board) -> TableState:
    hand = state.hand
    assert hand is not None
    boards = list(hand.boards)
    boards[index] = board
    return evolve(state, hand=evolve(hand, boards=tuple(boards)))


def _check_from(cards: Sequence[Card], pool: Sequence[Card], what: str) -> None:
    available = set(pool)
    seen: set[Card] = set()
    for c in cards:
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 52:
            raise _illegal("bad_cards", f"{c!r} is not a card.")
        if c in seen:
            raise _illegal("bad_cards", f"{card_name(c)} is used twice.")
        if c not in available:
            raise _illegal("bad_cards", f"{card_name(c)} is not one of {what}.")
        seen.add(c)


def _set_hand(state: TableState, now: float, action: Action) -> tuple[TableState, list[Event]]:
    assert isinstance(action, SetHand)
    index, board = _deciding_board(state, action.seat, now)
    rules = state.rules
    if rules.is_ofc and not board.in_fantasyland:
        raise _illegal("use_place", "Play your street with place; only fantasyland sets at once.")
    for row, cards in zip(ROW_CAPACITY, (action.front, action.middle, action.back), strict=True):
        if len(cards) != ROW_CAPACITY[row]:
            raise _illegal(
                "bad_row_size", f"The {row} holds {ROW_CAPACITY[row]} cards, not {len(cards)}."
            )
    chosen = action.front + action.middle + action.back
    _check_from(chosen, board.pending, "your cards")
    discards = tuple(c for c in board.pending if c not in set(chosen))
    new_board = evolve(
        board,
        front=action.front,
        middle=action.middle,
        back=action.back,
        discards=discards,
        pending=(),
        outcome="set",
        deadline=None,
    )
    events: list[Event] = [HandSet(action.seat)]
    if discards:
        events.append(CardsDiscarded(action.seat, discards, private_to=action.seat))
    return _decided(state, index, new_board, now, events)


def _declare_natural(
    state: TableState, now: float, action: Action
) -> tuple[TableState, list[Event]]:
    assert isinstance(action, DeclareNatural)
    index, board = _deciding_board(state, action.seat, now)
    rules = state.rules
    if rules.natural_payout(action.natural) is None:
        raise _illegal(
            "natural_not_played",
            f"{action.natural!r} is not a natural at this table"
            + (
                f" (naturals here: {', '.join(n for n, _ in rules.natural_payouts)})."
                if rules.natural_payouts
                else "; this game has none."
            ),
        )
    natural = check_natural(action.natural, board.pending)  # RuleError says why, state unchanged
    new_board = evolve(
        board,
        front=natural.front,
        middle=natural.middle,
        back=natural.back,
        pending=(),
        outcome="natural",
        natural=action.natural,
        deadline=None,
    )
    events: list[Event] = [
        NaturalDeclared(action.seat, action.natural, natural.front, natural.middle, natural.back)
    ]
    return _decided(state, index, new_board, now, events)


def _surrender(state: TableState, now: float, action: Action) -> tuple[TableState, list[Event]]:
    assert isinstance(action, Surrender)
    index, board = _deciding_board(state, action.seat, now)
    if not state.rules.surrender:
        raise _illegal("no_surrender", f"{state.rules.name} has no surrender.")
    new_board = evolve(board, outcome="surrendered", deadline=None)
    return _decided(state, index, new_board, now, [HandSurrendered(action.seat)])


def _place(state: TableState, now: float, action: Action) -> tuple[TableState, list[Event]]:
    assert isinstance(action, Place)
    index, board = _deciding_board(state, action.seat, now)
    rules = state.rules
    if not rules.is_ofc or board.in_fantasyland:
        raise _illegal("use_set_hand", "Set all your cards at once with set_hand.")
    # a card that is not one of the street's, or one given twice, is bad_cards as in set_hand;
    # what is left wrong is the street's shape (bad_placement)
    played = action.front + action.middle + action.back + action.discard
    _check_from(played, board.pending, "the cards dealt to you this street")
    problem = placement_problem(
        rules, board, action.front, action.middle, action.back, action.discard
    )
    if problem:
        raise _illegal("bad_placement", problem)
    done = board.street + 1 == len(rules.streets)
    new_board = evolve(
        board,
        front=board.front + action.front,
        middle=board.middle + action.middle,
        back=board.back + action.back,
        discards=board.discards + action.discard,
        pending=(),
        street=board.street + 1,
        outcome="set" if done else "playing",
        deadline=None,
    )
    events: list[Event] = [
        CardsPlaced(action.seat, board.street, action.front, action.middle, action.back)
    ]
    if action.discard:
        events.append(CardsDiscarded(action.seat, action.discard, private_to=action.seat))
    return _decided(state, index, new_board, now, events)


def placement_problem(
    rules: Rules,
    board: Board,
    front: Sequence[Card],
    middle: Sequence[Card],
    back: Sequence[Card],
    discard: Sequence[Card],
) -> str | None:
    """Why this street placement is not allowed, or ``None`` when it is."""
    wanted_discards = discards_due(rules, board)
    if len(discard) != wanted_discards:
        return (
            f"Discard {wanted_discards} card{'s' if wanted_discards != 1 else ''} this street, "
            f"not {len(discard)}."
            if wanted_discards
            else "Nothing is discarded on this street."
        )
    played = tuple(front) + tuple(middle) + tuple(back) + tuple(discard)
    try:
        _check_from(played, board.pending, "the cards dealt to you this street")
    except IllegalActionError as e:
        return e.message
    if len(played) != len(board.pending):
        missing = [c for c in board.pending if c not in set(played)]
        return f"Place every card dealt this street; {format_cards(missing)} is not placed."
    for row, cards, have in (
        ("front", front, board.front),
        ("middle", middle, board.middle),
        ("back", back, board.back),
    ):
        if len(have) + len(cards) > ROW_CAPACITY[row]:
            room = ROW_CAPACITY[row] - len(have)
            return f"The {row} holds {ROW_CAPACITY[row]} cards; it has room for {room} more."
    return None


def _timeout(state: TableState, now: float, action: Action) -> tuple[TableState, list[Event]]:
    assert isinstance(action, Timeout)
    seat = action.seat
    s = _occupied(state, seat)
    if seat in deciders(state) and state.hand is not None:
        index = state.hand.index_of(seat)
        board = state.hand.boards[index]
        if board.deadline is not None and now < board.deadline and not played_at_once(state, seat):
            raise _illegal(
                "not_due", f"Seat {seat} still has {board.deadline - now:.1f} seconds to act."
            )
        move = auto_action(state, seat)
        # Mark the seat first, so a timeout that ends the hand sits it out at the showdown (a
        # seat leaving is not sat out: it goes, or takes the leave back and plays on).
        marked = _replace_board(state, index, evolve(board, timed_out=True, deadline=None))
        if not s.leaving:
            marked = _with_seat(marked, seat, evolve(s, sit_out_after_hand=True))
        new, events = _HANDLERS[type(move)](marked, now, stamped(move, now))
        return new, [TimedOut(seat), *events]
    if s.sitting_out and s.sat_out_at is not None and not is_in_hand(state, seat):
        due = s.sat_out_at + state.rules.sit_out_seconds
        if now < due:
            raise _illegal("not_due", f"Seat {seat} may sit out {due - now:.0f} more seconds.")
        return _with_seat(state, seat, None), [
            PlayerLeft(seat, s.player, s.stack, "sat out too long")
        ]
    raise _illegal("nothing_due", f"Seat {seat} has nothing to time out.")


def _decided(
    state: TableState, index: int, board: Board, now: float, events: list[Event]
) -> tuple[TableState, list[Event]]:
    """A seat has decided and its board is now ``board`` (``hand.boards[index]``): the
    showdown if nobody is left to play, else whoever must act next."""
    hand = state.hand
    assert hand is not None
    boards = list(hand.boards)
    boards[index] = board
    if all(b.outcome != "playing" for b in boards):
        return _showdown(evolve(state, hand=evolve(hand, boards=tuple(boards))), now, events)
    new, more = _open_decisions(state, now, boards)
    return new, events + more


def _showing(board: Board) -> Showing:
    fl = board.in_fantasyland
    if board.outcome == "natural":
        assert board.natural is not None
        return DeclaredNatural(board.natural, board.dealt, fl)
    if board.outcome == "surrendered":
        return SurrenderShowing(board.dealt, fl)
    return SetHandShowing(board.front, board.middle, board.back, fl)


def _showdown(state: TableState, now: float, events: list[Event]) -> tuple[TableState, list[Event]]:
    hand = state.hand
    assert hand is not None
    rules = state.rules
    result = score(rules, [_showing(b) for b in hand.boards])
    seats_in_order = tuple(b.seat for b in hand.boards)
    for b, p in zip(hand.boards, result.players, strict=True):
        if b.outcome == "set":
            events.append(HandRevealed(b.seat, b.front, b.middle, b.back, p.foul))
    events.append(HandScored(seats_in_order, result.totals, result.matrix))
    stacks = []
    for seat in seats_in_order:
        s = state.seats[seat]
        assert s is not None
        stacks.append(s.stack)
    deltas = settle(result.totals, stacks, state.config.point_value)
    new_seats = list(state.seats)
    after: list[Event] = []
    for seat, delta, player in zip(seats_in_order, deltas, result.players, strict=True):
        s = new_seats[seat]
        assert s is not None
        s = evolve(s, stack=s.stack + delta, fantasyland=player.fantasyland_cards)
        if player.fantasyland_cards is not None:
            after.append(FantasylandEarned(seat, player.fantasyland_cards))
        if s.leaving:
            after.append(PlayerLeft(seat, s.player, s.stack, "asked"))
            new_seats[seat] = None
            continue
        if s.sit_out_after_hand and not s.sitting_out:
            s = evolve(s, sitting_out=True, sat_out_at=now, sit_out_after_hand=False)
            after.append(PlayerSatOut(seat, "timed out"))
        elif s.stack <= 0 and not s.sitting_out:
            s = evolve(s, sitting_out=True, sat_out_at=now)
            after.append(PlayerSatOut(seat, "no chips"))
        new_seats[seat] = s
    events.append(
        HandSettled(
            seats_in_order,
            tuple(deltas),
            tuple(st + d for st, d in zip(stacks, deltas, strict=True)),
        )
    )
    new_hand = evolve(hand, result=result, settlement=tuple(deltas))
    new = evolve(
        state,
        seats=tuple(new_seats),
        hand=new_hand,
        phase=Phase.SHOWDOWN,
        next_deal_at=now + rules.showdown_seconds,
    )
    return new, events + after


def settle(totals: Sequence[int], stacks: Sequence[int], point_value: int = 1) -> list[int]:
    """Money each player wins or loses, in dealing order (RULES §5).

    A player loses no more than their stack; when what the losers can pay falls short, winners
    are paid in full one by one in dealing order (from the left of the button) until it runs
    out. The result always sums to zero.
    """
    owed = [t * point_value for t in totals]
    deltas = [0] * len(owed)
    pool = 0
    for i, amount in enumerate(owed):
        if amount < 0:
            paid = min(-amount, stacks[i])
            deltas[i] = -paid
            pool += paid
    for i, amount in enumerate(owed):
        if amount > 0:
            paid = min(amount, pool)
            deltas[i] = paid
            pool -= paid
    if pool:  # only when totals did not sum to zero; give it back rather than lose it
        raise RuleError("bad_totals", "Showdown totals must sum to zero.")
    return deltas


_HANDLERS: dict[type, Handler] = {
    Sit: _sit,
    Leave: _leave,
    Stay: _stay,
    SitOut: _sit_out,
    SitIn: _sit_in,
    TopUp: _top_up,
    UseTimeBank: _use_time_bank,
    SetPointValue: _set_point_value,
    StartHand: _start_hand,
    SetHand: _set_hand,
    DeclareNatural: _declare_natural,
    Surrender: _surrender,
    Place: _place,
    Timeout: _timeout,
}

__all__ = ["apply", "placement_problem", "settle"]
