"""Make the Chinese Poker setter's tables by simulation (fictitious play); see docs/setter.md.

    .venv/bin/python scripts/make_setter_tables.py           # the shipped tables (a few minutes)
    .venv/bin/python scripts/make_setter_tables.py --check   # ... and measure them afterwards
    .venv/bin/python scripts/make_setter_tables.py --scale 0.02 --out /tmp/t.npz   # a quick try

For every field (scoring method 1-6, 2-4, 1-4, 1-3; with and without a lowball middle) it deals
random hands and sets them with the current setter, records the strength of each row the field
shows, and recomputes the win/tie odds of every row strength against that field; each round's
setter plays against the tables of the round before. Round 0 starts from a simple setter that
only counts how many random hands each row beats. Later rounds weigh more (round r weighs twice
round r - 1), so the field is an average of the setters' answers that forgets the early ones.

Everything is seeded: the same options always write byte-identical files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from thirteen.bots import _setter_decide as setter_decide
from thirteen.bots import _setter_search as setter_search
from thirteen.bots import _setter_values as setter_values
from thirteen.bots._setter_tables import (
    GRID,
    FieldTables,
    Model,
    build_model,
    field_arrays,
    field_from_samples,
    field_key,
    independent_field,
    npz_bytes,
    read_tables,
    royalty_table,
)
from thirteen.engine.evaluate import (
    NUM_LOWBALL_STRENGTHS,
    NUM_STRENGTHS,
    evaluate_batch,
    lowball_batch,
)
from thirteen.engine.royalties import ROWS
from thirteen.engine.rules import get_rules

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "src" / "thirteen" / "data" / "setter_tables.npz"
CHECKSUM_MODULE = ROOT / "src" / "thirteen" / "bots" / "_setter_checksum.py"
SCORINGS = ("1-6", "2-4", "1-4", "1-3")
ROUNDS = (30_000, 20_000, 20_000, 25_000, 30_000, 40_000, 60_000, 80_000)
"""Hands dealt in each round: round 0 (the simple setter), then the fictitious-play rounds."""
EXTRA_ROUNDS = {"2-4": (100_000, 120_000)}
"""More rounds for 2-4, whose field settled slowest when its surrender cost 2 (docs/setter.md)."""
FIELD_GROWTH = {"2-4": 1.5}
"""Heavier averaging where best responses overshot (2-4 at surrender cost 2, growth 2 or 3)."""
GROWTH = 2.0
"""Round r >= 1 weighs GROWTH ** (r - 1) in the field (1.0 would be plain fictitious play)."""
PROBE_HANDS = 2_000
CHUNK = 2_000

I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]


@numba.njit(cache=True)
def _all_combinations(n: int, size: int) -> I8:  # pragma: no cover - compiled
    count = 1
    for i in range(size):
        count = count * (n - i) // (i + 1)
    out = np.empty((count, size), dtype=np.int8)
    idx = np.arange(size)
    for row in range(count):
        for j in range(size):
            out[row, j] = idx[j]
        j = size - 1
        while j >= 0 and idx[j] == n - size + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for t in range(j + 1, size):
            idx[t] = idx[t - 1] + 1
    return out


def random_distributions() -> tuple[F64, F64, F64]:
    """Exact odds of each strength for a random 3-card hand, 5-card hand, and 2-7 low."""
    threes = _all_combinations(52, 3)
    fives = _all_combinations(52, 5)
    front = np.bincount(evaluate_batch(threes), minlength=NUM_STRENGTHS) / len(threes)
    five = np.bincount(evaluate_batch(fives), minlength=NUM_STRENGTHS) / len(fives)
    low = np.bincount(lowball_batch(fives), minlength=NUM_LOWBALL_STRENGTHS) / len(fives)
    return front, five, low


def deal(rng: np.random.Generator, n: int) -> I8:
    """``n`` random 13-card hands (four from each shuffled deck)."""
    decks = (n + 3) // 4
    order = np.argsort(rng.random((decks, 52)), axis=1).astype(np.int8)
    return np.ascontiguousarray(order.reshape(decks * 4, 13)[:n])


@dataclass
class Played:
    picks: I32
    actions: I32
    evs: F64


def play(hands: I8, m: Model, advance: Any = None) -> Played:
    """Set every hand with the search of model ``m`` (and decide naturals and surrenders)."""
    n = len(hands)
    out = Played(np.empty((n, 3), np.int32), np.empty(n, np.int32), np.empty(n, np.float64))
    for start in range(0, n, CHUNK):
        part = slice(start, min(n, start + CHUNK))
        setter_decide.search_many(
            hands[part],
            *setter_search.SEARCH_TABLES,
            *m.search_args,
            *m.decide_args,
            out.picks[part],
            out.actions[part],
            out.evs[part],
        )
        if advance is not None:
            advance(part.stop - part.start)
    return out


def rows_values(strengths: I32, m: Model) -> F64:
    """The model's value of settings with these row strengths (against an opponent who sets)."""
    return setter_values.rows_values(strengths, *m.value_args)


def strengths_of(hands: I8, picks: I32, lowball: bool) -> I32:
    """(front, middle, back) strengths of the chosen settings; the middle's 2-7 value if lowball."""
    rows = np.arange(len(hands))[:, None]
    front = hands[rows, setter_search.SUB3[picks[:, 0]]]
    middle = hands[rows, setter_search.SUB5[picks[:, 1]]]
    back = hands[rows, setter_search.SUB5[picks[:, 2]]]
    out = np.empty((len(hands), 3), dtype=np.int32)
    out[:, 0] = evaluate_batch(front)
    out[:, 1] = lowball_batch(middle) if lowball else evaluate_batch(middle)
    out[:, 2] = evaluate_batch(back)
    return out


@dataclass
class Round:
    hands: int
    set: int
    surrendered: int
    naturals: list[int]
    changed: float | None
    regret: float | None
    mean_ev: float
    seconds: float


@dataclass
class FieldRun:
    key: str
    tables: FieldTables
    rounds: list[Round] = field(default_factory=list)


def random_field(key: str, lowball: bool, randoms: tuple[F64, F64, F64], grid: int) -> FieldTables:
    front, five, low = randoms
    return independent_field(key, front, low if lowball else five, five, grid)


def make_field(
    scoring: str,
    lowball: bool,
    rounds: tuple[int, ...],
    seed: int,
    randoms: tuple[F64, F64, F64],
    progress: Progress,
    growth: float = GROWTH,
    scale: float = 1.0,
) -> FieldRun:
    """Fictitious play for one field; returns its final tables and what each round did."""
    key = field_key(scoring, lowball)
    rules = get_rules(f"chinese-{scoring}", {"lowball_middle": lowball} if lowball else None)
    rng = np.random.default_rng([seed, SCORINGS.index(scoring), int(lowball)])
    probe = deal(rng, max(200, int(PROBE_HANDS * scale)))
    current = build_model(random_field(key, lowball, randoms, GRID), rules, bonuses=False)
    previous_probe: I32 | None = None
    samples: list[tuple[I32, F64]] = []
    surrender_share = 0.0
    natural_share = np.zeros(5)
    weight_total = 0.0
    run = FieldRun(key, random_field(key, lowball, randoms, GRID))
    for number, n in enumerate(rounds):
        task = progress.add_task(f"{key:11} round {number}", total=n)
        start = time.perf_counter()
        hands = deal(rng, n)
        played = play(hands, current, lambda d, t=task: progress.advance(t, d))
        probe_play = play(probe, current)
        changed = regret = None
        if previous_probe is not None:
            changed = float(np.mean(np.any(probe_play.picks != previous_probe, axis=1)))
            # What the previous round's settings give up against this round's field.
            before = rows_values(strengths_of(probe, previous_probe, lowball), current)
            regret = float(np.mean(probe_play.evs - before))
        previous_probe = probe_play.picks
        set_mask = played.actions == -1
        strengths = strengths_of(hands[set_mask], played.picks[set_mask], lowball)
        surrendered = int(np.sum(played.actions == -2))
        naturals = [int(np.sum(played.actions == i)) for i in range(5)]
        # Round 0's simple setter only starts the play; the field is a weighted average of the
        # later rounds' answers, recent ones weighing more.
        weight = growth ** (number - 1) if number else 1.0
        if number == 1:
            samples, surrender_share, natural_share, weight_total = [], 0.0, np.zeros(5), 0.0
        samples.append((strengths, np.full(len(strengths), weight / max(1, len(strengths)))))
        surrender_share += weight * surrendered / n
        natural_share = natural_share + weight * np.array(naturals) / n
        weight_total += weight
        rows = np.concatenate([s for s, _ in samples])
        weights = np.concatenate([w for _, w in samples])
        run.tables = field_from_samples(
            key,
            rows,
            weights,
            lowball=lowball,
            p_surrender=surrender_share / weight_total,
            p_natural=natural_share / weight_total,
        )
        current = build_model(run.tables, rules)
        run.rounds.append(
            Round(
                n,
                int(set_mask.sum()),
                surrendered,
                naturals,
                changed,
                regret,
                float(played.evs[set_mask].mean()),
                time.perf_counter() - start,
            )
        )
    return run


# ------------------------------------------------------------------------------------ checks
@numba.njit(cache=True)
def _pair_score(  # pragma: no cover - compiled
    act_a: int,
    rows_a: I32,
    act_b: int,
    rows_b: I32,
    roy: F64,
    payout: F64,
    cost: float,
    scoop: float,
    overall: float,
) -> float:
    """What player a wins from player b (RULES §2): naturals, surrenders, then rows."""
    if act_a >= 0 or act_b >= 0:
        pa = payout[act_a] if act_a >= 0 else 0.0
        pb = payout[act_b] if act_b >= 0 else 0.0
        return pa if pa > pb else (-pb if pb > pa else 0.0)
    if act_a == -2 or act_b == -2:
        if act_a == -2 and act_b != -2:
            return -cost
        if act_b == -2 and act_a != -2:
            return cost
        return 0.0
    won = 0
    lost = 0
    total = 0.0
    for r in range(3):
        if rows_a[r] > rows_b[r]:
            won += 1
            total += 1.0 + roy[r, rows_a[r]]
        elif rows_a[r] < rows_b[r]:
            lost += 1
            total -= 1.0 + roy[r, rows_b[r]]
    if won == 3:
        total += scoop
    if lost == 3:
        total -= scoop
    if won >= 2:
        total += overall
    if lost >= 2:
        total -= overall
    return total


@numba.njit(cache=True, parallel=True)
def _duel(  # pragma: no cover - compiled
    act_a: I32,
    rows_a: I32,
    act_b: I32,
    rows_b: I32,
    roy: F64,
    payout: F64,
    cost: float,
    scoop: float,
    overall: float,
) -> F64:
    out = np.empty(len(act_a))
    for i in numba.prange(len(act_a)):
        out[i] = _pair_score(
            act_a[i], rows_a[i], act_b[i], rows_b[i], roy, payout, cost, scoop, overall
        )
    return out


@numba.njit(cache=True, parallel=True)
def _against_field(  # pragma: no cover - compiled
    ours: I32, field: I32, roy: F64, scoop: float, overall: float
) -> F64:
    """Per setting: exact odds of scooping, being scooped, winning 2+, losing 2+, and the mean
    score (rows, bonuses, royalties) against every setting of a field sample."""
    out = np.zeros((len(ours), 5))
    acts = np.full(1, -1, dtype=np.int32)
    none = np.zeros(5)
    for i in numba.prange(len(ours)):
        a = ours[i]
        s3 = 0.0
        l3 = 0.0
        w2 = 0.0
        l2 = 0.0
        total = 0.0
        for j in range(len(field)):
            b = field[j]
            won = (a[0] > b[0]) + (a[1] > b[1]) + (a[2] > b[2])
            lost = (a[0] < b[0]) + (a[1] < b[1]) + (a[2] < b[2])
            s3 += won == 3
            l3 += lost == 3
            w2 += won >= 2
            l2 += lost >= 2
            total += _pair_score(acts[0], a, acts[0], b, roy, none, 0.0, scoop, overall)
        n = len(field)
        out[i, 0] = s3 / n
        out[i, 1] = l3 / n
        out[i, 2] = w2 / n
        out[i, 3] = l2 / n
        out[i, 4] = total / n
    return out


def royalty_rows(rules: Any) -> F64:
    """Royalty units by row and strength as the showdown pays them (none in a lowball middle)."""
    return np.stack([royalty_table(rules, row) for row in ROWS])


def _cross_check(rules: Any, hands: I8, played: Played, lowball: bool, roy: F64, m: Model) -> None:
    """The fast duel scorer must agree with the engine's showdown scoring."""
    from thirteen.engine.scoring import DeclaredNatural, SetHand, Showing, Surrender, score

    rows = strengths_of(hands, played.picks, lowball)
    for i in range(0, min(len(hands), 600) - 1, 2):
        shown: list[Showing] = []
        for j in (i, i + 1):
            cards = [int(c) for c in hands[j]]
            act = int(played.actions[j])
            if act >= 0:
                shown.append(DeclaredNatural(setter_decide.NATURAL_ORDER[act], tuple(cards)))
            elif act == -2:
                shown.append(Surrender(tuple(cards)))
            else:
                pick = played.picks[j]
                shown.append(
                    SetHand.of(
                        [int(c) for c in hands[j][setter_search.SUB3[pick[0]]]],
                        [int(c) for c in hands[j][setter_search.SUB5[pick[1]]]],
                        [int(c) for c in hands[j][setter_search.SUB5[pick[2]]]],
                    )
                )
        engine = score(rules, shown).matrix[0][1]
        fast = _pair_score(
            int(played.actions[i]),
            rows[i],
            int(played.actions[i + 1]),
            rows[i + 1],
            roy,
            m.payout,
            m.surrender_cost,
            m.scoop,
            m.overall,
        )
        if abs(engine - fast) > 1e-9:
            raise AssertionError(f"duel scorer disagrees with the engine: {engine} vs {fast}")


def _modelling(exact: F64, product: F64, modelled: F64) -> dict[str, float]:
    """How the independent-rows product and the dependence model track exact odds."""
    return {
        "mean exact": float(exact.mean()),
        "mean product": float(product.mean()),
        "mean modelled": float(modelled.mean()),
        "mae product": float(np.abs(product - exact).mean()),
        "mae modelled": float(np.abs(modelled - exact).mean()),
    }


def check(
    scoring: str, lowball: bool, field: FieldTables, seed: int, scale: float, console: Console
) -> dict[str, Any]:
    """Measure a field's tables: scoop modelling, EV calibration, and the best-response gap."""
    rules = get_rules(f"chinese-{scoring}", {"lowball_middle": lowball} if lowball else None)
    rng = np.random.default_rng([seed, 99, SCORINGS.index(scoring), int(lowball)])
    m = build_model(field, rules)
    roy = royalty_rows(rules)
    report: dict[str, Any] = {}
    # 1. The field our setter makes, and the best response to exactly that field.
    own_hands = deal(rng, max(2_000, int(200_000 * scale)))
    own = play(own_hands, m)
    set_mask = own.actions == -1
    own_rows = strengths_of(own_hands[set_mask], own.picks[set_mask], lowball)
    own_field = field_from_samples(
        field.key,
        own_rows,
        np.ones(len(own_rows)),
        lowball=lowball,
        p_surrender=float(np.mean(own.actions == -2)),
        p_natural=np.array([np.mean(own.actions == i) for i in range(5)]),
    )
    br = build_model(own_field, rules)
    # 2. Scoop modelling and EV calibration against that field (exact frequencies over it).
    sample = own_rows[: max(500, int(2_000 * min(1.0, scale * 10)))]
    opponents = own_rows[-max(2_000, int(60_000 * scale)) :]
    exact = _against_field(sample, opponents, roy, m.scoop, m.overall)
    w = np.stack([m.win[r, sample[:, r]] for r in range(3)], axis=1)
    lo = np.stack([m.lose[r, sample[:, r]] for r in range(3)], axis=1)
    product_scoop = w.prod(axis=1)
    product_scooped = lo.prod(axis=1)
    copula_scoop = np.array([setter_values._all_three(m.dw3, m.grid, *x) for x in w])
    copula_scooped = np.array([setter_values._all_three(m.dl3, m.grid, *x) for x in lo])
    predicted = rows_values(sample, m)
    report["scoop"] = {
        "settings": len(sample),
        "opponents": len(opponents),
        **_modelling(exact[:, 0], product_scoop, copula_scoop),
    }
    report["scooped"] = _modelling(exact[:, 1], product_scooped, copula_scooped)
    report["ev"] = {
        "mean exact": float(exact[:, 4].mean()),
        "mean modelled": float(predicted.mean()),
        "mae": float(np.abs(predicted - exact[:, 4]).mean()),
        "max error": float(np.abs(predicted - exact[:, 4]).max()),
    }
    # Spearman-like correlation of the field's rows (ranks as win odds).
    u = np.stack([m.win[r, opponents[:, r]] for r in range(3)], axis=1)
    corr = np.corrcoef(u.T)
    report["row correlation"] = {
        "front-middle": float(corr[0, 1]),
        "front-back": float(corr[0, 2]),
        "middle-back": float(corr[1, 2]),
    }
    # 3. Best-response gap: the best response to our setter's own field, in duplicate against
    # it (same hands, only the first player's setting changes).
    n = max(2_000, int(400_000 * scale))
    dealt = deal(rng, 2 * n)  # hands 2i and 2i+1 come from one deck
    a_hands = np.ascontiguousarray(dealt[0::2])
    b_hands = np.ascontiguousarray(dealt[1::2])
    ours_a = play(a_hands, m)
    br_a = play(a_hands, br)
    ours_b = play(b_hands, m)
    _cross_check(rules, a_hands, ours_a, lowball, roy, m)
    rows_ours_a = strengths_of(a_hands, ours_a.picks, lowball)
    rows_br_a = strengths_of(a_hands, br_a.picks, lowball)
    rows_b = strengths_of(b_hands, ours_b.picks, lowball)
    args = (roy, m.payout, m.surrender_cost, m.scoop, m.overall)
    base = _duel(ours_a.actions, rows_ours_a, ours_b.actions, rows_b, *args)
    best = _duel(br_a.actions, rows_br_a, ours_b.actions, rows_b, *args)
    gain = best - base
    report["best response"] = {
        "hands": n,
        "gain per hand": float(gain.mean()),
        "95% half-width": float(1.96 * gain.std(ddof=1) / np.sqrt(n)),
        "settings changed": float(np.mean(np.any(br_a.picks != ours_a.picks, axis=1))),
        "self-play mean (should be ~0)": float(base.mean()),
    }
    console.print(f"[bold]{field.key}[/]: {json.dumps(report, indent=1)}")
    return report


def write_checksum(digest: str) -> None:
    text = CHECKSUM_MODULE.read_text(encoding="utf-8")
    text = re.sub(r'TABLES_SHA256 = "[0-9a-f]*"', f'TABLES_SHA256 = "{digest}"', text)
    CHECKSUM_MODULE.write_text(text, encoding="utf-8")


def build(
    seed: int,
    scale: float,
    fields: list[tuple[str, bool]],
    console: Console,
    *,
    rounds: tuple[int, ...] = ROUNDS,
    growth: float | None = None,
    extra: dict[str, tuple[int, ...]] | None = None,
) -> tuple[bytes, dict[str, Any]]:
    """Run the simulation; return the table file's bytes and its metadata.

    ``growth`` and ``extra`` override :data:`FIELD_GROWTH`/:data:`GROWTH` and
    :data:`EXTRA_ROUNDS` for every field.
    """
    more = EXTRA_ROUNDS if extra is None else extra
    schedule = {
        field_key(s, low): tuple(
            max(100, int(n * scale)) for n in rounds + more.get(field_key(s, low), ())
        )
        for s, low in fields
    }
    growths = {
        field_key(s, low): FIELD_GROWTH.get(field_key(s, low), GROWTH) if growth is None else growth
        for s, low in fields
    }
    start = time.perf_counter()
    randoms = random_distributions()
    runs: list[FieldRun] = []
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        for scoring, lowball in fields:
            runs.append(
                make_field(
                    scoring,
                    lowball,
                    schedule[field_key(scoring, lowball)],
                    seed,
                    randoms,
                    progress,
                    growths[field_key(scoring, lowball)],
                    scale,
                )
            )
    meta: dict[str, Any] = {
        "version": 1,
        "seed": seed,
        "scale": scale,
        "rounds": {key: list(r) for key, r in schedule.items()},
        "growth": growths,
        "grid": GRID,
        "fields": [r.key for r in runs],
        "history": {
            r.key: [
                {
                    "hands": x.hands,
                    "set": x.set,
                    "surrendered": x.surrendered,
                    "naturals": x.naturals,
                    "changed": x.changed,
                    "regret": None if x.regret is None else round(x.regret, 5),
                    "mean_ev": round(x.mean_ev, 5),
                }
                for x in r.rounds
            ]
            for r in runs
        },
    }
    arrays: dict[str, npt.NDArray[Any]] = {
        "random.front": randoms[0],
        "random.five": randoms[1],
        "random.low": randoms[2],
        "meta": np.array(json.dumps(meta, sort_keys=True)),
    }
    for r in runs:
        arrays.update(field_arrays(r.tables))
    console.print(f"simulated in {time.perf_counter() - start:.0f} s")
    return npz_bytes(arrays), meta


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--scale", type=float, default=1.0, help="Multiply every round's hands.")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--rounds", default=",".join(map(str, ROUNDS)), help="Hands dealt in each round."
    )
    parser.add_argument(
        "--growth", type=float, help=f"Weight growth per round (default {GROWTH}; 2-4: 1.5)."
    )
    parser.add_argument("--fields", default="all", help="e.g. 1-6,2-4-lowball (default: all).")
    parser.add_argument(
        "--check", action="store_true", help="Measure the tables after making them."
    )
    parser.add_argument(
        "--check-only", action="store_true", help="Measure the tables in --out; make nothing."
    )
    parser.add_argument("--report", type=Path, help="Write the measurements here (JSON).")
    args = parser.parse_args(argv)
    numba.set_num_threads(min(args.threads, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
    every = [(s, low) for low in (False, True) for s in SCORINGS]
    if args.fields != "all":
        wanted = set(args.fields.split(","))
        every = [(s, low) for s, low in every if field_key(s, low) in wanted]
    console = Console(stderr=True)
    if args.check_only:
        shipped = args.out.resolve() == DEFAULT_OUT.resolve()
        digest = hashlib.sha256(args.out.read_bytes()).hexdigest()
        tables = read_tables(args.out, sha256=None if shipped else digest)
        meta = tables.meta
    else:
        rounds = tuple(int(n) for n in args.rounds.split(","))
        data, meta = build(args.seed, args.scale, every, console, rounds=rounds, growth=args.growth)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_bytes(data)
        digest = hashlib.sha256(data).hexdigest()
        console.print(f"wrote {args.out} ({len(data):,} bytes), sha256 {digest}")
        if args.out.resolve() == DEFAULT_OUT.resolve():
            write_checksum(digest)
            console.print(f"updated {CHECKSUM_MODULE.relative_to(ROOT)}")
        for key, history in meta["history"].items():
            for number, x in enumerate(history):
                console.print(f"{key:11} round {number}: {x}")
    if args.check or args.check_only:
        if not args.check_only:
            tables = read_tables(args.out, sha256=digest)
        checks = {}
        for scoring, lowball in every:
            key = field_key(scoring, lowball)
            checks[key] = check(
                scoring, lowball, tables.fields[key], args.seed, args.scale, console
            )
        if args.report:
            args.report.write_text(json.dumps({"meta": meta, "checks": checks}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
