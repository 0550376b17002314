"""Legal street placements: the lazy sequence a random player draws from lists exactly what
:func:`placements` lists, in the same order."""

from __future__ import annotations

import random
from itertools import product

import pytest

from thirteen.engine.legal import Placements, placements


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
