"""Legal actions: :func:`legal_for` reads from the state exactly what :func:`legal_actions`
reads from the seat's view; the lazy sequence a random player draws from lists exactly what
:func:`placements` lists, in the same order."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from functools import partial
from itertools import product

import pytest

from thirteen.bots.arena import seated_table, seeded_deal
from thirteen.bots.base import RandomBot
from thirteen.engine.actions import StartHand
from thirteen.engine.errors import IllegalActionError
from thirteen.engine.legal import Legal, Placements, legal_actions, legal_for, placements
from thirteen.engine.rules import PRESETS, get_rules
from thirteen.engine.state import Phase, TableState, deciders
from thirteen.engine.table import apply
from thirteen.engine.views import view


def legal_or_refusal(read: Callable[[], Legal]) -> Legal | str:
    try:
        return read()
    except IllegalActionError as e:
        return e.code


def check_every_seat(state: TableState) -> None:
    for seat in range(len(state.seats)):
        fast = legal_or_refusal(partial(legal_for, state, seat))
        assert fast == legal_or_refusal(partial(legal_actions, view(state, seat)))


@pytest.mark.parametrize(
    ("preset", "fantasyland"),
    [(name, False) for name in PRESETS] + [(n, True) for n, r in PRESETS.items() if r.fantasyland],
)
def test_legal_for_reads_the_state_as_the_view_shows_it(preset: str, fantasyland: bool) -> None:
    rules = get_rules(preset)
    rng = random.Random(preset)
    players = min(3, rules.max_players)
    entry = rules.fantasyland_entry[0][1] if fantasyland else 0
    state = seated_table(rules, players, fantasyland={1: entry} if fantasyland else None)
    check_every_seat(state)  # before any deal: nobody may act
    bot = RandomBot(rng, surrender_rate=0.1)
    clock = 0.0
    for _ in range(3):
        clock = max(clock, state.next_deal_at or clock) + 1
        state, _ = apply(state, StartHand(deal=seeded_deal(rng), at=clock))
        while state.phase == Phase.PLAYING:
            check_every_seat(state)
            seat = min(deciders(state))
            clock += 1
            action = bot.choose(view(state, seat), legal_for(state, seat), 1.0)
            state, _ = apply(state, dataclasses.replace(action, at=clock))
        check_every_seat(state)  # the showdown


@pytest.mark.parametrize("discards", [0, 1, 2])
def test_the_lazy_sequence_is_the_list_in_order(discards: int) -> None:
    cards = (7, 19, 33, 40, 51)
    for count, room in product(range(6), product(range(4), range(6), range(6))):
        eager = placements(cards[:count], room, discards)
        lazy = Placements(cards[:count], room, discards)
        assert len(lazy) == len(eager)
        assert [lazy[i] for i in range(len(lazy))] == eager
        assert list(lazy) == eager
        if eager:
            assert lazy[-1] == eager[-1]
            assert lazy[1:4] == eager[1:4]


def test_a_random_draw_is_the_same_draw_from_the_list() -> None:
    cards, room = (3, 14, 25, 36, 47), (3, 5, 5)
    for seed in range(50):
        eager = random.Random(seed).choice(placements(cards, room, 0))
        assert random.Random(seed).choice(Placements(cards, room, 0)) == eager


def test_out_of_range_and_empty() -> None:
    lazy = Placements((1, 2, 3), (0, 0, 1), 1)
    assert len(lazy) == 0
    with pytest.raises(IndexError):
        lazy[0]
    with pytest.raises(IndexError):
        random.Random(0).choice(lazy)
    assert len(Placements((1,), (3, 5, 5), 2)) == 0
