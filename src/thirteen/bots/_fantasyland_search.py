"""Compiled branch-and-bound search behind :func:`thirteen.bots.fantasyland.solve_fantasyland`.

Everything here trusts its input (the public wrapper validates). Cards are addressed by their
position ``0..n-1`` in the hand, so a row is an ``n``-bit mask.

Values are exact integers: a setting is worth ``royalties * unit + stay_units * stays``, where
``stay_units / unit`` is the stay value. The search maximizes the key ``(value, back strength,
middle strength, front strength)``.

Per-strength tables (index = strength, prepared once per rules and stay value):

- ``back_score``: back royalty ``* unit``, plus ``stay_units`` if that back alone stays.
- ``mid_plain`` / ``mid_stay``: middle royalty ``* unit``; the second adds ``stay_units`` when
  that middle alone stays. ``mid_keeps``: whether that middle alone stays.
- ``front_plain`` / ``front_stay``: the same for fronts.
- ``front_cap``: the weakest middle a front may sit under (the front's own strength, or one
  above its tie ceiling under the strict-front rule).
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
B8 = npt.NDArray[np.bool_]

STRENGTH_LIMIT = 8192  # above every strength (7,917 of them): the counting sort's buckets
SCAN_LIMIT = 48  # how far a bound scans a sorted list before settling for a looser bound


@numba.njit(cache=True, nogil=True)
def _fives(
    cards: I64, key5: I32, bit: I32, rank5: I16, flush5: I16
) -> tuple[I64, I64]:  # pragma: no cover - compiled
    """Masks and strengths of every 5-card subset of the hand."""
    n = cards.shape[0]
    total = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) // 120
    masks = np.empty(total, np.int64)
    strengths = np.empty(total, np.int64)
    k = 0
    for a in range(n - 4):
        ca = cards[a]
        for b in range(a + 1, n - 3):
            cb = cards[b]
            for c in range(b + 1, n - 2):
                cc = cards[c]
                for d in range(c + 1, n - 1):
                    cd = cards[d]
                    for e in range(d + 1, n):
                        ce = cards[e]
                        s = ca & 3
                        if (cb & 3) == s and (cc & 3) == s and (cd & 3) == s and (ce & 3) == s:
                            v = flush5[bit[ca] | bit[cb] | bit[cc] | bit[cd] | bit[ce]]
                        else:
                            v = rank5[key5[ca] + key5[cb] + key5[cc] + key5[cd] + key5[ce]]
                        masks[k] = (1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e)
                        strengths[k] = v
                        k += 1
    return masks, strengths


@numba.njit(cache=True, nogil=True)
def _threes(cards: I64, key3: I32, rank3: I16) -> tuple[I64, I64]:  # pragma: no cover
    """Masks and strengths of every 3-card subset of the hand."""
    n = cards.shape[0]
    total = n * (n - 1) * (n - 2) // 6
    masks = np.empty(total, np.int64)
    strengths = np.empty(total, np.int64)
    k = 0
    for a in range(n - 2):
        for b in range(a + 1, n - 1):
            for c in range(b + 1, n):
                masks[k] = (1 << a) | (1 << b) | (1 << c)
                strengths[k] = rank3[key3[cards[a]] + key3[cards[b]] + key3[cards[c]]]
                k += 1
    return masks, strengths


@numba.njit(cache=True, nogil=True)
def _by_strength(strengths: I64) -> I64:  # pragma: no cover - compiled
    """Indices by strength, strongest first; equal strengths keep index order (counting sort)."""
    size = STRENGTH_LIMIT
    counts = np.zeros(size, np.int64)
    for i in range(strengths.shape[0]):
        counts[strengths[i]] += 1
    start = np.empty(size, np.int64)
    acc = 0
    for s in range(size - 1, -1, -1):
        start[s] = acc
        acc += counts[s]
    out = np.empty(strengths.shape[0], np.int64)
    for i in range(strengths.shape[0]):
        s = strengths[i]
        out[start[s]] = i
        start[s] += 1
    return out


@numba.njit(cache=True, nogil=True)
def _find_desc(values: I64, count: int, v: np.int64) -> int:  # pragma: no cover - compiled
    """Where ``v`` is (or would go) in the descending ``values[:count]``."""
    lo = 0
    hi = count
    while lo < hi:
        mid = (lo + hi) // 2
        if values[mid] > v:
            lo = mid + 1
        else:
            hi = mid
    return lo


@numba.njit(cache=True, nogil=True)
def _order(scores: I64, by_strength: I64) -> I64:  # pragma: no cover - compiled
    """Indices by score, then strength, both descending, ties in index order.

    ``by_strength`` lists the indices strongest first. Scores take few distinct values, so a
    counting sort by score rank over ``by_strength`` beats a comparison sort.
    """
    n = scores.shape[0]
    distinct = np.empty(64, np.int64)
    d = 0
    for i in range(n):
        v = scores[i]
        at = _find_desc(distinct, d, v)
        if at < d and distinct[at] == v:
            continue
        if d == distinct.shape[0]:
            grown = np.empty(2 * d, np.int64)
            grown[:d] = distinct
            distinct = grown
        for j in range(d, at, -1):
            distinct[j] = distinct[j - 1]
        distinct[at] = v
        d += 1
    rank = np.empty(n, np.int64)
    start = np.zeros(d + 1, np.int64)
    for i in range(n):
        r = _find_desc(distinct, d, scores[i])
        rank[i] = r
        start[r + 1] += 1
    for r in range(d):
        start[r + 1] += start[r]
    out = np.empty(n, np.int64)
    for j in range(n):
        i = by_strength[j]
        out[start[rank[i]]] = i
        start[rank[i]] += 1
    return out


@numba.njit(cache=True, nogil=True)
def _best_up_to(
    queries_weakest_first: I64,
    query_keys: I64,
    items_weakest_first: I64,
    item_keys: I64,
    scores: I64,
) -> I64:  # pragma: no cover - compiled
    """For each query, the best score among items whose key is at most the query's (-1: none)."""
    out = np.empty(query_keys.shape[0], np.int64)
    best = np.int64(-1)
    j = 0
    count = items_weakest_first.shape[0]
    for t in range(queries_weakest_first.shape[0]):
        q = queries_weakest_first[t]
        key = query_keys[q]
        while j < count and item_keys[items_weakest_first[j]] <= key:
            score = scores[items_weakest_first[j]]
            if score > best:
                best = score
            j += 1
        out[q] = best
    return out


@numba.njit(cache=True, nogil=True)
def _first_fit(
    order: I64,
    masks: I64,
    caps: I64,
    scores: I64,
    taken: np.int64,
    cap: np.int64,
    fallback: np.int64,
) -> np.int64:  # pragma: no cover - compiled
    """An upper bound on the best score of an item disjoint from ``taken`` with cap <= ``cap``.

    Scans the sorted list a little way: the first fitting item is exact; otherwise the first
    disjoint item (ignoring the cap) or ``fallback`` (ignoring disjointness), whichever is lower.
    """
    loose = fallback
    seen_disjoint = False
    steps = min(order.shape[0], SCAN_LIMIT)
    for j in range(steps):
        i = order[j]
        if masks[i] & taken:
            continue
        if not seen_disjoint:
            seen_disjoint = True
            if scores[i] < loose:
                loose = scores[i]
        if caps[i] <= cap:
            return np.int64(scores[i])
    return loose


@numba.njit(cache=True, nogil=True)
def search(
    cards: I64,
    key5: I32,
    bit: I32,
    rank5: I16,
    flush5: I16,
    key3: I32,
    rank3: I16,
    back_score: I64,
    back_keeps: B8,
    mid_plain: I64,
    mid_stay: I64,
    mid_keeps: B8,
    front_plain: I64,
    front_stay: I64,
    front_cap: I64,
) -> I64:  # pragma: no cover - compiled
    """The best setting as ``[back mask, middle mask, front mask, value]`` (masks -1 if none)."""
    n = cards.shape[0]
    full = (np.int64(1) << n) - 1

    masks5, s5 = _fives(cards, key5, bit, rank5, flush5)
    masks3, s3 = _threes(cards, key3, rank3)
    n5 = masks5.shape[0]
    keys3 = np.empty(n, np.int64)
    for i in range(n):
        keys3[i] = key3[cards[i]]

    # Per-subset scores. A middle's "reach" is its own score plus the best front any middle of
    # its strength could sit over (cards aside): an upper bound on middle + front.
    strong5 = _by_strength(s5)
    weak5 = strong5[::-1].copy()
    strong3 = _by_strength(s3)
    b_score = back_score[s5]
    m_plain = mid_plain[s5]
    m_stay = mid_stay[s5]
    f_plain = front_plain[s3]
    f_stay = front_stay[s3]
    f_caps = front_cap[s3]
    caps_low = np.argsort(f_caps)
    front_order_plain = _order(f_plain, strong3)
    front_order_stay = _order(f_stay, strong3)
    # Best front under a middle (or back) of each five-card subset's strength.
    front_best_plain = _best_up_to(weak5, s5, caps_low, f_caps, f_plain)
    front_best_stay = _best_up_to(weak5, s5, caps_low, f_caps, f_stay)
    reach_plain = np.empty(n5, np.int64)
    reach_stay = np.empty(n5, np.int64)
    for k in range(n5):
        fp = front_best_plain[k]
        reach_plain[k] = -1 if fp < 0 else m_plain[k] + fp
        fs = fp if mid_keeps[s5[k]] else front_best_stay[k]
        reach_stay[k] = -1 if fs < 0 else m_stay[k] + fs
    mid_order_plain = _order(reach_plain, strong5)
    mid_order_stay = _order(reach_stay, strong5)
    # Best reach and best middle score among subsets no stronger than each subset.
    reach_best_plain = _best_up_to(weak5, s5, weak5, s5, reach_plain)
    reach_best_stay = _best_up_to(weak5, s5, weak5, s5, reach_stay)
    mid_best_plain = _best_up_to(weak5, s5, weak5, s5, m_plain)
    mid_best_stay = _best_up_to(weak5, s5, weak5, s5, m_stay)

    # Phase 1: a quick upper bound for every back (row strengths only, cards aside).
    bound = np.empty(n5, np.int64)
    for k in range(n5):
        if back_keeps[s5[k]]:
            rb = reach_best_plain[k]
            mb = mid_best_plain[k]
            fb = front_best_plain[k]
        else:
            rb = reach_best_stay[k]
            mb = mid_best_stay[k]
            fb = front_best_stay[k]
        bound[k] = -1 if rb < 0 or fb < 0 else b_score[k] + min(rb, mb + fb)
    back_order = _order(bound, strong5)

    # Phase 2: backs by decreasing bound, middles by decreasing reach, then the best front.
    best_v = np.int64(-1)
    best_sb = np.int64(-1)
    best_sm = np.int64(-1)
    best_sf = np.int64(-1)
    best_b = np.int64(-1)
    best_m = np.int64(-1)
    best_f = np.int64(-1)
    pos = np.empty(n, np.int64)
    for bi in range(n5):
        k = back_order[bi]
        ub = bound[k]
        sb = s5[k]
        if ub < 0 or ub < best_v or (ub == best_v and sb < best_sb):
            break
        bmask = masks5[k]
        keeps_b = back_keeps[sb]
        bs = b_score[k]
        # A tighter bound for this back: the middle and the front must avoid its cards.
        if keeps_b:
            order = mid_order_plain
            mscores = m_plain
            reach = reach_plain
            rb = _first_fit(order, masks5, s5, reach, bmask, sb, reach_best_plain[k])
            fb = _first_fit(
                front_order_plain, masks3, f_caps, f_plain, bmask, sb, front_best_plain[k]
            )
            mb = mid_best_plain[k]
        else:
            order = mid_order_stay
            mscores = m_stay
            reach = reach_stay
            rb = _first_fit(order, masks5, s5, reach, bmask, sb, reach_best_stay[k])
            fb = _first_fit(front_order_stay, masks3, f_caps, f_stay, bmask, sb, front_best_stay[k])
            mb = mid_best_stay[k]
        if rb < 0 or fb < 0:
            continue
        ub = bs + min(rb, mb + fb)
        if ub < best_v or (ub == best_v and sb < best_sb):
            continue
        for mi in range(n5):
            m = order[mi]
            mmask = masks5[m]
            if mmask & bmask:
                continue
            sm = s5[m]
            if sm > sb:
                continue
            if reach[m] < 0:
                break
            ubm = bs + reach[m]
            if ubm < best_v:
                break
            if ubm == best_v and (sb < best_sb or (sb == best_sb and sm < best_sm)):
                break
            # A tighter bound (the front must avoid the back) that is not monotone along the
            # list: skip, do not stop.
            tight = bs + mscores[m] + fb
            if tight < best_v:
                continue
            if tight == best_v and (sb < best_sb or (sb == best_sb and sm < best_sm)):
                continue
            ms = mscores[m]
            # Best legal front among the cards left.
            rest = full ^ bmask ^ mmask
            count = 0
            for i in range(n):
                if (rest >> i) & 1:
                    pos[count] = i
                    count += 1
            plain_front = keeps_b or mid_keeps[sm]
            fs_best = np.int64(-1)
            sf_best = np.int64(-1)
            f_best = np.int64(0)
            for a in range(count - 2):
                pa = pos[a]
                ka = keys3[pa]
                for b in range(a + 1, count - 1):
                    pb = pos[b]
                    kab = ka + keys3[pb]
                    for c in range(b + 1, count):
                        pc = pos[c]
                        sf = np.int64(rank3[kab + keys3[pc]])
                        if front_cap[sf] > sm:
                            continue
                        fs = front_plain[sf] if plain_front else front_stay[sf]
                        if fs > fs_best or (fs == fs_best and sf > sf_best):
                            fs_best = fs
                            sf_best = sf
                            f_best = (np.int64(1) << pa) | (np.int64(1) << pb) | (np.int64(1) << pc)
            if fs_best < 0:
                continue
            v = bs + ms + fs_best
            if v > best_v or (
                v == best_v
                and (
                    sb > best_sb
                    or (sb == best_sb and (sm > best_sm or (sm == best_sm and sf_best > best_sf)))
                )
            ):
                best_v = v
                best_sb = sb
                best_sm = sm
                best_sf = sf_best
                best_b = bmask
                best_m = mmask
                best_f = f_best
    out = np.empty(4, np.int64)
    out[0] = best_b
    out[1] = best_m
    out[2] = best_f
    out[3] = best_v
    return out
