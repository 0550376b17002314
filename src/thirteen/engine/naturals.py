"""Naturals: 13-card hands paid at once instead of being set (RULES §2.7).

:func:`find_naturals` lists every natural a hand holds, each with an arrangement to show on the
table; :func:`check_natural` validates a declaration and says why it fails.

>>> from thirteen.engine.cards import parse_cards, format_cards
>>> hand = parse_cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")
>>> [n.name for n in find_naturals(hand)]
['dragon', 'three-straights']
>>> format_cards(check_natural("dragon", hand).back)
'Ac Ks Qh Jd Tc'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from thirteen.engine.cards import RANKS, Card, card_name, check_distinct, rank_of, suit_of
from thirteen.engine.errors import RuleError
from thirteen.engine.evaluate import evaluate, evaluate5

NATURAL_TITLES = {
    "dragon": "Dragon (thirteen unique cards)",
    "three-flushes": "Three flushes",
    "three-straights": "Three straights",
    "six-pairs": "Six pairs",
    "no-face-cards": "No face cards",
}


@dataclass(frozen=True)
class Natural:
    """A natural and the cards it shows in each row (front 3, middle 5, back 5)."""

    name: str
    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]

    @property
    def title(self) -> str:
        return NATURAL_TITLES[self.name]


def _desc(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, reverse=True))


def _ordered(name: str, front: Sequence[Card], a: Sequence[Card], b: Sequence[Card]) -> Natural:
    """Put the stronger five-card group in the back, so the shown hand reads naturally."""
    middle, back = (a, b) if evaluate(list(a)) <= evaluate(list(b)) else (b, a)
    return Natural(name, _desc(front), _desc(middle), _desc(back))


def _three_flushes(cards: Sequence[Card]) -> Natural | None:
    by_suit: dict[int, list[Card]] = {}
    for c in cards:
        by_suit.setdefault(suit_of(c), []).append(c)
    # Suit counts must split into 3 + 5 + 5: exactly one suit then has 3, 8 or 13 cards (the
    # front's suit) and every other suit a multiple of five.
    fronts = [g for g in by_suit.values() if len(g) % 5 == 3]
    if len(fronts) != 1 or any(len(g) % 5 not in (0, 3) for g in by_suit.values()):
        return None
    front_group = sorted(fronts[0])
    front, rest = front_group[:3], front_group[3:]
    pool = sorted(rest + [c for g in by_suit.values() if g is not fronts[0] for c in g])
    by_suit_rest: dict[int, list[Card]] = {}
    for c in pool:
        by_suit_rest.setdefault(suit_of(c), []).append(c)
    fives = [g[i : i + 5] for g in by_suit_rest.values() for i in range(0, len(g), 5)]
    return _ordered("three-flushes", front, fives[0], fives[1])


def _straight_ranks(size: int) -> list[tuple[int, ...]]:
    """Rank sets of every straight of ``size`` cards, ace low or high, no wrap."""
    runs = [tuple(range(lo, lo + size)) for lo in range(13 - size + 1)]
    runs.append((12, *range(size - 1)))  # A-2-3(-4-5)
    return runs


_STRAIGHTS5 = _straight_ranks(5)
_STRAIGHTS3 = {tuple(sorted(s)) for s in _straight_ranks(3)}


def _take(pool: dict[int, list[Card]], ranks: Sequence[int]) -> list[Card]:
    return [pool[r].pop() for r in ranks]


_NIBBLES = sum(1 << (4 * r) for r in range(13))
"""A bit at each rank's lowest card in a 52-bit set of cards (card ``4 * rank + suit``)."""
_FACES = sum(0xF << (4 * r) for r in (9, 10, 11))
"""Every jack, queen and king."""
_SPREAD5 = [sum(1 << (4 * r) for r in s) for s in _STRAIGHTS5]
"""Each five-card straight's ranks, a bit at each rank's lowest card."""


@dataclass(frozen=True)
class _Ranks:
    """Thirteen cards as a 52-bit set (a rank's four cards side by side), and which ranks they
    hold how often, a bit at each rank's lowest card."""

    cards: int
    held: int
    odd: int
    """Ranks held once or three times."""
    two: int
    """Ranks held at least twice."""
    quads: int

    @classmethod
    def of(cls, cards: Sequence[Card]) -> _Ranks:
        m = 0
        for c in cards:
            m |= 1 << c
        odd = m ^ m >> 1
        some_two = m & (m >> 1 | m >> 2 | m >> 3) | m >> 1 & (m >> 2 | m >> 3) | m >> 2 & m >> 3
        return cls(
            cards=m,
            held=(m | m >> 1 | m >> 2 | m >> 3) & _NIBBLES,
            odd=(odd ^ odd >> 2) & _NIBBLES,
            two=some_two & _NIBBLES,
            quads=m & m >> 1 & m >> 2 & m >> 3 & _NIBBLES,
        )

    def straight_pairs(self) -> Iterator[tuple[int, int]]:
        """The places ``(i, j)``, ``i <= j``, in :data:`_STRAIGHTS5` of two five-card straights
        that can both be taken from these ranks: most hands have none, failing at the first
        test."""
        held = self.held
        once = self.odd & ~self.two
        for i, first in enumerate(_SPREAD5):
            if held & first != first:
                continue
            left = held & ~(first & once)  # the ranks still held once the first is taken out
            for j in range(i, len(_SPREAD5)):
                if left & _SPREAD5[j] == _SPREAD5[j]:
                    yield i, j


def _three_straights(cards: Sequence[Card]) -> Natural | None:
    counts = [0] * 13
    for c in cards:
        counts[rank_of(c)] += 1
    for i, j in _Ranks.of(cards).straight_pairs():
        s1, s2 = _STRAIGHTS5[i], _STRAIGHTS5[j]
        for r in s1 + s2:
            counts[r] -= 1
        rest = tuple(r for r in range(13) for _ in range(counts[r]))
        for r in s1 + s2:
            counts[r] += 1
        if rest in _STRAIGHTS3:
            pool: dict[int, list[Card]] = {}
            for c in sorted(cards):
                pool.setdefault(rank_of(c), []).append(c)
            a = _take(pool, s1)
            b = _take(pool, s2)
            return _ordered("three-straights", _take(pool, rest), a, b)
    return None


def _six_pairs(cards: Sequence[Card]) -> Natural | None:
    if sum(n >> 1 for n in Counter(rank_of(c) for c in cards).values()) < 6:
        return None
    by_rank: dict[int, list[Card]] = {}
    for c in sorted(cards, reverse=True):
        by_rank.setdefault(rank_of(c), []).append(c)
    pairs: list[list[Card]] = []
    for r in sorted(by_rank, reverse=True):
        group = by_rank[r]
        pairs.extend(group[i : i + 2] for i in range(0, len(group) - 1, 2))
    if len(pairs) < 6:
        return None
    # Thirteen cards hold at most six pairs; the sixth pair and the one card left are kickers.
    used = {c for p in pairs for c in p}
    kickers = [c for c in cards if c not in used] + pairs[5]
    back = pairs[0] + pairs[1] + kickers[:1]
    middle = pairs[2] + pairs[3] + kickers[1:2]
    front = pairs[4] + kickers[2:3]
    return _ordered("six-pairs", front, middle, back)


def _dragon(cards: Sequence[Card]) -> Natural | None:
    if len({rank_of(c) for c in cards}) != 13:
        return None
    ordered = sorted(cards)
    return _ordered("dragon", ordered[:3], ordered[3:8], ordered[8:])


def _no_face_cards(cards: Sequence[Card]) -> Natural | None:
    if any(rank_of(c) in (9, 10, 11) for c in cards):
        return None
    front, middle, back = greedy_setting(cards)
    return Natural("no-face-cards", _desc(front), _desc(middle), _desc(back))


def greedy_setting(
    cards: Sequence[Card],
) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """A setting that never fouls: the best five in back, the best five left in middle.

    The middle is the best five of eight cards that include the front's three, so it is at least
    as strong as the front; the back is the best five of all thirteen.
    """
    pool = list(cards)
    back = max(combinations(pool, 5), key=lambda h: evaluate5(*h))  # 1,287 fives: the hot path
    rest = [c for c in pool if c not in back]
    middle = max(combinations(rest, 5), key=lambda h: evaluate5(*h))
    front = tuple(c for c in rest if c not in middle)
    return front, middle, back


_FINDERS = {
    "dragon": _dragon,
    "three-flushes": _three_flushes,
    "three-straights": _three_straights,
    "six-pairs": _six_pairs,
    "no-face-cards": _no_face_cards,
}

_WHY_NOT = {
    "dragon": "a dragon needs one card of every rank, 2 to A",
    "three-flushes": "three flushes need 3 cards of one suit and two groups of 5 of one suit",
    "three-straights": "three straights need a 3-card straight and two 5-card straights",
    "six-pairs": "six pairs need six separate pairs (quads count as two, trips as one)",
    "no-face-cards": "no face cards means no jack, queen or king among the 13 cards",
}


def _check_hand(cards: Sequence[Card]) -> None:
    if len(cards) != 13:
        raise RuleError("bad_hand_size", f"A natural is made of 13 cards, not {len(cards)}.")
    check_distinct([cards])


def _may_hold(cards: Sequence[Card]) -> set[str]:
    """The naturals these 13 cards may hold, judged from how many of each rank and suit they
    hold: each finder's own first test, for all of them at once on the cards as a bit set
    (:class:`_Ranks`; a view of a seat with 13 cards to set asks once a deal; nearly every hand
    holds none, and the finders took 14 µs to say so: issue 33)."""
    ranks = _Ranks.of(cards)
    m = ranks.cards
    may = set()
    if ranks.held == _NIBBLES:
        may.add("dragon")
    suits = (
        (m & _NIBBLES).bit_count() % 5,
        (m >> 1 & _NIBBLES).bit_count() % 5,
        (m >> 2 & _NIBBLES).bit_count() % 5,
        (m >> 3 & _NIBBLES).bit_count() % 5,
    )
    if suits.count(3) == 1 and suits.count(0) == 3:
        may.add("three-flushes")
    if not ranks.quads and next(ranks.straight_pairs(), None) is not None:
        may.add("three-straights")
    # 13 cards: pairs = (13 - ranks held an odd number of times) / 2
    if ranks.odd.bit_count() <= 1:
        may.add("six-pairs")
    if not m & _FACES:
        may.add("no-face-cards")
    return may


def find_naturals(cards: Sequence[Card], among: Collection[str] | None = None) -> list[Natural]:
    """Every natural these 13 cards hold (of those named in ``among``: those a table pays),
    each with the arrangement to show."""
    _check_hand(cards)
    may = _may_hold(cards)
    found = []
    for name, finder in _FINDERS.items():
        if name not in may or (among is not None and name not in among):
            continue
        natural = finder(cards)
        if natural is not None:
            found.append(natural)
    return found


def check_natural(name: str, cards: Sequence[Card]) -> Natural:
    """The arrangement of a declared natural; :class:`RuleError` saying why when it is not one."""
    finder = _FINDERS.get(name)
    if finder is None:
        raise RuleError(
            "unknown_natural",
            f"There is no natural called {name!r}; naturals: {', '.join(_FINDERS)}.",
        )
    _check_hand(cards)
    natural = finder(cards)
    if natural is None:
        raise RuleError("invalid_natural", _explain(name, cards))
    return natural


def _explain(name: str, cards: Sequence[Card]) -> str:
    """Why these cards are not the named natural, in a sentence."""
    reason = _WHY_NOT[name]
    ranks = Counter(rank_of(c) for c in cards)
    detail = ""
    if name == "dragon":
        missing = [RANKS[r] for r in range(13) if r not in ranks]
        detail = f"; this hand has no {', '.join(missing)}"
    elif name == "six-pairs":
        pairs = sum(n // 2 for n in ranks.values())
        detail = f"; this hand has {pairs} pair{'' if pairs == 1 else 's'}"
    elif name == "three-flushes":
        suits = Counter(suit_of(c) for c in cards)
        detail = "; this hand's suits count " + ", ".join(
            f"{n} {'cdhs'[s]}" for s, n in sorted(suits.items())
        )
    elif name == "no-face-cards":
        faces = [card_name(c) for c in cards if rank_of(c) in (9, 10, 11)]
        detail = f"; this hand has {', '.join(faces)}"
    title = NATURAL_TITLES[name].split(" (")[0]
    return f"Not {title.lower()}: {reason}{detail}."
