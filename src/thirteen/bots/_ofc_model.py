"""What the OFC players know: the rules as arrays for the kernels, and the situation of a seat.

:func:`model_for` turns :class:`~thirteen.engine.rules.Rules` into the tables the compiled code in
:mod:`thirteen.bots._ofc_values` reads (royalties per row from ``rules.royalties.array``, the
fan bonuses, what a fantasyland entry is worth, the foul rule). :func:`situation_from_view`
reads a seat's view — and nothing else — into a :class:`Situation`: the board, the street to
play, the cards the seat has not seen, and what each opponent still has to play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from thirteen.bots import _ofc_rollouts as ofc_rollouts
from thirteen.bots import _ofc_streets as ofc_streets
from thirteen.bots import _ofc_values as ofc_values
from thirteen.engine.cards import Card
from thirteen.engine.errors import RuleError
from thirteen.engine.evaluate import (
    CATEGORY_NAMES,
    CATEGORY_OF,
    EVAL_TABLES,
    NUM_STRENGTHS,
    class_key,
    is_front_class,
    label_floor,
    tie_ceiling,
)
from thirteen.engine.legal import Placement
from thirteen.engine.rules import Rules, fantasyland_cards_for
from thirteen.engine.scoring import labelled_value
from thirteen.engine.views import TableView, unseen_cards

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]

FANTASYLAND_VALUE: dict[str, dict[int, float]] = {
    "ofc": {13: 12.9},
    "ofc-pineapple": {14: 16.1},
    "ofc-pineapple-progressive": {14: 16.2, 15: 22.8, 16: 30.0, 17: 37.2},
}
"""What entering fantasyland is worth, in points **per opponent**, by the cards it deals.

The worth of a fantasyland hand (set by the exact solver) over a normal hand against the
heuristic player, counting the chance to stay; measured with
``scripts/ofc_fantasyland_value.py`` (figures and method in ``docs/duels.md``). Rules that are not
a preset use the pineapple figures for 14 or more cards and the classic one for 13.
"""


ROLLOUT_FOUL_SCALE = 4.0 / 3.0
"""The foul penalty of the heuristic completing the Monte Carlo player's own boards in its
rollouts, relative to the heuristic's (16 against 12 in pineapple): a careful completion, closer
to how the player itself goes on than the heuristic that fouls 22 % (measured in
``docs/duels.md``, issue 14)."""


def fantasyland_worth(rules: Rules, cards: int) -> float:
    """Per-opponent worth of a fantasyland hand of ``cards`` cards under ``rules``."""
    table = FANTASYLAND_VALUE.get(rules.name.removesuffix(" (custom)"))
    if table is not None and cards in table:
        return table[cards]
    fallback = FANTASYLAND_VALUE["ofc-pineapple-progressive"]
    if cards <= 13:
        return FANTASYLAND_VALUE["ofc"][13]
    return fallback.get(cards, fallback[14])


@dataclass(frozen=True)
class Model:
    """The rules as the kernels read them (see :mod:`thirteen.bots._ofc_values`)."""

    it: I64
    rt: F64
    p: F64

    def with_params(self, **changes: float) -> Model:
        """A copy with some numeric settings changed (names from ``_ofc_values.P_NAMES``)."""
        p = self.p.copy()
        for name, value in changes.items():
            p[ofc_values.P_NAMES.index(name)] = value
        return Model(self.it, self.rt, p)

    def by_ev(self) -> Model:
        """A copy that ranks options by expected points alone: every foul aversion at 0 (the
        one charged early, the late one and the one of decisions that look ahead), so a new
        aversion cannot be left out."""
        return self.with_params(foul_aversion=0.0, late_aversion=0.0, lookahead_aversion=0.0)


@cache
def _engine_tables() -> I64:
    """The engine's lookup tables in one flat array, led by the offset of each table."""
    ceiling = np.array([tie_ceiling(s) for s in range(NUM_STRENGTHS)], dtype=np.int64)
    main = np.array([class_key(s)[1] - 1 for s in range(NUM_STRENGTHS)], dtype=np.int64)
    floors = np.array([_category_floor(c) for c in range(9)], dtype=np.int64)
    tables = [
        np.asarray(t, dtype=np.int64)
        for t in (
            *EVAL_TABLES,
            CATEGORY_OF,
            ceiling,
            main,
            floors,
        )
    ]
    assert len(tables) == len(ofc_values.IT_NAMES)
    offsets = np.cumsum([len(tables)] + [len(t) for t in tables[:-1]])
    return np.ascontiguousarray(np.concatenate([offsets.astype(np.int64), *tables]))


@cache
def _levels() -> F64:
    """``category + r1/14 + r2/14² + …``: strength in category units, monotone in strength."""
    out = np.empty(NUM_STRENGTHS, dtype=np.float64)
    for s in range(NUM_STRENGTHS):
        cat, *ranks = class_key(s)
        out[s] = cat + sum(r / 14.0 ** (i + 1) for i, r in enumerate(ranks))
    return out


def _category_floor(category: int) -> int:
    """The weakest five-card hand of a category."""
    return label_floor(CATEGORY_NAMES[category], 5)


def is_progressive(rules: Rules) -> bool:
    """Whether a better front earns a bigger fantasyland hand (progressive fantasyland)."""
    return rules.fantasyland and len({cards for _, cards in rules.fantasyland_entry}) > 1


@cache
def model_for(rules: Rules) -> Model:
    """The kernels' view of ``rules`` (cached per rules value).

    Raises :class:`RuleError` for rules that are not OFC.
    """
    if not rules.is_ofc:
        raise RuleError("not_ofc", f"{rules.name} is not an OFC game.")
    rt = np.zeros((6, NUM_STRENGTHS), dtype=np.float64)
    if rules.royalty_mode != "off":
        for index, row in enumerate(("front", "middle", "back")):
            rt[index] = np.array(rules.royalties.array(row), dtype=np.float64)  # type: ignore[arg-type]
    for s in range(NUM_STRENGTHS):
        if not is_front_class(s):
            continue
        if rules.fantasyland:
            cards = fantasyland_cards_for(rules, s)
            if cards is not None:
                rt[ofc_values.FLV, s] = fantasyland_worth(rules, cards)
        if rules.fan_bonuses:
            rt[ofc_values.FAN, s] = labelled_value(rules.fan_bonuses, s)
    rt[ofc_values.LEVEL] = _levels()
    later = rules.streets[1:]
    pull = later[-1] / (later[-1] - rules.discards_per_street) if later else 1.0
    has_royalties = rules.royalty_mode != "off" and not rules.royalties.is_empty
    flush, straight = _category_floor(5), _category_floor(4)
    foul_penalty = float(rules.foul_cost) + (6.0 if has_royalties else 1.0)
    values = {
        "foul_cost": float(rules.foul_cost),
        "foul_penalty": foul_penalty,
        "strict_front": 1.0 if rules.front_below_middle else 0.0,
        "scoop_bonus": float(rules.scoop_bonus),
        "overall_bonus": float(rules.overall_bonus),
        "royalty_mode": float(
            {
                "off": ofc_values.ROYALTY_OFF,
                "always": ofc_values.ROYALTY_ALWAYS,
                "winner": ofc_values.ROYALTY_WINNER,
            }[rules.royalty_mode]
        ),
        "pull": pull,
        "row_weight_front": 0.35,
        "row_weight_middle": 0.3,
        "row_weight_back": 0.25,
        "surrender_cost": float(rules.surrender_cost),
        "new_pair_outs": 1.5,
        "draw_weight": 0.7,
        "fantasyland_draw_weight": 0.5,
        "min_draw_cards": 3.0,
        "middle_flush_royalty": float(rt[ofc_values.ROY_M, flush]),
        "middle_straight_royalty": float(rt[ofc_values.ROY_M, straight]),
        "back_flush_royalty": float(rt[ofc_values.ROY_B, flush]),
        "back_straight_royalty": float(rt[ofc_values.ROY_B, straight]),
        "foul_aversion": 10.0,
        # The Monte Carlo player's rollouts (issue 14, docs/duels.md): its boards are completed
        # learning each street's cards, by a heuristic fearing fouls a third more.
        "rollout_learns": 1.0,
        "rollout_foul_penalty": ROLLOUT_FOUL_SCALE * foul_penalty,
        # Measured and left at "no change" (docs/duels.md, "The opponent's model"): the foul
        # penalty of the heuristic completing the opponents' boards (0: the heuristic's own) and
        # a factor on the worth of fantasyland.
        "rollout_opponent_penalty": 0.0,
        "fantasyland_scale": 1.0,
        # With one street to come the sampling is all but exact, and the gambles it still
        # finds worth a foul pay in row points, not fantasyland: they are charged 30 a foul (on
        # the last street too, where a foul is known and no option fouls by choice)
        # (docs/duels.md, "Late gambles": fewer fouls against the strong player than at 20 or
        # 0, the same fantasyland, nothing measurable lost against either opponent, in
        # pineapple and progressive). 0: the foul aversion throughout.
        "late_aversion": 30.0,
        # With n > 0, a rollout of at least n streets places this player's last two together,
        # knowing both (docs/duels.md, "Rollouts that look one street ahead"). At 4 (the first
        # street's decisions only), where fantasyland grows with the front (progressive): +2.1
        # a hand against the strong player, +0.8 against the heuristic, fantasyland +2.5 to +5
        # points, fouls level. Elsewhere off: in pineapple +0.75 against the strong player,
        # level against the heuristic but fouling more there; in Open Face Cards nothing.
        "rollout_lookahead": 4.0 if is_progressive(rules) else 0.0,
        # With n > 0, the foul aversion of the decisions whose own rollouts look ahead (whose
        # rollouts, knowing the last street, predict too few fouls). 0: the foul aversion.
        # Measured and left at 0 (docs/duels.md, "Charging the lookahead's fouls"): at 20 or 30
        # it takes back the fantasyland the lookahead brings, in pineapple and progressive.
        "lookahead_aversion": 0.0,
    }
    p = np.array([values[name] for name in ofc_values.P_NAMES], dtype=np.float64)
    return Model(_engine_tables(), rt, p)


# ----------------------------------------------------------------------------- situations
@dataclass(frozen=True)
class Opponent:
    """Another board as far as the viewer can know it."""

    kind: int
    """One of ``_ofc_rollouts.OPP_*``: playing streets, in fantasyland, finished, surrendered,
    or unknown — a board drawn from the reference field per deal (``thirteen solve ofc``)."""
    rows: Rows = ((), (), ())
    fantasyland: int = 0
    """Cards of a hidden fantasyland hand (kind ``OPP_FANTASYLAND``)."""
    streets: tuple[int, ...] = ()
    """Cards of each street still to play (the one being played first, even if dealt)."""
    discards: tuple[int, ...] = ()

    @property
    def need(self) -> int:
        """Unseen cards this opponent still brings into play."""
        if self.kind == ofc_rollouts.OPP_FANTASYLAND:
            return self.fantasyland
        if self.kind == ofc_rollouts.OPP_STREETS:
            return sum(self.streets)
        return 0


@dataclass(frozen=True)
class Situation:
    """One OFC street decision: all the inputs a player may use."""

    rows: Rows
    cards: tuple[Card, ...]
    """The street's cards, to place (and discard)."""
    discard: int
    unseen: tuple[Card, ...]
    """Every card the viewer has not seen: the deck, others' hidden cards and discards."""
    streets: tuple[int, ...] = ()
    """Cards of each of the viewer's later streets."""
    discards: tuple[int, ...] = ()
    opponents: tuple[Opponent, ...] = ()

    @property
    def need(self) -> int:
        """Cards one sampled deal draws from the unseen cards."""
        return sum(self.streets) + sum(o.need for o in self.opponents)


def later_streets(rules: Rules, played: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The streets after the first ``played`` ones: their sizes and discards."""
    sizes = tuple(rules.streets[played:])
    discards = tuple(rules.discards_on(i) for i in range(played, len(rules.streets)))
    return sizes, discards


def situation_from_view(view: TableView, rules: Rules) -> Situation:
    """The decision the viewing seat faces, from its view alone.

    Raises :class:`RuleError` if the seat has no OFC street to play.
    """
    hand = view.hand
    me = hand.me if hand is not None else None
    if hand is None or me is None or not me.must_act or me.mode != "street":
        raise RuleError("not_your_turn", "This seat has no OFC street to play now.")
    mine = next(b for b in hand.boards if b.seat == me.seat)
    opponents: list[Opponent] = []
    for b in hand.boards:
        if b.seat == me.seat:
            continue
        rows: Rows = (b.front, b.middle, b.back)
        if b.outcome == "surrendered":
            opponents.append(Opponent(ofc_rollouts.OPP_SURRENDERED))
        elif b.fantasyland is not None:
            opponents.append(Opponent(ofc_rollouts.OPP_FANTASYLAND, fantasyland=b.fantasyland))
        elif b.outcome == "set":
            opponents.append(Opponent(ofc_rollouts.OPP_FINAL, rows=rows))
        else:
            sizes, discards = later_streets(rules, b.street)
            opponents.append(
                Opponent(ofc_rollouts.OPP_STREETS, rows=rows, streets=sizes, discards=discards)
            )
    sizes, discards = later_streets(rules, mine.street + 1)
    return Situation(
        rows=(me.front, me.middle, me.back),
        cards=me.cards,
        discard=me.discard_now,
        unseen=unseen_cards(view),
        streets=sizes,
        discards=discards,
        opponents=tuple(opponents),
    )


# ----------------------------------------------------------------------------- boards
def board_arrays(rows: Rows) -> tuple[I64, I64]:
    """A board as the kernels hold it: 13 slots (``-1`` empty) and the count per row."""
    slots = np.full(13, -1, dtype=np.int64)
    counts = np.zeros(3, dtype=np.int64)
    for r, (start, row) in enumerate(zip((0, 3, 8), rows, strict=True)):
        slots[start : start + len(row)] = row
        counts[r] = len(row)
    return slots, counts


def live_counts(unseen: Sequence[Card]) -> tuple[I64, I64]:
    """How many unseen cards there are of each rank and of each suit."""
    ranks = np.zeros(13, dtype=np.int64)
    suits = np.zeros(4, dtype=np.int64)
    for c in unseen:
        ranks[c >> 2] += 1
        suits[c & 3] += 1
    return ranks, suits


def decode(cards: Sequence[Card], code: Sequence[int]) -> Placement:
    """A street code (row per card, 3 = discard) as ``(front, middle, back, discard)``."""
    split: tuple[list[Card], list[Card], list[Card], list[Card]] = ([], [], [], [])
    for card, row in zip(cards, code, strict=True):
        split[int(row)].append(card)
    return tuple(split[0]), tuple(split[1]), tuple(split[2]), tuple(split[3])


def street_options(model: Model, situation: Situation) -> tuple[I64, F64]:
    """Every legal code of the street and the heuristic's value of each (kernel order)."""
    slots, counts = board_arrays(situation.rows)
    live_rank, live_suit = live_counts(situation.unseen)
    codes, values = ofc_streets.street_options(
        slots,
        counts,
        np.array(situation.cards, dtype=np.int64),
        situation.discard,
        live_rank,
        live_suit,
        float(len(situation.unseen)),
        model.it,
        model.rt,
        model.p,
    )
    return codes, values
