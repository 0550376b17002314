"""Compiled loops for the OFC players: what they all share, and the heuristic's value of a board.

Kernels trust their input (the Python side in :mod:`thirteen.bots._ofc_model` builds it). A board
is an int64 array of 13 slots — front ``0..2``, middle ``3..7``, back ``8..12`` — filled from the
start of each row, with ``cnt[row]`` cards in each row.

``it`` holds the int lookup tables of :data:`IT_NAMES` in one flat int64 array whose first
entries are the offsets of each table (``it[it[CAT] + strength]``): one array, because numba
copies a tuple of arrays on every call. ``rt`` is a float64 ``(6, strengths)`` array of values
per strength that depend on the rules (:data:`RT_NAMES`) and ``p`` a float64 vector of numeric
settings (:data:`P_NAMES`).

Here: those names, and the evaluation of a board, finished or not (:func:`board_value`). The
kernels that play a street (:mod:`thirteen.bots._ofc_streets`) and those that complete boards
over sampled deals (:mod:`thirteen.bots._ofc_rollouts`) build on these, and carry compiled copies
of them (the cache drops them all when a kernel changes: :mod:`thirteen.bots._kernel_cache`).
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

IT_NAMES = (
    "key5",
    "bit",
    "rank5",
    "flush5",
    "key3",
    "rank3",
    "category",
    "tie_ceiling",
    "main_rank",
    "category_floor",
)
K5, BIT, R5, F5, K3, R3, CAT, TIE, MAIN, FLOOR = range(10)

RT_NAMES = ("royalty_front", "royalty_middle", "royalty_back", "fantasyland", "fan", "level")
ROY_F, ROY_M, ROY_B, FLV, FAN, LEVEL = range(6)

P_NAMES = (
    "foul_cost",
    "foul_penalty",
    "strict_front",
    "scoop_bonus",
    "overall_bonus",
    "royalty_mode",
    "pull",
    "row_weight_front",
    "row_weight_middle",
    "row_weight_back",
    "surrender_cost",
    "new_pair_outs",
    "draw_weight",
    "fantasyland_draw_weight",
    "min_draw_cards",
    "middle_flush_royalty",
    "middle_straight_royalty",
    "back_flush_royalty",
    "back_straight_royalty",
    "foul_aversion",
    "rollout_learns",
    "rollout_foul_penalty",
    "rollout_opponent_penalty",
    "fantasyland_scale",
    "late_aversion",
    "rollout_lookahead",
    "lookahead_aversion",
)
(
    P_FOUL_COST,
    P_FOUL_PEN,
    P_STRICT,
    P_SCOOP,
    P_OVERALL,
    P_ROYMODE,
    P_PULL,
    P_WF,
    P_WM,
    P_WB,
    P_SURR,
    P_NEWPAIR,
    P_DRAW,
    P_FLDRAW,
    P_MINDRAW,
    P_RM_FLUSH,
    P_RM_STRAIGHT,
    P_RB_FLUSH,
    P_RB_STRAIGHT,
    P_AVERSION,
    P_LEARNS,
    P_ROLL_PEN,
    P_OPP_PEN,
    P_FL_SCALE,
    P_LATE_AV,
    P_LOOKAHEAD,
    P_LOOK_AV,
) = range(27)
ROYALTY_OFF, ROYALTY_ALWAYS, ROYALTY_WINNER = 0, 1, 2

# Pairing steps from a high card to each category: the number of "hits" (cards matching a
# rank already in the row) a row needs to climb there. Straights and flushes are reached by
# draws instead; for a row that must beat one, a full house (3 steps) is the pairing route.
STEPS = np.array([0, 1, 2, 2, 3, 3, 3, 4, 5], dtype=np.int64)
STEP_CATEGORY = np.array([0, 1, 2, 6, 7, 8], dtype=np.int64)
"""The category a row reaches with each number of pairing steps."""
ROW_START = np.array([0, 3, 8], dtype=np.int64)
ROW_CAP = np.array([3, 5, 5], dtype=np.int64)


# ----------------------------------------------------------------------------- evaluation
@numba.njit(cache=True, nogil=True)
def eval5(a: int, b: int, c: int, d: int, e: int, it: I64) -> int:
    s = a & 3
    if (b & 3) == s and (c & 3) == s and (d & 3) == s and (e & 3) == s:
        o = it[BIT]
        return int(it[it[F5] + (it[o + a] | it[o + b] | it[o + c] | it[o + d] | it[o + e])])
    o = it[K5]
    return int(it[it[R5] + it[o + a] + it[o + b] + it[o + c] + it[o + d] + it[o + e]])


@numba.njit(cache=True, nogil=True)
def eval3(a: int, b: int, c: int, it: I64) -> int:
    o = it[K3]
    return int(it[it[R3] + it[o + a] + it[o + b] + it[o + c]])


@numba.njit(cache=True, nogil=True)
def row_strength(rows: I64, row: int, it: I64) -> int:
    """Exact strength of a full row."""
    s = ROW_START[row]
    if row == 0:
        return eval3(rows[0], rows[1], rows[2], it)
    return eval5(rows[s], rows[s + 1], rows[s + 2], rows[s + 3], rows[s + 4], it)


@numba.njit(cache=True, nogil=True)
def made_strength(rows: I64, cnt: I64, row: int, it: I64) -> int:
    """A lower bound of what a row will be: its cards padded with the lowest ranks that neither
    pair them nor make a straight (no flush either). A full row is evaluated exactly."""
    n = cnt[row]
    cap = ROW_CAP[row]
    if n == cap:
        return row_strength(rows, row, it)
    start = ROW_START[row]
    keys = it[K3] if row == 0 else it[K5]  # offset of the rank keys
    present = 0
    total = 0
    for i in range(n):
        rank = rows[start + i] >> 2
        present |= 1 << rank
        total += it[keys + rank * 4]
    need = cap - n
    # the lowest free ranks: all but the highest go into the key now
    got = 0
    rank = 0
    last = -1
    while got < need:
        if not (present >> rank) & 1:
            got += 1
            if got < need:
                total += it[keys + rank * 4]
            else:
                last = rank
        rank += 1
    while True:
        key = total + it[keys + last * 4]
        if row == 0:
            return int(it[it[R3] + key])
        strength = int(it[it[R5] + key])
        if it[it[CAT] + strength] != 4:
            return strength
        # The filler made a straight: move the highest filler rank up to the next free rank.
        last += 1
        while (present >> last) & 1:
            last += 1


@numba.njit(cache=True, nogil=True)
def binom_tail(trials: int, q: float, k: int) -> float:
    """P(Binomial(trials, q) >= k)."""
    if k <= 0:
        return 1.0
    if k > trials:
        return 0.0
    if q <= 0.0:
        return 0.0
    if q >= 1.0:
        return 1.0
    # P(X >= k) = 1 - sum_{j<k} C(n, j) q^j (1-q)^(n-j)
    below = 0.0
    term = 1.0
    miss = 1.0 - q
    for _ in range(trials):
        term *= miss
    for j in range(k):
        below += term
        term = term * (trials - j) / (j + 1) * q / (1.0 - q)
    tail = 1.0 - below
    return tail if tail > 0.0 else 0.0


@numba.njit(cache=True, nogil=True)
def _row_draws(
    rows: I64,
    cnt: I64,
    row: int,
    hit: F64,
    live_suit: I64,
    unseen: float,
    future: float,
    p: F64,
) -> tuple[int, int, float, float]:
    """(ranks in the row, ranks paired in it, flush chance, straight chance) of a row."""
    n = cnt[row]
    cap = ROW_CAP[row]
    start = ROW_START[row]
    free = cap - n
    present = 0
    paired = 0
    suit = -1
    suited = True
    for i in range(n):
        c = rows[start + i]
        rank = c >> 2
        if (present >> rank) & 1:
            paired |= 1 << rank
        present |= 1 << rank
        if suit < 0:
            suit = c & 3
        elif (c & 3) != suit:
            suited = False
    flush = 0.0
    straight = 0.0
    if row > 0 and n >= p[P_MINDRAW] and free > 0 and unseen > 0.0:
        if suited:
            flush = binom_tail(int(future), live_suit[suit] / unseen, free)
        if paired == 0:
            # Every window of five ranks holding all the row's ranks (A counts low too).
            for low in range(-1, 9):
                mask = 0
                chance = 1.0
                for r in range(low, low + 5):
                    rank = 12 if r < 0 else r
                    mask |= 1 << rank
                    if not (present >> rank) & 1:
                        chance *= hit[rank]
                if present & ~mask:
                    continue
                straight += chance
            if straight > 0.95:
                straight = 0.95
    return present, paired, flush, straight


@numba.njit(cache=True, nogil=True)
def _outs(present: int, free: int, above: int, live_rank: I64, p: F64) -> float:
    """Cards that pair a rank of the row above rank ``above`` (half for rank ``above`` itself),
    plus an allowance for two new cards pairing each other."""
    outs = 0.0
    for rank in range(13):
        if (present >> rank) & 1:
            if rank > above:
                outs += live_rank[rank]
            elif rank == above:
                outs += 0.5 * live_rank[rank]
    if free > 1:
        share = (12 - above) / 13.0 if above >= 0 else 1.0
        outs += p[P_NEWPAIR] * (free - 1) * share
    return outs


@numba.njit(cache=True, nogil=True)
def _reach(
    made: int,
    target: int,
    free: int,
    present: int,
    paired: int,
    every: float,
    flush: float,
    straight: float,
    live_rank: I64,
    unseen: float,
    future: float,
    it: I64,
    p: F64,
) -> float:
    """Chance that a row now worth at least ``made`` ends at ``target`` or better
    (``every``: the row's pairing outs, :func:`_outs` above rank -1).

    It needs ``d`` pairing hits to climb to the target's category (one if it is there already
    but lower). When that lands exactly in the target's category only hits of high enough rank
    count; one more hit than that climbs past it with any card. Flush and straight draws help
    when such a hand beats the target.
    """
    if made >= target:
        return 1.0
    if free == 0 or unseen <= 0.0:
        return 0.0
    cat_target = it[it[CAT] + target]
    cat_made = it[it[CAT] + made]
    diff = STEPS[cat_target] - STEPS[cat_made]
    d = diff if diff >= 1 else 1
    high = every
    main = it[it[MAIN] + target]
    if cat_target == 0:
        # a higher card beats a high-card target too
        for rank in range(main + 1, 13):
            if not (present >> rank) & 1:
                high += live_rank[rank]
    elif diff >= 1 and cat_target == 1:
        high = _outs(present, free, main, live_rank, p)
    elif diff >= 1 and cat_target == 3:
        high = 0.0
        for rank in range(main, 13):
            if (paired >> rank) & 1:
                high += live_rank[rank]
    elif diff >= 1 and cat_target == 2:
        high = 0.6 * every
    chance = 0.0
    if d <= free:
        chance = binom_tail(int(future), min(0.9, high / unseen), d)
    if d + 1 <= free:
        more = binom_tail(int(future), min(0.9, every / unseen), d + 1)
        chance = 1.0 - (1.0 - chance) * (1.0 - more)
    if cat_target <= 5 and flush > 0.0:
        chance = 1.0 - (1.0 - chance) * (1.0 - flush)
    if cat_target <= 4 and straight > 0.0:
        chance = 1.0 - (1.0 - chance) * (1.0 - straight)
    return chance


@numba.njit(cache=True, nogil=True)
def is_foul(f: int, m: int, b: int, it: I64, p: F64) -> bool:
    if p[P_STRICT] > 0.0:
        return not (it[it[TIE] + f] < m and m <= b)
    return not (f <= m and m <= b)


@numba.njit(cache=True, nogil=True)
def final_value(rows: I64, it: I64, rt: F64, p: F64) -> float:
    """What the heuristic thinks a finished board is worth per opponent."""
    f = row_strength(rows, 0, it)
    m = row_strength(rows, 1, it)
    b = row_strength(rows, 2, it)
    if is_foul(f, m, b, it, p):
        return float(-p[P_FOUL_PEN])
    value = rt[ROY_F, f] + rt[ROY_M, m] + rt[ROY_B, b] + rt[FLV, f] + rt[FAN, f]
    value += p[P_WF] * rt[LEVEL, f] + p[P_WM] * rt[LEVEL, m] + p[P_WB] * rt[LEVEL, b]
    return float(value)


@numba.njit(cache=True, nogil=True)
def hit_chances(cnt: I64, placing: int, live_rank: I64, unseen: float, p: F64, hit: F64) -> None:
    """``hit[rank]``: the chance that a card of each rank comes among the cards still to be seen
    once ``placing`` more cards are on the board."""
    free = 13 - cnt[0] - cnt[1] - cnt[2] - placing
    future = free * p[P_PULL]
    for rank in range(13):
        if unseen > 0.0:
            hit[rank] = 1.0 - (1.0 - live_rank[rank] / unseen) ** future
        else:
            hit[rank] = 0.0


@numba.njit(cache=True, nogil=True)
def _front_target(front: int, it: I64, p: F64, top: int) -> int:
    """The weakest middle that does not foul under a front of this strength."""
    if p[P_STRICT] > 0.0:
        target = it[it[TIE] + front] + 1
        return target if target < top else top - 1
    return front


@numba.njit(cache=True, nogil=True)
def board_value(
    rows: I64,
    cnt: I64,
    live_rank: I64,
    live_suit: I64,
    unseen: float,
    hit: F64,
    it: I64,
    rt: F64,
    p: F64,
) -> float:
    """The heuristic's judgement of a board, finished or not, per opponent.

    ``P(no foul) × (royalties + fantasyland + fan + row strength) − P(foul) × foul penalty``,
    with the chance of a foul estimated from how far each lower row must still climb to stay
    above the row over it, among the cards still to come. ``hit[rank]`` is the chance that a
    card of that rank is among them (see :func:`hit_chances`).
    """
    free = 13 - cnt[0] - cnt[1] - cnt[2]
    if free == 0:
        return final_value(rows, it, rt, p)
    future = free * p[P_PULL]
    top = rt.shape[1]
    fm = made_strength(rows, cnt, 0, it)
    mm = made_strength(rows, cnt, 1, it)
    bm = made_strength(rows, cnt, 2, it)
    free_m = 5 - cnt[1]
    free_b = 5 - cnt[2]
    pres_m, pair_m, flush_m, straight_m = _row_draws(
        rows, cnt, 1, hit, live_suit, unseen, future, p
    )
    pres_b, pair_b, flush_b, straight_b = _row_draws(
        rows, cnt, 2, hit, live_suit, unseen, future, p
    )
    target_m = _front_target(fm, it, p, top)
    every_m = _outs(pres_m, free_m, -1, live_rank, p)
    every_b = _outs(pres_b, free_b, -1, live_rank, p)
    ok_m = _reach(
        mm,
        target_m,
        free_m,
        pres_m,
        pair_m,
        every_m,
        flush_m,
        straight_m,
        live_rank,
        unseen,
        future,
        it,
        p,
    )
    # The back must stay above the middle, which must itself climb over the front and may
    # climb further: mix over the middle's outcomes (as it must be at least, one pairing step
    # up, a straight, a flush).
    low_m = mm if mm > target_m else target_m
    ok_b = _reach(
        bm,
        low_m,
        free_b,
        pres_b,
        pair_b,
        every_b,
        flush_b,
        straight_b,
        live_rank,
        unseen,
        future,
        it,
        p,
    )
    if free_m > 0 and unseen > 0.0:
        climb = 0.5 * binom_tail(int(future), min(0.9, every_m / unseen), 1)
        to_straight = 0.6 * straight_m
        to_flush = 0.6 * flush_m
        stay = 1.0 - climb - to_straight - to_flush
        if stay < 0.0:
            stay = 0.0
        mixed = stay * ok_b
        steps = STEPS[it[it[CAT] + low_m]] + 1
        if steps > 5:
            steps = 5
        up = it[it[FLOOR] + STEP_CATEGORY[steps]]
        if up < low_m:
            up = low_m
        targets = (
            (climb, up),
            (to_straight, max(low_m, it[it[FLOOR] + 4])),
            (to_flush, max(low_m, it[it[FLOOR] + 5])),
        )
        for weight, target in targets:
            if weight > 0.0:
                mixed += weight * _reach(
                    bm,
                    target,
                    free_b,
                    pres_b,
                    pair_b,
                    every_b,
                    flush_b,
                    straight_b,
                    live_rank,
                    unseen,
                    future,
                    it,
                    p,
                )
        ok_b = mixed / (stay + climb + to_straight + to_flush)
    ok = ok_m * ok_b

    gain = rt[ROY_F, fm] + rt[FAN, fm] + rt[FLV, fm]
    gain += rt[ROY_M, mm] + rt[ROY_B, bm]
    gain += p[P_WF] * rt[LEVEL, fm] + p[P_WM] * rt[LEVEL, mm] + p[P_WB] * rt[LEVEL, bm]
    # Draws to royalty hands in the middle and back.
    draw = p[P_DRAW]
    if free_m > 0:
        gain += draw * flush_m * max(0.0, p[P_RM_FLUSH] - rt[ROY_M, mm])
        gain += draw * straight_m * max(0.0, p[P_RM_STRAIGHT] - rt[ROY_M, mm])
    if free_b > 0:
        gain += draw * flush_b * max(0.0, p[P_RB_FLUSH] - rt[ROY_B, bm])
        gain += draw * straight_b * max(0.0, p[P_RB_STRAIGHT] - rt[ROY_B, bm])
    value = ok * gain - (1.0 - ok) * p[P_FOUL_PEN]
    # A high card alone in front may still pair into fantasyland (or a fan).
    if 0 < cnt[0] < 3 and p[P_FLDRAW] > 0.0 and unseen > 0.0:
        best = 0.0
        keys = it[K3]  # offset of the rank keys
        n = cnt[0]
        for i in range(n):
            rank = rows[i] >> 2
            key = it[keys + rank * 4] * 2
            if n == 2:
                other = rows[1 - i] >> 2
                if other == rank:
                    continue
                key += it[keys + other * 4]
            else:
                key += it[keys + (1 if rank == 0 else 0) * 4]
            paired = int(it[it[R3] + key])
            bonus = rt[FLV, paired] + rt[FAN, paired] + rt[ROY_F, paired] - rt[ROY_F, fm]
            if bonus <= 0.0:
                continue
            safe = _reach(
                mm,
                _front_target(paired, it, p, top),
                free_m,
                pres_m,
                pair_m,
                every_m,
                flush_m,
                straight_m,
                live_rank,
                unseen,
                future,
                it,
                p,
            )
            worth = p[P_FLDRAW] * hit[rank] * ok_b * (safe * bonus - (1.0 - safe) * p[P_FOUL_PEN])
            if worth > best:
                best = worth
        value += best
    return float(value)
