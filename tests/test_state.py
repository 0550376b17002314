"""The table's records: ``evolve`` builds what ``dataclasses.replace`` builds."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from table_helpers import deal, table_with
from thirteen.engine.deck import Deal
from thirteen.engine.rules import get_rules
from thirteen.engine.state import Board, Seat, evolve


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
