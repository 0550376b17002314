"""The setter's learned tables: what a field of strong opponents shows in each row.

``scripts/make_setter_tables.py`` learns them by simulation (fictitious play) and writes
``thirteen/data/setter_tables.npz``; :func:`load_tables` reads that file back after checking its
SHA-256 against :data:`thirteen.bots._setter_checksum.TABLES_SHA256`. For each *field* (a scoring
method, with or without a lowball middle) the file holds

* ``<field>.front|middle|back``: how often the field's rows have each strength (the middle's 2-7
  value under a lowball middle), over the hands the field sets (not surrendered or declared);
* ``<field>.dw3|dl3``: on a grid over (front, middle, back) win (resp. loss) odds, how much more
  often than independent rows would give, the field loses (resp. wins) all three rows at once;
* ``<field>.dw2|dl2``: the same for the pairs of rows (front+middle, front+back, middle+back);
* ``<field>.stats``: how often the field surrenders, and declares each natural.

:func:`build_model` turns a field and the table's :class:`Rules` into the arrays the search uses.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from thirteen.bots._setter_checksum import TABLES_SHA256
from thirteen.bots._setter_decide import NATURAL_ORDER
from thirteen.bots._setter_search import MODE_LOWBALL, MODE_PLAIN
from thirteen.engine.evaluate import NUM_LOWBALL_STRENGTHS, NUM_STRENGTHS, middle_floors
from thirteen.engine.royalties import ROWS
from thirteen.engine.rules import Rules

F64 = npt.NDArray[np.float64]
I16 = npt.NDArray[np.int16]

DATA_FILE = "setter_tables.npz"
_FIELD_ARRAYS = ("front", "middle", "back", "dw3", "dl3", "dw2", "dl2")
GRID = 16
"""Cells per axis of the dependence grids (odds 0..1 in steps of 1/GRID)."""


class SetterTablesError(RuntimeError):
    """The setter's table file is missing, damaged or not the one this version ships."""


@dataclass(frozen=True)
class FieldTables:
    """What one field of opponents shows: row strength odds, row dependence, surrenders."""

    key: str
    front: F64
    middle: F64
    back: F64
    dw3: F64
    dl3: F64
    dw2: F64
    dl2: F64
    grid: int
    p_surrender: float
    p_natural: F64
    """Odds of declaring each natural of :data:`NATURAL_ORDER`."""

    @property
    def rows(self) -> tuple[F64, F64, F64]:
        return (self.front, self.middle, self.back)


def field_key(scoring: str, lowball: bool) -> str:
    """The name of a field in the table file: ``'1-6'``, ``'2-4-lowball'``."""
    return f"{scoring}-lowball" if lowball else scoring


def below(p: F64) -> F64:
    """``out[s]`` = P(strength < s) for a distribution ``p`` over strengths."""
    out = np.zeros(len(p), dtype=np.float64)
    np.cumsum(p[:-1], out=out[1:])
    return out


def above(p: F64) -> F64:
    """``out[s]`` = P(strength > s) for a distribution ``p`` over strengths."""
    total = np.cumsum(p[::-1])[::-1]
    out = np.zeros(len(p), dtype=np.float64)
    out[:-1] = total[1:]
    return out


def _orthant_excess(u: F64, weights: F64, grid: int) -> tuple[F64, F64]:
    """Joint CDF excess over independence on a grid, for three columns of odds ``u``.

    ``H[i, j, k]`` is the weighted share of samples with ``u[:, 0] < i/grid``, ``u[:, 1] < j/grid``
    and ``u[:, 2] < k/grid``; the result is ``H`` minus the product of its margins, flattened, and
    the same for the three pairs of columns (front+middle, front+back, middle+back).
    """
    bins = np.minimum((u * grid).astype(np.int64), grid - 1)
    flat = (bins[:, 0] * grid + bins[:, 1]) * grid + bins[:, 2]
    hist = np.bincount(flat, weights=weights, minlength=grid**3).reshape(grid, grid, grid)
    h = np.zeros((grid + 1, grid + 1, grid + 1), dtype=np.float64)
    h[1:, 1:, 1:] = hist.cumsum(0).cumsum(1).cumsum(2) / weights.sum()
    mf, mm, mb = h[:, grid, grid], h[grid, :, grid], h[grid, grid, :]
    d3 = h - mf[:, None, None] * mm[None, :, None] * mb[None, None, :]
    pairs = (
        h[:, :, grid] - mf[:, None] * mm[None, :],
        h[:, grid, :] - mf[:, None] * mb[None, :],
        h[grid, :, :] - mm[:, None] * mb[None, :],
    )
    d2 = np.concatenate([p.ravel() for p in pairs])
    return d3.ravel(), d2


def field_from_samples(
    key: str,
    strengths: npt.NDArray[np.integer[Any]],
    weights: F64,
    *,
    lowball: bool,
    p_surrender: float,
    p_natural: F64,
    grid: int = GRID,
) -> FieldTables:
    """A field from the row strengths of hands it set: ``strengths[i]`` = (front, middle, back).

    ``weights`` weigh the samples (fictitious play weighs later rounds more).
    """
    sizes = (NUM_STRENGTHS, NUM_LOWBALL_STRENGTHS if lowball else NUM_STRENGTHS, NUM_STRENGTHS)
    total = weights.sum()
    dists = []
    wins = np.empty((len(strengths), 3))
    losses = np.empty((len(strengths), 3))
    for r in range(3):
        p = np.bincount(strengths[:, r], weights=weights, minlength=sizes[r]) / total
        p = p.astype(np.float32).astype(np.float64)  # as stored
        dists.append(p)
        wins[:, r] = below(p)[strengths[:, r]]
        losses[:, r] = above(p)[strengths[:, r]]
    dw3, dw2 = _orthant_excess(wins, weights, grid)
    dl3, dl2 = _orthant_excess(losses, weights, grid)
    return FieldTables(
        key,
        dists[0],
        dists[1],
        dists[2],
        dw3,
        dl3,
        dw2,
        dl2,
        grid,
        float(p_surrender),
        np.asarray(p_natural, dtype=np.float64),
    )


def field_arrays(field: FieldTables) -> dict[str, npt.NDArray[Any]]:
    """The arrays one field contributes to the table file."""
    k = field.key
    stats = np.array([field.p_surrender, *field.p_natural], dtype=np.float64)
    out: dict[str, npt.NDArray[Any]] = {
        f"{k}.{name}": getattr(field, name).astype(np.float32) for name in _FIELD_ARRAYS
    }
    out[f"{k}.stats"] = stats
    return out


def npz_bytes(arrays: Mapping[str, npt.NDArray[Any]]) -> bytes:
    """An ``.npz`` archive with fixed timestamps, so the same arrays always give the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(arrays):
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            member = io.BytesIO()
            np.lib.format.write_array(member, np.ascontiguousarray(arrays[name]))
            archive.writestr(info, member.getvalue())
    return buffer.getvalue()


@dataclass(frozen=True)
class Tables:
    """Every field of the table file, plus the random-hand baselines and how they were made."""

    fields: dict[str, FieldTables]
    random_front: F64
    """Odds of each strength for a random 3-card hand (exact)."""
    random_five: F64
    """Odds of each strength for a random 5-card hand (exact)."""
    random_low: F64
    """Odds of each 2-7 value for a random 5-card hand (exact)."""
    meta: dict[str, Any]
    sha256: str


def default_path() -> Path:
    """Where the shipped table file lives."""
    return Path(str(resources.files("thirteen").joinpath("data", DATA_FILE)))


def read_tables(path: Path | None = None, *, sha256: str | None = None) -> Tables:
    """Read and check a table file (default: the shipped one against the shipped checksum).

    Raises :class:`SetterTablesError` when the file is missing, does not match the checksum, or
    is not a table file.
    """
    path = default_path() if path is None else path
    expected = TABLES_SHA256 if sha256 is None else sha256
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SetterTablesError(
            f"The setter's tables are missing ({path}); "
            "make them with scripts/make_setter_tables.py or reinstall Thirteen."
        ) from None
    except OSError as e:
        raise SetterTablesError(f"Cannot read the setter's tables ({path}): {e.strerror}.") from e
    return read_tables_bytes(data, sha256=expected, where=str(path))


def read_tables_bytes(data: bytes, *, sha256: str, where: str = "setter tables") -> Tables:
    """Check and read the bytes of a table file (see :func:`read_tables`)."""
    found = hashlib.sha256(data).hexdigest()
    if found != sha256:
        raise SetterTablesError(
            f"The setter's tables ({where}) do not match their checksum "
            f"(expected sha256 {sha256[:12]}…, found {found[:12]}…): the file is damaged or "
            "was changed; reinstall Thirteen or remake them with scripts/make_setter_tables.py."
        )
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
        meta = json.loads(str(arrays["meta"].reshape(-1)[0]))
        fields = {}
        for key in meta["fields"]:
            stats = arrays[f"{key}.stats"].astype(np.float64)
            row = {name: arrays[f"{key}.{name}"].astype(np.float64) for name in _FIELD_ARRAYS}
            fields[key] = FieldTables(
                key,
                **row,
                grid=int(meta["grid"]),
                p_surrender=float(stats[0]),
                p_natural=stats[1:],
            )
        return Tables(
            fields,
            arrays["random.front"].astype(np.float64),
            arrays["random.five"].astype(np.float64),
            arrays["random.low"].astype(np.float64),
            meta,
            found,
        )
    except (KeyError, ValueError, OSError, zipfile.BadZipFile) as e:
        raise SetterTablesError(f"{where} is not a setter table file ({e}).") from e


@cache
def load_tables() -> Tables:
    """The shipped tables, read and checked once per process."""
    return read_tables()


@dataclass(frozen=True, eq=False)
class Model:
    """Everything the search needs for one table: per-row values by strength and the bonuses.

    ``lin[r, s]`` is row ``r``'s expected row points plus royalties at strength ``s`` against an
    opponent who sets; ``win``/``lose`` are the odds of winning/losing that row.
    """

    lin: F64
    win: F64
    lose: F64
    table: F64
    """``table[s, 3r : 3r + 3]`` = ``lin[r, s], win[r, s], lose[r, s]``; ``table[s, 9]`` and
    ``table[s, 10]`` = the best front and middle value at strength ``s`` or below."""
    front_key: I16
    dw3: F64
    dl3: F64
    dw2: F64
    dl2: F64
    grid: int
    scoop: float
    overall: float
    mode: int
    payout: F64
    """What each natural of :data:`NATURAL_ORDER` pays (-1: not played here)."""
    p_rows: float
    p_surrender: float
    p_natural: F64
    can_surrender: bool
    surrender_cost: float
    foul_cost: float
    opp_royalties: float
    """Royalties an opponent who sets shows on average (what a fouled hand pays on top)."""
    opp_naturals: float
    """What opponents' naturals cost per opponent, whatever this hand does."""

    @property
    def value_args(self) -> tuple[Any, ...]:
        """What ``rows_value(s)`` takes after the strengths, in its order."""
        return (
            self.table,
            self.dw3,
            self.dl3,
            self.dw2,
            self.dl2,
            self.grid,
            self.scoop,
            self.overall,
        )

    @property
    def search_args(self) -> tuple[Any, ...]:
        """What ``search(_many)`` takes after the fixed tables, up to the bonuses' mode."""
        return (
            self.table,
            self.front_key,
            self.dw3,
            self.dl3,
            self.dw2,
            self.dl2,
            self.grid,
            self.scoop,
            self.overall,
            self.mode,
        )

    @property
    def decide_args(self) -> tuple[Any, ...]:
        """What ``decide`` takes after the hand's naturals, in its order."""
        return (
            self.payout,
            self.p_rows,
            self.p_surrender,
            self.p_natural,
            self.can_surrender,
            self.surrender_cost,
        )


@cache
def _front_keys(strict: bool) -> I16:
    """The weakest middle each front strength allows, as the kernels take it."""
    keys = middle_floors(strict).astype(np.int16)
    keys.setflags(write=False)
    return keys


def royalty_table(rules: Rules, row: str) -> F64:
    """Royalty units ``row`` earns at each strength, as the showdown pays them (none when
    royalties are off, none in a lowball middle)."""
    if rules.royalty_mode == "off" or (row == "middle" and rules.lowball_middle):
        return np.zeros(NUM_STRENGTHS)
    return np.array(rules.royalties.array(row), dtype=np.float64)  # type: ignore[arg-type]


def _pad(values: F64) -> F64:
    out = np.zeros(NUM_STRENGTHS, dtype=np.float64)
    out[: len(values)] = values
    return out


def build_model(field: FieldTables, rules: Rules, *, bonuses: bool = True) -> Model:
    """The search arrays for ``rules`` against ``field``.

    With ``bonuses=False`` the scoop and overall bonuses are left out (a simpler model).
    """
    lin = np.zeros((3, NUM_STRENGTHS))
    shown = 0.0
    win = np.zeros((3, NUM_STRENGTHS))
    lose = np.zeros((3, NUM_STRENGTHS))
    for r, (row, p) in enumerate(zip(ROWS, field.rows, strict=True)):
        w, lo = below(p), above(p)
        roy = royalty_table(rules, row)[: len(p)]
        value = w - lo
        if rules.royalty_mode == "winner":
            paid = above(p * roy)  # what an opponent's winning row of each strength collects
            value += w * roy - paid
        elif rules.royalty_mode == "always":
            value += roy - float(np.dot(p, roy))
        lin[r], win[r], lose[r] = _pad(value), _pad(w), _pad(lo)
        shown += float(np.dot(p, roy))
    by_name = dict(rules.natural_payouts)
    payout = np.array([float(by_name.get(n, -1)) for n in NATURAL_ORDER])
    p_natural = np.where(payout >= 0, field.p_natural, 0.0)
    p_surrender = field.p_surrender if rules.surrender else 0.0
    table = np.zeros((NUM_STRENGTHS, 12))
    table[:, :9] = np.stack([lin, win, lose], axis=1).reshape(9, -1).T
    # Best front and middle values up to each strength (bounds for skipping weak backs).
    table[:, 9] = np.maximum.accumulate(lin[0])
    table[:, 10] = np.maximum.accumulate(lin[1])
    return Model(
        lin,
        win,
        lose,
        table,
        _front_keys(rules.front_below_middle),
        field.dw3,
        field.dl3,
        field.dw2,
        field.dl2,
        field.grid,
        float(rules.scoop_bonus) if bonuses else 0.0,
        float(rules.overall_bonus) if bonuses else 0.0,
        MODE_LOWBALL if rules.lowball_middle else MODE_PLAIN,
        payout,
        1.0 - p_surrender - float(p_natural.sum()),
        p_surrender,
        p_natural,
        rules.surrender,
        float(rules.surrender_cost),
        float(rules.foul_cost),
        shown,
        float(np.dot(p_natural, np.maximum(payout, 0.0))),
    )


def independent_field(key: str, front: F64, middle: F64, back: F64, grid: int) -> FieldTables:
    """A 'field' whose rows are independent hands with these strength distributions: no joint
    odds, no surrender, no naturals."""
    zeros3 = np.zeros((grid + 1) ** 3)
    zeros2 = np.zeros(3 * (grid + 1) ** 2)
    zeros = np.zeros(len(NATURAL_ORDER))
    return FieldTables(key, front, middle, back, zeros3, zeros3, zeros2, zeros2, grid, 0.0, zeros)


def random_field(tables: Tables, lowball: bool) -> FieldTables:
    """A 'field' of random 3- and 5-card hands with independent rows (the simple heuristic)."""
    middle = tables.random_low if lowball else tables.random_five
    grid = tables.fields[next(iter(tables.fields))].grid
    return independent_field("random", tables.random_front, middle, tables.random_five, grid)


@lru_cache(maxsize=64)
def model_for(rules: Rules, kind: str = "field") -> Model:
    """The cached search model of a table: ``kind`` 'field' (learned) or 'random' (heuristic)."""
    tables = load_tables()
    if kind == "random":
        return build_model(random_field(tables, rules.lowball_middle), rules, bonuses=False)
    return build_model(tables.fields[field_key(rules.scoring, rules.lowball_middle)], rules)
