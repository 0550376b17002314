"""What an arrangement of cards in front, middle and back makes under a table's rules: each
row's hand name, whether it fouls (or can no longer avoid it), and the royalties it would earn.

A pure function of the rules and the cards, fast enough to call on every card a player moves
(``GET /api/tables/{id}/evaluate``). Rows may be incomplete (an OFC hand in play, a Chinese
Poker hand being set): an incomplete row is named by what its cards already make, counted by
ranks alone (``Pair of Kings``); straights and flushes only count once the row is full.

>>> from thirteen.engine.rules import get_rules
>>> a = assess(get_rules("ofc"), "Qs Qd 7c", "9c 9d 5h 5s", "Ah Kh 8h 6h 3h")
>>> [r.name for r in a.rows], a.foul, a.royalties
(['Pair of Queens', 'Two pair, Nines and Fives', 'Ace-high flush'], False, 11)
>>> b = assess(get_rules("ofc"), "Ks Kd", "Qc Qh 7c 5h 2s", "")
>>> b.foul, b.warning
(True, 'Front already beats Middle: this hand will foul whatever comes.')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from thirteen.engine.cards import (
    RANK_NAMES,
    RANKS,
    Card,
    check_distinct,
    format_cards,
    parse_cards,
    rank_of,
)
from thirteen.engine.errors import RuleError
from thirteen.engine.evaluate import Category, class_key, describe, evaluate, lowball, tie_ceiling
from thirteen.engine.royalties import ROW_SIZES, ROWS, Row
from thirteen.engine.rules import Rules

TITLES = {"front": "Front", "middle": "Middle", "back": "Back"}
MAX_ROW_TEXT = 64
"""The longest text a row's cards may be given as (five cards with room for spaces and commas)."""


@dataclass(frozen=True)
class RowAssessment:
    row: Row
    cards: str
    name: str | None
    royalty: int


@dataclass(frozen=True)
class Assessment:
    rows: tuple[RowAssessment, RowAssessment, RowAssessment]
    foul: bool
    warning: str | None
    royalties: int


def _plural(rank: int) -> str:
    """``Kings``, ``Sixes`` (``rank`` 0 for a two … 12 for an ace), as the engine's names."""
    name = RANK_NAMES[rank]
    return "Sixes" if name == "Six" else name + "s"


def _made(cards: Sequence[Card]) -> tuple[int, tuple[int, ...], str]:
    """What an incomplete row already makes by ranks alone: a category, the ranks (1 = a two …
    13 = an ace, as :func:`~thirteen.engine.evaluate.class_key`) of its pairs, trips or quads
    (or its highest card), and its name."""
    counts = Counter(rank_of(c) for c in cards)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    top = order[0]
    if counts[top] == 4:
        return Category.QUADS, (top + 1,), f"Four {_plural(top)}"
    if counts[top] == 3:
        return Category.TRIPS, (top + 1,), f"Three {_plural(top)}"
    if counts[top] == 2:
        if len(order) > 1 and counts[order[1]] == 2:
            low = order[1]
            return (
                Category.TWO_PAIR,
                (top + 1, low + 1),
                f"Two pair, {_plural(top)} and {_plural(low)}",
            )
        return Category.PAIR, (top + 1,), f"Pair of {_plural(top)}"
    return Category.HIGH_CARD, (top + 1,), f"{RANK_NAMES[top]} high"


def row_name(rules: Rules, row: Row, cards: Sequence[Card]) -> str:
    """The name of a complete row at a table with ``rules`` (a lowball middle as a 2-7 low)."""
    if row == "middle" and rules.lowball_middle:
        strength = evaluate(cards)
        if class_key(strength)[0] != Category.HIGH_CARD:
            return describe(strength)  # a pair, a straight, a flush: what spoils the low
        ranks = "-".join(RANKS[rank_of(c)] for c in sorted(cards, reverse=True))
        return f"2-7 low {ranks}"
    return describe(evaluate(cards))


def _beats_for_sure(upper: Sequence[Card], lower_strength: int) -> bool:
    """Whether a row of ``upper``'s cards (incomplete) will beat a complete row of
    ``lower_strength`` however it is finished: what it already makes outranks the whole row."""
    category, ranks, _ = _made(upper)
    lower = class_key(lower_strength)
    if category != lower[0]:
        return category > lower[0]
    # Finished in the same category, its leading ranks are these (a better finish only helps).
    return ranks > lower[1 : 1 + len(ranks)]


def _parse_row(rules: Rules, row: Row, text: str) -> list[Card]:
    title = TITLES[row]
    if len(text) > MAX_ROW_TEXT:
        raise RuleError("bad_cards", f"{title}: that is too long for a row of cards.")
    try:
        cards = parse_cards(text)
    except RuleError as e:
        raise RuleError("bad_cards", f"{title}: {e.message}") from None
    size = ROW_SIZES[row]
    if len(cards) > size:
        raise RuleError("bad_cards", f"The {row} holds at most {size} cards, not {len(cards)}.")
    return cards


def assess(rules: Rules, front: str, middle: str, back: str) -> Assessment:
    """Each row's name, the foul and the royalties of an arrangement (rows as text, maybe
    incomplete). Raises :class:`RuleError` ``bad_cards`` with a sentence for cards that are not
    cards, a card given twice, or a row with too many."""
    rows = tuple(
        _parse_row(rules, row, text) for row, text in zip(ROWS, (front, middle, back), strict=True)
    )
    try:
        check_distinct(rows)
    except RuleError as e:
        raise RuleError("bad_cards", e.message) from None
    complete = [len(cards) == ROW_SIZES[row] for row, cards in zip(ROWS, rows, strict=True)]
    strengths: list[int | None] = []
    for row, cards, full in zip(ROWS, rows, complete, strict=True):
        if not full:
            strengths.append(None)
        elif row == "middle" and rules.lowball_middle:
            strengths.append(lowball(cards))
        else:
            strengths.append(evaluate(cards))
    warning = _foul_warning(rules, rows, strengths)
    royalties = [0, 0, 0]
    if warning is None and rules.royalty_mode != "off":
        for i, (row, strength) in enumerate(zip(ROWS, strengths, strict=True)):
            if strength is not None and not (row == "middle" and rules.lowball_middle):
                royalties[i] = rules.royalties.royalty(row, strength)
    out = []
    for i, (row, cards) in enumerate(zip(ROWS, rows, strict=True)):
        if not cards:
            name = None
        elif complete[i]:
            name = row_name(rules, row, cards)
        else:
            name = _made(cards)[2]
        out.append(RowAssessment(row, format_cards(cards), name, royalties[i]))
    return Assessment((out[0], out[1], out[2]), warning is not None, warning, sum(royalties))


def _foul_warning(
    rules: Rules, rows: Sequence[Sequence[Card]], strengths: Sequence[int | None]
) -> str | None:
    """A sentence when the arrangement fouls, or can no longer avoid it; else ``None``."""
    pairs = ((0, 2),) if rules.lowball_middle else ((0, 1), (1, 2), (0, 2))
    for upper, lower in pairs:
        high, low = strengths[upper], strengths[lower]
        a, b = TITLES[ROWS[upper]], TITLES[ROWS[lower]]
        if high is not None and low is not None:
            if upper == 0 and rules.front_below_middle and high <= low <= tie_ceiling(high):
                return (
                    f"{a} ties {b} on the front's ranks, and at this table the front must be "
                    "below the middle: this hand would foul."
                )
            if high > low:
                return f"{a} beats {b}: this hand would foul."
        elif low is not None and rows[upper] and _beats_for_sure(rows[upper], low):
            return f"{a} already beats {b}: this hand will foul whatever comes."
    return None


__all__ = ["MAX_ROW_TEXT", "TITLES", "Assessment", "RowAssessment", "assess", "row_name"]
