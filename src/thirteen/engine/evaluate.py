"""Hand strength: one totally ordered int for 3- and 5-card hands.

Every distinct hand class (7,462 five-card classes and 455 three-card classes) gets a dense
*strength* from 0 (``2 3 4`` high, the weakest front) to 7,916 (a royal flush). Higher is stronger,
and the scale is shared across sizes as RULES §1 demands: a front is compared with the first ranks
of a five-card hand, and when those are equal the front is the weaker hand. So the whole foul check
is ``front <= middle <= back``.

Evaluation is a table lookup. Each card carries a rank key chosen so that the sum of five (or
three) keys is unique for every rank multiset; flushes are looked up by the OR of their rank bits.

>>> from thirteen.engine.cards import parse_cards
>>> qq7 = evaluate(parse_cards("Qs Qd 7c"))
>>> qq982 = evaluate(parse_cards("Qh Qc 9d 8s 2c"))
>>> qq654 = evaluate(parse_cards("Qh Qc 6d 5s 4c"))
>>> qq7 < qq982, qq7 < qq654
(True, False)
>>> describe(evaluate(parse_cards("Ah Kh Qh Jh Th")))
'Royal flush'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from enum import IntEnum
from functools import cache
from itertools import combinations, combinations_with_replacement
from types import ModuleType

import numpy as np
import numpy.typing as npt

from thirteen.engine.cards import RANK_NAMES, RANKS, Card
from thirteen.engine.errors import CardError


class Category(IntEnum):
    """Hand categories, weakest first. Fronts only make HIGH_CARD, PAIR and TRIPS."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The lower-case name: ``'full house'``."""
        return CATEGORY_NAMES[self]


CATEGORY_NAMES: tuple[str, ...] = (
    "high card",
    "pair",
    "two pair",
    "trips",
    "straight",
    "flush",
    "full house",
    "quads",
    "straight flush",
)

# Rank keys whose sums over any 5-card (resp. 3-card) rank multiset are all distinct.
# Found by a greedy search; _build_tables() re-checks the uniqueness every time it runs.
_KEYS5 = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
_KEYS3 = (0, 1, 4, 13, 32, 71, 124, 218, 375, 572, 744, 1208, 1556)

_ACE = 12

# A class key: (category, r1, r2, r3, r4, r5) with ranks as 1..13 in order of importance and
# 0 for "no card", so a 3-card front sorts below the 5-card hands that share its first ranks.
ClassKey = tuple[int, int, int, int, int, int]


def _class_key(ranks: Sequence[int], *, flush: bool = False, wheel: bool = True) -> ClassKey:
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    ordered = [r + 1 for r, _ in groups]
    if len(ranks) == 5 and len(counts) == 5:
        desc = sorted(ranks, reverse=True)
        high: int | None = None
        if desc[0] - desc[4] == 4:
            high = desc[0]
        elif wheel and desc == [_ACE, 3, 2, 1, 0]:
            high = 3
        if high is not None:
            cat = Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT
            return (int(cat), high + 1, 0, 0, 0, 0)
        cat = Category.FLUSH if flush else Category.HIGH_CARD
        return (int(cat), *(r + 1 for r in desc))  # type: ignore[return-value]
    cat = {
        (4, 1): Category.QUADS,
        (3, 2): Category.FULL_HOUSE,
        (3, 1, 1): Category.TRIPS,
        (2, 2, 1): Category.TWO_PAIR,
        (2, 1, 1, 1): Category.PAIR,
        (1, 1, 1, 1, 1): Category.HIGH_CARD,
        (3,): Category.TRIPS,
        (2, 1): Category.PAIR,
        (1, 1, 1): Category.HIGH_CARD,
    }[shape]
    padded = [*ordered, 0, 0, 0, 0, 0][:5]
    return (int(cat), *padded)  # type: ignore[return-value]


class _Tables:
    """Lookup tables built once at import (a few tens of milliseconds)."""

    def __init__(self) -> None:
        five: list[tuple[list[int], bool]] = []
        for multiset in combinations_with_replacement(range(13), 5):
            if max(Counter(multiset).values()) <= 4:
                five.append((list(multiset), False))
        for rankset in combinations(range(13), 5):
            five.append((list(rankset), True))
        three = [list(m) for m in combinations_with_replacement(range(13), 3)]

        keys5 = [_class_key(r, flush=f) for r, f in five]
        keys3 = [_class_key(r) for r in three]
        ordered = sorted(set(keys5) | set(keys3))
        if len(ordered) != 7462 + 455:
            raise AssertionError("hand class count is wrong")
        index = {k: i for i, k in enumerate(ordered)}
        self.keys: tuple[ClassKey, ...] = tuple(ordered)

        low_keys = [_class_key(r, flush=f, wheel=False) for r, f in five]
        low_ordered = sorted(set(low_keys))
        low_index = {k: len(low_ordered) - 1 - i for i, k in enumerate(low_ordered)}

        self.rank5 = [-1] * (5 * _KEYS5[-1] + 1)
        self.low5 = [-1] * (5 * _KEYS5[-1] + 1)
        self.flush5 = [-1] * (1 << 13)
        self.lowflush5 = [-1] * (1 << 13)
        self.rank3 = [-1] * (3 * _KEYS3[-1] + 1)
        for (ranks, flush), key, low_key in zip(five, keys5, low_keys, strict=True):
            if flush:
                bits = sum(1 << r for r in ranks)
                self.flush5[bits] = index[key]
                self.lowflush5[bits] = low_index[low_key]
            else:
                slot = sum(_KEYS5[r] for r in ranks)
                if self.rank5[slot] != -1:
                    raise AssertionError("5-card rank keys collide")
                self.rank5[slot] = index[key]
                self.low5[slot] = low_index[low_key]
        for ranks, key in zip(three, keys3, strict=True):
            slot = sum(_KEYS3[r] for r in ranks)
            if self.rank3[slot] != -1:
                raise AssertionError("3-card rank keys collide")
            self.rank3[slot] = index[key]

        self.card_key5 = [_KEYS5[c >> 2] for c in range(52)]
        self.card_key3 = [_KEYS3[c >> 2] for c in range(52)]
        self.card_bit = [1 << (c >> 2) for c in range(52)]
        self.categories = tuple(Category(k[0]) for k in ordered)
        front_keys = set(keys3)
        self.size3 = tuple(k in front_keys for k in ordered)
        # For each front, the strongest five-card hand that ties it when only the front's own
        # ranks are compared (seed 004's reading; see tie_ceiling()).
        prefix_best: dict[tuple[int, ...], int] = {}
        for i, k in enumerate(ordered):
            if k not in front_keys:
                for n in (1, 2, 3):
                    prefix_best[(k[0], *k[1 : 1 + n])] = i
        ceiling = list(range(len(ordered)))
        for i, k in enumerate(ordered):
            if k in front_keys:
                n = sum(1 for r in k[1:] if r)
                ceiling[i] = prefix_best.get((k[0], *k[1 : 1 + n]), i)
        self.tie_ceiling = tuple(ceiling)


_T = _Tables()

NUM_STRENGTHS = len(_T.keys)
"""How many distinct strengths there are (3- and 5-card classes together): 7,917."""
MAX_STRENGTH = NUM_STRENGTHS - 1
NUM_LOWBALL_STRENGTHS = 7462

_RANK5 = _T.rank5
_FLUSH5 = _T.flush5
_RANK3 = _T.rank3
_LOW5 = _T.low5
_LOWFLUSH5 = _T.lowflush5
_CK5 = _T.card_key5
_CK3 = _T.card_key3
_BIT = _T.card_bit

# numpy copies for the batch path (and for solvers that index them directly).
CARD_KEY5 = np.array(_CK5, dtype=np.int32)
CARD_KEY3 = np.array(_CK3, dtype=np.int32)
CARD_RANK_BIT = np.array(_BIT, dtype=np.int32)
RANK5_TABLE = np.array(_RANK5, dtype=np.int16)
FLUSH5_TABLE = np.array(_FLUSH5, dtype=np.int16)
RANK3_TABLE = np.array(_RANK3, dtype=np.int16)
LOW5_TABLE = np.array(_LOW5, dtype=np.int16)
LOWFLUSH5_TABLE = np.array(_LOWFLUSH5, dtype=np.int16)
CATEGORY_OF = np.array([int(c) for c in _T.categories], dtype=np.int8)
"""``CATEGORY_OF[strength]`` is the :class:`Category` value of a strength."""
EVAL_TABLES = (CARD_KEY5, CARD_RANK_BIT, RANK5_TABLE, FLUSH5_TABLE, CARD_KEY3, RANK3_TABLE)
"""The tables a compiled evaluator takes, in the order the solvers' kernels take them."""


def evaluate5(a: Card, b: Card, c: Card, d: Card, e: Card) -> int:
    """Strength of five distinct cards (no validation: this is the hot path)."""
    if (a & 3) == (b & 3) == (c & 3) == (d & 3) == (e & 3):
        return _FLUSH5[_BIT[a] | _BIT[b] | _BIT[c] | _BIT[d] | _BIT[e]]
    return _RANK5[_CK5[a] + _CK5[b] + _CK5[c] + _CK5[d] + _CK5[e]]


def evaluate3(a: Card, b: Card, c: Card) -> int:
    """Strength of three distinct cards as a front (straights and flushes do not count)."""
    return _RANK3[_CK3[a] + _CK3[b] + _CK3[c]]


def evaluate(cards: Sequence[Card]) -> int:
    """Strength of a 3- or 5-card hand on the shared scale.

    Raises :class:`CardError` for any other number of cards. Cards are assumed distinct and valid
    (validate at the edge with :func:`thirteen.engine.cards.parse_cards`).
    """
    n = len(cards)
    if n == 5:
        return evaluate5(cards[0], cards[1], cards[2], cards[3], cards[4])
    if n == 3:
        return _RANK3[_CK3[cards[0]] + _CK3[cards[1]] + _CK3[cards[2]]]
    raise CardError("bad_hand_size", f"A hand has 3 or 5 cards, not {n}.")


def lowball5(a: Card, b: Card, c: Card, d: Card, e: Card) -> int:
    """2-7 lowball strength of five cards: higher is a better low; 7-5-4-3-2 offsuit is best.

    Aces are high only, and straights and flushes count against the hand.
    """
    if (a & 3) == (b & 3) == (c & 3) == (d & 3) == (e & 3):
        return _LOWFLUSH5[_BIT[a] | _BIT[b] | _BIT[c] | _BIT[d] | _BIT[e]]
    return _LOW5[_CK5[a] + _CK5[b] + _CK5[c] + _CK5[d] + _CK5[e]]


def lowball(cards: Sequence[Card]) -> int:
    """2-7 lowball strength of a 5-card hand (higher is better); see :func:`lowball5`."""
    if len(cards) != 5:
        raise CardError("bad_hand_size", f"A lowball hand has 5 cards, not {len(cards)}.")
    return lowball5(cards[0], cards[1], cards[2], cards[3], cards[4])


def category(strength: int) -> Category:
    """The category of a strength."""
    return _T.categories[strength]


def category_name(strength: int) -> str:
    """The lower-case category name of a strength, e.g. ``'full house'``."""
    return CATEGORY_NAMES[_T.categories[strength]]


def class_key(strength: int) -> ClassKey:
    """``(category, r1, ..., r5)``: the ranks (2 = 1 … A = 13) in order of importance, 0-padded."""
    return _T.keys[strength]


def is_front_class(strength: int) -> bool:
    """Whether this strength is a 3-card hand class."""
    return _T.size3[strength]


def tie_ceiling(strength: int) -> int:
    """The strongest hand a front *ties* when only the front's own ranks are compared.

    Seed 004 compares ranks until one hand runs out, so a front ``QQ7`` ties a middle ``QQ732``;
    its strict rule "front < middle" then needs ``middle > tie_ceiling(front)``. For a five-card
    strength this is the strength itself.
    """
    return _T.tie_ceiling[strength]


@cache
def middle_floors(strict: bool) -> npt.NDArray[np.int64]:
    """``middle_floors(strict)[front]``: the weakest middle that does not foul against a front
    of that strength — the front itself, or past its :func:`tie_ceiling` under seed 004's strict
    rule. Read-only."""
    floors = np.arange(NUM_STRENGTHS, dtype=np.int64)
    if strict:
        floors = np.array([tie_ceiling(s) + 1 for s in range(NUM_STRENGTHS)], dtype=np.int64)
    floors.setflags(write=False)
    return floors


def is_royal_flush(strength: int) -> bool:
    """Whether this strength is an ace-high straight flush."""
    return strength == MAX_STRENGTH


_PLURAL = {"Six": "Sixes"}


def _plural(rank: int) -> str:
    name = RANK_NAMES[rank - 1]
    return _PLURAL.get(name, name + "s")


def describe(strength: int) -> str:
    """A readable name for a strength: ``'Queens full of Sevens'``, ``'Pair of Aces'``."""
    cat, r1, r2, *_ = _T.keys[strength]
    single = RANK_NAMES[r1 - 1] if r1 else ""
    match Category(cat):
        case Category.HIGH_CARD:
            return f"{single} high"
        case Category.PAIR:
            return f"Pair of {_plural(r1)}"
        case Category.TWO_PAIR:
            return f"Two pair, {_plural(r1)} and {_plural(r2)}"
        case Category.TRIPS:
            return f"Three {_plural(r1)}"
        case Category.STRAIGHT:
            return f"{single}-high straight"
        case Category.FLUSH:
            return f"{single}-high flush"
        case Category.FULL_HOUSE:
            return f"{_plural(r1)} full of {_plural(r2)}"
        case Category.QUADS:
            return f"Four {_plural(r1)}"
        case _:
            return "Royal flush" if strength == MAX_STRENGTH else f"{single}-high straight flush"


def hand_labels(strength: int) -> tuple[str, ...]:
    """Names a hand answers to, most specific first: ``('QQ', 'pair')``, ``('royal flush', …)``.

    Royalty tables, fan bonuses and fantasyland thresholds are keyed by these names.
    """
    cat, r1, *_ = _T.keys[strength]
    name = CATEGORY_NAMES[cat]
    if cat == Category.PAIR:
        return (RANKS[r1 - 1] * 2, name)
    if cat == Category.TRIPS:
        return (RANKS[r1 - 1] * 3, name)
    if strength == MAX_STRENGTH:
        return ("royal flush", name)
    return (name,)


@cache
def label_floor(label: str, size: int) -> int:
    """The weakest strength of a ``size``-card hand answering to ``label`` (``'QQ'``, ``'trips'``).

    ``strength >= label_floor("QQ", 3)`` reads "a front of queens or better".
    Raises :class:`ValueError` for a label no hand answers to.
    """
    best: int | None = None
    for s in range(NUM_STRENGTHS):
        if is_front_class(s) == (size == 3) and label in hand_labels(s):
            best = s
            break
    if best is None:
        raise ValueError(f"no {size}-card hand is called {label!r}")
    return best


@cache
def known_labels(size: int) -> frozenset[str]:
    """Every label some ``size``-card hand answers to."""
    return frozenset(
        label
        for s in range(NUM_STRENGTHS)
        if is_front_class(s) == (size == 3)
        for label in hand_labels(s)
    )


def _as_hands(hands: npt.ArrayLike, sizes: tuple[int, ...]) -> npt.NDArray[np.int8]:
    """A C-contiguous int8 ``(N, size)`` array of valid card numbers, or :class:`CardError`."""
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] not in sizes:
        wanted = " or ".join(f"(N, {n})" for n in sizes)
        raise CardError("bad_hand_size", f"Expected an {wanted} array of cards, got {arr.shape}.")
    if arr.size and (int(arr.min()) < 0 or int(arr.max()) > 51):
        raise CardError("unknown_card", "Card numbers run from 0 to 51.")
    return np.ascontiguousarray(arr, dtype=np.int8)


@cache
def _kernels() -> ModuleType:
    from thirteen.engine import kernels

    return kernels


def evaluate_batch(hands: npt.ArrayLike) -> npt.NDArray[np.int16]:
    """Strengths of many hands at once: an ``(N, 5)`` or ``(N, 3)`` array of cards.

    A compiled loop does the work (about 150 million five-card hands a second on one core).
    Cards must be distinct within each row; numbers outside 0..51 are refused.
    """
    arr = _as_hands(hands, (3, 5))
    out = np.empty(arr.shape[0], dtype=np.int16)
    k = _kernels()
    if arr.shape[1] == 3:
        k.three_into(arr, CARD_KEY3, RANK3_TABLE, out)
    else:
        k.five_into(arr, CARD_KEY5, CARD_RANK_BIT, RANK5_TABLE, FLUSH5_TABLE, out)
    return out


def lowball_batch(hands: npt.ArrayLike) -> npt.NDArray[np.int16]:
    """2-7 lowball strengths of an ``(N, 5)`` array of cards (higher is a better low)."""
    arr = _as_hands(hands, (5,))
    out = np.empty(arr.shape[0], dtype=np.int16)
    _kernels().five_into(arr, CARD_KEY5, CARD_RANK_BIT, LOW5_TABLE, LOWFLUSH5_TABLE, out)
    return out


def best_five(cards: Iterable[Card]) -> tuple[int, tuple[Card, ...]]:
    """The strongest 5-card hand among some cards: ``(strength, cards)``."""
    best: tuple[int, tuple[Card, ...]] = (-1, ())
    for combo in combinations(cards, 5):
        s = evaluate5(*combo)
        if s > best[0]:
            best = (s, combo)
    if best[0] < 0:
        raise CardError("bad_hand_size", "At least five cards are needed for a five-card hand.")
    return best
