"""Compiled loops for the OFC players: board evaluation, street choice, rollouts and scoring.

Kernels trust their input (the Python side in :mod:`thirteen.bots._ofc_model` builds it). A board
is an int64 array of 13 slots — front ``0..2``, middle ``3..7``, back ``8..12`` — filled from the
start of each row, with ``cnt[row]`` cards in each row. A street *code* gives, for each card of
the street, the row it goes to (0 front, 1 middle, 2 back) or 3 for a discard.

``it`` holds the int lookup tables of :data:`IT_NAMES` in one flat int64 array whose first
entries are the offsets of each table (``it[it[CAT] + strength]``): one array, because numba
copies a tuple of arrays on every call. ``rt`` is a float64 ``(6, strengths)`` array of values
per strength that depend on the rules (:data:`RT_NAMES`) and ``p`` a float64 vector of numeric
settings (:data:`P_NAMES`).
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

# Result of a finished board: strengths, foul, royalties per row, fan, fantasyland value.
RES_F, RES_M, RES_B, RES_FOUL, RES_RF, RES_RM, RES_RB, RES_FAN, RES_FL, RES_SURR = range(10)
RES_SIZE = 10

# Kinds of opponent the Monte Carlo evaluation completes.
OPP_STREETS, OPP_FANTASYLAND, OPP_FINAL, OPP_SURRENDERED, OPP_FIELD = range(5)


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


# ----------------------------------------------------------------------------- streets
@numba.njit(cache=True, nogil=True)
def _next_code(code: I64, k: int, base: int) -> bool:
    """Advance a base-``base`` counter of ``k`` digits; False once it wraps."""
    for i in range(k):
        code[i] += 1
        if code[i] < base:
            return True
        code[i] = 0
    return False


@numba.njit(cache=True, nogil=True)
def _code_fits(code: I64, k: int, discards: int, cnt: I64) -> bool:
    front = middle = back = dropped = 0
    for i in range(k):
        r = code[i]
        if r == 0:
            front += 1
        elif r == 1:
            middle += 1
        elif r == 2:
            back += 1
        else:
            dropped += 1
    return (
        dropped == discards and cnt[0] + front <= 3 and cnt[1] + middle <= 5 and cnt[2] + back <= 5
    )


@numba.njit(cache=True, nogil=True)
def apply_code(rows: I64, cnt: I64, cards: I64, code: I64, k: int) -> None:
    """Place a street's cards on the board as ``code`` says (discards are simply dropped)."""
    for i in range(k):
        r = code[i]
        if r < 3:
            rows[ROW_START[r] + cnt[r]] = cards[i]
            cnt[r] += 1


@numba.njit(cache=True, nogil=True)
def _undo_code(rows: I64, cnt: I64, code: I64, k: int) -> None:
    for i in range(k - 1, -1, -1):
        r = code[i]
        if r < 3:
            cnt[r] -= 1
            rows[ROW_START[r] + cnt[r]] = -1


@numba.njit(cache=True, nogil=True)
def street_options(
    rows: I64,
    cnt: I64,
    cards: I64,
    discards: int,
    live_rank: I64,
    live_suit: I64,
    unseen: float,
    it: I64,
    rt: F64,
    p: F64,
) -> tuple[I64, F64]:
    """Every legal code for a street and the heuristic's value of the board it leaves."""
    k = cards.shape[0]
    base = 4 if discards > 0 else 3
    total = base**k
    codes = np.empty((total, k), dtype=np.int64)
    values = np.empty(total, dtype=np.float64)
    code = np.zeros(k, dtype=np.int64)
    count = 0
    work_rows = rows.copy()
    work_cnt = cnt.copy()
    hit = np.empty(13, dtype=np.float64)
    hit_chances(cnt, k - discards, live_rank, unseen, p, hit)
    while True:
        if _code_fits(code, k, discards, work_cnt):
            apply_code(work_rows, work_cnt, cards, code, k)
            values[count] = board_value(
                work_rows, work_cnt, live_rank, live_suit, unseen, hit, it, rt, p
            )
            _undo_code(work_rows, work_cnt, code, k)
            codes[count, :] = code
            count += 1
        if not _next_code(code, k, base):
            break
    return codes[:count].copy(), values[:count].copy()


@numba.njit(cache=True, nogil=True)
def play_best(
    rows: I64,
    cnt: I64,
    cards: I64,
    discards: int,
    live_rank: I64,
    live_suit: I64,
    unseen: float,
    it: I64,
    rt: F64,
    p: F64,
) -> None:
    """Play a street the heuristic's way, in place (the rollout policy)."""
    k = cards.shape[0]
    base = 4 if discards > 0 else 3
    code = np.zeros(k, dtype=np.int64)
    best = np.zeros(k, dtype=np.int64)
    best_value = -1e300
    found = False
    hit = np.empty(13, dtype=np.float64)
    hit_chances(cnt, k - discards, live_rank, unseen, p, hit)
    while True:
        if _code_fits(code, k, discards, cnt):
            apply_code(rows, cnt, cards, code, k)
            value = board_value(rows, cnt, live_rank, live_suit, unseen, hit, it, rt, p)
            _undo_code(rows, cnt, code, k)
            if value > best_value or not found:
                best_value = value
                best[:] = code
                found = True
        if not _next_code(code, k, base):
            break
    apply_code(rows, cnt, cards, best, k)


@numba.njit(cache=True, nogil=True)
def joint_street(streets: int, lookahead: float) -> int:
    """The street of a rollout of ``streets`` streets from which the last two are placed
    together under ``rollout_lookahead`` = ``lookahead`` (``streets``: none, street by street)."""
    if lookahead > 0.0 and streets >= 2 and streets >= lookahead:
        return streets - 2
    return streets


@numba.njit(cache=True, nogil=True)
def play_last_two(
    rows: I64,
    cnt: I64,
    first: I64,
    first_discards: int,
    second: I64,
    second_discards: int,
    it: I64,
    rt: F64,
    p: F64,
) -> None:
    """Place the last two streets of a board together, in place: of every legal pair of codes
    the one whose finished board :func:`final_value` likes best (the first such, in a fixed
    order)."""
    k1 = first.shape[0]
    k2 = second.shape[0]
    base1 = 4 if first_discards > 0 else 3
    base2 = 4 if second_discards > 0 else 3
    code1 = np.zeros(k1, dtype=np.int64)
    code2 = np.zeros(k2, dtype=np.int64)
    best1 = np.zeros(k1, dtype=np.int64)
    best2 = np.zeros(k2, dtype=np.int64)
    best_value = -1e300
    found = False
    while True:
        if _code_fits(code1, k1, first_discards, cnt):
            apply_code(rows, cnt, first, code1, k1)
            code2[:] = 0
            while True:
                if _code_fits(code2, k2, second_discards, cnt):
                    apply_code(rows, cnt, second, code2, k2)
                    value = final_value(rows, it, rt, p)
                    _undo_code(rows, cnt, code2, k2)
                    if value > best_value or not found:
                        best_value = value
                        best1[:] = code1
                        best2[:] = code2
                        found = True
                if not _next_code(code2, k2, base2):
                    break
            _undo_code(rows, cnt, code1, k1)
        if not _next_code(code1, k1, base1):
            break
    apply_code(rows, cnt, first, best1, k1)
    apply_code(rows, cnt, second, best2, k2)


# ----------------------------------------------------------------------------- results
@numba.njit(cache=True, nogil=True)
def board_result(rows: I64, it: I64, rt: F64, p: F64, out: F64) -> None:
    """Strengths, foul, royalties, fan and fantasyland value of a finished board."""
    f = row_strength(rows, 0, it)
    m = row_strength(rows, 1, it)
    b = row_strength(rows, 2, it)
    out[RES_F] = f
    out[RES_M] = m
    out[RES_B] = b
    out[RES_SURR] = 0.0
    if is_foul(f, m, b, it, p):
        out[RES_FOUL] = 1.0
        out[RES_RF] = 0.0
        out[RES_RM] = 0.0
        out[RES_RB] = 0.0
        out[RES_FAN] = 0.0
        out[RES_FL] = 0.0
        return
    out[RES_FOUL] = 0.0
    out[RES_RF] = rt[ROY_F, f]
    out[RES_RM] = rt[ROY_M, m]
    out[RES_RB] = rt[ROY_B, b]
    out[RES_FAN] = rt[FAN, f]
    out[RES_FL] = rt[FLV, f]


@numba.njit(cache=True, nogil=True)
def pair_points(x: F64, y: F64, p: F64) -> float:
    """What board ``x`` wins from board ``y`` at the showdown (RULES §3.4, §4.3)."""
    fan = x[RES_FAN] - y[RES_FAN]
    if y[RES_SURR] > 0.0:
        return float(fan + (p[P_SURR] if x[RES_FOUL] == 0.0 else 0.0))
    xf = x[RES_FOUL] > 0.0
    yf = y[RES_FOUL] > 0.0
    if xf and yf:
        return float(fan)
    if xf:
        return float(fan - (p[P_FOUL_COST] + y[RES_RF] + y[RES_RM] + y[RES_RB]))
    if yf:
        return float(fan + p[P_FOUL_COST] + x[RES_RF] + x[RES_RM] + x[RES_RB])
    won = 0
    lost = 0
    royalties = 0.0
    winner = p[P_ROYMODE] == ROYALTY_WINNER
    for r in range(3):
        a = x[RES_F + r]
        b = y[RES_F + r]
        if a > b:
            won += 1
            if winner:
                royalties += x[RES_RF + r]
        elif a < b:
            lost += 1
            if winner:
                royalties -= y[RES_RF + r]
    total = float(won - lost)
    if won == 3:
        total += p[P_SCOOP]
    if lost == 3:
        total -= p[P_SCOOP]
    if won >= 2:
        total += p[P_OVERALL]
    if lost >= 2:
        total -= p[P_OVERALL]
    if p[P_ROYMODE] == ROYALTY_ALWAYS:
        royalties = x[RES_RF] + x[RES_RM] + x[RES_RB] - y[RES_RF] - y[RES_RM] - y[RES_RB]
    return float(fan + total + royalties)


@numba.njit(cache=True, nogil=True)
def greedy_set(cards: I64, rows: I64, it: I64) -> None:
    """Set 13 of some cards greedily (best back, best middle of the rest, best front of the
    rest): how a simulated fantasyland opponent plays."""
    n = cards.shape[0]
    used = np.zeros(n, dtype=np.bool_)
    for row in (2, 1):
        best = -1
        pick = np.zeros(5, dtype=np.int64)
        idx = np.zeros(5, dtype=np.int64)
        for a in range(n):
            if used[a]:
                continue
            for b in range(a + 1, n):
                if used[b]:
                    continue
                for c in range(b + 1, n):
                    if used[c]:
                        continue
                    for d in range(c + 1, n):
                        if used[d]:
                            continue
                        for e in range(d + 1, n):
                            if used[e]:
                                continue
                            s = eval5(cards[a], cards[b], cards[c], cards[d], cards[e], it)
                            if s > best:
                                best = s
                                idx[0] = a
                                idx[1] = b
                                idx[2] = c
                                idx[3] = d
                                idx[4] = e
        for i in range(5):
            used[idx[i]] = True
            pick[i] = cards[idx[i]]
        start = ROW_START[row]
        for i in range(5):
            rows[start + i] = pick[i]
    best = -1
    fa = fb = fc = 0
    for a in range(n):
        if used[a]:
            continue
        for b in range(a + 1, n):
            if used[b]:
                continue
            for c in range(b + 1, n):
                if used[c]:
                    continue
                s = eval3(cards[a], cards[b], cards[c], it)
                if s > best:
                    best = s
                    fa = a
                    fb = b
                    fc = c
    rows[0] = cards[fa]
    rows[1] = cards[fb]
    rows[2] = cards[fc]


@numba.njit(cache=True, nogil=True)
def complete(
    rows: I64,
    cnt: I64,
    deal: I64,
    offset: int,
    sizes: I64,
    discards: I64,
    live_rank: I64,
    live_suit: I64,
    unseen: float,
    it: I64,
    rt: F64,
    p: F64,
) -> int:
    """Play the streets ``sizes`` (discarding ``discards``) with cards from ``deal[offset:]``;
    returns the offset after the last card used.

    With ``p[P_LEARNS]`` set the player learns as it goes, as a real one does: each street's
    cards leave the live counts before it is played (otherwise every street is judged with the
    counts of the decision being sampled).

    With ``p[P_LOOKAHEAD]`` = *n* > 0 and at least *n* streets to play, the last two streets are
    placed together, knowing the cards of both (:func:`play_last_two`): the player the rollout
    stands for plays those streets better than the heuristic does, and knowing one street ahead
    is the closer guess (issue 14, docs/duels.md).
    """
    learns = p[P_LEARNS] > 0.0
    if learns:
        live_rank = live_rank.copy()
        live_suit = live_suit.copy()
    streets = sizes.shape[0]
    joint = joint_street(streets, p[P_LOOKAHEAD])
    for s in range(streets):
        k = sizes[s]
        if s == joint:
            after = offset + k + sizes[s + 1]
            play_last_two(
                rows,
                cnt,
                deal[offset : offset + k],
                discards[s],
                deal[offset + k : after],
                discards[s + 1],
                it,
                rt,
                p,
            )
            return int(after)
        if learns:
            for i in range(offset, offset + k):
                c = deal[i]
                live_rank[c >> 2] -= 1
                live_suit[c & 3] -= 1
            unseen -= k
        play_best(
            rows,
            cnt,
            deal[offset : offset + k],
            discards[s],
            live_rank,
            live_suit,
            unseen,
            it,
            rt,
            p,
        )
        offset += k
    return offset


# ----------------------------------------------------------------------------- sampling
@numba.njit(cache=True, nogil=True)
def seed(value: int) -> None:
    """Seed the compiled code's random generator (sampling is reproducible per seed)."""
    np.random.seed(value)


@numba.njit(cache=True, nogil=True)
def draw_deals(unseen: I64, samples: int, need: int) -> I64:
    """``samples`` rows of ``need`` distinct cards drawn from ``unseen`` without replacement."""
    n = unseen.shape[0]
    out = np.empty((samples, need), dtype=np.int64)
    pool = unseen.copy()
    for s in range(samples):
        for i in range(need):
            j = i + np.random.randint(0, n - i)
            t = pool[i]
            pool[i] = pool[j]
            pool[j] = t
            out[s, i] = pool[i]
    return out


# ----------------------------------------------------------------------------- Monte Carlo
@numba.njit(cache=True, nogil=True)
def opponent_results(
    deals: I64,
    opp_kind: I64,
    opp_rows: I64,
    opp_cnt: I64,
    opp_fl: I64,
    opp_sizes: I64,
    opp_discards: I64,
    opp_streets: I64,
    opp_offset: I64,
    field: F64,
    live_rank: I64,
    live_suit: I64,
    unseen: float,
    it: I64,
    rt: F64,
    p: F64,
    first: int,
) -> F64:
    """Each opponent's finished board for each sampled deal: ``(samples, opponents, RES)``."""
    samples = deals.shape[0]
    opponents = opp_kind.shape[0]
    out = np.zeros((samples, opponents, RES_SIZE), dtype=np.float64)
    rows = np.empty(13, dtype=np.int64)
    cnt = np.empty(3, dtype=np.int64)
    for s in range(samples):
        deal = deals[s]
        for j in range(opponents):
            kind = opp_kind[j]
            res = out[s, j]
            if kind == OPP_SURRENDERED:
                res[RES_SURR] = 1.0
                continue
            if kind == OPP_FIELD:
                res[:] = field[(first + s * opponents + j) % field.shape[0]]
                continue
            rows[:] = opp_rows[j]
            cnt[:] = opp_cnt[j]
            if kind == OPP_STREETS:
                complete(
                    rows,
                    cnt,
                    deal,
                    opp_offset[j],
                    opp_sizes[j, : opp_streets[j]],
                    opp_discards[j, : opp_streets[j]],
                    live_rank,
                    live_suit,
                    unseen,
                    it,
                    rt,
                    p,
                )
            elif kind == OPP_FANTASYLAND:
                start = opp_offset[j]
                greedy_set(deal[start : start + opp_fl[j]], rows, it)
            board_result(rows, it, rt, p, res)
            # another player's fantasyland does not concern this board's choice
            res[RES_FL] = 0.0
    return out


@numba.njit(cache=True, nogil=True)
def evaluate_candidates(
    cand_rows: I64,
    cand_cnt: I64,
    active: I64,
    deals: I64,
    my_sizes: I64,
    my_discards: I64,
    opp: F64,
    fantasyland_scale: float,
    live_rank: I64,
    live_suit: I64,
    unseen: float,
    it: I64,
    rt: F64,
    p: F64,
    values: F64,
    fouled: F64,
    bonus: F64,
) -> None:
    """Complete each active candidate on each sampled deal: ``values[s, a]`` is the result of
    candidate ``active[a]`` on deal ``s``, ``fouled[s, a]`` 1 when its board fouled there, and
    ``bonus[s, a]`` the fantasyland worth in ``values[s, a]`` (above 0 exactly when the board
    earned fantasyland, where fantasyland is worth something).

    A candidate's result on a deal is what it wins from every opponent plus, if it earns
    fantasyland, the worth of a fantasyland hand (``rt[FLV]`` per opponent ×
    ``fantasyland_scale``): points as the rules score them. Foul aversion is the caller's.
    """
    samples = deals.shape[0]
    opponents = opp.shape[1]
    rows = np.empty(13, dtype=np.int64)
    cnt = np.empty(3, dtype=np.int64)
    me = np.empty(RES_SIZE, dtype=np.float64)
    for s in range(samples):
        deal = deals[s]
        for a in range(active.shape[0]):
            c = active[a]
            rows[:] = cand_rows[c]
            cnt[:] = cand_cnt[c]
            complete(
                rows, cnt, deal, 0, my_sizes, my_discards, live_rank, live_suit, unseen, it, rt, p
            )
            board_result(rows, it, rt, p, me)
            total = me[RES_FL] * fantasyland_scale
            bonus[s, a] = total
            for j in range(opponents):
                total += pair_points(me, opp[s, j], p)
            fouled[s, a] = 1.0 if me[RES_FOUL] > 0.0 else 0.0
            values[s, a] = total


@numba.njit(cache=True, nogil=True)
def field_boards(
    count: int,
    sizes: I64,
    discards: I64,
    live_rank: I64,
    live_suit: I64,
    unseen: float,
    it: I64,
    rt: F64,
    p: F64,
) -> F64:
    """Finished boards of the heuristic player from random full decks: a reference field."""
    out = np.zeros((count, RES_SIZE), dtype=np.float64)
    deck = np.arange(52, dtype=np.int64)
    need = 0
    for k in sizes:
        need += k
    rows = np.empty(13, dtype=np.int64)
    cnt = np.empty(3, dtype=np.int64)
    for s in range(count):
        for i in range(need):
            j = i + np.random.randint(0, 52 - i)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        rows[:] = -1
        cnt[:] = 0
        complete(rows, cnt, deck, 0, sizes, discards, live_rank, live_suit, unseen, it, rt, p)
        board_result(rows, it, rt, p, out[s])
        out[s, RES_FL] = 0.0
    return out
