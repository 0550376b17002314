"""The exact fantasyland solver: the best way to set 13 to 17 cards dealt at once.

In fantasyland a player gets all their cards together (13 to 17 of them, RULES §3.6 and §4.2),
keeps 13, sets them 3/5/5 face down and discards the rest. :func:`solve_fantasyland` returns the
setting that maximizes

    royalties + stay_value × stays

among the settings that do not foul, where ``stays`` says whether the setting keeps the player
in fantasyland (the stay rule only: trips in front, a full house or better in the middle, quads
or better in back for the presets). Royalties come from ``rules.royalties`` as the showdown pays
them, and legality is the showdown's own foul rule, strict front included.

Among settings of equal value the solver prefers the strongest back, then the strongest middle,
then the strongest front (the setting that wins the most rows); a remaining tie (suits only) is
broken by a fixed order of the cards, so the answer depends on the set of cards alone.

>>> from thirteen.engine.cards import format_cards, parse_cards
>>> from thirteen.engine.rules import get_rules
>>> hand = parse_cards("As Ad Ac Kh Qh Jh Th 9h 8c 8d 7s 6s 5c 2d")
>>> best = solve_fantasyland(hand, get_rules("ofc-pineapple"))
>>> format_cards(best.middle), format_cards(best.back), best.royalties, best.stays
('As Ad Ac 8d 8c', 'Kh Qh Jh Th 9h', 27, True)
>>> format_cards(best.front), format_cards(best.discards), best.value
('7s 6s 5c', '2d', 41.6)

How it works (details in ``docs/fantasyland.md``): every 5- and 3-card subset of the hand is
evaluated in a compiled kernel; backs are visited in order of an upper bound on what they can
reach, middles in order of their own value, and the best legal front of the cards left is found
directly. Bounds on value and on row strength cut the rest; the result is exact.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from thirteen.bots import _fantasyland_search as kernel
from thirteen.engine.cards import Card, check_cards, check_distinct
from thirteen.engine.errors import CardError, RuleError
from thirteen.engine.evaluate import (
    EVAL_TABLES,
    NUM_STRENGTHS,
    label_floor,
    middle_floors,
)
from thirteen.engine.royalties import ROWS
from thirteen.engine.rules import Rules
from thirteen.engine.scoring import SetHand, evaluate_player

MIN_CARDS = 13
MAX_CARDS = 17
MAX_STAY_VALUE = 1_000_000.0
STAY_VALUE_DENOMINATOR = 1000
"""Stay values are compared exactly as the nearest fraction with at most this denominator."""

STAY_VALUES: dict[str, float] = {
    "ofc": 9.7,
    "ofc-pineapple": 14.6,
    "ofc-pineapple-progressive": 14.6,
}
"""Default stay value per preset: what one more fantasyland hand is worth, in royalty units.

Each is the fixed point ``W`` of ``W = mean over random repeat-fantasyland deals of the best
(royalties + W × stays)``: a fantasyland hand is worth its solved royalties, counting its own
chance to stay again at the same worth. Measured with ``scripts/fantasyland_stay_value.py``
(method and figures in ``docs/fantasyland.md``). The progressive preset deals 14 cards on a
repeat, with pineapple's royalties and stay rule, so it shares pineapple's value.
"""


def default_stay_value(rules: Rules) -> float:
    """The stay value the solver uses for ``rules`` when none is given.

    A preset (or a preset with overrides, named ``"<preset> (custom)"``) uses its entry in
    :data:`STAY_VALUES`; any other rules use the value of the preset with the same repeat
    fantasyland size (13 cards: ``ofc``, more: ``ofc-pineapple``).
    """
    base = rules.name.removesuffix(" (custom)")
    if base in STAY_VALUES:
        return STAY_VALUES[base]
    repeat = rules.fantasyland_repeat_cards
    if repeat is None and rules.fantasyland_entry:
        repeat = min(cards for _, cards in rules.fantasyland_entry)
    return STAY_VALUES["ofc" if repeat == MIN_CARDS else "ofc-pineapple"]


@dataclass(frozen=True)
class FantasylandSolution:
    """The best setting of a fantasyland hand and what it earns.

    Rows list their cards strongest rank first; ``discards`` are the cards not set.
    """

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]
    discards: tuple[Card, ...]
    royalty_rows: tuple[int, int, int]
    """Royalties of the front, middle and back, as the showdown pays them."""
    strengths: tuple[int, int, int]
    """Front, middle and back strengths on the shared scale."""
    stays: bool
    """Whether the setting keeps the player in fantasyland for another hand."""
    stay_value: float
    """The worth of staying the solver used, in royalty units."""

    @property
    def royalties(self) -> int:
        """Total royalties of the setting."""
        return sum(self.royalty_rows)

    @property
    def value(self) -> float:
        """What the solver maximized: ``royalties + stay_value × stays``."""
        return self.royalties + (self.stay_value if self.stays else 0.0)

    def to_set_hand(self) -> SetHand:
        """The setting as a fantasyland :class:`~thirteen.engine.scoring.SetHand`."""
        return SetHand.of(self.front, self.middle, self.back, in_fantasyland=True)


I64 = npt.NDArray[np.int64]
B8 = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class _Tables:
    back_score: I64
    back_keeps: B8
    mid_plain: I64
    mid_stay: I64
    mid_keeps: B8
    front_plain: I64
    front_stay: I64
    front_cap: I64


def _stay_floor(rules: Rules, row: str) -> int:
    """The weakest strength in ``row`` that meets the stay rule alone (past the scale if none)."""
    size = 3 if row == "front" else 5
    floors = [label_floor(label, size) for r, label in rules.fantasyland_stay if r == row]
    return min(floors, default=NUM_STRENGTHS)


@lru_cache(maxsize=32)
def _rule_rows(rules: Rules) -> tuple[dict[str, I64], dict[str, B8]]:
    """Royalty units and whether a row alone stays, per row and strength."""
    strengths = np.arange(NUM_STRENGTHS, dtype=np.int64)
    royalty: dict[str, I64] = {}
    keeps: dict[str, B8] = {}
    for row in ROWS:
        if rules.royalty_mode == "off":
            royalty[row] = np.zeros(NUM_STRENGTHS, dtype=np.int64)
        else:
            royalty[row] = np.array(rules.royalties.array(row), dtype=np.int64)
        keeps[row] = strengths >= _stay_floor(rules, row)
    return royalty, keeps


@lru_cache(maxsize=16)
def _tables(rules: Rules, unit: int, stay_units: int) -> _Tables:
    """Per-strength scores for ``rules`` with the stay value ``stay_units / unit``."""
    units, keeps = _rule_rows(rules)
    royalty = {row: units[row] * unit for row in ROWS}
    stay = np.int64(stay_units)
    return _Tables(
        back_score=royalty["back"] + stay * keeps["back"],
        back_keeps=keeps["back"],
        mid_plain=royalty["middle"],
        mid_stay=royalty["middle"] + stay * keeps["middle"],
        mid_keeps=keeps["middle"],
        front_plain=royalty["front"],
        front_stay=royalty["front"] + stay * keeps["front"],
        front_cap=middle_floors(rules.front_below_middle),
    )


def _check_hand(cards: Iterable[Card]) -> list[Card]:
    hand = check_cards(cards)
    check_distinct([hand])
    if not MIN_CARDS <= len(hand) <= MAX_CARDS:
        raise CardError(
            "bad_hand_size",
            f"A fantasyland hand has {MIN_CARDS} to {MAX_CARDS} cards, not {len(hand)}.",
        )
    return hand


def _check_rules(rules: Rules) -> None:
    if not rules.fantasyland:
        raise RuleError("no_fantasyland", f"{rules.name} has no fantasyland.")
    if rules.lowball_middle:  # refused by Rules for OFC already; kept for a clear message
        raise RuleError("no_fantasyland", "A lowball middle has no fantasyland.")


def _stay_fraction(stay_value: float) -> Fraction:
    if isinstance(stay_value, bool) or not isinstance(stay_value, int | float):
        raise RuleError("bad_stay_value", f"The stay value must be a number, not {stay_value!r}.")
    if not (math.isfinite(stay_value) and 0 <= stay_value <= MAX_STAY_VALUE):
        raise RuleError(
            "bad_stay_value",
            f"The stay value must be a number from 0 to {MAX_STAY_VALUE:,.0f}, not {stay_value}.",
        )
    return Fraction(stay_value).limit_denominator(STAY_VALUE_DENOMINATOR)


def _cards_of(mask: int, hand: list[Card]) -> tuple[Card, ...]:
    return tuple(sorted((c for i, c in enumerate(hand) if mask >> i & 1), reverse=True))


def solve_fantasyland(
    cards: Iterable[Card], rules: Rules, *, stay_value: float | None = None
) -> FantasylandSolution:
    """The best fantasyland setting of 13 to 17 ``cards`` under ``rules``; never a foul.

    Maximizes ``royalties + stay_value × stays`` (see the module notes); ``stay_value`` is in
    royalty units, :func:`default_stay_value` when omitted, and is compared exactly as the
    nearest fraction with denominator at most 1,000.

    Raises :class:`~thirteen.engine.errors.CardError` for bad or repeated cards or a hand
    that is not 13 to 17 cards, and :class:`~thirteen.engine.errors.RuleError` for rules
    without fantasyland or a stay value that is negative, not finite or above 1,000,000.
    """
    hand = sorted(_check_hand(cards))
    _check_rules(rules)
    chosen = default_stay_value(rules) if stay_value is None else stay_value
    fraction = _stay_fraction(chosen)
    tables = _tables(rules, fraction.denominator, fraction.numerator)
    found = kernel.search(
        np.array(hand, dtype=np.int64),
        *EVAL_TABLES,
        tables.back_score,
        tables.back_keeps,
        tables.mid_plain,
        tables.mid_stay,
        tables.mid_keeps,
        tables.front_plain,
        tables.front_stay,
        tables.front_cap,
    )
    back_mask, middle_mask, front_mask, units = (int(x) for x in found)
    if back_mask < 0:
        raise RuleError("no_legal_setting", "These cards have no setting that does not foul.")
    back = _cards_of(back_mask, hand)
    middle = _cards_of(middle_mask, hand)
    front = _cards_of(front_mask, hand)
    used = back_mask | middle_mask | front_mask
    discards = _cards_of(~used & ((1 << len(hand)) - 1), hand)
    result = evaluate_player(rules, SetHand.of(front, middle, back, in_fantasyland=True))
    stays = result.fantasyland_cards is not None
    assert result.strengths is not None
    assert not result.foul
    assert units == result.royalties * fraction.denominator + fraction.numerator * stays
    return FantasylandSolution(
        front=front,
        middle=middle,
        back=back,
        discards=discards,
        royalty_rows=result.royalty_rows,
        strengths=result.strengths,
        stays=stays,
        stay_value=float(chosen),
    )
