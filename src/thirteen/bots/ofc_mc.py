"""The strong OFC player: Monte Carlo over the unseen cards with heuristic rollouts.

For the street to play, :func:`analyze` lists every legal placement, keeps the most promising by
the heuristic's judgement (:mod:`thirteen.bots.ofc_heuristic`), and evaluates each by
**perfect-information sampling**: a sampled deal gives every card the view does not show — the
player's own later streets, the other players' pending cards and later streets, hidden
fantasyland hands — drawn without replacement from the *unseen* cards (the deck minus every card
the view shows: own cards, rows and discards, and the other players' visible rows). On each deal
every board is completed with the heuristic as rollout policy — which, as a real player does,
takes each street's cards out of the live counts before playing it (``rollout_learns``) and, on
the player's own board, fears fouls a third more than the heuristic player
(``rollout_foul_penalty``, ``_ofc_model.ROLLOUT_FOUL_SCALE``: a careful completion, closer to
how this player goes on; issue 14 in ``docs/duels.md``) —, and the candidate is scored with
the real scoring of the rules: row points, scoop bonus, royalties, fan bonuses and foul
penalties, plus — when the board earns fantasyland — the worth of a fantasyland hand
(``_ofc_model.FANTASYLAND_VALUE``, measured by simulation against the heuristic player; the
setting ``fantasyland_scale`` scales it). The opponents' boards are completed by the heuristic
as it plays, or — with ``rollout_opponent_penalty`` set — by one that fears fouls that much
(a careful opponent; both settings are measured, and left off, in ``docs/duels.md``). With
``rollout_lookahead`` set the player's own rollouts place their last two streets together,
knowing both (on in progressive fantasyland, from the first street's decisions; measured, and
left off elsewhere, there too).

Candidates are compared on the same deals (common random numbers) and narrowed by successive
halving: each round spends an equal share of the budget on the candidates still in, then drops
the worse half. Because the deals are shared, the difference between two candidates has a small
paired standard error; :func:`analyze` reports each option's gap to the best with that error,
and on request (``thirteen solve ofc``) keeps sampling the best with every option it does not
yet clearly lead. The budget is a number of rollout steps: ``budget`` seconds times a calibrated
rate; a player with a seed converts seconds to steps at the fixed rate, so its games repeat
exactly, while one without a seed also watches the clock and stops at the deadline.

The player also reads its opponents (:class:`OpponentRead`): the table shows it every
showdown of its seat, and in pineapple, while the opponents' boards foul less often than
:data:`CAREFUL_BELOW`, it plays with :data:`CAREFUL_SETTINGS` — its rollouts complete their boards
with a heuristic that fouls more than such an opponent, so its own fouls cost more than the
sampling says (measured in ``docs/duels.md``, "Reading the opponent").

In fantasyland the player sets its hand with the exact solver.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from thirteen.bots import _ofc_rollouts as ofc_rollouts
from thirteen.bots import _ofc_streets as ofc_streets
from thirteen.bots import _ofc_values as ofc_values
from thirteen.bots._ofc_model import (
    Model,
    Situation,
    board_arrays,
    decode,
    is_progressive,
    later_streets,
    live_counts,
    model_for,
    situation_from_view,
    street_options,
)
from thirteen.bots.ofc_heuristic import fantasyland_action
from thirteen.engine.actions import Action
from thirteen.engine.errors import RuleError
from thirteen.engine.legal import Legal, Placement
from thirteen.engine.rules import Rules
from thirteen.engine.views import TableView

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

STEPS_PER_SECOND = 4_800_000.0
"""Work steps a seeded player does per second of budget: a step is about one judgement of a
board by the heuristic. The reference machine (2 shared cores, numba) does 6.5 to 9 million a
second (about 110 to 150 ns a step, by street); the rate is set lower so that a seeded player's
slowest decisions stay within the budget there (about 0.7 of it on average in pineapple)."""
KEEP = 24
"""Candidates the heuristic lets through to the sampling."""
MIN_DEALS = 4
"""Fewest deals a halving round samples."""
OVERHEAD_STEPS = 3
"""Steps of bookkeeping per street played and per board scored."""
DEADLINE_PIECES = 8
"""With a deadline, each halving round is sampled in this many pieces, the clock read between."""
CLOCK_SHARE = 0.8
"""A player without a seed stops sampling at this share of its budget (the rest is for the
piece under way and the bookkeeping around the sampling)."""
SEPARATION_Z = 2.0
"""The best option is *clear* of another when it leads by more than this many standard errors
of the paired difference (about 98 % one-sided)."""
CAREFUL_BELOW = 0.15
"""An opponent is *careful* when its boards foul less often than this, as far as the player has
seen them (:class:`OpponentRead`, boards outside fantasyland): 9–11 % for the strong player,
26 % for the heuristic, in the duels of docs/duels.md."""
CAREFUL_SETTINGS = {"foul_aversion": 13.0, "rollout_lookahead": 4.0}
"""How the player plays pineapple against careful opponents (docs/duels.md, "Reading the
opponent"): its rollouts complete the opponents' boards with the heuristic, which fouls far
more than a careful opponent, so its own fouls cost more than its model says."""
PRIOR_BOARDS = 40.0
PRIOR_FOUL_RATE = 0.2
"""Before it has seen a showdown the player reads its opponents as the heuristic it completes
their boards with (a foul rate of :data:`PRIOR_FOUL_RATE`), worth :data:`PRIOR_BOARDS` boards
seen: against the strong player (about 10 % of its boards outside fantasyland foul) it turned
careful after 50–100 hands in duels; an opponent fouling 25 % of its boards, as the heuristic
does, reads as careful at some moment of its first hundred boards by chance about 5 % of the
time (simulated; the reading turns back as more come; it did not happen in 1,000 deals)."""
MEMORY_BOARDS = 400
"""The read weighs the last few hundred boards most: once it holds this many, each new board
makes the older ones count a little less (by (n − 1)/n), so a bot that met careful players for a
long time turns back within some 150 boards of loose ones. Simulated at the strong player's
rate (10.7 %) over 1,700 boards, the share of boards after the 200th read as not careful is 0.42 %
with it and 0.47 % without: the duels of docs/duels.md, measured without it, stand."""


def street_steps(size: int, discards: int, free_after: int) -> float:
    """Steps to play one street in a rollout: one judgement per way to play it — a board with
    room left costs more to judge than a finished one — plus the overhead."""
    weight = 1.0 + free_after / 2.0 if free_after else 0.3
    return float(street_ways(size, discards) * weight + OVERHEAD_STEPS)


def street_ways(size: int, discards: int) -> int:
    """Ways to play a street of ``size`` cards discarding ``discards`` (legal or not)."""
    return int(math.comb(size, discards) * 3 ** (size - discards))


JOINT_STEPS = 0.2
"""Steps per pair of ways to play the last two streets when a rollout places them together
(``rollout_lookahead``): most pairs do not fit the board and cost a check, the rest a finished
board's judgement (measured: a pineapple rollout from the second street takes a third longer)."""


def rollout_steps(
    free: int, sizes: Sequence[int], discards: Sequence[int], lookahead: float = 0.0
) -> float:
    """Steps to complete a board with ``free`` empty slots over the streets ``sizes`` (the
    last two together as ``lookahead`` says: ``_ofc_rollouts.complete``)."""
    total = float(OVERHEAD_STEPS)
    joint = ofc_streets.joint_street(len(sizes), lookahead)
    for index, (size, discard) in enumerate(zip(sizes, discards, strict=True)):
        if index == joint:
            pairs = street_ways(size, discard) * street_ways(sizes[-1], discards[-1])
            return total + pairs * JOINT_STEPS + OVERHEAD_STEPS
        free -= size - discard
        total += street_steps(size, discard, free)
    return total


def _fantasyland_steps(cards: int) -> int:
    # five-card evaluations are about a tenth of a board judgement
    return (math.comb(cards, 5) + math.comb(cards - 5, 5) + math.comb(cards - 10, 3)) // 10


@dataclass(frozen=True)
class Option:
    """One way to play the street and what the sampling made of it."""

    placement: Placement
    ev: float
    """Mean points on the deals it was played on (against every opponent, fantasyland
    included); ``nan`` if the heuristic dropped it before sampling."""
    stderr: float
    deals: int
    heuristic: float
    """The heuristic's judgement, per opponent."""
    foul_rate: float = math.nan
    """Share of its sampled deals on which the completed board fouled."""
    behind: float = math.nan
    """How far this option's ranking value falls below the best option's, on the deals both
    were played on (paired, so most of the luck of the deals cancels); 0 for the best."""
    behind_se: float = math.nan
    """Standard error of ``behind``."""
    fantasyland_rate: float = math.nan
    """Share of its sampled deals on which the completed board earned fantasyland."""
    fantasyland_ev: float = math.nan
    """The part of ``ev`` that is fantasyland's worth (its rate times what a fantasyland hand
    is worth, against every opponent)."""

    @property
    def within_noise(self) -> bool:
        """Whether the best option is *not* clear of this one: its lead is no more than
        :data:`SEPARATION_Z` standard errors of the paired difference (or unknown)."""
        return not self.behind > SEPARATION_Z * self.behind_se


@dataclass(frozen=True)
class Analysis:
    """Every option of a street decision, best first."""

    options: tuple[Option, ...]
    deals: int
    """Deals sampled."""
    steps: float
    """Work steps spent (see :data:`STEPS_PER_SECOND`)."""
    drawn: I64
    """Every sampled deal (rows of unseen cards), for inspection."""
    aversion: float = 0.0
    """What the ranking charges per foul on top of the points (foul aversion × opponents): the
    options are ranked by ``ev - aversion * foul_rate`` (by ``ev`` alone when 0)."""
    clear: bool = False
    """Whether the best option leads every other sampled option by more than
    :data:`SEPARATION_Z` standard errors of the paired difference."""

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def close(self) -> tuple[Option, ...]:
        """The sampled options the best one is not clear of (within noise of it)."""
        return tuple(o for o in self.options[1:] if o.deals and o.within_noise)


@dataclass
class _Block:
    """Deals sampled together: each listed candidate's result and foul on each of them."""

    columns: dict[int, int]
    """Candidate index -> column of ``values``/``fouled``/``bonus``."""
    values: F64
    fouled: F64
    bonus: F64
    """The fantasyland worth included in ``values`` (0 where the board did not earn it)."""


class _Samples:
    """Every candidate's results so far, deal by deal, for means and paired differences."""

    def __init__(self, aversion: float) -> None:
        self.aversion = aversion
        self.blocks: list[_Block] = []

    def add(self, candidates: Sequence[int], values: F64, fouled: F64, bonus: F64) -> None:
        columns = {c: j for j, c in enumerate(candidates)}
        self.blocks.append(_Block(columns, values, fouled, bonus))

    def _scores(self, block: _Block, i: int) -> F64:
        j = block.columns[i]
        return block.values[:, j] - self.aversion * block.fouled[:, j]

    def score(self, i: int) -> float:
        """Mean ranking value of candidate ``i`` (``nan`` before it is sampled)."""
        parts = [self._scores(b, i) for b in self.blocks if i in b.columns]
        return float(np.concatenate(parts).mean()) if parts else math.nan

    def stats(self, i: int) -> tuple[float, float, int, float]:
        """Mean points, their standard error, deals and foul rate of candidate ``i``."""
        parts = [b for b in self.blocks if i in b.columns]
        if not parts:
            return math.nan, math.nan, 0, math.nan
        values = np.concatenate([b.values[:, b.columns[i]] for b in parts])
        fouled = np.concatenate([b.fouled[:, b.columns[i]] for b in parts])
        d = len(values)
        err = float(values.std(ddof=0) / math.sqrt(d)) if d > 1 else math.nan
        return float(values.mean()), err, d, float(fouled.mean())

    def fantasyland(self, i: int) -> tuple[float, float]:
        """Share of candidate ``i``'s deals that earned fantasyland, and the mean worth of it."""
        parts = [b.bonus[:, b.columns[i]] for b in self.blocks if i in b.columns]
        if not parts:
            return math.nan, math.nan
        bonus = np.concatenate(parts)
        return float((bonus > 0.0).mean()), float(bonus.mean())

    def behind(self, best: int, i: int) -> tuple[float, float]:
        """Mean and standard error of ``score(best) - score(i)`` over the deals both saw."""
        parts = [
            self._scores(b, best) - self._scores(b, i)
            for b in self.blocks
            if best in b.columns and i in b.columns
        ]
        if not parts:
            return math.nan, math.nan
        diff = np.concatenate(parts)
        if len(diff) < 2:
            return float(diff.mean()), math.nan
        return float(diff.mean()), float(diff.std(ddof=1) / math.sqrt(len(diff)))


def _opponent_arrays(situation: Situation) -> tuple[I64, ...]:
    opps = situation.opponents
    n = len(opps)
    longest = max((len(o.streets) for o in opps), default=0) or 1
    kind = np.zeros(n, dtype=np.int64)
    rows = np.full((n, 13), -1, dtype=np.int64)
    counts = np.zeros((n, 3), dtype=np.int64)
    fl = np.zeros(n, dtype=np.int64)
    sizes = np.zeros((n, longest), dtype=np.int64)
    discards = np.zeros((n, longest), dtype=np.int64)
    streets = np.zeros(n, dtype=np.int64)
    offset = np.zeros(n, dtype=np.int64)
    at = sum(situation.streets)
    for j, o in enumerate(opps):
        kind[j] = o.kind
        rows[j], counts[j] = board_arrays(o.rows)
        fl[j] = o.fantasyland
        sizes[j, : len(o.streets)] = o.streets
        discards[j, : len(o.discards)] = o.discards
        streets[j] = len(o.streets)
        offset[j] = at
        at += o.need
    return kind, rows, counts, fl, sizes, discards, streets, offset


def _opponent_steps(situation: Situation) -> float:
    steps = 0.0
    for o in situation.opponents:
        if o.kind == ofc_rollouts.OPP_STREETS:
            free = 13 - sum(len(r) for r in o.rows)
            steps += rollout_steps(free, o.streets, o.discards)
        elif o.kind == ofc_rollouts.OPP_FANTASYLAND:
            steps += _fantasyland_steps(o.fantasyland)
    return steps


def _foul_aversion(p: F64, streets: int) -> float:
    """What a foul costs per opponent in the ranking of a decision with ``streets`` streets
    still to come: the late aversion with at most one (where a foul is all but known), the
    lookahead's when this player's rollouts place their last two together, else the foul
    aversion (each only when set above 0)."""
    if p[ofc_values.P_LATE_AV] > 0.0 and streets <= 1:
        return float(p[ofc_values.P_LATE_AV])
    if (
        p[ofc_values.P_LOOK_AV] > 0.0
        and ofc_streets.joint_street(streets, float(p[ofc_values.P_LOOKAHEAD])) < streets
    ):
        return float(p[ofc_values.P_LOOK_AV])
    return float(p[ofc_values.P_AVERSION])


def _completing(p: F64, *, foul_penalty: float, lookahead: float) -> F64:
    """Settings ``p`` whose completing heuristic charges a foul ``foul_penalty`` (0: the
    heuristic's own penalty) and places the last two streets together as ``lookahead`` says
    (0: street by street, as the heuristic plays); ``p`` itself when nothing changes."""
    if foul_penalty <= 0.0 and lookahead == p[ofc_values.P_LOOKAHEAD]:
        return p
    changed = p.copy()
    if foul_penalty > 0.0:
        changed[ofc_values.P_FOUL_PEN] = foul_penalty
    changed[ofc_values.P_LOOKAHEAD] = lookahead
    return changed


def analyze(
    model: Model,
    situation: Situation,
    *,
    steps: float,
    seed: int,
    deadline: float | None = None,
    keep: int = KEEP,
    field: F64 | None = None,
    sample_single: bool = False,
    separate: float = 0.0,
    candidates: Sequence[Placement] | None = None,
) -> Analysis:
    """Evaluate the street's placements by sampling (see the module notes).

    ``steps`` is the work budget in steps (see :data:`STEPS_PER_SECOND`); ``deadline`` (a
    ``time.perf_counter()`` value) stops the sampling early. ``field`` holds reference boards for
    the situation's ``OPP_FIELD`` opponents (:func:`reference_field`). A street with
    one legal placement is only sampled when ``sample_single`` is set.

    Options are ranked by ``ev - aversion * foul_rate`` (:attr:`Analysis.aversion`: the model's
    foul aversion — its ``late_aversion`` when at most one street is left to come, its
    ``lookahead_aversion`` when this player's rollouts place their last two streets together —
    times the opponents; a model with every aversion at 0, :meth:`Model.by_ev`, ranks by EV
    alone).
    Without ``separate`` the best is the survivor of the halving. With ``separate`` (steps) the
    best is the option ranked highest, and it is sampled on fresh deals together with every
    option it does not yet lead by :data:`SEPARATION_Z` standard errors of the paired
    difference, until it leads them all or ``separate`` more steps are spent; the options are
    then listed by rank.

    ``candidates`` samples exactly these placements (legal ones of the street; the rows' and
    the discard's order does not matter) instead of the heuristic's best :data:`KEEP`: a review
    compares the player's play with the top pick on fresh deals (``thirteen.review``).
    """
    if len(situation.unseen) < situation.need:
        raise RuleError(
            "bad_situation",
            f"{situation.need} unseen cards are needed but only {len(situation.unseen)} remain.",
        )
    codes, values = street_options(model, situation)
    if len(codes) == 0:
        raise RuleError("no_legal_placement", "There is no legal way to play this street.")
    by_heuristic = [int(i) for i in np.argsort(-values, kind="stable")]
    kept = by_heuristic[: max(1, keep)]
    if candidates is not None:
        kept = _indexes(situation.cards, codes, candidates)
    slots, counts = board_arrays(situation.rows)
    cards = np.array(situation.cards, dtype=np.int64)
    n = len(codes)
    cand_rows = np.repeat(slots[None, :], n, axis=0)
    cand_cnt = np.repeat(counts[None, :], n, axis=0)
    for i in kept:
        ofc_streets.apply_code(cand_rows[i], cand_cnt[i], cards, codes[i], len(cards))
    live_rank, live_suit = live_counts(situation.unseen)
    unseen_count = float(len(situation.unseen))
    unseen = np.array(situation.unseen, dtype=np.int64)
    my_sizes = np.array(situation.streets, dtype=np.int64)
    my_discards = np.array(situation.discards, dtype=np.int64)
    opp_arrays = _opponent_arrays(situation)
    fields = field.shape[0] if field is not None else 0
    if any(o.kind == ofc_rollouts.OPP_FIELD for o in situation.opponents) and not fields:
        raise RuleError("bad_situation", "Field opponents need reference boards.")
    opp_kind, opp_rows, opp_cnt, opp_fl, opp_sizes, opp_disc, opp_streets, opp_off = opp_arrays
    field_arr = (
        field if field is not None else np.zeros((1, ofc_rollouts.RES_SIZE), dtype=np.float64)
    )
    fl_scale = float(len(situation.opponents)) * float(model.p[ofc_values.P_FL_SCALE])

    # What the ranking maximizes: points, with each foul costing the aversion once more per
    # opponent (reported EVs stay the rules' points).
    aversion = _foul_aversion(model.p, len(situation.streets)) * len(opp_kind)
    lookahead = float(model.p[ofc_values.P_LOOKAHEAD])
    # The settings that complete this player's own boards: with ``rollout_foul_penalty`` set,
    # a heuristic that fears fouls more than the opponents'; theirs stay the heuristic's unless
    # ``rollout_opponent_penalty`` is set (an opponent modelled as careful: docs/duels.md).
    mine_p = _completing(
        model.p,
        foul_penalty=float(model.p[ofc_values.P_ROLL_PEN]),
        lookahead=lookahead,
    )
    opp_p = _completing(model.p, foul_penalty=float(model.p[ofc_values.P_OPP_PEN]), lookahead=0.0)
    samples = _Samples(aversion)
    drawn: list[I64] = []
    spent = 0.0
    total_deals = 0
    free_after = 13 - sum(len(r) for r in situation.rows) - len(situation.cards)
    free_after += situation.discard
    my_steps = rollout_steps(free_after, situation.streets, situation.discards, lookahead)
    opp_steps = _opponent_steps(situation)

    def sample(candidates: list[int], count: int) -> None:
        """Play ``count`` fresh deals with every candidate of ``candidates``."""
        nonlocal spent, total_deals
        deals = ofc_rollouts.draw_deals(unseen, count, situation.need)
        drawn.append(deals)
        opp = ofc_rollouts.opponent_results(
            deals,
            opp_kind,
            opp_rows,
            opp_cnt,
            opp_fl,
            opp_sizes,
            opp_disc,
            opp_streets,
            opp_off,
            field_arr,
            live_rank,
            live_suit,
            unseen_count,
            model.it,
            model.rt,
            opp_p,
            total_deals,
        )
        results = np.empty((count, len(candidates)), dtype=np.float64)
        fouled = np.empty((count, len(candidates)), dtype=np.float64)
        bonus = np.empty((count, len(candidates)), dtype=np.float64)
        ofc_rollouts.evaluate_candidates(
            cand_rows,
            cand_cnt,
            np.array(candidates, dtype=np.int64),
            deals,
            my_sizes,
            my_discards,
            opp,
            fl_scale,
            live_rank,
            live_suit,
            unseen_count,
            model.it,
            model.rt,
            mine_p,
            results,
            fouled,
            bonus,
        )
        samples.add(candidates, results, fouled, bonus)
        spent += count * (opp_steps + len(candidates) * my_steps)
        total_deals += count

    def late() -> bool:
        return deadline is not None and time.perf_counter() > deadline

    active = kept
    if len(kept) > 1 or sample_single:
        ofc_rollouts.seed(seed)
        rounds = max(1, math.ceil(math.log2(len(kept))))
        share = steps / rounds
        # With a deadline a round is sampled in pieces, and the clock read between them.
        pieces = DEADLINE_PIECES if deadline is not None else 1
        for r in range(rounds):
            count = max(MIN_DEALS, int(share / (opp_steps + len(active) * my_steps)))
            size = -(-count // pieces)
            done = 0
            while done < count and not (done and late()):
                sample(active, min(size, count - done))
                done += size
            if r == rounds - 1 or len(active) <= 1 or late():
                break
            ranked = sorted(active, key=lambda i: -samples.score(i))
            active = ranked[: max(1, (len(active) + 1) // 2)]
    sampled = [i for i in kept if not math.isnan(samples.score(i))]
    if separate > 0 and len(sampled) > 1:
        # Sample the leader with every option it is not yet clear of, on fresh shared deals.
        limit = spent + separate
        batch = max(steps, 1.0) / 2
        while True:
            leader = max(sampled, key=samples.score)
            close = [i for i in sampled if i != leader and _open(samples.behind(leader, i))]
            if not close or spent >= limit or late():
                break
            group = [leader, *close]
            per_deal = opp_steps + len(group) * my_steps
            sample(group, max(MIN_DEALS, int(min(batch, limit - spent) / per_deal)))
        order = sorted(sampled, key=lambda i: -samples.score(i))
    else:
        # Survivors of the last round first (best first), then the others by deals seen.
        final = set(active)
        order = sorted(
            sampled,
            key=lambda i: (-samples.stats(i)[2], i not in final, -samples.score(i)),
        )
    best = order[0] if order else None
    options: dict[int, Option] = {}
    for i in range(n):
        placement = decode(situation.cards, codes[i])
        mean, err, d, foul_rate = samples.stats(i)
        gap, gap_se = samples.behind(best, i) if best is not None and d else (math.nan, math.nan)
        if i == best:
            gap, gap_se = 0.0, 0.0
        fantasyland_rate, fantasyland_ev = samples.fantasyland(i)
        options[i] = Option(
            placement,
            mean,
            err,
            d,
            float(values[i]),
            foul_rate,
            gap,
            gap_se,
            fantasyland_rate,
            fantasyland_ev,
        )
    rest = sorted((i for i in range(n) if i not in set(order)), key=lambda i: -values[i])
    chosen = tuple(options[i] for i in [*order, *rest])
    others = [o for o in chosen[1:] if o.deals]
    empty = np.zeros((0, situation.need), dtype=np.int64)
    return Analysis(
        options=chosen,
        deals=total_deals,
        steps=spent,
        drawn=np.concatenate(drawn) if drawn else empty,
        aversion=aversion,
        clear=bool(order) and not any(o.within_noise for o in others),
    )


def _indexes(cards: Sequence[int], codes: I64, wanted: Sequence[Placement]) -> list[int]:
    """The street codes that play the ``wanted`` placements (rows compared as sets)."""
    index = {_placement_key(decode(cards, code)): i for i, code in enumerate(codes)}
    found = [index.get(_placement_key(p)) for p in wanted]
    if any(i is None for i in found):
        raise RuleError("bad_placement", "A candidate is not a legal way to play this street.")
    return list(dict.fromkeys(i for i in found if i is not None))


def _placement_key(placement: Placement) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted(cards)) for cards in placement)


def _open(behind: tuple[float, float]) -> bool:
    """Whether a paired difference (mean, standard error) still leaves the order in doubt; a
    difference of exactly nothing on every deal is settled (more deals cannot change it)."""
    mean, se = behind
    if math.isnan(se):
        return True
    if se == 0.0:
        return mean <= 0.0 and mean != 0.0
    return mean <= SEPARATION_Z * se


FIELD_BOARDS = 2048
"""Finished boards in a reference field."""


@cache
def reference_field(rules: Rules, count: int = FIELD_BOARDS, seed: int = 1) -> F64:
    """Finished boards of the heuristic player from random full decks (a fixed seed, so the
    same every time): the opponents ``thirteen solve ofc`` plays against, whose cards it does
    not know. Rows of ``_ofc_rollouts.RES_*`` values.
    """
    model = model_for(rules)
    streets, per_street = later_streets(rules, 0)
    sizes = np.array(streets, dtype=np.int64)
    discards = np.array(per_street, dtype=np.int64)
    live_rank, live_suit = live_counts(range(52))
    ofc_rollouts.seed(seed)
    heuristic = _completing(model.p, foul_penalty=0.0, lookahead=0.0)
    return ofc_rollouts.field_boards(
        count, sizes, discards, live_rank, live_suit, 52.0, model.it, model.rt, heuristic
    )


class OpponentRead:
    """How often the opponents' boards fouled at the showdowns the player saw, from the prior
    (:data:`PRIOR_BOARDS` boards at :data:`PRIOR_FOUL_RATE`). Fantasyland hands, which a solver
    sets, surrendered ones and naturals are not counted; the oldest boards fade once it holds
    :data:`MEMORY_BOARDS`."""

    def __init__(self) -> None:
        self.boards = 0.0
        self.fouls = 0.0

    def observe(self, view: TableView) -> None:
        """Count the other players' boards of the showdown ``view`` shows (nothing before it,
        nor of a hand the viewer was not dealt into)."""
        hand = view.hand
        if hand is None or hand.results is None:
            return
        if all(result.seat != view.viewer for result in hand.results):
            return  # a hand it was not dealt into
        in_fantasyland = {b.seat for b in hand.boards if b.fantasyland is not None}
        for result in hand.results:
            if result.seat == view.viewer or result.seat in in_fantasyland:
                continue
            if result.surrendered or result.natural is not None:
                continue
            if self.boards >= MEMORY_BOARDS:
                fade = (MEMORY_BOARDS - 1) / self.boards
                self.boards *= fade
                self.fouls *= fade
            self.boards += 1
            self.fouls += result.foul

    @property
    def foul_rate(self) -> float:
        return (self.fouls + PRIOR_FOUL_RATE * PRIOR_BOARDS) / (self.boards + PRIOR_BOARDS)

    @property
    def careful(self) -> bool:
        return self.foul_rate < CAREFUL_BELOW


def careful_settings(rules: Rules) -> dict[str, float]:
    """The settings the player changes against careful opponents under ``rules``: pineapple
    with its one fantasyland size only (measured there; elsewhere nothing changes)."""
    if rules.discards_per_street and rules.fantasyland and not is_progressive(rules):
        return dict(CAREFUL_SETTINGS)
    return {}


class MonteCarloOFCBot:
    """The strong OFC player (see the module notes).

    ``seed`` makes it reproducible: sampling is seeded and the budget is converted to work
    steps at the fixed rate :data:`STEPS_PER_SECOND`. Without a seed it plays by the clock
    (``clock``, on by default then): it samples freshly, stops at the deadline, and adjusts its
    rate to the speed it measures, so a faster machine or a longer budget samples more.
    """

    name = "strong"

    def __init__(
        self,
        rules: Rules,
        *,
        seed: int | None = None,
        clock: bool | None = None,
        steps_per_second: float = STEPS_PER_SECOND,
        keep: int = KEEP,
        adapt: bool = True,
    ) -> None:
        if not rules.is_ofc:
            raise RuleError("not_ofc", f"The OFC Monte Carlo player cannot play {rules.name}.")
        self.rules = rules
        self.model = model_for(rules)
        """How the player plays against opponents it has not read as careful."""
        self.read = OpponentRead()
        self.adapt = adapt
        """Whether it plays differently against careful opponents (:func:`careful_settings`)."""
        self._careful_changes = careful_settings(rules)
        self._careful: tuple[Model, Model] | None = None
        self.decisions = 0
        self.careful_decisions = 0
        """Street decisions played, and how many of them with the careful settings."""
        self.rng = random.Random(seed)
        self.clock = seed is None if clock is None else clock
        self.steps_per_second = steps_per_second
        self.keep = keep
        self.last_analysis: Analysis | None = None

    def analyze(self, view: TableView, budget: float) -> Analysis:
        """Sample the street the view shows for about ``budget`` seconds."""
        started = time.perf_counter()
        situation = situation_from_view(view, self.rules)
        deadline = started + CLOCK_SHARE * budget if self.clock else None
        model = self.playing_model()
        self.decisions += 1
        self.careful_decisions += model is not self.model
        result = analyze(
            model,
            situation,
            steps=max(0.0, budget) * self.steps_per_second,
            seed=self.rng.randrange(2**31),
            deadline=deadline,
            keep=self.keep,
        )
        elapsed = time.perf_counter() - started
        if self.clock and result.steps > 0 and 0 < elapsed < 3 * budget:
            # Learn this machine's speed, so the next decision fills its budget (a decision
            # far over budget — compiling, a stall — says nothing about it).
            measured = result.steps / elapsed
            self.steps_per_second = 0.8 * self.steps_per_second + 0.2 * measured
        self.last_analysis = result
        return result

    def playing_model(self) -> Model:
        """The model it plays with now: :attr:`model`, changed by :func:`careful_settings`
        while it reads its opponents as careful (and ``adapt`` is on)."""
        if not (self._careful_changes and self.adapt and self.read.careful):
            return self.model
        if self._careful is None or self._careful[0] is not self.model:
            self._careful = (self.model, self.model.with_params(**self._careful_changes))
        return self._careful[1]

    def observe(self, view: TableView) -> None:
        """Learn from a showdown its seat saw (the table calls this after every hand)."""
        self.read.observe(view)

    def choose(self, view: TableView, legal: Legal, budget: float) -> Action:
        """Play the street by sampling for about ``budget`` seconds (or set a fantasyland)."""
        if legal.mode == "set":
            return fantasyland_action(self.rules, legal)
        return legal.place(self.analyze(view, budget).best.placement)


__all__ = [
    "Analysis",
    "MonteCarloOFCBot",
    "OpponentRead",
    "Option",
    "analyze",
    "careful_settings",
    "reference_field",
]
