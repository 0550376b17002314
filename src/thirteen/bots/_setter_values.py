"""Compiled loops of the Chinese Poker setter: what a setting is worth against an opponent who sets.

A row's linear value (row points and royalties) and its win and loss odds come from the
setter's table; :func:`nonlinear` adds the scoop and overall bonuses, from the rows' odds and
the interpolated dependence grids (how far the rows' outcomes are from independent), and
:func:`rows_value` puts both together. With card removal, :func:`_adjust_rows` first moves every
row's value and odds by the hand's deltas.

The search (:mod:`thirteen.bots._setter_search`) and card removal
(:mod:`thirteen.bots._setter_removal`) build on these, and carry compiled copies of them (the
cache drops them all when a kernel changes: :mod:`thirteen.bots._kernel_cache`).
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]

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


# ----------------------------------------------------------------------------- card removal
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
