"""Royalty tables: what a strong row earns, row by row.

A table maps hand *labels* (see :func:`thirteen.engine.evaluate.hand_labels`) to units, one map per
row. A hand earns the entry of its most specific label: ``'QQ'`` before ``'pair'``, ``'AAA'``
before ``'trips'``, ``'royal flush'`` before ``'straight flush'``.

>>> from thirteen.engine.cards import parse_cards
>>> from thirteen.engine.evaluate import evaluate
>>> SEED_001.royalty("front", evaluate(parse_cards("Qs Qd 7c")))
7
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal

from thirteen.engine.cards import RANKS
from thirteen.engine.errors import RulesConfigError
from thirteen.engine.evaluate import (
    NUM_STRENGTHS,
    hand_labels,
    is_front_class,
    known_labels,
    label_floor,
)

Row = Literal["front", "middle", "back"]
ROWS: tuple[Row, Row, Row] = ("front", "middle", "back")
ROW_SIZES = {"front": 3, "middle": 5, "back": 5}

Entries = tuple[tuple[str, int], ...]


def _entries(mapping: Mapping[str, int] | Entries) -> Entries:
    items = mapping.items() if isinstance(mapping, Mapping) else mapping
    return tuple(sorted((str(k), int(v)) for k, v in items))


@cache
def _strength_units(entries: Entries, front: bool) -> tuple[int, ...]:
    """Units for every strength of a row paying ``entries`` — made once per distinct row, not
    per table: a table read back from the database or a snapshot is a new, equal object, and
    walking all 7,917 strengths took milliseconds at every such table's first showdown."""
    paid = dict(entries)
    values = []
    for s in range(NUM_STRENGTHS):
        units = 0
        if is_front_class(s) == front:
            for label in hand_labels(s):
                if label in paid:
                    units = paid[label]
                    break
        values.append(units)
    return tuple(values)


@dataclass(frozen=True)
class RoyaltyTable:
    """Units per hand label for each row; immutable and hashable, so :class:`Rules` can hold it."""

    front: Entries = ()
    middle: Entries = ()
    back: Entries = ()

    @classmethod
    def from_dict(cls, data: Mapping[str, Mapping[str, int]]) -> RoyaltyTable:
        """Build and validate a table from ``{"front": {"QQ": 7}, "middle": {...}, ...}``."""
        unknown = set(data) - {"front", "middle", "back", "top", "bottom"}
        if unknown:
            raise RulesConfigError(
                "bad_rules",
                f"A royalty table has rows front, middle and back, not {sorted(unknown)[0]!r}.",
            )
        rows: dict[str, Entries] = {}
        for name, entries in data.items():
            row = {"top": "front", "bottom": "back"}.get(name, name)
            if not isinstance(entries, Mapping):
                raise RulesConfigError(
                    "bad_rules", f"The {row} royalties must map hand names to units."
                )
            rows[row] = _entries(entries)
        table = cls(**rows)
        table.validate()
        return table

    def validate(self) -> None:
        """Raise :class:`RulesConfigError` for an unknown hand name or a negative amount."""
        for row in ROWS:
            size = ROW_SIZES[row]
            labels = known_labels(size)
            for label, units in getattr(self, row):
                if label not in labels:
                    raise RulesConfigError(
                        "bad_rules",
                        f"No {size}-card {row} hand is called {label!r}; use a category "
                        f"(e.g. 'full house') or ranks (e.g. 'QQ', 'AAA').",
                    )
                if isinstance(units, bool) or not isinstance(units, int) or units < 0:
                    raise RulesConfigError(
                        "bad_rules", f"The {row} royalty for {label!r} must be a whole number ≥ 0."
                    )

    def as_dict(self) -> dict[str, dict[str, int]]:
        """``{row: {label: units}}`` with each row's entries weakest hand first."""
        out: dict[str, dict[str, int]] = {}
        for row in ROWS:
            entries = sorted(getattr(self, row), key=lambda e: label_floor(e[0], ROW_SIZES[row]))
            out[row] = dict(entries)
        return out

    def array(self, row: Row) -> tuple[int, ...]:
        """Royalty units for every strength in ``row`` (0 for hands that earn none)."""
        return _strength_units(getattr(self, row), row == "front")

    def royalty(self, row: Row, strength: int) -> int:
        """The units a hand of this strength earns in ``row``."""
        return self.array(row)[strength]

    @property
    def is_empty(self) -> bool:
        return not (self.front or self.middle or self.back)


def _pairs_from(first: str, start: int) -> dict[str, int]:
    """``{'66': start, '77': start + 1, … 'AA': …}`` from the pair ``first`` upwards."""
    i = RANKS.index(first)
    return {RANKS[r] * 2: start + (r - i) for r in range(i, 13)}


def _trips_from(start: int) -> dict[str, int]:
    return {RANKS[r] * 3: start + r for r in range(13)}


_BACK_001 = {
    "straight": 2,
    "flush": 4,
    "full house": 6,
    "quads": 10,
    "straight flush": 15,
    "royal flush": 25,
}

EASTERN = RoyaltyTable.from_dict(
    {
        "front": {"trips": 3},
        "middle": {"full house": 2, "quads": 8, "straight flush": 10, "royal flush": 14},
        "back": {"quads": 4, "straight flush": 5, "royal flush": 7},
    }
)
"""Chinese Poker's common "Eastern" table (RULES §2.4), paid only on rows won."""

SEED_001 = RoyaltyTable.from_dict(
    {
        "front": {**_pairs_from("6", 1), "trips": 20},
        "middle": {k: 2 * v for k, v in _BACK_001.items()},
        "back": _BACK_001,
    }
)
"""Classic OFC (seed 001): front 66 = 1 … AA = 9, any trips 20; middle double the back."""

MODERN = RoyaltyTable.from_dict(
    {
        "front": {**_pairs_from("6", 1), **_trips_from(10)},
        "middle": {"trips": 2, **{k: 2 * v for k, v in _BACK_001.items()}},
        "back": _BACK_001,
    }
)
"""Pineapple's modern table: as seed 001, plus middle trips 2 and front 222 = 10 … AAA = 22."""

NO_ROYALTIES = RoyaltyTable()

ROYALTY_TABLES: dict[str, RoyaltyTable] = {
    "eastern": EASTERN,
    "seed-001": SEED_001,
    "modern": MODERN,
    "none": NO_ROYALTIES,
}
