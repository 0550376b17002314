"""Compiled loops of the Chinese Poker setter that decide a hand: play, surrender or declare.

:func:`natural_mask` finds the naturals 13 cards hold, :func:`decide` weighs playing the best
setting against surrendering and declaring one, and :func:`search_many` searches and decides
many hands at once.
"""

from __future__ import annotations

import numba
import numpy as np

from thirteen.bots._setter_search import I8, I16, search
from thirteen.bots._setter_values import F64, I32
from thirteen.engine.rules import NATURAL_NAMES

NATURAL_ORDER = NATURAL_NAMES
"""Bit ``i`` of :func:`natural_mask` is set when the hand holds ``NATURAL_ORDER[i]``."""


@numba.njit(cache=True, nogil=True)
def natural_mask(cards: I8) -> int:
    """Bit ``i`` set when the 13 cards hold natural ``NATURAL_ORDER[i]`` (RULES §2.7)."""
    ranks = np.zeros(13, dtype=np.int64)
    suits = np.zeros(4, dtype=np.int64)
    for c in cards:
        ranks[c >> 2] += 1
        suits[c & 3] += 1
    mask = 0
    distinct = 0
    pairs = 0
    for r in range(13):
        if ranks[r] > 0:
            distinct += 1
        pairs += ranks[r] // 2
    if distinct == 13:
        mask |= 1
    # Three flushes: give the 3-, 5- and 5-card groups a suit each; counts must match exactly.
    need = np.zeros(4, dtype=np.int64)
    found = False
    for s0 in range(4):
        for s1 in range(4):
            for s2 in range(4):
                need[:] = 0
                need[s0] += 3
                need[s1] += 5
                need[s2] += 5
                same = True
                for s in range(4):
                    if need[s] != suits[s]:
                        same = False
                if same:
                    found = True
    if found:
        mask |= 2
    # Three straights: two five-card runs (A-2-3-4-5 .. T-J-Q-K-A) and a three-card run
    # (A-2-3 .. Q-K-A) using every card.
    left = np.empty(13, dtype=np.int64)
    done = False
    for lo1 in range(-1, 9):
        if done:
            break
        for lo2 in range(lo1, 9):
            left[:] = ranks
            ok = True
            for lo in (lo1, lo2):
                for t in range(5):
                    r = (lo + t) % 13 if lo >= 0 else (12 if t == 0 else t - 1)
                    left[r] -= 1
                    if left[r] < 0:
                        ok = False
            if not ok:
                continue
            for lo3 in range(-1, 11):
                match = True
                for r in range(13):
                    want = 0
                    if lo3 >= 0:
                        if lo3 <= r < lo3 + 3:
                            want = 1
                    elif r == 12 or r <= 1:
                        want = 1
                    if left[r] != want:
                        match = False
                        break
                if match:
                    done = True
                    break
            if done:
                break
    if done:
        mask |= 4
    if pairs >= 6:
        mask |= 8
    if ranks[9] == 0 and ranks[10] == 0 and ranks[11] == 0:
        mask |= 16
    return mask


@numba.njit(cache=True, nogil=True)
def decide(
    play: float,
    naturals: int,
    payout: F64,
    p_rows: float,
    p_surrender: float,
    p_natural: F64,
    can_surrender: bool,
    cost: float,
) -> tuple[int, float]:
    """The best action and its value per opponent: ``(-1, ev)`` play, ``(-2, ev)`` surrender,
    ``(i, ev)`` declare natural ``i``.

    ``play`` is the best setting's value against an opponent who sets his hand; the opponent
    surrenders with odds ``p_surrender`` and declares natural ``i`` with odds ``p_natural[i]``
    (paid ``payout[i]``; a negative payout means the table does not pay that natural).
    """
    opp_naturals = 0.0
    for i in range(payout.shape[0]):
        if payout[i] >= 0.0:
            opp_naturals += p_natural[i] * payout[i]
    best_ev = p_rows * play + p_surrender * cost - opp_naturals
    best = -1
    if can_surrender:
        ev = -p_rows * cost - opp_naturals
        if ev > best_ev:
            best_ev = ev
            best = -2
    for i in range(payout.shape[0]):
        if (naturals >> i) & 1 and payout[i] >= 0.0:
            mine = payout[i]
            ev = (p_rows + p_surrender) * mine
            for j in range(payout.shape[0]):
                theirs = payout[j]
                if theirs >= 0.0:
                    if mine > theirs:
                        ev += p_natural[j] * mine
                    elif theirs > mine:
                        ev -= p_natural[j] * theirs
            if ev > best_ev:
                best_ev = ev
                best = i
    return best, best_ev


@numba.njit(cache=True, parallel=True)
def search_many(
    hands: I8,
    sub5: I8,
    sub3: I8,
    splits: I16,
    key5: I32,
    bit: I32,
    rank5: I16,
    flush5: I16,
    key3: I32,
    rank3: I16,
    low5: I16,
    lowflush5: I16,
    table: F64,
    front_key: I16,
    dw3: F64,
    dl3: F64,
    dw2: F64,
    dl2: F64,
    g: int,
    scoop: float,
    overall: float,
    mode: int,
    payout: F64,
    p_rows: float,
    p_surrender: float,
    p_natural: F64,
    can_surrender: bool,
    cost: float,
    picks_out: I32,
    actions: I32,
    evs_out: F64,
) -> None:
    """:func:`search` and :func:`decide` for many hands at once (threads over hands).

    ``picks_out[i]`` gets hand ``i``'s best setting, ``actions[i]`` the action code of
    :func:`decide` and ``evs_out[i]`` the best setting's value against an opponent who sets.
    """
    for h in numba.prange(hands.shape[0]):
        evs = np.empty(1, dtype=np.float64)
        picks = np.empty((1, 3), dtype=np.int32)
        search(
            hands[h],
            sub5,
            sub3,
            splits,
            key5,
            bit,
            rank5,
            flush5,
            key3,
            rank3,
            low5,
            lowflush5,
            table,
            front_key,
            dw3,
            dl3,
            dw2,
            dl2,
            g,
            scoop,
            overall,
            mode,
            evs,
            picks,
        )
        picks_out[h, 0] = picks[0, 0]
        picks_out[h, 1] = picks[0, 1]
        picks_out[h, 2] = picks[0, 2]
        evs_out[h] = evs[0]
        action, _ = decide(
            evs[0],
            natural_mask(hands[h]),
            payout,
            p_rows,
            p_surrender,
            p_natural,
            can_surrender,
            cost,
        )
        actions[h] = action
