"""Compiled loops of the OFC Monte Carlo player: boards completed, scored and compared over
sampled deals.

:func:`complete` plays a board's remaining streets the heuristic's way (a rollout);
:func:`board_result` and :func:`pair_points` score finished boards as the rules do;
:func:`opponent_results`, :func:`evaluate_candidates` and :func:`field_boards` run them over
sampled deals, which :func:`draw_deals` draws. Boards and tables as in
:mod:`thirteen.bots._ofc_values`.
"""

from __future__ import annotations

import numba
import numpy as np

from thirteen.bots._ofc_streets import joint_street, play_best, play_last_two
from thirteen.bots._ofc_values import (
    F64,
    FAN,
    FLV,
    I64,
    P_FOUL_COST,
    P_LEARNS,
    P_LOOKAHEAD,
    P_OVERALL,
    P_ROYMODE,
    P_SCOOP,
    P_SURR,
    ROW_START,
    ROY_B,
    ROY_F,
    ROY_M,
    ROYALTY_ALWAYS,
    ROYALTY_WINNER,
    eval3,
    eval5,
    is_foul,
    row_strength,
)

# Result of a finished board: strengths, foul, royalties per row, fan, fantasyland value.
RES_F, RES_M, RES_B, RES_FOUL, RES_RF, RES_RM, RES_RB, RES_FAN, RES_FL, RES_SURR = range(10)
RES_SIZE = 10

# Kinds of opponent the Monte Carlo evaluation completes.
OPP_STREETS, OPP_FANTASYLAND, OPP_FINAL, OPP_SURRENDERED, OPP_FIELD = range(5)


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
