"""How the strong OFC player's rollout policy finishes boards: its foul and fantasyland rates.

Usage: python scripts/rollout_profile.py [--rules ofc-pineapple] [--boards 40000] [--seed 7]

Each board is played from the first street to the last by ``_ofc_kernels.complete`` — the
heuristic, learning each street's cards — with the foul penalty of the heuristic player, of the
player's rollouts (4/3 of it) and 5/3 of it, street by street and with the last two streets
placed together (``rollout_lookahead``). No opponent: the rates are the policy's own, to set
beside those of the player it stands for (issue 14, docs/duels.md).
"""

from __future__ import annotations

import argparse
import math

import numba
import numpy as np

from thirteen.bots import _ofc_kernels as k
from thirteen.bots._ofc_model import model_for
from thirteen.engine.rules import get_rules

Z95 = 1.959963984540054


@numba.njit(cache=False)
def finish(
    boards: int, sizes: k.I64, discards: k.I64, it: k.I64, rt: k.F64, p: k.F64, seed: int
) -> tuple[float, float, float]:
    """Fouls, fantasylands and mean royalties of ``boards`` boards played from empty."""
    np.random.seed(seed)
    out = np.zeros(k.RES_SIZE)
    fouls = fantasylands = 0
    royalties = 0.0
    for _ in range(boards):
        deal = np.random.permutation(52).astype(np.int64)
        rows = np.full(13, -1, dtype=np.int64)
        cnt = np.zeros(3, dtype=np.int64)
        live_rank = np.full(13, 4, dtype=np.int64)
        live_suit = np.full(4, 13, dtype=np.int64)
        k.complete(rows, cnt, deal, 0, sizes, discards, live_rank, live_suit, 52.0, it, rt, p)
        k.board_result(rows, it, rt, p, out)
        fouls += out[k.RES_FOUL] > 0.0
        fantasylands += out[k.RES_FL] > 0.0
        royalties += out[k.RES_RF] + out[k.RES_RM] + out[k.RES_RB]
    return fouls / boards, fantasylands / boards, royalties / boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="ofc-pineapple")
    parser.add_argument("--boards", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rules = get_rules(args.rules)
    model = model_for(rules)
    sizes = np.array(rules.streets, dtype=np.int64)
    discards = np.array(
        [0] + [rules.discards_per_street] * (len(rules.streets) - 1), dtype=np.int64
    )
    own = float(model.p[k.P_FOUL_PEN])
    print(f"{rules.name}, {args.boards:,} boards from the first street (± 95 %):")
    print("| foul penalty | last two streets | fouls | fantasyland | royalties |")
    print("|---:|---|---:|---:|---:|")
    for scale in (1.0, 4.0 / 3.0, 5.0 / 3.0):
        for lookahead in (0.0, 3.0):
            p = model.p.copy()
            p[k.P_FOUL_PEN] = own * scale
            p[k.P_LOOKAHEAD] = lookahead
            fouls, fantasylands, royalties = finish(
                args.boards, sizes, discards, model.it, model.rt, p, args.seed
            )
            half = [Z95 * math.sqrt(x * (1 - x) / args.boards) for x in (fouls, fantasylands)]
            print(
                f"| {own * scale:.0f} | {'together' if lookahead else 'one by one'} "
                f"| {fouls:.1%} ± {half[0]:.1%} | {fantasylands:.1%} ± {half[1]:.1%} "
                f"| {royalties:.2f} |"
            )


if __name__ == "__main__":
    main()
