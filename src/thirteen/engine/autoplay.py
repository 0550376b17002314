"""Moves the table makes on its own: automatic moves on timeout, legal placements, a random player.

- :func:`auto_action`: what the table plays for a seat whose time ran out (RULES §5): a setting
  that does not foul for Chinese Poker and fantasyland, the table's automatic placement for an
  OFC street. Deterministic, so replays reproduce it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from thirteen.engine.actions import AUTOPLAY, Action, Place, SetHand
from thirteen.engine.cards import Card, make_card, rank_of, suit_of
from thirteen.engine.errors import IllegalActionError
from thirteen.engine.evaluate import evaluate, evaluate3, evaluate5, lowball, tie_ceiling
from thirteen.engine.legal import Placement, placements, street_placements
from thirteen.engine.naturals import greedy_setting
from thirteen.engine.rules import Rules, fantasyland_cards_for
from thirteen.engine.scoring import is_foul, next_fantasyland, row_strengths, royalty_rows
from thirteen.engine.state import ROW_CAPACITY, Board, TableState, deciders
from thirteen.engine.views import unseen_cards, view

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
        assert state.hand is not None
        version = state.hand.autoplay  # the version the hand was dealt with: replays agree
        front, middle, back, discard = auto_placement(rules, board, unseen_by(state, seat), version)
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


@lru_cache(maxsize=1 << 16)
def _shape(cards: tuple[Card, ...]) -> tuple[int, tuple[int, ...]]:
    """A partial row's made hand by ranks alone, comparable across rows: a category (0 high
    card, 1 pair, 2 two pair, 3 trips, 6 full house, 7 quads) and the ranks, most copies and
    highest first. Flushes and straights are not counted until the row is full."""
    if not cards:
        return (0, ())
    counts = Counter(rank_of(c) for c in cards)
    order = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
    top = counts[order[0]]
    second = counts[order[1]] if len(order) > 1 else 0
    if top == 4:
        category = 7
    elif top == 3:
        category = 6 if second >= 2 else 3
    elif top == 2:
        category = 2 if second == 2 else 1
    else:
        category = 0
    return (category, order)


_ROW_WEIGHT = (1.0, 2.0, 3.0)
"""How much a made hand is worth in front, middle and back (lower rows hold more)."""
_ORDER_PENALTY = 10.0
"""What a lower row at least as strong as the row above it costs, per category of the gap,
divided by the square root of the upper row's free places (more places, more chances)."""
_FRONT_RANKS = 1.0
"""What high cards in front cost: they make the middle's job harder."""


def _placement_value(rules: Rules, rows: Rows, version: int = AUTOPLAY) -> float:
    """A cheap, deterministic judgement of a board: strong low rows and no foul in sight (and
    from version 2, a front that earns fantasyland or could)."""
    free = _free(rows)
    if not any(free):
        strengths = row_strengths(rules, *rows)
        return -1e6 if is_foul(rules, *strengths) else sum(strengths) / 1000.0
    made = [_shape(row) for row in rows]
    value = 0.0
    for weight, (category, ranks) in zip(_ROW_WEIGHT, made, strict=True):
        value += weight * (3 * category + (ranks[0] / 13 if category else 0.0))
    for low, high in ((0, 1), (1, 2)):
        if rows[low] and made[low] >= made[high]:
            gap = made[low][0] - made[high][0] + (made[low][0] == made[high][0])
            if free[high] == 0:
                value -= 1e4  # the upper row is finished below this one: a foul is certain
            else:
                value -= _ORDER_PENALTY * (gap + 0.5) / free[high] ** 0.5
    value -= _FRONT_RANKS * sum(rank_of(c) for c in rows[0]) / 13
    if version < 2:
        return value
    if rules.fantasyland and made[0][0] in (1, 3):  # a front pair or trips: fantasyland?
        value += _QUICK_FANTASYLAND * _fantasyland_front(rules, made[0])
    elif rules.fantasyland and free[0] and _FANTASYLAND_DRAW:  # high cards that could pair
        for rank in made[0][1]:
            worth = _fantasyland_front(rules, (1, (rank,)))
            value += _QUICK_FANTASYLAND * _FANTASYLAND_DRAW * worth
    return value


_FANTASYLAND_DRAW = 0.3
"""The share of a fantasyland's worth the quick judgement gives each unpaired card in a front
with room that would earn it once paired (a queen or better): a draw to fantasyland."""


_QUICK_FANTASYLAND = 1.0
"""How much of a fantasyland's worth (points) the quick judgement adds for a front that
earns it."""


@lru_cache(maxsize=64)
def _fantasyland_front(rules: Rules, made: tuple[int, tuple[int, ...]]) -> float:
    """What a front with this made pair or trips (:func:`_shape`) earns in fantasyland, in
    points (the weakest front with it: lowest kicker), or 0."""
    category, ranks = made
    kicker = next(r for r in range(13) if r not in ranks)
    if category == 3:
        cards = (make_card(ranks[0], 0), make_card(ranks[0], 1), make_card(ranks[0], 2))
    else:
        cards = (make_card(ranks[0], 0), make_card(ranks[0], 1), make_card(kicker, 2))
    earned = fantasyland_cards_for(rules, evaluate3(*cards))
    return 0.0 if earned is None else _fantasyland_worth(earned)


def _front_value(rules: Rules, rows: Rows) -> float:
    """The quick judgement with high cards in front worth something (a pair of queens or
    better there earns fantasyland) rather than a cost."""
    return _placement_value(rules, rows) + 2 * _FRONT_RANKS * sum(rank_of(c) for c in rows[0]) / 13


def _free(rows: Rows) -> list[int]:
    """Free places in front, middle and back."""
    return [ROW_CAPACITY[name] - len(row) for row, name in zip(rows, ROW_NAMES, strict=True)]


def _after(rows: Rows, placement: Placement) -> Rows:
    """The rows once ``placement`` is played."""
    return (rows[0] + placement[0], rows[1] + placement[1], rows[2] + placement[2])


def _greedy(
    rules: Rules, rows: Rows, cards: Sequence[Card], discards: int, version: int
) -> Placement:
    """The placement with the best :func:`_placement_value` (the first of equals)."""
    return max(
        placements(cards, _free(rows), discards),
        key=lambda p: _placement_value(rules, _after(rows, p), version),
    )


LOOKAHEAD_DEALS = 16
"""Futures the automatic placement plays out for each of its best candidates."""
LOOKAHEAD_CANDIDATES = 6
"""Candidates (best by :func:`_placement_value`) the automatic placement plays out."""
_FOUL_COST = 6.0
"""What a fouled playout scores: about a scooped hand, with the royalties it forfeits."""
FANTASYLAND_POINTS = 13.0
"""What a playout that enters fantasyland with 13 cards gains (see :func:`_fantasyland_worth`)."""
FANTASYLAND_CARD_POINTS = 3.0
"""What each fantasyland card over 13 adds."""
FRONT_CANDIDATES = 3
"""Candidates added for a strong front (best by :func:`_front_value`): the quick judgement
holds high cards out of the front, where a pair of queens or better earns fantasyland."""


def _futures(unseen: Sequence[Card], key: Sequence[Card], count: int) -> list[list[Card]]:
    """``count`` shuffles of ``unseen``, a deterministic function of the cards in ``key``
    (xorshift32), so replaying a hand reproduces the table's automatic moves."""
    state = (sum((c + 1) * 2654435761 for c in key) & 0xFFFFFFFF) or 1
    out = []
    for _ in range(count):
        pool = list(unseen)
        for i in range(len(pool) - 1, 0, -1):
            state ^= (state << 13) & 0xFFFFFFFF
            state ^= state >> 17
            state ^= (state << 5) & 0xFFFFFFFF
            j = state % (i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        out.append(pool)
    return out


def _finish(
    rules: Rules, rows: Rows, streets: Sequence[int], pool: Sequence[Card], version: int
) -> float:
    """Play ``rows`` to the end greedily with ``pool`` as the cards to come; what it scores
    (from version 2, fantasyland's worth too)."""
    drawn = 0
    for size in streets:
        cards = pool[drawn : drawn + size]
        drawn += size
        rows = _after(rows, _greedy(rules, rows, cards, rules.discards_per_street, version))
    strengths = row_strengths(rules, *rows)
    if is_foul(rules, *strengths):
        return -_FOUL_COST
    score = float(sum(royalty_rows(rules, strengths)))
    if version < 2:
        return score
    earned = next_fantasyland(rules, strengths, in_fantasyland=False)
    return score if earned is None else score + _fantasyland_worth(earned)


def _fantasyland_worth(cards: int) -> float:
    """About what entering fantasyland with ``cards`` cards is worth in points (the strong
    player's measured figures: 12.9 for 13 cards in classic OFC, 16.1 for 14 in pineapple)."""
    return FANTASYLAND_POINTS + FANTASYLAND_CARD_POINTS * (cards - 13)


def auto_placement(
    rules: Rules, board: Board, unseen: Sequence[Card] = (), version: int = AUTOPLAY
) -> Placement:
    """The table's automatic placement for an OFC street (deterministic), as ``version`` of
    the automatic moves makes it (:data:`~thirteen.engine.actions.AUTOPLAY`: a hand replays
    with the version it was dealt with; 1 lacks the two steps marked "version 2" below).

    The best few placements by a quick judgement are each played out to the end on the same
    :data:`LOOKAHEAD_DEALS` futures drawn from ``unseen`` (the cards the player has not seen),
    greedily, and scored by royalties less a foul; the best total wins. Without ``unseen``, or
    when nothing is left to come, the quick judgement decides alone.
    """
    options = street_placements(rules, board)
    if not options:
        raise IllegalActionError("no_legal_placement", "There is no legal way to play this street.")
    if unseen and version >= 2:  # never a board that must foul while another keeps it alive
        alive = [p for p in options if not foul_certain(rules, _after(board.rows, p), unseen)]
        options = alive or options
    ranked = sorted(options, key=lambda p: -_placement_value(rules, _after(board.rows, p), version))
    ranked = ranked[:LOOKAHEAD_CANDIDATES]
    if rules.fantasyland and version >= 2:  # version 2: the strongest fronts are candidates
        fronts = sorted(options, key=lambda p: -_front_value(rules, _after(board.rows, p)))
        ranked += [p for p in fronts[:FRONT_CANDIDATES] if p not in ranked]
    streets = rules.streets[board.street + 1 :]
    if len(ranked) == 1 or not streets or len(unseen) < sum(streets):
        return ranked[0]
    futures = _futures(unseen, board.dealt + board.placed + board.discards, LOOKAHEAD_DEALS)

    def played_out(p: Placement) -> float:
        return sum(
            _finish(rules, _after(board.rows, p), streets, pool, version) for pool in futures
        )

    return max(ranked, key=played_out)


EXACT_FREE = 2
"""Free places up to which :func:`foul_certain` tries every completion of a row."""
_ANY = 1 << 30
"""A strength above every hand: what a row with many free places might still become."""


def _completions(
    rules: Rules, row: tuple[Card, ...], capacity: int, unseen: Sequence[Card], middle: bool
) -> list[int]:
    """Strengths ``row`` can end with, filled from ``unseen`` (every one, when at most
    :data:`EXACT_FREE` places are free; else the weakest found — lowest cards of new ranks —
    and :data:`_ANY`, as a row with three places or more can still become nearly anything)."""
    free = capacity - len(row)
    judge = lowball if middle and rules.lowball_middle else evaluate
    if free == 0:
        return [judge(row)]
    if free <= EXACT_FREE:
        return [judge(row + extra) for extra in combinations(unseen, free)]
    ranks = {rank_of(c) for c in row}
    suits = Counter(suit_of(c) for c in row)
    by_rank: dict[int, list[Card]] = {}
    for card in unseen:
        by_rank.setdefault(rank_of(card), []).append(card)
    low: list[Card] = []  # a card of each of the lowest new ranks, of the suit least used yet
    for rank in sorted(set(by_rank) - ranks)[: free + 4]:
        card = min(by_rank[rank], key=lambda c: (suits[suit_of(c)], suit_of(c)))
        suits[suit_of(card)] += 1
        low.append(card)
    weakest = min((judge(row + extra) for extra in combinations(low, free)), default=_ANY)
    return [weakest, _ANY]


def foul_certain(rules: Rules, rows: Rows, unseen: Sequence[Card]) -> bool:
    """Whether ``rows`` foul whatever cards from ``unseen`` fill them.

    Exact for a full board (it is fouled or it is not) and whenever every row has at most
    :data:`EXACT_FREE` free places, each row judged alone: the board lives if some middle it can
    end with lies between the weakest front and the strongest back it can end with (rows are
    filled from the same cards, so two rows wanting the one card left of a rank may count as
    alive). A row with more places free is taken to reach any strength above its weakest.
    """
    free = _free(rows)
    if not any(free):
        return is_foul(rules, *row_strengths(rules, *rows))
    if free[1] > EXACT_FREE and free[2] > EXACT_FREE:
        return False  # a middle and a back with three places each can still climb over the front
    front = min(_completions(rules, rows[0], 3, unseen, False))
    back = max(_completions(rules, rows[2], 5, unseen, False))
    if rules.lowball_middle:
        return back < front
    middles = _completions(rules, rows[1], 5, unseen, True)
    if free[1] > EXACT_FREE:
        low, high = middles
        return not (front <= back and high >= front and low <= back)
    floor = tie_ceiling(front) if rules.front_below_middle else front
    for middle in middles:
        above = middle > floor if rules.front_below_middle else middle >= floor
        if above and middle <= back:
            return False
    return True


def unseen_by(state: TableState, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` has not seen: everything but what its own view shows."""
    return unseen_cards(view(state, seat))


__all__ = ["auto_action", "auto_placement", "foul_certain", "safe_setting", "unseen_by"]
