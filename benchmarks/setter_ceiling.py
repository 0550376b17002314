"""How much any setter could gain over today's, heads-up against today's: a ceiling for issue 14.

    nice .venv/bin/python benchmarks/setter_ceiling.py --rules chinese-1-6 \\
        --overrides '{"royalty_mode": "off", "natural_payouts": {}}' --hands 2000 --opponents 4000

For each of ``--hands`` random hands A: the candidate settings are the ``--candidates`` best by
today's setter (full-deck tables) and as many best by the card-removal setter (both searches'
own rankings), both setters' actual plays (a natural or a surrender included) and, where the
rules allow it, surrendering. The opponents are
``--opponents`` hands dealt from the 39 cards A leaves, each set by today's setter — exactly the
opponent of ``benchmarks/setter_removal_duel.py``, whose deals are two hands of one deck.
Every candidate is scored against every opponent with the compiled scorer of
``scripts/make_setter_tables.py`` (rows, scoop and overall bonuses, royalties, surrenders).

Reported, in points per hand against today's play of the same hand, with 95 % intervals over
hands:

* ``removal``: the card-removal setter's pick, on all opponents — what the duel measures; a
  check of this harness against ``setter_removal_duel.py``.
* ``oracle``: the candidate that scores best against half of the opponents, scored on the other
  half (and the halves swapped): an honest estimate of a setter that knew today's setter's
  answers near-exactly — the most any valuation can gain among these candidates, less the noise
  of choosing on a finite sample (so a slight underestimate of that most).
* ``oracle_in_sample``: the best candidate's score on the very opponents it was chosen on — an
  overestimate (it keeps the luck of the choice); the truth lies between the two.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from make_setter_tables import _pair_score, deal, play, royalty_rows, strengths_of  # noqa: E402

from setter_removal_duel import play_removal  # noqa: E402
from thirteen.bots._setter_removal import removal_for  # noqa: E402
from thirteen.bots._setter_tables import model_for  # noqa: E402
from thirteen.bots.setter import _search  # noqa: E402
from thirteen.engine.rules import get_rules  # noqa: E402

I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]
Z95 = 1.959963984540054


@numba.njit(cache=True)
def _matrix(
    acts: I32,
    rows: I32,
    opp_acts: I32,
    opp_rows: I32,
    roy: F64,
    payout: F64,
    cost: float,
    scoop: float,
    overall: float,
) -> F64:  # pragma: no cover - compiled
    out = np.empty((len(acts), len(opp_acts)))
    for i in range(len(acts)):
        for j in range(len(opp_acts)):
            out[i, j] = _pair_score(
                acts[i], rows[i], opp_acts[j], opp_rows[j], roy, payout, cost, scoop, overall
            )
    return out


def _mean_ci(values: list[float]) -> dict[str, Any]:
    a = np.asarray(values)
    mean = float(a.mean())
    half = float(Z95 * a.std(ddof=1) / np.sqrt(len(a)))
    return {"mean": round(mean, 5), "ci95": [round(mean - half, 5), round(mean + half, 5)]}


def ceiling(
    rules_name: str, overrides: dict[str, Any], hands: int, opponents: int, k: int, seed: int
) -> dict[str, Any]:
    rules = get_rules(rules_name, overrides or None)
    m = model_for(rules)
    removal = removal_for(rules)
    assert removal is not None
    roy = royalty_rows(rules)
    score_args = (roy, m.payout, m.surrender_cost, m.scoop, m.overall)
    rng = np.random.default_rng([seed, 15])
    ours = deal(rng, hands)
    today = play(ours, m)
    new = play_removal(ours, removal)  # its decisions too: naturals, surrenders
    gains: dict[str, list[float]] = {"removal": [], "oracle": [], "oracle_in_sample": []}
    differs = 0
    started = time.perf_counter()
    for i in range(hands):
        hand = ours[i]
        rest = np.setdiff1d(np.arange(52, dtype=np.int8), hand).astype(np.int8)
        order = np.argsort(rng.random((opponents, 39)), axis=1)[:, :13]
        opp = np.ascontiguousarray(rest[order])
        opp_played = play(opp, m)
        opp_rows = strengths_of(opp, opp_played.picks, False)
        _, plain_picks, n_plain = _search(hand, m, k)
        _, rem_picks, n_rem = _search(hand, removal.model, k, removal)
        surrender = [today.picks[i : i + 1]] if rules.surrender else []  # rows not read
        picks = np.concatenate(
            [
                today.picks[i : i + 1],
                new.picks[i : i + 1],
                plain_picks[:n_plain],
                rem_picks[:n_rem],
                *surrender,
            ]
        )
        acts = np.full(len(picks), -1, np.int32)
        acts[0], acts[1] = today.actions[i], new.actions[i]
        if surrender:
            acts[-1] = -2
        rows = strengths_of(np.repeat(hand[None, :], len(picks), axis=0), picks, False)
        scores = _matrix(acts, rows, opp_played.actions, opp_rows, *score_args)
        base = scores[0]
        gains["removal"].append(float((scores[1] - base).mean()))
        differs += int(
            acts[1] != acts[0] or (acts[0] == -1 and not np.array_equal(rows[1], rows[0]))
        )
        half = opponents // 2
        a, b = scores[:, :half], scores[:, half:]
        pick_a = int(a.mean(axis=1).argmax())
        pick_b = int(b.mean(axis=1).argmax())
        honest = ((b[pick_a] - b[0]).mean() + (a[pick_b] - a[0]).mean()) / 2
        gains["oracle"].append(float(honest))
        gains["oracle_in_sample"].append(float((scores.mean(axis=1) - base.mean()).max()))
        if (i + 1) % 500 == 0:
            print(
                json.dumps({"hands": i + 1, **{n: _mean_ci(v) for n, v in gains.items()}}),
                file=sys.stderr,
                flush=True,
            )
    return {
        "rules": rules.name,
        "overrides": overrides,
        "hands": hands,
        "opponents": opponents,
        "candidates_per_search": k,
        "seed": seed,
        "removal_differs": round(differs / hands, 4),
        "seconds": round(time.perf_counter() - started, 1),
        **{name: _mean_ci(values) for name, values in gains.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="chinese-1-6")
    parser.add_argument("--overrides", default="{}", help="rule overrides as JSON")
    parser.add_argument("--hands", type=int, default=2_000)
    parser.add_argument("--opponents", type=int, default=2_000)
    parser.add_argument("--candidates", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    found = ceiling(
        args.rules,
        json.loads(args.overrides),
        args.hands,
        args.opponents,
        args.candidates,
        args.seed,
    )
    print(json.dumps(found), flush=True)


if __name__ == "__main__":
    main()
