"""Compiled loops of the Chinese Poker setter: the search for the best settings of a hand (numba,
cached on disk after the first run).

The search works on *positions* 0..12 of a hand, so every table of subsets is the same for all
hands: :data:`SUB5` lists the 1,287 five-card subsets, :data:`SUB3` the 286 three-card ones, and
:data:`SPLITS` the 56 ways to split the 8 cards each back leaves into a middle and a front: all
72,072 settings. Backs are visited one by one; a back whose value plus the best middle and front
any weaker rows could have cannot beat the best setting found so far is skipped whole.

Kernels trust their input: :mod:`thirteen.bots.setter` validates cards and rules first. What a
setting is worth comes from :mod:`thirteen.bots._setter_values`. Deciding a hand (play, surrender
or declare a natural) and searching many hands at once (:mod:`thirteen.bots._setter_decide`)
build on this search, as card removal (:mod:`thirteen.bots._setter_removal`) does, and carry
compiled copies of it (the cache drops them all when a kernel changes:
:mod:`thirteen.bots._kernel_cache`).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from thirteen.bots._setter_values import F64, I32, ROY_OFF, _adjust_rows, nonlinear
from thirteen.engine.evaluate import EVAL_TABLES, LOW5_TABLE, LOWFLUSH5_TABLE, NUM_STRENGTHS

I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]


def _subsets(size: int) -> tuple[I8, I16]:
    """Every ``size``-subset of 13 positions (lexicographic) and a 13-bit mask → index map."""
    subs = np.array(list(combinations(range(13), size)), dtype=np.int8)
    index = np.full(1 << 13, -1, dtype=np.int16)
    masks = (np.int64(1) << subs.astype(np.int64)).sum(axis=1)
    index[masks] = np.arange(len(subs), dtype=np.int16)
    return subs, index


def _splits(sub5: I8, index5: I16, index3: I16) -> I16:
    """``out[b, j]``: (middle five, front three) of the j-th split of the 8 cards back b leaves."""
    patterns = np.array(list(combinations(range(8), 5)), dtype=np.int64)
    out = np.empty((len(sub5), len(patterns), 2), dtype=np.int16)
    full = (1 << 13) - 1
    for b, back in enumerate(sub5.tolist()):
        rest = np.array([p for p in range(13) if p not in back], dtype=np.int64)
        left = full ^ int(sum(1 << p for p in back))
        mid_masks = (np.int64(1) << rest[patterns]).sum(axis=1)
        out[b, :, 0] = index5[mid_masks]
        out[b, :, 1] = index3[left ^ mid_masks]
    return out


SUB5, INDEX5 = _subsets(5)
SUB3, INDEX3 = _subsets(3)
SPLITS = _splits(SUB5, INDEX5, INDEX3)
SEARCH_TABLES: tuple[Any, ...] = (
    SUB5,
    SUB3,
    SPLITS,
    *EVAL_TABLES,
    LOW5_TABLE,
    LOWFLUSH5_TABLE,
)
"""The fixed tables :func:`search` and :func:`~thirteen.bots._setter_decide.search_many` take
first, in their order."""

MODE_PLAIN = 0
"""Legal when front ≤ middle ≤ back (front keys are the front strengths)."""
MODE_LOWBALL = 1
"""Middle ranked 2-7 lowball; legal when back ≥ front."""
NUM_BLOCKS_MAX = NUM_STRENGTHS - 1


@numba.njit(cache=True, nogil=True)
def _five(
    c0: int, c1: int, c2: int, c3: int, c4: int, key5: I32, bit: I32, ranks: I16, flushes: I16
) -> int:
    s = c0 & 3
    if (c1 & 3) == s and (c2 & 3) == s and (c3 & 3) == s and (c4 & 3) == s:
        return int(flushes[bit[c0] | bit[c1] | bit[c2] | bit[c3] | bit[c4]])
    return int(ranks[key5[c0] + key5[c1] + key5[c2] + key5[c3] + key5[c4]])


@numba.njit(cache=True, nogil=True)
def _insert(evs: F64, picks: I32, k: int, ev: float, f: int, m: int, b: int) -> float:
    """Insert a setting into the sorted top-``k`` list; return the new admission threshold."""
    pos = k - 1
    while pos > 0 and evs[pos - 1] < ev:
        evs[pos] = evs[pos - 1]
        picks[pos, 0] = picks[pos - 1, 0]
        picks[pos, 1] = picks[pos - 1, 1]
        picks[pos, 2] = picks[pos - 1, 2]
        pos -= 1
    evs[pos] = ev
    picks[pos, 0] = f
    picks[pos, 1] = m
    picks[pos, 2] = b
    return float(evs[k - 1])


@numba.njit(cache=True, nogil=True)
def _bonus_bound(
    wf: float,
    wm: float,
    wb: float,
    lf: float,
    lm: float,
    lb: float,
    scoop: float,
    overall: float,
    d3: float,
    d2: float,
    l3: float,
) -> float:
    """An upper bound of :func:`nonlinear` from the rows' odds, without the dependence grids.

    ``d3``/``d2`` are the largest excesses in the triple and pair win grids, ``l3`` the smallest
    in the triple loss grid. Scoop odds are at most the smallest win odds and at most the product
    plus ``d3``; being scooped is at least the product plus ``l3`` (and at least the sum minus
    2); winning two rows or more is at most half the summed odds and at most the summed odds of
    each pair; losing two or more is at least half of (summed loss odds - 1).
    """
    won = min(min(wf, min(wm, wb)), wf * wm * wb + d3)
    lost = max(0.0, max(lf * lm * lb + l3, lf + lm + lb - 2.0))
    bound = scoop * (won - lost)
    if overall != 0.0:
        pairs = wf * wm + wf * wb + wm * wb + 3.0 * d2
        two_won = min(1.0, min(0.5 * (wf + wm + wb), pairs))
        two_lost = max(0.0, 0.5 * (lf + lm + lb - 1.0))
        bound += overall * (two_won - two_lost)
    return bound


@numba.njit(cache=True, nogil=True)
def _consider(
    evs: F64,
    picks: I32,
    threshold: float,
    f: int,
    mid: int,
    back: int,
    value: float,
    wf: float,
    wm: float,
    wb: float,
    lf: float,
    lm: float,
    lb: float,
    scoop: float,
    overall: float,
    dw3: F64,
    dl3: F64,
    dw2: F64,
    dl2: F64,
    g: int,
) -> float:
    """Add the bonuses to a legal setting's linear value; keep it if it makes the top k."""
    if scoop != 0.0 or overall != 0.0:
        value += nonlinear(wf, wm, wb, lf, lm, lb, scoop, overall, dw3, dl3, dw2, dl2, g)
    if value > threshold:
        return _insert(evs, picks, evs.shape[0], value, f, mid, back)
    return threshold


BOUND_SHIFT = 6
"""The hand's own bounds are kept per block of 64 strengths (coarser, still bounds)."""


@numba.njit(cache=True, nogil=True)
def _hand_bounds(s5: I32, fk: I32, five: F64, vf: F64, wf: F64, lf: F64, out: F64) -> None:
    """Per back ``i``: bounds of the middle value, win and loss odds (best, highest, lowest)
    over this hand's fives no stronger than it (``out[i, 0:3]``), and the same over its threes
    whose front key is no stronger (``out[i, 3:6]``; ``-inf`` value when none is). Kept per
    block of strengths, so fives a little stronger may count too: bounds all the same."""
    n5 = s5.shape[0]
    n3 = fk.shape[0]
    blocks = (NUM_BLOCKS_MAX >> BOUND_SHIFT) + 1
    acc = np.empty((blocks, 6))
    for b in range(blocks):
        acc[b, 0] = -np.inf
        acc[b, 1] = 0.0
        acc[b, 2] = 1.0
        acc[b, 3] = -np.inf
        acc[b, 4] = 0.0
        acc[b, 5] = 1.0
    for i in range(n5):
        b = s5[i] >> BOUND_SHIFT
        acc[b, 0] = max(acc[b, 0], five[i, 0])
        acc[b, 1] = max(acc[b, 1], five[i, 1])
        acc[b, 2] = min(acc[b, 2], five[i, 2])
    for j in range(n3):
        b = fk[j] >> BOUND_SHIFT
        acc[b, 3] = max(acc[b, 3], vf[j])
        acc[b, 4] = max(acc[b, 4], wf[j])
        acc[b, 5] = min(acc[b, 5], lf[j])
    for b in range(1, blocks):
        acc[b, 0] = max(acc[b, 0], acc[b - 1, 0])
        acc[b, 1] = max(acc[b, 1], acc[b - 1, 1])
        acc[b, 2] = min(acc[b, 2], acc[b - 1, 2])
        acc[b, 3] = max(acc[b, 3], acc[b - 1, 3])
        acc[b, 4] = max(acc[b, 4], acc[b - 1, 4])
        acc[b, 5] = min(acc[b, 5], acc[b - 1, 5])
    for i in range(n5):
        b = s5[i] >> BOUND_SHIFT
        for c in range(6):
            out[i, c] = acc[b, c]


@numba.njit(cache=True, nogil=True)
def search(
    cards: I8,
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
    evs: F64,
    picks: I32,
) -> int:
    """Fill ``evs``/``picks`` (length k) with the k best legal settings of 13 cards, best first.

    ``table[s, 3r : 3r + 3]`` holds row ``r``'s linear value (row points and royalties), win odds
    and loss odds at strength ``s`` (a 2-7 value for a lowball middle); ``table[s, 9]`` and
    ``table[s, 10]`` the best front and middle values at strength ``s`` or below. A pick is
    ``(front subset, middle subset, back subset)`` as indices into ``sub3``/``sub5``.
    Returns how many settings were filled (fewer than k only if fewer are legal).
    """
    no_idx = np.zeros((3, 1), dtype=np.int32)
    no_d = np.zeros((3, 1), dtype=np.float64)
    return _search_impl(
        cards,
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
        False,
        no_idx,
        no_idx,
        no_d,
        no_d,
        no_d,
        ROY_OFF,
        evs,
        picks,
    )


@numba.njit(cache=True, nogil=True)
def _search_impl(
    cards: I8,
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
    removal: bool,
    lo_idx: I32,
    hi_idx: I32,
    d: F64,
    dr: F64,
    roy: F64,
    roy_mode: int,
    evs: F64,
    picks: I32,
) -> int:
    """:func:`search`; with ``removal`` every row's value and odds are first moved by the hand's
    card-removal deltas ``d``/``dr`` (:func:`removal_deltas`), and the bounds that skip backs
    come from this hand's own rows instead of the table's."""
    k = evs.shape[0]
    n5 = sub5.shape[0]
    n3 = sub3.shape[0]
    lowball = mode == MODE_LOWBALL
    s5 = np.empty(n5, dtype=np.int32)
    # Per five, side by side (one cache line per five in the hot loop): as a middle its value,
    # win and loss odds; as a back the same.
    five = np.empty((n5, 6), dtype=np.float64)
    mask5 = np.empty(n5, dtype=np.int64)
    vm_max = -np.inf
    wm_max = 0.0
    lm_min = 1.0
    for i in range(n5):
        mask5[i] = (
            (1 << sub5[i, 0])
            | (1 << sub5[i, 1])
            | (1 << sub5[i, 2])
            | (1 << sub5[i, 3])
            | (1 << sub5[i, 4])
        )
        c0 = cards[sub5[i, 0]]
        c1 = cards[sub5[i, 1]]
        c2 = cards[sub5[i, 2]]
        c3 = cards[sub5[i, 3]]
        c4 = cards[sub5[i, 4]]
        s = _five(c0, c1, c2, c3, c4, key5, bit, rank5, flush5)
        sm = s
        if lowball:
            sm = _five(c0, c1, c2, c3, c4, key5, bit, low5, lowflush5)
        s5[i] = s
        five[i, 0] = table[sm, 3]
        five[i, 1] = table[sm, 4]
        five[i, 2] = table[sm, 5]
        five[i, 3] = table[s, 6]
        five[i, 4] = table[s, 7]
        five[i, 5] = table[s, 8]
        vm_max = max(vm_max, five[i, 0])
        wm_max = max(wm_max, five[i, 1])
        lm_min = min(lm_min, five[i, 2])
    fk = np.empty(n3, dtype=np.int32)
    vf = np.empty(n3, dtype=np.float64)
    wf = np.empty(n3, dtype=np.float64)
    lf = np.empty(n3, dtype=np.float64)
    mask3 = np.empty(n3, dtype=np.int64)
    s3 = np.empty(n3, dtype=np.int32)
    for j in range(n3):
        mask3[j] = (1 << sub3[j, 0]) | (1 << sub3[j, 1]) | (1 << sub3[j, 2])
        s = rank3[key3[cards[sub3[j, 0]]] + key3[cards[sub3[j, 1]]] + key3[cards[sub3[j, 2]]]]
        s3[j] = s
        fk[j] = s if lowball else front_key[s]
        vf[j] = table[s, 0]
        wf[j] = table[s, 1]
        lf[j] = table[s, 2]
    bounds = np.empty((1, 6))
    if removal:
        _adjust_rows(s5, s3, five, vf, wf, lf, lo_idx, hi_idx, d, dr, roy, roy_mode)
        bounds = np.empty((n5, 6))
        _hand_bounds(s5, fk, five, vf, wf, lf, bounds)
    for i in range(k):
        evs[i] = -np.inf
        picks[i, 0] = -1
    threshold = -np.inf
    if k == 1:
        # Start from the never-foul greedy setting (best five in back, best five of the rest in
        # the middle): most backs and splits then fall below the threshold at once.
        gb = 0
        for i in range(n5):
            if s5[i] > s5[gb]:
                gb = i
        gm = -1
        for i in range(n5):
            if mask5[i] & mask5[gb] == 0 and (gm < 0 or s5[i] > s5[gm]):
                gm = i
        rest = 8191 ^ mask5[gb] ^ mask5[gm]
        gf = 0
        for j in range(n3):
            if mask3[j] == rest:
                gf = j
        legal = s5[gb] >= fk[gf] if lowball else fk[gf] <= s5[gm] <= s5[gb]
        if legal:
            threshold = _consider(
                evs,
                picks,
                threshold,
                gf,
                gm,
                gb,
                vf[gf] + five[gm, 0] + five[gb, 3],
                wf[gf],
                five[gm, 1],
                five[gb, 4],
                lf[gf],
                five[gm, 2],
                five[gb, 5],
                scoop,
                overall,
                dw3,
                dl3,
                dw2,
                dl2,
                g,
            )
    # Extremes of the dependence grids, for the bounds (0 at the grids' edges, so d3, d2 >= 0).
    d3 = 0.0
    for i in range(dw3.shape[0]):
        d3 = max(d3, dw3[i])
    d2 = 0.0
    for i in range(dw2.shape[0]):
        d2 = max(d2, dw2[i])
    l3 = 0.0
    for i in range(dl3.shape[0]):
        l3 = min(l3, dl3[i])
    n_splits = splits.shape[1]
    for back in range(n5):
        sb = s5[back]
        vbb = five[back, 3]
        wbb = five[back, 4]
        lbb = five[back, 5]
        # The middle is no stronger than the back (any middle under a lowball middle), and the
        # front no stronger than the back: table[s, 9] and table[s, 10] are the best front and
        # middle values up to strength s; win odds only grow and loss odds only fall with it.
        if removal:
            best_mid = bounds[back, 0]
            w_mid = bounds[back, 1]
            l_mid = bounds[back, 2]
            best_front = bounds[back, 3]
            w_front = bounds[back, 4]
            l_front = bounds[back, 5]
        else:
            best_mid = vm_max if lowball else table[sb, 10]
            w_mid = wm_max if lowball else table[sb, 4]
            l_mid = lm_min if lowball else table[sb, 5]
            best_front = table[sb, 9]
            w_front = table[sb, 1]
            l_front = table[sb, 2]
        bonus = _bonus_bound(w_front, w_mid, wbb, l_front, l_mid, lbb, scoop, overall, d3, d2, l3)
        if vbb + best_mid + best_front + bonus <= threshold:
            continue
        for j in range(n_splits):
            mid = splits[back, j, 0]
            f = splits[back, j, 1]
            if lowball:
                if fk[f] > sb:
                    continue
            elif s5[mid] > sb or fk[f] > s5[mid]:
                continue
            value = vf[f] + five[mid, 0] + vbb
            wm = five[mid, 1]
            lm = five[mid, 2]
            bound = value + _bonus_bound(wf[f], wm, wbb, lf[f], lm, lbb, scoop, overall, d3, d2, l3)
            if bound > threshold:
                threshold = _consider(
                    evs,
                    picks,
                    threshold,
                    f,
                    mid,
                    back,
                    value,
                    wf[f],
                    wm,
                    wbb,
                    lf[f],
                    lm,
                    lbb,
                    scoop,
                    overall,
                    dw3,
                    dl3,
                    dw2,
                    dl2,
                    g,
                )
    filled = 0
    for i in range(k):
        if picks[i, 0] >= 0:
            filled += 1
    return filled
