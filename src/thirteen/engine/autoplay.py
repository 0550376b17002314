"""Moves the table makes on its own: automatic moves on timeout, legal placements, a random player.

- :func:`auto_action`: what the table plays for a seat whose time ran out (RULES §5): a setting
  that does not foul for Chinese Poker and fantasyland, the table's automatic placement for an
  OFC street. Deterministic, so replays reproduce it.
- :func:`street_placements`: every legal way to play an OFC street.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations, product

from thirteen.engine.actions import Action, Place, SetHand
from thirteen.engine.cards import Card, rank_of
from thirteen.engine.errors import IllegalActionError
from thirteen.engine.evaluate import evaluate3, evaluate5
from thirteen.engine.naturals import greedy_setting
from thirteen.engine.rules import Rules
from thirteen.engine.scoring import is_foul, row_strengths
from thirteen.engine.table import ROW_CAPACITY, Board, TableState, deciders, discards_due

Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
ROW_NAMES = ("front", "middle", "back")


def _board_for(state: TableState, seat: int) -> Board:
    if seat not in deciders(state) or state.hand is None:
        raise IllegalActionError("not_your_turn", f"Seat {seat} has nothing to decide now.")
    board = state.hand.board_of(seat)
    assert board is not None
    return board


def auto_action(state: TableState, seat: int) -> Action:
    """The move the table makes for ``seat`` when its time runs out."""
    board = _board_for(state, seat)
    rules = state.rules
    if rules.is_ofc and not board.in_fantasyland:
        front, middle, back, discard = auto_placement(rules, board)
        return Place(seat=seat, front=front, middle=middle, back=back, discard=discard)
    front, middle, back = safe_setting(rules, board.pending)
    return SetHand(seat=seat, front=front, middle=middle, back=back)


def safe_setting(rules: Rules, cards: Sequence[Card]) -> Rows:
    """A strong setting of 13 of ``cards`` that does not foul under ``rules``.

    Greedy: the best five in back, the best five of the rest in the middle, the best three of
    the rest in front — never a foul under the usual order (each row is the best of a pool that
    contains the next row's cards). Stricter rules (seed 004's strict front, a lowball middle)
    fall back to a search for the first legal setting.
    """
    pool = list(cards)
    if len(pool) == 13:
        front, middle, back = greedy_setting(pool)
    else:
        back = max(combinations(pool, 5), key=lambda h: evaluate5(*h))
        rest = [c for c in pool if c not in back]
        middle = max(combinations(rest, 5), key=lambda h: evaluate5(*h))
        rest = [c for c in rest if c not in middle]
        front = max(combinations(rest, 3), key=lambda h: evaluate3(*h))
    if not is_foul(rules, *row_strengths(rules, front, middle, back)):
        return front, middle, back
    for setting in _all_settings(pool):
        if not is_foul(rules, *row_strengths(rules, *setting)):
            return setting
    raise IllegalActionError("no_legal_setting", "These cards have no legal setting.")


def _all_settings(pool: Sequence[Card]) -> Iterator[Rows]:
    for back in combinations(pool, 5):
        rest = [c for c in pool if c not in back]
        for middle in combinations(rest, 5):
            left = [c for c in rest if c not in middle]
            for front in combinations(left, 3):
                yield front, middle, back


Placement = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


def street_placements(rules: Rules, board: Board) -> list[Placement]:
    """Every legal ``(front, middle, back, discard)`` for the street ``board`` must play."""
    return placements(board.pending, board.room, discards_due(rules, board))


@cache
def _assignments(count: int, room: tuple[int, int, int]) -> tuple[tuple[int, ...], ...]:
    """Every way to send ``count`` cards to rows 0/1/2 without overfilling ``room``."""
    return tuple(
        rows
        for rows in product(range(3), repeat=count)
        if rows.count(0) <= room[0] and rows.count(1) <= room[1] and rows.count(2) <= room[2]
    )


def placements(cards: Sequence[Card], room: Sequence[int], discards: int) -> list[Placement]:
    """Every way to put ``cards`` into rows with this much ``room``, discarding ``discards``."""
    out: list[Placement] = []
    room3 = (room[0], room[1], room[2])
    for discard in combinations(cards, discards):
        keep = [c for c in cards if c not in discard]
        for rows in _assignments(len(keep), room3):
            split: tuple[list[Card], list[Card], list[Card]] = ([], [], [])
            for card, row in zip(keep, rows, strict=True):
                split[row].append(card)
            out.append((tuple(split[0]), tuple(split[1]), tuple(split[2]), discard))
    return out


def _made(cards: Sequence[Card]) -> tuple[int, int]:
    """A partial row's made hand by rank counts only: (0 high, 1 pair, 2 two pair, 3 trips,
    4 full house, 5 quads) and its main rank."""
    if not cards:
        return (0, -1)
    counts = Counter(rank_of(c) for c in cards)
    shape = sorted(counts.values(), reverse=True)
    main = max(counts, key=lambda r: (counts[r], r))
    if shape[0] == 4:
        return (5, main)
    if shape[0] == 3:
        return (4 if len(shape) > 1 and shape[1] >= 2 else 3, main)
    if shape[0] == 2:
        return (2 if len(shape) > 1 and shape[1] == 2 else 1, main)
    return (0, main)


_ROW_WEIGHT = (1.0, 2.0, 3.0)


def _placement_value(rules: Rules, rows: Rows) -> float:
    """A cheap, deterministic judgement of a partial board: strong low rows, no foul in sight."""
    full = [len(r) == ROW_CAPACITY[n] for r, n in zip(rows, ROW_NAMES, strict=True)]
    if all(full):
        strengths = row_strengths(rules, *rows)
        foul = is_foul(rules, *strengths)
        return -1e6 if foul else float(sum(strengths))
    made = [_made(r) for r in rows]
    value = 0.0
    for weight, (category, rank), cards in zip(_ROW_WEIGHT, made, rows, strict=True):
        value += weight * (category * 20 + (rank + 1 if category else 0))
        value += weight * 0.05 * sum(rank_of(c) for c in cards)
    # Risk of a foul: a lower row already made stronger than the row above it.
    for low, high, high_full in ((0, 1, full[1]), (1, 2, full[2])):
        if made[low] > made[high]:
            value -= 1e5 if high_full else 60.0 * (made[low][0] - made[high][0] + 1)
    # The front is the row that fouls most: keep it weak unless it is already settled.
    value -= 2.0 * sum(rank_of(c) for c in rows[0])
    return value


def auto_placement(rules: Rules, board: Board) -> Placement:
    """The table's automatic placement for an OFC street (deterministic)."""
    best: Placement | None = None
    best_value = float("-inf")
    for front, middle, back, discard in street_placements(rules, board):
        rows: Rows = (board.front + front, board.middle + middle, board.back + back)
        value = _placement_value(rules, rows)
        if value > best_value:
            best, best_value = (front, middle, back, discard), value
    if best is None:
        raise IllegalActionError("no_legal_placement", "There is no legal way to play this street.")
    return best


__all__ = [
    "auto_action",
    "auto_placement",
    "placements",
    "safe_setting",
    "street_placements",
]
