"""The table's records: ``evolve`` builds what ``dataclasses.replace`` builds; the queries
agree with each other."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from table_helpers import deal, table_with
from thirteen.bots.arena import seated_table, seeded_deal
from thirteen.bots.base import RandomBot
from thirteen.engine.actions import StartHand
from thirteen.engine.deck import Deal
from thirteen.engine.legal import legal_actions
from thirteen.engine.rules import PRESETS, get_rules
from thirteen.engine.state import Board, Phase, Seat, deciders, evolve, may_decide
from thirteen.engine.table import apply
from thirteen.engine.views import view


def test_evolve_is_replace_for_every_record() -> None:
    state = table_with(get_rules("ofc-pineapple"), ["ann", "bob", None])
    state = deal(state, Deal.from_order(range(52), [bytes(16)] * 52))
    hand = state.hand
    assert hand is not None
    seat = state.seats[0]
    assert seat is not None
    cases: list[tuple[Any, dict[str, Any]]] = [
        (state, {"clock": 7.0, "state_id": 9}),
        (state, {}),
        (hand, {"street": 2, "turn": 1, "boards": hand.boards[::-1]}),
        (hand.boards[0], {"deadline": 3.5, "pending": (), "front": (1, 2)}),
        (seat, {"stack": 5, "fantasyland": 14}),
    ]
    for record, changes in cases:
        copy = evolve(record, **changes)
        assert copy == dataclasses.replace(record, **changes)
        assert hash(copy) == hash(dataclasses.replace(record, **changes))
        assert repr(copy) == repr(dataclasses.replace(record, **changes))
        assert type(copy) is type(record)
        assert copy is not record
        assert vars(copy).keys() == vars(record).keys()


def test_evolve_refuses_an_unknown_field() -> None:
    with pytest.raises(TypeError, match="no field 'colour'"):
        evolve(Seat("ann", 100), colour="red")
    board = Board(seat=0, position=0, dealt=(1,), pending=(1,))
    with pytest.raises(TypeError, match="no field 'rows'"):
        evolve(board, deadline=1.0, rows=())
    assert board.deadline is None


@pytest.mark.parametrize(
    ("preset", "fantasyland"),
    [(name, False) for name in PRESETS] + [(n, True) for n, r in PRESETS.items() if r.fantasyland],
)
def test_deciders_are_the_boards_that_may_decide(preset: str, fantasyland: bool) -> None:
    """``deciders`` looks up once what ``may_decide`` reads per board: the same seats."""
    rules = get_rules(preset)
    rng = random.Random(preset)
    players = min(3, rules.max_players)
    entry = {0: rules.fantasyland_entry[-1][1]} if fantasyland else None
    state = seated_table(rules, players, fantasyland=entry)
    bot = RandomBot(rng, surrender_rate=0.1)
    clock = 0.0
    for _ in range(3):
        clock = max(clock, state.next_deal_at or clock) + 1
        state = apply(state, StartHand(deal=seeded_deal(rng), at=clock))[0]
        while True:
            hand = state.hand
            assert hand is not None
            expected = {b.seat: b.deadline for b in hand.boards if may_decide(state, b)}
            assert deciders(state) == (expected if state.phase == Phase.PLAYING else {})
            if state.phase != Phase.PLAYING:
                break
            seat = min(deciders(state))
            clock += 1
            action = bot.choose(view(state, seat), legal_actions(view(state, seat)), 1.0)
            state = apply(state, dataclasses.replace(action, at=clock))[0]


def test_a_deal_that_changes_no_seat_keeps_the_very_same_seats() -> None:
    """The views reuse what they made of the seats while the seats are the same object; a deal
    changes none of them unless a seat leaves fantasyland or sits out after the hand."""
    state = table_with(get_rules("chinese-1-6"), ["ann", "bob", "cat"])
    dealt = deal(state, Deal.from_order(range(52), [bytes(16)] * 52))
    assert dealt.seats is state.seats
    marked = evolve(
        state, seats=(state.seats[0], evolve(seat_of(state, 1), fantasyland=14), state.seats[2])
    )
    redealt = deal(marked, Deal.from_order(range(52), [bytes(16)] * 52))
    assert redealt.seats is not marked.seats
    assert seat_of(redealt, 1).fantasyland is None
    assert redealt.seats[0] is state.seats[0]


def seat_of(state: Any, index: int) -> Seat:
    seat = state.seats[index]
    assert seat is not None
    return seat
