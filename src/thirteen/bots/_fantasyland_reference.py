"""A plain exhaustive fantasyland solver: the reference the fast one is checked against.

It tries every back, every middle of the cards left and every front of the cards left after
that, keeps the legal settings and returns the best by ``(value, back, middle, front)`` — the
same order :func:`thirteen.bots.fantasyland.solve_fantasyland` maximizes. Nothing is pruned and
nothing is shared with the fast search; strengths come from the engine's batch evaluator.
Slow on purpose: about a second for 17 cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numba
import numpy as np
import numpy.typing as npt

from thirteen.engine.cards import Card
from thirteen.engine.evaluate import NUM_STRENGTHS, evaluate_batch, label_floor, tie_ceiling
from thirteen.engine.rules import Rules

I16 = npt.NDArray[np.int16]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class ReferenceSolution:
    """The best setting found by exhaustive search, with its value in exact units."""

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]
    royalties: int
    stays: bool
    strengths: tuple[int, int, int]


@numba.njit(cache=True, nogil=True)
def _exhaustive(
    n: int,
    strength: I16,
    royalty_front: I64,
    royalty_middle: I64,
    royalty_back: I64,
    stay_front: int,
    stay_middle: int,
    stay_back: int,
    strict_front: bool,
    ceiling: I64,
    unit: int,
    stay_units: int,
) -> I64:  # pragma: no cover - compiled
    best = np.full(8, -1, np.int64)  # value, back, middle, front strengths, three masks, stays
    rest1 = np.empty(n, np.int64)
    rest2 = np.empty(n, np.int64)
    for b1 in range(n):
        for b2 in range(b1 + 1, n):
            for b3 in range(b2 + 1, n):
                for b4 in range(b3 + 1, n):
                    for b5 in range(b4 + 1, n):
                        back = (1 << b1) | (1 << b2) | (1 << b3) | (1 << b4) | (1 << b5)
                        sb = np.int64(strength[back])
                        k1 = 0
                        for i in range(n):
                            if not (back >> i) & 1:
                                rest1[k1] = i
                                k1 += 1
                        for m1 in range(k1):
                            for m2 in range(m1 + 1, k1):
                                for m3 in range(m2 + 1, k1):
                                    for m4 in range(m3 + 1, k1):
                                        for m5 in range(m4 + 1, k1):
                                            middle = (
                                                (1 << rest1[m1])
                                                | (1 << rest1[m2])
                                                | (1 << rest1[m3])
                                                | (1 << rest1[m4])
                                                | (1 << rest1[m5])
                                            )
                                            sm = np.int64(strength[middle])
                                            k2 = 0
                                            for j in range(k1):
                                                if not (middle >> rest1[j]) & 1:
                                                    rest2[k2] = rest1[j]
                                                    k2 += 1
                                            for f1 in range(k2):
                                                for f2 in range(f1 + 1, k2):
                                                    for f3 in range(f2 + 1, k2):
                                                        front = (
                                                            (1 << rest2[f1])
                                                            | (1 << rest2[f2])
                                                            | (1 << rest2[f3])
                                                        )
                                                        sf = np.int64(strength[front])
                                                        if strict_front:
                                                            legal = ceiling[sf] < sm <= sb
                                                        else:
                                                            legal = sf <= sm <= sb
                                                        if not legal:
                                                            continue
                                                        royalties = (
                                                            royalty_front[sf]
                                                            + royalty_middle[sm]
                                                            + royalty_back[sb]
                                                        )
                                                        stays = (
                                                            sf >= stay_front
                                                            or sm >= stay_middle
                                                            or sb >= stay_back
                                                        )
                                                        value = royalties * unit + (
                                                            stay_units if stays else 0
                                                        )
                                                        key_better = False
                                                        if value != best[0]:
                                                            key_better = value > best[0]
                                                        elif sb != best[1]:
                                                            key_better = sb > best[1]
                                                        elif sm != best[2]:
                                                            key_better = sm > best[2]
                                                        else:
                                                            key_better = sf > best[3]
                                                        if key_better:
                                                            best[0] = value
                                                            best[1] = sb
                                                            best[2] = sm
                                                            best[3] = sf
                                                            best[4] = back
                                                            best[5] = middle
                                                            best[6] = front
                                                            best[7] = 1 if stays else 0
    return best


def _strength_by_mask(hand: list[Card]) -> I16:
    n = len(hand)
    table = np.full(1 << n, -1, dtype=np.int16)
    for size in (3, 5):
        subsets = list(combinations(range(n), size))
        strengths = evaluate_batch(np.array([[hand[i] for i in s] for s in subsets]))
        for s, value in zip(subsets, strengths.tolist(), strict=True):
            table[sum(1 << i for i in s)] = value
    return table


def _stay_threshold(rules: Rules, row: str) -> int:
    threshold = NUM_STRENGTHS
    for stay_row, label in rules.fantasyland_stay:
        if stay_row == row:
            threshold = min(threshold, label_floor(label, 3 if row == "front" else 5))
    return threshold


def reference_solve(hand: list[Card], rules: Rules, stay_value: float) -> ReferenceSolution:
    """The best setting by exhaustive search (``stay_value`` as in the fast solver)."""
    fraction = Fraction(stay_value).limit_denominator(1000)
    off = rules.royalty_mode == "off"
    royalty = {
        row: np.zeros(NUM_STRENGTHS, dtype=np.int64)
        if off
        else np.array(rules.royalties.array(row), dtype=np.int64)
        for row in ("front", "middle", "back")
    }
    ceiling = np.array([tie_ceiling(s) for s in range(NUM_STRENGTHS)], dtype=np.int64)
    n = len(hand)
    best = _exhaustive(
        n,
        _strength_by_mask(hand),
        royalty["front"],
        royalty["middle"],
        royalty["back"],
        _stay_threshold(rules, "front"),
        _stay_threshold(rules, "middle"),
        _stay_threshold(rules, "back"),
        rules.front_below_middle,
        ceiling,
        fraction.denominator,
        fraction.numerator,
    )

    def cards(mask: int) -> tuple[Card, ...]:
        return tuple(hand[i] for i in range(n) if mask >> i & 1)

    sb, sm, sf = int(best[1]), int(best[2]), int(best[3])
    royalties = int(royalty["front"][sf] + royalty["middle"][sm] + royalty["back"][sb])
    return ReferenceSolution(
        front=cards(int(best[6])),
        middle=cards(int(best[5])),
        back=cards(int(best[4])),
        royalties=royalties,
        stays=bool(best[7]),
        strengths=(sf, sm, sb),
    )
