"""Make the setter's card-removal bank: field hands, their ranks and suits, and the rows the
field set them to (``thirteen/data/setter_removal.npz``; see docs/setter.md, "Card removal").

    .venv/bin/python scripts/make_setter_removal.py            # the shipped bank (~20 s)
    .venv/bin/python scripts/make_setter_removal.py --hands 4096 --out /tmp/b.npz   # a try

For each scoring method (1-6, 2-4, 1-4, 1-3; plain middle), random 13-card hands are dealt
(four per shuffled deck) and set by the setter against that method's field (its shipped tables,
without card removal); the hands that set — neither surrender nor declare a natural, as in the
tables — are kept with each one's count of every rank and suit and the strength of each row it
set. Seeded: the same options write byte-identical files, and the file's SHA-256 goes to
``thirteen/bots/_setter_removal_checksum.py``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_setter_tables import deal, play, strengths_of

from thirteen.bots._setter_tables import model_for, npz_bytes
from thirteen.engine.rules import get_rules

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "src" / "thirteen" / "data" / "setter_removal.npz"
CHECKSUM_MODULE = ROOT / "src" / "thirteen" / "bots" / "_setter_removal_checksum.py"
HANDS = 65_536
SEED = 14


SCORINGS = ("1-6", "2-4", "1-4", "1-3")


def bank_arrays(scoring: str, hands: int, seed: int) -> dict[str, npt.NDArray[Any]]:
    """One field's bank: ``hands`` field hands that set, with counts and row strengths."""
    rules = get_rules(f"chinese-{scoring}")
    rng = np.random.default_rng([seed, 1313, SCORINGS.index(scoring)])
    dealt = deal(rng, int(hands * 1.08) + 64)
    played = play(dealt, model_for(rules))
    kept = np.flatnonzero(played.actions == -1)[:hands]
    if len(kept) < hands:
        raise SystemExit("too few hands set; deal more")
    cards = dealt[kept].astype(np.int64)
    ranks = np.zeros((hands, 13), dtype=np.uint8)
    suits = np.zeros((hands, 4), dtype=np.uint8)
    rows = np.arange(hands)[:, None]
    np.add.at(ranks, (rows, cards >> 2), 1)
    np.add.at(suits, (rows, cards & 3), 1)
    strengths = strengths_of(dealt[kept], played.picks[kept], False).astype(np.int16)
    return {
        f"{scoring}.ranks": ranks,
        f"{scoring}.suits": suits,
        f"{scoring}.strengths": strengths,
    }


def build(hands: int, seed: int, scorings: tuple[str, ...] = SCORINGS) -> bytes:
    """The bank file's bytes: one bank per scoring method."""
    arrays: dict[str, npt.NDArray[Any]] = {}
    for scoring in scorings:
        arrays.update(bank_arrays(scoring, hands, seed))
    meta = {"version": 1, "seed": seed, "hands": hands, "fields": list(scorings)}
    arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
    return npz_bytes(arrays)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=HANDS)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    data = build(args.hands, args.seed)
    args.out.write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    print(f"{args.out}: {len(data):,} bytes, sha256 {digest}")
    if args.out.resolve() == DEFAULT_OUT.resolve():
        text = CHECKSUM_MODULE.read_text(encoding="utf-8")
        text = re.sub(r'REMOVAL_SHA256 = "[0-9a-f]*"', f'REMOVAL_SHA256 = "{digest}"', text)
        CHECKSUM_MODULE.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
