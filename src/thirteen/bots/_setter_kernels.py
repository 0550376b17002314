"""Compiled loops of the Chinese Poker setter (numba, cached on disk after the first run).

The search works on *positions* 0..12 of a hand, so every table of subsets is the same for all
hands: :data:`SUB5` lists the 1,287 five-card subsets, :data:`SUB3` the 286 three-card ones, and
:data:`SPLITS` the 56 ways to split the 8 cards each back leaves into a middle and a front: all
72,072 settings. Backs are visited one by one; a back whose value plus the best middle and front
any weaker rows could have cannot beat the best setting found so far is skipped whole.

Kernels trust their input: :mod:`thirteen.bots.setter` validates cards and rules first.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from thirteen.engine.evaluate import EVAL_TABLES, LOW5_TABLE, LOWFLUSH5_TABLE, NUM_STRENGTHS
from thirteen.engine.rules import NATURAL_NAMES

I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]

NATURAL_ORDER = NATURAL_NAMES
"""Bit ``i`` of :func:`natural_mask` is set when the hand holds ``NATURAL_ORDER[i]``."""


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
"""The fixed tables :func:`search` and :func:`search_many` take first, in their order."""

MODE_PLAIN = 0
"""Legal when front ≤ middle ≤ back (front keys are the front strengths)."""
MODE_LOWBALL = 1
"""Middle ranked 2-7 lowball; legal when back ≥ front."""
NUM_BLOCKS_MAX = NUM_STRENGTHS - 1
ROY_OFF = 0
ROY_WINNER = 1
ROY_ALWAYS = 2
"""How royalties are paid (``Rules.royalty_mode``), as the card-removal deltas take it."""


@numba.njit(cache=True, nogil=True)
def _interp3(grid: F64, g: int, x: float, y: float, z: float) -> float:
    """Trilinear interpolation in a ``(g+1)³`` grid over the unit cube (flattened)."""
    n = g + 1
    fx = x * g
    fy = y * g
    fz = z * g
    i = min(int(fx), g - 1)
    j = min(int(fy), g - 1)
    k = min(int(fz), g - 1)
    tx = fx - i
    ty = fy - j
    tz = fz - k
    base = (i * n + j) * n + k
    c00 = grid[base] * (1.0 - tz) + grid[base + 1] * tz
    c01 = grid[base + n] * (1.0 - tz) + grid[base + n + 1] * tz
    c10 = grid[base + n * n] * (1.0 - tz) + grid[base + n * n + 1] * tz
    c11 = grid[base + n * n + n] * (1.0 - tz) + grid[base + n * n + n + 1] * tz
    c0 = c00 * (1.0 - ty) + c01 * ty
    c1 = c10 * (1.0 - ty) + c11 * ty
    return float(c0 * (1.0 - tx) + c1 * tx)


@numba.njit(cache=True, nogil=True)
def _interp2(grid: F64, g: int, x: float, y: float) -> float:
    """Bilinear interpolation in a ``(g+1)²`` grid over the unit square (flattened)."""
    n = g + 1
    fx = x * g
    fy = y * g
    i = min(int(fx), g - 1)
    j = min(int(fy), g - 1)
    tx = fx - i
    ty = fy - j
    base = i * n + j
    c0 = grid[base] * (1.0 - ty) + grid[base + 1] * ty
    c1 = grid[base + n] * (1.0 - ty) + grid[base + n + 1] * ty
    return float(c0 * (1.0 - tx) + c1 * tx)


@numba.njit(cache=True, nogil=True)
def _all_three(grid: F64, g: int, a: float, b: float, c: float) -> float:
    """P(all three events) from exact marginals plus the interpolated dependence excess."""
    p = a * b * c + _interp3(grid, g, a, b, c)
    top = min(a, min(b, c))
    lo = max(0.0, a + b + c - 2.0)
    return min(max(p, lo), top)


@numba.njit(cache=True, nogil=True)
def _both(grid: F64, off: int, g: int, a: float, b: float) -> float:
    """P(both events) from exact marginals plus the interpolated dependence excess."""
    n = (g + 1) * (g + 1)
    p = a * b + _interp2(grid[off * n : (off + 1) * n], g, a, b)
    return min(max(p, max(0.0, a + b - 1.0)), min(a, b))


@numba.njit(cache=True, nogil=True)
def _two(p: float, total: float) -> float:
    """Clamp P(at least two of three events) to what odds summing to ``total`` allow."""
    return min(max(p, max(0.0, 0.5 * (total - 1.0))), min(1.0, 0.5 * total))


@numba.njit(cache=True, nogil=True)
def nonlinear(
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
    """Expected scoop and overall bonuses given each row's win (``w*``) and loss (``l*``) odds."""
    pw = _all_three(dw3, g, wf, wm, wb)
    pl = _all_three(dl3, g, lf, lm, lb)
    value = scoop * (pw - pl)
    if overall != 0.0:
        # P(at least two of three) = sum of the pairs' joint odds - 2 P(all three).
        two_w = _both(dw2, 0, g, wf, wm) + _both(dw2, 1, g, wf, wb) + _both(dw2, 2, g, wm, wb)
        two_l = _both(dl2, 0, g, lf, lm) + _both(dl2, 1, g, lf, lb) + _both(dl2, 2, g, lm, lb)
        value += overall * (
            _two(two_w - 2.0 * pw, wf + wm + wb) - _two(two_l - 2.0 * pl, lf + lm + lb)
        )
    return value


@numba.njit(cache=True, nogil=True)
def rows_value(
    fs: int,
    ms: int,
    bs: int,
    table: F64,
    dw3: F64,
    dl3: F64,
    dw2: F64,
    dl2: F64,
    g: int,
    scoop: float,
    overall: float,
) -> float:
    """A legal setting's value against an opponent who sets, from its three row strengths."""
    value = table[fs, 0] + table[ms, 3] + table[bs, 6]
    if scoop != 0.0 or overall != 0.0:
        value += nonlinear(
            table[fs, 1],
            table[ms, 4],
            table[bs, 7],
            table[fs, 2],
            table[ms, 5],
            table[bs, 8],
            scoop,
            overall,
            dw3,
            dl3,
            dw2,
            dl2,
            g,
        )
    return float(value)


@numba.njit(cache=True, nogil=True)
def rows_values(
    strengths: I32,
    table: F64,
    dw3: F64,
    dl3: F64,
    dw2: F64,
    dl2: F64,
    g: int,
    scoop: float,
    overall: float,
) -> F64:
    """:func:`rows_value` of many settings: ``strengths[i]`` = (front, middle, back)."""
    out = np.empty(strengths.shape[0], dtype=np.float64)
    for i in range(strengths.shape[0]):
        out[i] = rows_value(
            strengths[i, 0],
            strengths[i, 1],
            strengths[i, 2],
            table,
            dw3,
            dl3,
            dw2,
            dl2,
            g,
            scoop,
            overall,
        )
    return out


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


@numba.njit(cache=True, nogil=True)
def _shift(
    value: float, d: F64, dr: F64, r: int, lo: int, hi: int, roy: float, roy_mode: int
) -> float:
    """Row ``r``'s linear value moved by the card-removal deltas of its win, loss and paid
    royalty odds (see :mod:`thirteen.bots._setter_removal`)."""
    dw = d[r, lo]
    dl = -d[r, hi]
    value += dw - dl
    if roy_mode == ROY_WINNER:
        value += roy * dw - dr[r, hi]
    elif roy_mode == ROY_ALWAYS:
        value -= dr[r, 0]
    return value


@numba.njit(cache=True, nogil=True)
def _clamp(p: float) -> float:
    return min(1.0, max(0.0, p))


@numba.njit(cache=True, nogil=True)
def _adjust_rows(
    s5: I32,
    s3: I32,
    five: F64,
    vf: F64,
    wf: F64,
    lf: F64,
    lo_idx: I32,
    hi_idx: I32,
    d: F64,
    dr: F64,
    roy: F64,
    roy_mode: int,
) -> None:
    """Move every five's middle and back values and odds, and every three's front ones, by the
    hand's card-removal deltas (plain middle only)."""
    for i in range(s5.shape[0]):
        s = s5[i]
        lo = lo_idx[1, s]
        hi = hi_idx[1, s]
        five[i, 0] = _shift(five[i, 0], d, dr, 1, lo, hi, roy[1, s], roy_mode)
        five[i, 1] = _clamp(five[i, 1] + d[1, lo])
        five[i, 2] = _clamp(five[i, 2] - d[1, hi])
        lo = lo_idx[2, s]
        hi = hi_idx[2, s]
        five[i, 3] = _shift(five[i, 3], d, dr, 2, lo, hi, roy[2, s], roy_mode)
        five[i, 4] = _clamp(five[i, 4] + d[2, lo])
        five[i, 5] = _clamp(five[i, 5] - d[2, hi])
    for j in range(s3.shape[0]):
        s = s3[j]
        lo = lo_idx[0, s]
        hi = hi_idx[0, s]
        vf[j] = _shift(vf[j], d, dr, 0, lo, hi, roy[0, s], roy_mode)
        wf[j] = _clamp(wf[j] + d[0, lo])
        lf[j] = _clamp(lf[j] - d[0, hi])


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
