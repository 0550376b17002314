"""Calibration of the setter's row odds: predicted against measured, with and without card
removal (docs/setter.md, "Calibration"). Writes ``docs/setter_calibration.png`` and prints the
tables of docs/setter.md as Markdown.

    nice .venv/bin/python scripts/setter_calibration.py --hands 1000000

Needs matplotlib (``pip install matplotlib``), for the plot only.

Each deal is two hands from one shuffled deck: yours, set by the setter with card removal, and an
opponent's from the 39 other cards, set by today's setter (the field the tables model). Deals
where either hand declares a natural or surrenders are left out, as the tables leave them out.
For each of your rows the script records the predicted chance of winning it — the tables'
(full deck), the setter's own field's (the bank's, full deck) and the card-removal one
(conditioned on your 13 cards) — and whether it won. It
reports, per row and per class of row (its category) and per shape of hand (how the 13 cards
pair up), the mean predicted and measured win rates, and draws the calibration curves (measured
against predicted, in bins of predicted odds) for both predictions.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from make_setter_tables import deal, play, strengths_of  # noqa: E402

from thirteen.bots._setter_removal import Removal, removal_deltas, removal_for  # noqa: E402
from thirteen.bots._setter_tables import model_for  # noqa: E402
from thirteen.engine.evaluate import CATEGORY_NAMES, category  # noqa: E402
from thirteen.engine.rules import get_rules  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from setter_removal_duel import play_removal  # noqa: E402

F64 = npt.NDArray[np.float64]
I32 = npt.NDArray[np.int32]
ROW_NAMES = ("front", "middle", "back")
PREDICTIONS = {
    "tables": "tables (full deck)",
    "field": "setter's field (full deck)",
    "removal": "card removal",
}
"""The predicted win odds compared: the shipped tables' (today's setter), the plain bank's
(the field as the setter plays it, unconditioned), and the card-removal setter's (the bank
weighed by your cards)."""
COLORS = {"tables": "#d62728", "field": "#ff7f0e", "removal": "#1f77b4"}
CHUNK = 50_000
PLOT = ROOT / "docs" / "setter_calibration.png"


@numba.njit(cache=True, parallel=True)
def _adjusted_wins(  # pragma: no cover - compiled
    hands: Any,
    rows: I32,
    win: F64,
    codes: Any,
    use_suits: bool,
    bucket: Any,
    paid: F64,
    plain: F64,
    plain_paid: F64,
    rank_avoid: F64,
    suit_avoid: F64,
    lo_idx: I32,
    out: F64,
) -> None:
    """``out[i, r]``: the card-removal win odds of hand ``i``'s row ``r`` at strength
    ``rows[i, r]`` (the plain bank's odds ``win`` plus the hand's delta, clamped), as the
    setter's search scores it."""
    width = plain.shape[1]
    for i in numba.prange(hands.shape[0]):
        d = np.empty((3, width))
        dr = np.empty((3, width))
        removal_deltas(
            hands[i],
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
        for r in range(3):
            s = rows[i, r]
            out[i, r] = min(1.0, max(0.0, win[r, s] + d[r, lo_idx[r, s]]))


def adjusted_wins(hands: Any, rows: I32, removal: Removal) -> F64:
    out = np.empty((len(hands), 3))
    args = removal.search_args
    _adjusted_wins(hands, rows, removal.model.win, *args[:8], args[8], out)
    return out


def shape(hand: Any) -> str:
    """How 13 cards pair up: ``'trips+pair'``, ``'2 pairs'``, ``'no pair'``…"""
    counts = Counter(Counter(int(c) >> 2 for c in hand).values())
    parts = []
    for size, name in ((4, "quads"), (3, "trips"), (2, "pair")):
        n = counts.get(size, 0)
        if n == 1:
            parts.append(name)
        elif n > 1:
            parts.append(f"{n} {name if name != 'quads' else 'quads'}" + ("s" if size == 2 else ""))
    return "+".join(parts) or "no pair"


def simulate(n: int, seed: int) -> dict[str, Any]:
    rules = get_rules("chinese-1-6")
    m = model_for(rules)
    removal = removal_for(rules)
    assert removal is not None
    rng = np.random.default_rng([seed, 2027])
    names = ("rows", "opp", *PREDICTIONS, "shape")
    keep: dict[str, list[Any]] = {key: [] for key in names}
    done = 0
    start = time.perf_counter()
    while done < n:
        size = min(CHUNK, n - done)
        dealt = deal(rng, 2 * size)
        mine = np.ascontiguousarray(dealt[0::2])
        theirs = np.ascontiguousarray(dealt[1::2])
        me = play_removal(mine, removal)
        them = play(theirs, m)
        ok = (me.actions == -1) & (them.actions == -1)
        rows = strengths_of(mine[ok], me.picks[ok], False)
        opp = strengths_of(theirs[ok], them.picks[ok], False)
        keep["rows"].append(rows)
        keep["opp"].append(opp)
        keep["tables"].append(np.stack([m.win[r, rows[:, r]] for r in range(3)], axis=1))
        field = removal.model.win
        keep["field"].append(np.stack([field[r, rows[:, r]] for r in range(3)], axis=1))
        keep["removal"].append(adjusted_wins(mine[ok], rows, removal))
        keep["shape"].append(np.array([shape(h) for h in mine[ok]]))
        done += size
        print(f"{done:,} deals, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    out = {key: np.concatenate(v) for key, v in keep.items()}
    out["won"] = (out["rows"] > out["opp"]).astype(np.float64)
    out["deals"] = n
    np.savez_compressed(
        "/tmp/calibration_data.npz", **{k: v for k, v in out.items() if k != "deals"}
    )
    return out


def _line(label: str, mask: Any, data: dict[str, Any], r: int) -> str:
    won = data["won"][mask, r]
    count = int(mask.sum())
    err = 1.96 * won.std() / np.sqrt(max(1, count))
    cells = [f"{label} | {count:,} | {won.mean():.4f} ± {err:.4f}"]
    for key in PREDICTIONS:
        predicted = data[key][mask, r].mean()
        cells.append(f"{predicted:.4f} ({predicted - won.mean():+.4f})")
    return "| " + " | ".join(cells) + " |"


def tables(data: dict[str, Any], min_count: int) -> str:
    head = (
        "| class | rows | measured win rate (95%) | "
        + " | ".join(f"{name} (error)" for name in PREDICTIONS.values())
        + " |\n|---|---|---|---|---|---|"
    )
    lines = ["**Per row**", "", head]
    everything = np.ones(len(data["won"]), dtype=bool)
    for r, name in enumerate(ROW_NAMES):
        lines.append(_line(name, everything, data, r))
    cats = np.vectorize(lambda s: int(category(int(s))))(data["rows"])
    for r, name in enumerate(ROW_NAMES):
        lines += ["", f"**{name.capitalize()}, by what the row holds**", "", head]
        for c, cname in enumerate(CATEGORY_NAMES):
            mask = cats[:, r] == c
            if mask.sum() >= min_count:
                lines.append(_line(cname, mask, data, r))
    shapes = Counter(data["shape"].tolist())
    lines += ["", "**By the shape of the hand** (front / middle / back)", ""]
    lines.append(head.replace("| class | rows |", "| shape, row | hands |"))
    for name, count in shapes.most_common():
        if count < min_count:
            continue
        mask = data["shape"] == name
        for r, row in enumerate(ROW_NAMES):
            lines.append(_line(f"{name}, {row}", mask, data, r))
    return "\n".join(lines)


def summary(data: dict[str, Any]) -> str:
    """Mean absolute calibration error over bins of predicted odds (20 bins, per row)."""
    out = []
    for r, name in enumerate(ROW_NAMES):
        parts = []
        for key in PREDICTIONS:
            p = data[key][:, r]
            bins = np.minimum((p * 20).astype(int), 19)
            total = 0.0
            for b in range(20):
                mask = bins == b
                if mask.any():
                    total += abs(p[mask].mean() - data["won"][mask, r].mean()) * mask.sum()
            parts.append(total / len(p))
        out.append(
            f"{name}: " + ", ".join(f"{k} {v:.4f}" for k, v in zip(PREDICTIONS, parts, strict=True))
        )
    return "Weighted mean |predicted − measured| over 20 bins of predicted odds — " + "; ".join(out)


def plot(data: dict[str, Any], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib)", file=sys.stderr)
        return
    fig, axes = plt.subplots(1, 4, figsize=(17, 4.4))
    for r, name in enumerate(ROW_NAMES):
        ax = axes[r]
        ax.plot([0, 1], [0, 1], color="#999", lw=1, ls="--")
        for key, label in PREDICTIONS.items():
            color = COLORS[key]
            p = data[key][:, r]
            bins = np.minimum((p * 20).astype(int), 19)
            xs, ys = [], []
            for b in range(20):
                mask = bins == b
                if mask.sum() >= 200:
                    xs.append(p[mask].mean())
                    ys.append(data["won"][mask, r].mean())
            ax.plot(xs, ys, marker="o", ms=3, color=color, label=label)
        ax.set_title(f"{name}: measured vs predicted win rate")
        ax.set_xlabel("predicted chance to win the row")
        ax.set_ylabel("measured win rate")
        ax.legend(loc="upper left", fontsize=8)
    ax = axes[3]
    shapes = [s for s, c in Counter(data["shape"].tolist()).most_common(8)]
    x = np.arange(len(shapes))
    for i, (key, label) in enumerate(PREDICTIONS.items()):
        errs = []
        for s in shapes:
            mask = data["shape"] == s
            errs.append(np.abs(data[key][mask].mean(axis=0) - data["won"][mask].mean(axis=0)).sum())
        ax.bar(x + (i - 1) * 0.27, errs, width=0.27, color=COLORS[key], label=label)
    ax.set_xticks(x, shapes, rotation=40, ha="right", fontsize=8)
    ax.set_title("by hand shape: Σ rows |predicted − measured|")
    ax.legend(fontsize=8)
    fig.suptitle(f"Setter row odds, chinese-1-6, {len(data['won']):,} deals both set")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    print(f"wrote {path}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="deals simulated")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--plot", type=Path, default=PLOT)
    parser.add_argument("--min-count", type=int, default=2_000)
    args = parser.parse_args()
    data = simulate(args.hands, args.seed)
    print(f"{data['deals']:,} deals, {len(data['won']):,} where both hands set.\n")
    print(summary(data) + "\n")
    print(tables(data, args.min_count))
    plot(data, args.plot)


if __name__ == "__main__":
    main()
