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

from bisect import insort
from collections.abc import Iterable, Sequence
from enum import IntEnum
from functools import cache
from itertools import combinations
from types import ModuleType
from typing import TYPE_CHECKING, Any

from thirteen.engine.cards import RANK_NAMES, RANKS, Card
from thirteen.engine.errors import CardError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


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
# Found by a greedy search; _Tables() re-checks the uniqueness every time it runs.
_KEYS5 = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
_KEYS3 = (0, 1, 4, 13, 32, 71, 124, 218, 375, 572, 744, 1208, 1556)

_ACE = 12

# A class key: (category, r1, r2, r3, r4, r5) with ranks as 1..13 in order of importance and
# 0 for "no card", so a 3-card front sorts below the 5-card hands that share its first ranks.
ClassKey = tuple[int, int, int, int, int, int]


Entry = tuple[ClassKey, int]
"""A hand class and where the evaluator looks it up: a sum of rank keys, or a flush's rank bits."""
_HIGH_FIRST = range(_ACE, -1, -1)


def _five_card_classes() -> tuple[list[Entry], list[Entry]]:
    """Every 5-card class: ``(plain, flushes)``, the classes of cards not all of one suit by the
    sum of their :data:`_KEYS5`, and the flushes by their rank bits."""
    k = _KEYS5
    high_card, pair, two_pair, trips, straight, flush, full_house, quads, straight_flush = (
        int(c) for c in Category
    )
    plain: list[Entry] = []
    flushes: list[Entry] = []
    for q in _HIGH_FIRST:
        for x in _HIGH_FIRST:
            if x != q:
                plain.append(((quads, q + 1, x + 1, 0, 0, 0), 4 * k[q] + k[x]))
                plain.append(((full_house, q + 1, x + 1, 0, 0, 0), 3 * k[q] + 2 * k[x]))
    for t in _HIGH_FIRST:
        others = [r for r in _HIGH_FIRST if r != t]
        for a, b in combinations(others, 2):
            plain.append(((trips, t + 1, a + 1, b + 1, 0, 0), 3 * k[t] + k[a] + k[b]))
        for a, b, c in combinations(others, 3):
            plain.append(((pair, t + 1, a + 1, b + 1, c + 1, 0), 2 * k[t] + k[a] + k[b] + k[c]))
    for hi, lo in combinations(_HIGH_FIRST, 2):
        for x in _HIGH_FIRST:
            if x != hi and x != lo:
                plain.append(((two_pair, hi + 1, lo + 1, x + 1, 0, 0), 2 * (k[hi] + k[lo]) + k[x]))
    for a, b, c, d, e in combinations(_HIGH_FIRST, 5):
        slot = k[a] + k[b] + k[c] + k[d] + k[e]
        bits = (1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e)
        if a - e == 4 or (a == _ACE and b == 3):  # a straight, or the wheel (5-high)
            top = a + 1 if a - e == 4 else 4
            plain.append(((straight, top, 0, 0, 0, 0), slot))
            flushes.append(((straight_flush, top, 0, 0, 0, 0), bits))
        else:
            plain.append(((high_card, a + 1, b + 1, c + 1, d + 1, e + 1), slot))
            flushes.append(((flush, a + 1, b + 1, c + 1, d + 1, e + 1), bits))
    return plain, flushes


def _three_card_classes() -> list[Entry]:
    """Every front class by the sum of its :data:`_KEYS3`."""
    k = _KEYS3
    high_card, pair, trips = int(Category.HIGH_CARD), int(Category.PAIR), int(Category.TRIPS)
    three: list[Entry] = []
    for t in _HIGH_FIRST:
        three.append(((trips, t + 1, 0, 0, 0, 0), 3 * k[t]))
        for x in _HIGH_FIRST:
            if x != t:
                three.append(((pair, t + 1, x + 1, 0, 0, 0), 2 * k[t] + k[x]))
    for a, b, c in combinations(_HIGH_FIRST, 3):
        three.append(((high_card, a + 1, b + 1, c + 1, 0, 0), k[a] + k[b] + k[c]))
    return three


def _lookup(entries: list[Entry], index: dict[ClassKey, int], size: int) -> list[int]:
    """A table of ``size`` slots holding each entry's index (-1 elsewhere); refuses collisions."""
    table = [-1] * size
    for key, slot in entries:
        if table[slot] != -1:
            raise AssertionError("rank keys collide")
        table[slot] = index[key]
    return table


_LOW_WHEELS: dict[ClassKey, ClassKey] = {
    (int(Category.STRAIGHT), 4, 0, 0, 0, 0): (int(Category.HIGH_CARD), _ACE + 1, 4, 3, 2, 1),
    (int(Category.STRAIGHT_FLUSH), 4, 0, 0, 0, 0): (int(Category.FLUSH), _ACE + 1, 4, 3, 2, 1),
}
"""The only 5-card classes 2-7 lowball sees otherwise: the wheel is no straight there."""


class _Tables:
    """Lookup tables built once at import (a few milliseconds): every class is enumerated
    directly, and the strengths are the classes' order."""

    def __init__(self) -> None:
        plain, flushes = _five_card_classes()
        three = _three_card_classes()
        front_keys = {key for key, _ in three}
        ordered = sorted({key for key, _ in plain} | {key for key, _ in flushes} | front_keys)
        if len(ordered) != 7462 + 455:
            raise AssertionError("hand class count is wrong")
        index = {k: i for i, k in enumerate(ordered)}
        self.keys: tuple[ClassKey, ...] = tuple(ordered)
        self.rank5 = _lookup(plain, index, 5 * _KEYS5[-1] + 1)
        self.flush5 = _lookup(flushes, index, 1 << 13)
        self.rank3 = _lookup(three, index, 3 * _KEYS3[-1] + 1)

        # Lowball: the five-card classes in the same order, but for the wheels, reversed.
        low_ordered = [k for k in ordered if k not in front_keys and k not in _LOW_WHEELS]
        for low_key in _LOW_WHEELS.values():
            insort(low_ordered, low_key)
        low_index = {k: len(low_ordered) - 1 - i for i, k in enumerate(low_ordered)}
        low_plain = [(_LOW_WHEELS.get(key, key), slot) for key, slot in plain]
        low_flushes = [(_LOW_WHEELS.get(key, key), bits) for key, bits in flushes]
        self.low5 = _lookup(low_plain, low_index, 5 * _KEYS5[-1] + 1)
        self.lowflush5 = _lookup(low_flushes, low_index, 1 << 13)

        self.card_key5 = [_KEYS5[c >> 2] for c in range(52)]
        self.card_key3 = [_KEYS3[c >> 2] for c in range(52)]
        self.card_bit = [1 << (c >> 2) for c in range(52)]
        categories = tuple(Category)
        self.categories = tuple(categories[k[0]] for k in ordered)
        self.size3 = tuple(k in front_keys for k in ordered)


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

# numpy copies for the batch path (and for solvers that index them directly), made on first use
# so that evaluating a hand needs no numpy.
if TYPE_CHECKING:
    CARD_KEY5: npt.NDArray[np.int32]
    CARD_KEY3: npt.NDArray[np.int32]
    CARD_RANK_BIT: npt.NDArray[np.int32]
    RANK5_TABLE: npt.NDArray[np.int16]
    FLUSH5_TABLE: npt.NDArray[np.int16]
    RANK3_TABLE: npt.NDArray[np.int16]
    LOW5_TABLE: npt.NDArray[np.int16]
    LOWFLUSH5_TABLE: npt.NDArray[np.int16]
    CATEGORY_OF: npt.NDArray[np.int8]
    """``CATEGORY_OF[strength]`` is the :class:`Category` value of a strength."""
    EVAL_TABLES: tuple[
        npt.NDArray[np.int32],
        npt.NDArray[np.int32],
        npt.NDArray[np.int16],
        npt.NDArray[np.int16],
        npt.NDArray[np.int32],
        npt.NDArray[np.int16],
    ]
    """The tables a compiled evaluator takes, in the order the solvers' kernels take them:
    ``(CARD_KEY5, CARD_RANK_BIT, RANK5_TABLE, FLUSH5_TABLE, CARD_KEY3, RANK3_TABLE)``."""


@cache
def _arrays() -> dict[str, Any]:
    """The numpy tables (built once, on first use)."""
    import numpy as np

    arrays: dict[str, Any] = {
        "CARD_KEY5": np.array(_CK5, dtype=np.int32),
        "CARD_KEY3": np.array(_CK3, dtype=np.int32),
        "CARD_RANK_BIT": np.array(_BIT, dtype=np.int32),
        "RANK5_TABLE": np.array(_RANK5, dtype=np.int16),
        "FLUSH5_TABLE": np.array(_FLUSH5, dtype=np.int16),
        "RANK3_TABLE": np.array(_RANK3, dtype=np.int16),
        "LOW5_TABLE": np.array(_LOW5, dtype=np.int16),
        "LOWFLUSH5_TABLE": np.array(_LOWFLUSH5, dtype=np.int16),
        "CATEGORY_OF": np.array([int(c) for c in _T.categories], dtype=np.int8),
    }
    arrays["EVAL_TABLES"] = tuple(
        arrays[name]
        for name in (
            "CARD_KEY5",
            "CARD_RANK_BIT",
            "RANK5_TABLE",
            "FLUSH5_TABLE",
            "CARD_KEY3",
            "RANK3_TABLE",
        )
    )
    globals().update(arrays)
    return arrays


def __getattr__(name: str) -> Any:
    """The numpy tables (``CARD_KEY5``, ``EVAL_TABLES``, …) are made when first asked for."""
    if name.isupper() and name in _arrays():
        return _arrays()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


@cache
def _tie_ceilings() -> tuple[int, ...]:
    """For each front, the strongest five-card hand that ties it when only the front's own
    ranks are compared (seed 004's reading; see :func:`tie_ceiling`); made on first use."""
    ordered = _T.keys
    prefix_best: dict[tuple[int, ...], int] = {}
    for i, k in enumerate(ordered):
        if not _T.size3[i]:
            for n in (1, 2, 3):
                prefix_best[(k[0], *k[1 : 1 + n])] = i
    ceiling = list(range(len(ordered)))
    for i, k in enumerate(ordered):
        if _T.size3[i]:
            n = sum(1 for r in k[1:] if r)
            ceiling[i] = prefix_best.get((k[0], *k[1 : 1 + n]), i)
    return tuple(ceiling)


def tie_ceiling(strength: int) -> int:
    """The strongest hand a front *ties* when only the front's own ranks are compared.

    Seed 004 compares ranks until one hand runs out, so a front ``QQ7`` ties a middle ``QQ732``;
    its strict rule "front < middle" then needs ``middle > tie_ceiling(front)``. For a five-card
    strength this is the strength itself.
    """
    return _tie_ceilings()[strength]


@cache
def middle_floors(strict: bool) -> npt.NDArray[np.int64]:
    """``middle_floors(strict)[front]``: the weakest middle that does not foul against a front
    of that strength — the front itself, or past its :func:`tie_ceiling` under seed 004's strict
    rule. Read-only."""
    import numpy as np

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
    """Every label some ``size``-card hand answers to (as :func:`hand_labels` names them): its
    categories, a pair and trips of every rank, and for five cards the royal flush. Said
    directly, not found by walking every strength: the presets check their labels at import."""
    ranked = {rank * n for rank in RANKS for n in (2, 3)}
    if size == 3:
        front = (Category.HIGH_CARD, Category.PAIR, Category.TRIPS)
        return frozenset({*(CATEGORY_NAMES[c] for c in front), *ranked})
    return frozenset({*CATEGORY_NAMES, *ranked, "royal flush"})


def _as_hands(hands: npt.ArrayLike, sizes: tuple[int, ...]) -> npt.NDArray[np.int8]:
    """A C-contiguous int8 ``(N, size)`` array of valid card numbers, or :class:`CardError`."""
    import numpy as np

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
    import numpy as np

    arr = _as_hands(hands, (3, 5))
    out = np.empty(arr.shape[0], dtype=np.int16)
    k, t = _kernels(), _arrays()
    if arr.shape[1] == 3:
        k.three_into(arr, t["CARD_KEY3"], t["RANK3_TABLE"], out)
    else:
        k.five_into(
            arr, t["CARD_KEY5"], t["CARD_RANK_BIT"], t["RANK5_TABLE"], t["FLUSH5_TABLE"], out
        )
    return out


def lowball_batch(hands: npt.ArrayLike) -> npt.NDArray[np.int16]:
    """2-7 lowball strengths of an ``(N, 5)`` array of cards (higher is a better low)."""
    import numpy as np

    arr = _as_hands(hands, (5,))
    out = np.empty(arr.shape[0], dtype=np.int16)
    t = _arrays()
    _kernels().five_into(
        arr, t["CARD_KEY5"], t["CARD_RANK_BIT"], t["LOW5_TABLE"], t["LOWFLUSH5_TABLE"], out
    )
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
