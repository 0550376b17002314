"""The table's automatic OFC placement (what a timed-out player gets): legal, rarely fouls,
and decided from the seat's view alone."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from table_helpers import SALTS, deal, run, table_with
from thirteen.engine.actions import Place, SitIn, Timeout
from thirteen.engine.autoplay import Rows, auto_action, auto_placement, foul_certain, unseen_by
from thirteen.engine.cards import DECK, Card, parse_cards
from thirteen.engine.deck import Deal
from thirteen.engine.events import HandRevealed
from thirteen.engine.legal import Placement, street_placements
from thirteen.engine.rules import get_rules
from thirteen.engine.state import Phase, TableState, deciders


def next_due(state: TableState) -> tuple[int, float]:
    due = deciders(state)
    seat = min(due, key=lambda s: (due[s] or 0.0, s))
    return seat, due[seat] or 0.0


@pytest.mark.parametrize(
    ("preset", "hands", "most"), [("ofc", 25, 0.2), ("ofc-pineapple", 15, 0.1)]
)
def test_a_table_of_timeouts_rarely_fouls(preset: str, hands: int, most: float) -> None:
    """Every decision of both seats times out. Measured over 300 boards: 4.3 % fouls in classic
    OFC and 7.0 % in pineapple, which goes for fantasyland (docs/decisions.md, "Timeouts")."""
    rules = get_rules(preset)
    table = table_with(rules, ["ann", "bob"])
    rng = random.Random(11)
    boards = fouls = 0
    clock = 0.0
    for _ in range(hands):
        for seat in (0, 1):
            occupant = table.seats[seat]
            if occupant is not None and occupant.sitting_out:
                table, _ = run(table, SitIn(seat=seat, at=clock))
        order = list(DECK)
        rng.shuffle(order)
        table = deal(table, Deal.from_order(order, SALTS), at=clock)
        while table.phase == Phase.PLAYING:
            seat, clock = next_due(table)
            table, events = run(table, Timeout(seat=seat, at=clock))
        revealed = [e for e in events if isinstance(e, HandRevealed)]
        assert len(revealed) == 2
        boards += len(revealed)
        fouls += sum(e.foul for e in revealed)
        clock += 1000.0
    assert fouls <= most * boards, f"{fouls} of {boards} boards fouled"


def test_the_automatic_placement_uses_only_what_the_seat_has_seen() -> None:
    """Two decks that differ only in cards the seat has not seen give the same move."""
    rules = get_rules("ofc-pineapple")
    first = list(DECK)
    table = deal(table_with(rules, ["ann", "bob"]), Deal.from_order(first, SALTS))
    seat, _ = next_due(table)
    unseen = unseen_by(table, seat)
    assert table.hand is not None
    board = table.hand.board_of(seat)
    assert board is not None
    assert not set(unseen) & set(board.dealt)
    # Swap the other seat's pending cards with cards deep in the deck: what seat sees is equal.
    other = table.hand.board_of(1 - seat)
    assert other is not None
    assert other.pending
    second = list(first)
    late = [c for c in reversed(first) if c in unseen and c not in other.pending]
    for mine, theirs in zip(other.pending, late, strict=False):
        i, j = second.index(mine), second.index(theirs)
        second[i], second[j] = second[j], second[i]
    swapped = deal(table_with(rules, ["ann", "bob"]), Deal.from_order(second, SALTS))
    assert swapped.hand is not None
    swapped_other = swapped.hand.board_of(1 - seat)
    assert swapped_other is not None
    assert swapped_other.pending != other.pending
    assert unseen_by(swapped, seat) == unseen
    assert auto_action(swapped, seat) == auto_action(table, seat)


def test_without_the_unseen_cards_the_quick_judgement_decides() -> None:
    rules = get_rules("ofc")
    table = deal(table_with(rules, ["ann", "bob"]), Deal.from_order(list(DECK), SALTS))
    seat, _ = next_due(table)
    assert table.hand is not None
    board = table.hand.board_of(seat)
    assert board is not None
    quick = auto_placement(rules, board)
    looked_ahead = auto_placement(rules, board, unseen_by(table, seat))
    for placement in (quick, looked_ahead):
        front, middle, back, discard = placement
        assert sorted(front + middle + back + discard) == sorted(board.pending)


def test_a_board_that_must_foul_is_known() -> None:
    """:func:`foul_certain`: exact for a full board; a front pair over a middle that can at best
    pair lower is dead, over one that can still make a straight it lives; a board with room in
    its lower rows lives."""
    rules = get_rules("ofc")
    unseen = [c for c in DECK if c not in parse_cards("Ks Kh Kd 2c 3d 4h 9s 5s As Ah Ac Qs Qh")]

    def rows(front: str, middle: str, back: str) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(parse_cards(r)) for r in (front, middle, back))

    assert foul_certain(rules, rows("Ks Kh Kd", "2c 3d 4h 9s", "As Ah Ac Qs Qh"), unseen)
    assert foul_certain(rules, rows("Ks Kh", "2c 3d 4h 9s", "As Ah Ac Qs Qh"), unseen)
    assert not foul_certain(rules, rows("Ks Kh", "2c 3d 4h 5s", "As Ah Ac Qs Qh"), unseen)
    assert not foul_certain(rules, rows("Ks Kh Kd", "2c 3d", "As Ah Ac"), unseen)
    full = rows("2c 3d 4h", "9s 9h 5c 6d 7h", "As Ah Ac Qs Qh")
    assert not foul_certain(rules, full, unseen)
    assert foul_certain(rules, rows("As Ah 4h", "9s 9h 5c 6d 7h", "Ks Kh Kd 2c 3d"), unseen)


@pytest.mark.parametrize("preset", ["ofc", "ofc-pineapple"])
def test_the_automatic_placement_never_dooms_a_board_that_could_live(preset: str) -> None:
    """On boards played at random up to a street, the table's placement never leaves a board
    that must foul while another placement keeps it alive (on the last street: never a foul
    when a placement that does not foul exists)."""
    rules = get_rules(preset)
    rng = random.Random(preset)
    checked = 0
    for _ in range(12):
        order = list(DECK)
        rng.shuffle(order)
        table = deal(table_with(rules, ["ann", "bob"]), Deal.from_order(order, SALTS))
        while table.phase == Phase.PLAYING:
            seat, at = next_due(table)
            assert table.hand is not None
            board = table.hand.board_of(seat)
            assert board is not None
            unseen = unseen_by(table, seat)
            options = street_placements(rules, board)

            def dead(
                p: Placement, rows: Rows = board.rows, unseen: Sequence[Card] = unseen
            ) -> bool:
                front, middle, back = rows
                return foul_certain(rules, (front + p[0], middle + p[1], back + p[2]), unseen)

            chosen = auto_placement(rules, board, unseen)
            if any(not dead(p) for p in options):
                assert not dead(chosen)
                checked += 1
            front, middle, back, discard = rng.choice(options)  # the seat plays on at random
            table, _ = run(
                table,
                Place(seat=seat, front=front, middle=middle, back=back, discard=discard, at=at),
            )
    assert checked >= 30
