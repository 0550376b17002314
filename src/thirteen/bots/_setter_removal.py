"""Card removal for the setter: the field's row odds conditioned on the 13 cards you hold.

The learned tables (:mod:`thirteen.bots._setter_tables`) say how often the field's rows have
each strength when its hands come from a full deck. An opponent's hand comes from the 39 cards
you do not hold. This module corrects for that, hand by hand, from a **bank** of field hands
per scoring method (``thirteen/data/setter_removal.npz``, made by
``scripts/make_setter_removal.py``): 65,536 random hands the setter (without card removal) set
against that method's field, each kept as its count of every rank and suit and the strength of
each row it set.

Given your hand ``H``, a field hand ``X`` of the bank is weighed by how likely it is that a hand
with its ranks (and suits) avoids your cards. Given ``X``'s count ``x`` of a rank of which you
hold ``h``, its cards of that rank are a random ``x`` of the four suits, so they avoid yours with
odds ``C(4 - h, x) / C(4, x)``, independently across ranks: the product over ranks is exactly
the odds that ``X`` is possible beside ``H`` given its ranks. With suits, the same product over
suits (``C(13 - h, x) / C(13, x)``) multiplies in as a second, approximate factor (the two are
not independent). The weighted bank is the field conditioned on ``H``.

The search's row odds are the plain bank's (:func:`bank_model`: the field as the setter itself
plays it, with the tables' dependence grids, surrender and natural odds), plus the *difference*
between the weighted and the plain bank's odds of beating each strength (row wins, losses, and
the opponent's royalties paid): together, exactly the weighted bank's odds.

Only a plain middle is conditioned (a lowball middle has no bank); surrenders and naturals of the
field keep their unconditioned odds.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from math import comb
from pathlib import Path
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from thirteen.bots import _setter_decide as setter_decide
from thirteen.bots import _setter_search as setter_search
from thirteen.bots import _setter_values as setter_values
from thirteen.bots._setter_removal_checksum import REMOVAL_SHA256
from thirteen.bots._setter_tables import (
    Model,
    SetterTablesError,
    build_model,
    field_from_samples,
    field_key,
    load_tables,
    royalty_table,
)
from thirteen.bots._setter_values import ROY_ALWAYS, ROY_OFF, ROY_WINNER
from thirteen.engine.evaluate import NUM_STRENGTHS
from thirteen.engine.royalties import ROWS
from thirteen.engine.rules import Rules

F64 = npt.NDArray[np.float64]
I32 = npt.NDArray[np.int32]
U8 = npt.NDArray[np.uint8]
I8 = npt.NDArray[np.int8]

DATA_FILE = "setter_removal.npz"
SUITS = True
"""Whether the bank's hands are weighed by their suits too (see the module notes)."""

RANK_AVOID = np.array(
    [[comb(4 - h, x) / comb(4, x) if x <= 4 - h else 0.0 for x in range(5)] for h in range(5)]
)
"""``RANK_AVOID[h, x]``: odds that ``x`` random suits of a rank avoid the ``h`` you hold."""
SUIT_AVOID = np.array(
    [[comb(13 - h, x) / comb(13, x) if x <= 13 - h else 0.0 for x in range(14)] for h in range(14)]
)
"""``SUIT_AVOID[h, x]``: the same for ``x`` random ranks of a suit of which you hold ``h``."""


@dataclass(frozen=True)
class Bank:
    """The bank's hands, as the kernels take them."""

    ranks: U8
    """``(N, 13)`` count of each rank."""
    suits: U8
    """``(N, 4)`` count of each suit."""
    strengths: npt.NDArray[np.int16]
    """``(N, 3)`` strength of the front, middle and back the field set."""
    codes: U8
    """``(7, N)``: the rank counts in groups (ranks 0-2, 3-5, 6-8, 9-10, 11-12, base 5) and
    the suit counts in pairs (suits 0-1, 2-3, base 14), so a hand's weight takes 7 lookups
    (one row per group: the kernel's loop reads them side by side)."""
    bucket: npt.NDArray[np.int16]
    """``(3, N)`` index of each hand's row strength among the distinct strengths of that
    row."""
    distinct: I32
    """``(3, width - 1)``: the distinct strengths of each row, ascending (padded with the
    strongest)."""
    lo_idx: I32
    """``(3, NUM_STRENGTHS)``: how many distinct bank strengths of the row are below ``s``."""
    hi_idx: I32
    """``(3, NUM_STRENGTHS)``: how many are at or below ``s``."""
    width: int
    """Most distinct strengths of any row, plus one (the width of the delta arrays)."""
    meta: dict[str, Any]
    sha256: str


def default_path() -> Path:
    return Path(str(resources.files("thirteen").joinpath("data", DATA_FILE)))


def read_banks(path: Path | None = None, *, sha256: str | None = None) -> dict[str, Bank]:
    """Read and check the bank file (default: the shipped one against its shipped checksum):
    one :class:`Bank` per field (``'1-6'``, ``'2-4'``, ``'1-4'``, ``'1-3'``)."""
    path = default_path() if path is None else path
    expected = REMOVAL_SHA256 if sha256 is None else sha256
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SetterTablesError(
            f"The setter's card-removal bank is missing ({path}); make it with "
            "scripts/make_setter_removal.py or reinstall Thirteen."
        ) from None
    return read_banks_bytes(data, sha256=expected, where=str(path))


def read_banks_bytes(
    data: bytes, *, sha256: str, where: str = "card-removal bank"
) -> dict[str, Bank]:
    """Check and read the bytes of a bank file (see :func:`read_banks`)."""
    found = hashlib.sha256(data).hexdigest()
    if found != sha256:
        raise SetterTablesError(
            f"The setter's card-removal bank ({where}) does not match its checksum "
            f"(expected sha256 {sha256[:12]}…, found {found[:12]}…): the file is damaged or "
            "was changed; reinstall Thirteen or remake it with scripts/make_setter_removal.py."
        )
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
        meta = json.loads(str(arrays["meta"].reshape(-1)[0]))
        return {
            key: make_bank(
                arrays[f"{key}.ranks"].astype(np.uint8),
                arrays[f"{key}.suits"].astype(np.uint8),
                arrays[f"{key}.strengths"].astype(np.int16),
                meta,
                found,
            )
            for key in meta["fields"]
        }
    except (KeyError, ValueError, OSError, zipfile.BadZipFile) as e:
        raise SetterTablesError(f"{where} is not a card-removal bank ({e}).") from e


def make_bank(
    ranks: U8, suits: U8, strengths: npt.NDArray[np.int16], meta: dict[str, Any], sha256: str
) -> Bank:
    """A :class:`Bank` from its hands' counts and row strengths."""
    n = len(strengths)
    bucket = np.empty((3, n), dtype=np.int16)
    lo_idx = np.empty((3, NUM_STRENGTHS), dtype=np.int32)
    hi_idx = np.empty((3, NUM_STRENGTHS), dtype=np.int32)
    every = np.arange(NUM_STRENGTHS)
    found_rows = []
    for r in range(3):
        distinct, inverse = np.unique(strengths[:, r], return_inverse=True)
        bucket[r] = inverse.reshape(-1)
        lo_idx[r] = np.searchsorted(distinct, every, side="left")
        hi_idx[r] = np.searchsorted(distinct, every, side="right")
        found_rows.append(distinct)
    width = max(len(d) for d in found_rows) + 1
    distinct_rows = np.empty((3, width - 1), dtype=np.int32)
    for r, d in enumerate(found_rows):
        distinct_rows[r, : len(d)] = d
        distinct_rows[r, len(d) :] = d[-1]
    return Bank(
        ranks,
        suits,
        strengths,
        group_codes(ranks, suits),
        bucket,
        distinct_rows,
        lo_idx,
        hi_idx,
        width,
        meta,
        sha256,
    )


@cache
def load_banks() -> dict[str, Bank]:
    """The shipped banks, read and checked once per process."""
    return read_banks()


RANK_GROUPS = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10), (11, 12))
SUIT_GROUPS = ((0, 1), (2, 3))


def group_codes(ranks: U8, suits: U8) -> U8:
    """The bank's ``codes`` (see :attr:`Bank.codes`)."""
    codes = np.zeros((len(ranks), 7), dtype=np.int64)
    for g, group in enumerate(RANK_GROUPS):
        for r in group:
            codes[:, g] = codes[:, g] * 5 + ranks[:, r]
    for g, group in enumerate(SUIT_GROUPS):
        for s in group:
            codes[:, 5 + g] = codes[:, 5 + g] * 14 + suits[:, s]
    return np.ascontiguousarray(codes.T.astype(np.uint8))


@dataclass(frozen=True, eq=False)
class Removal:
    """What the search needs to correct one table's odds for card removal."""

    bank: Bank
    paid: F64
    """``(3, width - 1)``: royalty units a row of each distinct bank strength collects when
    it wins (0 if none)."""
    plain: F64
    """``(3, width)``: the plain bank's share of strengths below each bucket."""
    plain_paid: F64
    """``(3, width)``: the plain bank's royalties collected by strengths at or above each
    bucket (the share of ``paid`` in the buckets from there up)."""
    roy: F64
    """``(3, NUM_STRENGTHS)``: royalty units your row earns at each strength."""
    roy_mode: int
    suits: bool
    model: Model
    """The search model whose row odds are the plain bank's (see :func:`bank_model`)."""

    @property
    def search_args(self) -> tuple[Any, ...]:
        """What :func:`search_removal` and :func:`search_many_removal` take after the model's
        search arguments."""
        b = self.bank
        return (
            b.codes,
            self.suits,
            b.bucket,
            self.paid,
            self.plain,
            self.plain_paid,
            RANK_AVOID,
            SUIT_AVOID,
            b.lo_idx,
            b.hi_idx,
            self.roy,
            self.roy_mode,
        )

    def deltas(self, cards: I8) -> tuple[F64, F64]:
        """``(d, dr)`` of :func:`removal_deltas` for a hand."""
        d = np.empty((3, self.bank.width))
        dr = np.empty((3, self.bank.width))
        args: tuple[Any, ...] = (cards, *self.search_args[:8], d, dr)
        removal_deltas(*args)
        return d, dr


def _royalty_mode(rules: Rules) -> int:
    return {"off": ROY_OFF, "winner": ROY_WINNER, "always": ROY_ALWAYS}[rules.royalty_mode]


def bank_model(bank: Bank, rules: Rules) -> Model:
    """The search model of ``rules`` whose rows' odds are the plain bank's: the field as the
    setter plays it (the dependence grids, surrender and natural odds are the tables')."""
    shipped = load_tables().fields[field_key(rules.scoring, False)]
    found = field_from_samples(
        "bank",
        bank.strengths.astype(np.int64),
        np.ones(len(bank.strengths)),
        lowball=False,
        p_surrender=shipped.p_surrender,
        p_natural=shipped.p_natural,
    )
    field = dataclasses.replace(
        found, dw3=shipped.dw3, dl3=shipped.dl3, dw2=shipped.dw2, dl2=shipped.dl2
    )
    return build_model(field, rules)


def build_removal(bank: Bank, rules: Rules, *, suits: bool = SUITS) -> Removal:
    """The card-removal arrays of ``rules`` (which must have a plain middle)."""
    if rules.lowball_middle:
        raise ValueError("card removal covers a plain middle only")
    n = len(bank.strengths)
    roy = np.stack([royalty_table(rules, row) for row in ROWS])
    paid = np.stack([roy[r][bank.distinct[r]] for r in range(3)])
    if rules.royalty_mode == "off":
        paid[:] = 0.0
    plain = np.zeros((3, bank.width))
    plain_paid = np.zeros((3, bank.width))
    for r in range(3):
        counts = np.bincount(bank.bucket[r], minlength=bank.width - 1) / n
        money = counts * paid[r]
        plain[r, 1:] = np.cumsum(counts)
        plain_paid[r, :-1] = np.cumsum(money[::-1])[::-1]
    return Removal(
        bank, paid, plain, plain_paid, roy, _royalty_mode(rules), suits, bank_model(bank, rules)
    )


@lru_cache(maxsize=16)
def removal_for(rules: Rules) -> Removal | None:
    """The cached card-removal arrays of a table; ``None`` under a lowball middle."""
    if rules.lowball_middle:
        return None
    return build_removal(load_banks()[rules.scoring], rules)


@numba.njit(cache=True, nogil=True)
def removal_deltas(
    cards: I8,
    codes: U8,
    use_suits: bool,
    bucket: npt.NDArray[np.int16],
    paid: F64,
    plain: F64,
    plain_paid: F64,
    rank_avoid: F64,
    suit_avoid: F64,
    d: F64,
    dr: F64,
) -> None:
    """Fill ``d[r, i]`` = (conditioned − plain) share of row ``r``'s strengths below bucket
    ``i``, and ``dr[r, i]`` = (conditioned − plain) royalties collected by strengths at or above
    bucket ``i``. A strength ``s`` then wins ``d[r, lo_idx[r, s]]`` more often, loses
    ``-d[r, hi_idx[r, s]]`` more often, and pays ``dr[r, hi_idx[r, s]]`` more in royalties."""
    held = np.zeros(13, dtype=np.int64)
    held_suits = np.zeros(4, dtype=np.int64)
    for c in cards:
        held[c >> 2] += 1
        held_suits[c & 3] += 1
    # factor[g, code]: the weight of group g's counts (RANK_GROUPS, then SUIT_GROUPS)
    factor = np.ones((7, 196))
    for g in range(5):
        lo = 3 * g if g < 3 else 9 + 2 * (g - 3)
        size = 3 if g < 3 else 2
        for code in range(5**size):
            f = 1.0
            rest = code
            for t in range(size - 1, -1, -1):
                f *= rank_avoid[held[lo + t], rest % 5]
                rest //= 5
            factor[g, code] = f
    if use_suits:
        for g in range(2):
            for code in range(196):
                factor[5 + g, code] = (
                    suit_avoid[held_suits[2 * g], code // 14]
                    * suit_avoid[held_suits[2 * g + 1], code % 14]
                )
    width = d.shape[1]
    mass = np.zeros((3, width))
    total = 0.0
    # one array per group, read side by side, and no branch: about 2.5x faster than rows
    c0, c1, c2, c3, c4, c5, c6 = (
        codes[0],
        codes[1],
        codes[2],
        codes[3],
        codes[4],
        codes[5],
        codes[6],
    )
    f0, f1, f2, f3, f4, f5, f6 = (
        factor[0],
        factor[1],
        factor[2],
        factor[3],
        factor[4],
        factor[5],
        factor[6],
    )
    b0, b1, b2 = bucket[0], bucket[1], bucket[2]
    for i in range(c0.shape[0]):
        w = f0[c0[i]] * f1[c1[i]] * f2[c2[i]] * f3[c3[i]] * f4[c4[i]] * f5[c5[i]] * f6[c6[i]]
        total += w
        mass[0, b0[i] + 1] += w
        mass[1, b1[i] + 1] += w
        mass[2, b2[i] + 1] += w
    scale = 1.0 / total
    for r in range(3):
        run = 0.0
        for b in range(width):
            run += mass[r, b]
            d[r, b] = run * scale - plain[r, b]
        run = 0.0
        dr[r, width - 1] = 0.0
        for b in range(width - 2, -1, -1):
            run += mass[r, b + 1] * paid[r, b]
            dr[r, b] = run * scale - plain_paid[r, b]


@numba.njit(cache=True, nogil=True)
def search_removal(
    cards: I8,
    sub5: I8,
    sub3: I8,
    splits: Any,
    key5: I32,
    bit: I32,
    rank5: Any,
    flush5: Any,
    key3: I32,
    rank3: Any,
    low5: Any,
    lowflush5: Any,
    table: F64,
    front_key: Any,
    dw3: F64,
    dl3: F64,
    dw2: F64,
    dl2: F64,
    g: int,
    scoop: float,
    overall: float,
    mode: int,
    codes: U8,
    use_suits: bool,
    bucket: npt.NDArray[np.int16],
    paid: F64,
    plain: F64,
    plain_paid: F64,
    rank_avoid: F64,
    suit_avoid: F64,
    lo_idx: I32,
    hi_idx: I32,
    roy: F64,
    roy_mode: int,
    evs: F64,
    picks: I32,
) -> int:
    """The setter's search (``_setter_search.search``) with every row's odds conditioned on
    the hand by card removal (plain middle only)."""
    width = plain.shape[1]
    d = np.empty((3, width))
    dr = np.empty((3, width))
    removal_deltas(
        cards,
        codes,
        use_suits,
        bucket,
        paid,
        plain,
        plain_paid,
        rank_avoid,
        suit_avoid,
        d,
        dr,
    )
    return setter_search._search_impl(
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
        True,
        lo_idx,
        hi_idx,
        d,
        dr,
        roy,
        roy_mode,
        evs,
        picks,
    )


@numba.njit(cache=True, parallel=True)
def search_many_removal(
    hands: I8,
    sub5: I8,
    sub3: I8,
    splits: Any,
    key5: I32,
    bit: I32,
    rank5: Any,
    flush5: Any,
    key3: I32,
    rank3: Any,
    low5: Any,
    lowflush5: Any,
    table: F64,
    front_key: Any,
    dw3: F64,
    dl3: F64,
    dw2: F64,
    dl2: F64,
    g: int,
    scoop: float,
    overall: float,
    mode: int,
    codes: U8,
    use_suits: bool,
    bucket: npt.NDArray[np.int16],
    paid: F64,
    plain: F64,
    plain_paid: F64,
    rank_avoid: F64,
    suit_avoid: F64,
    lo_idx: I32,
    hi_idx: I32,
    roy: F64,
    roy_mode: int,
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
    """:func:`search_removal` and ``decide`` for many hands at once (threads over hands), as
    ``_setter_decide.search_many``."""
    for h in numba.prange(hands.shape[0]):
        evs = np.empty(1, dtype=np.float64)
        picks = np.empty((1, 3), dtype=np.int32)
        search_removal(
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
            codes,
            use_suits,
            bucket,
            paid,
            plain,
            plain_paid,
            rank_avoid,
            suit_avoid,
            lo_idx,
            hi_idx,
            roy,
            roy_mode,
            evs,
            picks,
        )
        picks_out[h, 0] = picks[0, 0]
        picks_out[h, 1] = picks[0, 1]
        picks_out[h, 2] = picks[0, 2]
        evs_out[h] = evs[0]
        action, _ = setter_decide.decide(
            evs[0],
            setter_decide.natural_mask(hands[h]),
            payout,
            p_rows,
            p_surrender,
            p_natural,
            can_surrender,
            cost,
        )
        actions[h] = action


def adjusted_odds(
    removal: Removal, d: F64, dr: F64, lin: F64, win: F64, lose: F64, strengths: tuple[int, ...]
) -> tuple[list[float], list[float], list[float]]:
    """Each row's (linear value, win odds, loss odds) at ``strengths`` (front, middle, back),
    moved by a hand's deltas: what :func:`search_removal` scores them with."""
    b = removal.bank
    values, wins, losses = [], [], []
    for r, s in enumerate(strengths):
        lo, hi = int(b.lo_idx[r, s]), int(b.hi_idx[r, s])
        values.append(
            setter_values._shift(
                float(lin[r, s]), d, dr, r, lo, hi, float(removal.roy[r, s]), removal.roy_mode
            )
        )
        wins.append(min(1.0, max(0.0, float(win[r, s]) + d[r, lo])))
        losses.append(min(1.0, max(0.0, float(lose[r, s]) - d[r, hi])))
    return values, wins, losses
