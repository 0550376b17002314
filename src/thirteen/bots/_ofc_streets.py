"""Compiled loops that play a street of OFC: every way to place its cards, and the heuristic's pick.

A street *code* gives, for each card of the street, the row it goes to (0 front, 1 middle,
2 back) or 3 for a discard. :func:`play_best` places a street as the heuristic judges best
(:func:`~thirteen.bots._ofc_values.board_value`), :func:`play_last_two` the last two streets
together (the rollouts' lookahead). Boards and tables as in :mod:`thirteen.bots._ofc_values`.

The rollouts (:mod:`thirteen.bots._ofc_rollouts`) build on these, and carry compiled copies of
them (:mod:`thirteen.bots._kernel_cache`).
"""

from __future__ import annotations

import numba
import numpy as np

from thirteen.bots._ofc_values import F64, I64, ROW_START, board_value, final_value, hit_chances


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
