"""Showdown: who wins what once every hand is final (RULES §2–§4).

:func:`score` takes the rules and each player's final hand — a setting, a declared natural or a
surrender — and returns a :class:`Showdown`: fouls, royalties, naturals, fans, every pairwise
result with its parts, each player's total, and fantasyland qualification for the next hand.
Totals always sum to zero.

>>> from thirteen.engine.cards import parse_cards as p
>>> from thirteen.engine.rules import get_rules
>>> a = SetHand.of(p("Qs Qd 2c"), p("9c 9d 5h 5s 2d"), p("Ah Kh 8h 6h 3h"))
>>> b = SetHand.of(p("Kc Kd 4c"), p("7c 7d 6c 6d 3c"), p("As Ks Js Ts 9s"))
>>> result = score(get_rules("chinese-1-6"), [a, b])
>>> result.totals, result.pairs[0].rows
((-1, 1), (-1, 1, -1))
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from thirteen.engine.cards import Card, check_cards, check_distinct
from thirteen.engine.errors import RuleError
from thirteen.engine.evaluate import evaluate, hand_labels, label_floor, lowball, tie_ceiling
from thirteen.engine.naturals import Natural, check_natural
from thirteen.engine.records import quick_init, renew
from thirteen.engine.royalties import ROWS
from thirteen.engine.rules import Rules, fantasyland_cards_for

Rows3 = tuple[int, int, int]


@quick_init
@dataclass(frozen=True)
class SetHand:
    """A finished setting: 3 cards in front, 5 in the middle, 5 in the back."""

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]
    in_fantasyland: bool = False

    @classmethod
    def of(
        cls,
        front: Sequence[Card],
        middle: Sequence[Card],
        back: Sequence[Card],
        *,
        in_fantasyland: bool = False,
    ) -> SetHand:
        return cls(tuple(front), tuple(middle), tuple(back), in_fantasyland)

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.front + self.middle + self.back


@quick_init
@dataclass(frozen=True)
class DeclaredNatural:
    """A natural declared instead of a setting (Chinese Poker)."""

    natural: str
    cards: tuple[Card, ...]
    in_fantasyland: bool = False


@quick_init
@dataclass(frozen=True)
class Surrender:
    """A surrendered hand: shown face down, it pays each opponent still in the hand."""

    cards: tuple[Card, ...] = ()
    in_fantasyland: bool = False


Showing = SetHand | DeclaredNatural | Surrender


@quick_init
@dataclass(frozen=True)
class PlayerResult:
    """One player's hand as the showdown sees it."""

    kind: Literal["set", "natural", "surrender"]
    foul: bool
    strengths: Rows3 | None
    """Front, middle and back strengths on the shared scale (``None`` unless set)."""
    royalty_rows: Rows3
    natural: Natural | None
    natural_payout: int
    fan: int
    fantasyland_cards: int | None
    """Cards this player is dealt in fantasyland next hand, or ``None`` if they do not qualify."""
    total: int

    @property
    def royalties(self) -> int:
        return sum(self.royalty_rows)

    @property
    def fantasyland(self) -> bool:
        return self.fantasyland_cards is not None

    @property
    def surrendered(self) -> bool:
        return self.kind == "surrender"


PairKind = Literal["natural", "surrender", "foul", "rows"]


@quick_init
@dataclass(frozen=True)
class PairResult:
    """What player ``a`` wins from player ``b`` (``a < b``), and of what it is made."""

    a: int
    b: int
    kind: PairKind
    rows: Rows3
    """Each row from ``a``'s side: 1 won, -1 lost, 0 tied or not compared."""
    row_points: int
    bonus: int
    royalties: int
    natural: int
    surrender: int
    foul: int
    fan: int

    @property
    def total(self) -> int:
        return (
            self.row_points
            + self.bonus
            + self.royalties
            + self.natural
            + self.surrender
            + self.foul
            + self.fan
        )


@quick_init
@dataclass(frozen=True)
class Showdown:
    """The whole result of a hand. ``matrix[i][j]`` is what ``i`` wins from ``j``."""

    hands: tuple[Showing, ...]
    players: tuple[PlayerResult, ...]
    pairs: tuple[PairResult, ...]
    matrix: tuple[tuple[int, ...], ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(p.total for p in self.players)

    def pair(self, i: int, j: int) -> PairResult:
        """The pair result of ``i`` and ``j``, in either order (as stored: lower index first)."""
        a, b = min(i, j), max(i, j)
        for p in self.pairs:
            if p.a == a and p.b == b:
                return p
        raise KeyError((i, j))


def row_strengths(
    rules: Rules, front: Sequence[Card], middle: Sequence[Card], back: Sequence[Card]
) -> Rows3:
    """The strengths rows are compared on: the middle is a 2-7 value under a lowball middle."""
    mid = lowball(middle) if rules.lowball_middle else evaluate(middle)
    return (evaluate(front), mid, evaluate(back))


def is_foul(rules: Rules, front: int, middle: int, back: int) -> bool:
    """Whether a setting with these row strengths (see :func:`row_strengths`) is fouled."""
    if rules.lowball_middle:
        return back < front
    if rules.front_below_middle:
        return not tie_ceiling(front) < middle <= back
    return not front <= middle <= back


def royalty_rows(rules: Rules, strengths: Rows3) -> Rows3:
    """Royalties each row of a clean setting earns (row strengths as :func:`row_strengths`)."""
    if rules.royalty_mode == "off":
        return (0, 0, 0)
    table = rules.royalties
    front = table.royalty("front", strengths[0])
    middle = 0 if rules.lowball_middle else table.royalty("middle", strengths[1])
    return (front, middle, table.royalty("back", strengths[2]))


def labelled_value(entries: Sequence[tuple[str, int]], strength: int) -> int:
    """The value of the first of a hand's labels (``'QQ'``, ``'trips'``…) that ``entries``
    names — how fan bonuses are looked up — or 0."""
    lookup = dict(entries)
    for label in hand_labels(strength):
        if label in lookup:
            return lookup[label]
    return 0


def stays_in_fantasyland(rules: Rules, strengths: Rows3) -> bool:
    """Whether a clean setting with these row strengths meets the fantasyland stay rule."""
    for row, label in rules.fantasyland_stay:
        index = ROWS.index(row)
        if strengths[index] >= label_floor(label, 3 if row == "front" else 5):
            return True
    return False


def next_fantasyland(rules: Rules, strengths: Rows3, *, in_fantasyland: bool) -> int | None:
    """Cards a clean (unfouled) setting earns in fantasyland next hand, or ``None``.

    A player in fantasyland stays only through the stay rule (seed 001); anyone else enters with
    a qualifying front, with as many cards as the best entry it meets.
    """
    if not rules.fantasyland:
        return None
    if in_fantasyland:
        if not stays_in_fantasyland(rules, strengths):
            return None
        if rules.fantasyland_repeat_cards is not None:
            return rules.fantasyland_repeat_cards
        return min(cards for _, cards in rules.fantasyland_entry)
    return fantasyland_cards_for(rules, strengths[0])


def _validate(rules: Rules, hands: Sequence[Showing]) -> None:
    n = len(hands)
    if n < 2:
        raise RuleError("bad_players", "A showdown needs at least two players.")
    if n > rules.max_players:
        raise RuleError(
            "bad_players",
            f"{rules.name} seats at most {rules.max_players} players, not {n}.",
        )
    groups: list[Sequence[Card]] = []
    for i, hand in enumerate(hands, 1):
        if hand.in_fantasyland and not rules.fantasyland:
            raise RuleError("no_fantasyland", f"Player {i}: {rules.name} has no fantasyland.")
        if isinstance(hand, SetHand):
            for row, cards, size in zip(
                ROWS, (hand.front, hand.middle, hand.back), (3, 5, 5), strict=True
            ):
                check_cards(cards)
                if len(cards) != size:
                    raise RuleError(
                        "bad_row_size",
                        f"Player {i}: the {row} holds {size} cards, not {len(cards)}.",
                    )
            groups.append(hand.cards)
        elif isinstance(hand, DeclaredNatural):
            check_cards(hand.cards)
            if rules.natural_payout(hand.natural) is None:
                raise RuleError(
                    "natural_not_played",
                    f"Player {i}: {hand.natural!r} is not a natural at this table.",
                )
            groups.append(hand.cards)
        else:
            check_cards(hand.cards)
            if not rules.surrender:
                raise RuleError("no_surrender", f"Player {i}: {rules.name} has no surrender.")
            most = max(rules.cards_per_player, rules.max_fantasyland_cards)
            if len(hand.cards) > most:
                raise RuleError("bad_hand_size", f"Player {i}: a hand has at most {most} cards.")
            groups.append(hand.cards)
    check_distinct(groups, owner="player")


def evaluate_player(rules: Rules, hand: Showing, index: int = 0) -> PlayerResult:
    """Fouls, royalties, naturals, fan and fantasyland for one hand (its total left at 0)."""
    if isinstance(hand, DeclaredNatural):
        try:
            natural = check_natural(hand.natural, hand.cards)
        except RuleError as e:
            raise RuleError(e.code, f"Player {index + 1}: {e}") from None
        payout = rules.natural_payout(hand.natural) or 0
        return PlayerResult("natural", False, None, (0, 0, 0), natural, payout, 0, None, 0)
    if isinstance(hand, Surrender):
        return PlayerResult("surrender", False, None, (0, 0, 0), None, 0, 0, None, 0)
    strengths = row_strengths(rules, hand.front, hand.middle, hand.back)
    if is_foul(rules, *strengths):
        return PlayerResult("set", True, strengths, (0, 0, 0), None, 0, 0, None, 0)
    fan = labelled_value(rules.fan_bonuses, strengths[0]) if rules.fan_bonuses else 0
    return PlayerResult(
        "set",
        False,
        strengths,
        royalty_rows(rules, strengths),
        None,
        0,
        fan,
        next_fantasyland(rules, strengths, in_fantasyland=hand.in_fantasyland),
        0,
    )


RULED_FOUL = PlayerResult("set", True, None, (0, 0, 0), None, 0, 0, None, 0)
"""A player a director ruled did not set their hand according to the rules."""


def _compare(
    rules: Rules, x: PlayerResult, y: PlayerResult
) -> tuple[PairKind, Rows3, dict[str, int]]:
    """The pair result from ``x``'s side: its kind, the row signs and the amounts by source."""
    parts = {"fan": x.fan - y.fan}
    none: Rows3 = (0, 0, 0)
    if x.natural is not None or y.natural is not None:
        px, py = x.natural_payout, y.natural_payout
        parts["natural"] = px if px > py else -py if py > px else 0
        return "natural", none, parts
    if x.surrendered or y.surrendered:
        if x.surrendered and not (y.surrendered or y.foul):
            parts["surrender"] = -rules.surrender_cost
        elif y.surrendered and not (x.surrendered or x.foul):
            parts["surrender"] = rules.surrender_cost
        return "surrender", none, parts
    if x.foul or y.foul:
        if x.foul and not y.foul:
            parts["foul"] = -(rules.foul_cost + y.royalties)
        elif y.foul and not x.foul:
            parts["foul"] = rules.foul_cost + x.royalties
        return "foul", none, parts
    xs, ys = x.strengths or (0, 0, 0), y.strengths or (0, 0, 0)  # both set: checked above
    signs = tuple((a > b) - (a < b) for a, b in zip(xs, ys, strict=True))
    rows: Rows3 = (signs[0], signs[1], signs[2])
    won, lost = rows.count(1), rows.count(-1)
    bonus = 0
    if won == 3:
        bonus += rules.scoop_bonus
    if lost == 3:
        bonus -= rules.scoop_bonus
    if won >= 2:
        bonus += rules.overall_bonus
    if lost >= 2:
        bonus -= rules.overall_bonus
    if rules.royalty_mode == "always":
        royalties = x.royalties - y.royalties
    else:  # "winner" (and "off", where every royalty is 0): paid only on rows won
        royalties = sum(
            rx if s > 0 else -ry if s < 0 else 0
            for s, rx, ry in zip(rows, x.royalty_rows, y.royalty_rows, strict=True)
        )
    parts.update(row_points=won - lost, bonus=bonus, royalties=royalties)
    return "rows", rows, parts


def score(rules: Rules, hands: Sequence[Showing], ruled_foul: Collection[int] = ()) -> Showdown:
    """Score a showdown. Raises :class:`RuleError` for malformed hands or invalid naturals.

    A fouled setting is an outcome, not an error. ``ruled_foul`` lists the players a director
    ruled did not set their hand according to the rules (seed 004 §V.2): each is scored as a
    foul whatever their hand shows — no royalty, fan or fantasyland — and the others compare
    with each other as they would.
    """
    _validate(rules, hands)
    players = [
        RULED_FOUL if i in ruled_foul else evaluate_player(rules, h, i) for i, h in enumerate(hands)
    ]
    n = len(players)
    matrix = [[0] * n for _ in range(n)]
    pairs: list[PairResult] = []
    for a in range(n):
        for b in range(a + 1, n):
            kind, rows, parts = _compare(rules, players[a], players[b])
            pair = PairResult(
                a,
                b,
                kind,
                rows,
                parts.get("row_points", 0),
                parts.get("bonus", 0),
                parts.get("royalties", 0),
                parts.get("natural", 0),
                parts.get("surrender", 0),
                parts.get("foul", 0),
                parts["fan"],
            )
            pairs.append(pair)
            matrix[a][b] = pair.total
            matrix[b][a] = -pair.total
    final = tuple(renew(p, total=sum(matrix[i])) for i, p in enumerate(players))
    return Showdown(tuple(hands), final, tuple(pairs), tuple(tuple(row) for row in matrix))
