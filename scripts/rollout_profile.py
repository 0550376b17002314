"""How the strong OFC player's rollout policy finishes boards: its foul and fantasyland rates.

Usage: python scripts/rollout_profile.py [--rules ofc-pineapple] [--boards 40000] [--seed 7]

Each board is played from the first street to the last as the reference field's are
(``_ofc_rollouts.field_boards``: ``complete``, the heuristic learning each street's cards) with
the foul penalty of the heuristic player, of the player's rollouts (4/3 of it) and 5/3 of it,
street by street and with the last two streets placed together (``rollout_lookahead``). No
opponent: the rates are the policy's own, to set beside those of the player it stands for
(issue 14, docs/duels.md).
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from thirteen.bots import _ofc_rollouts as ofc_rollouts
from thirteen.bots import _ofc_values as ofc_values
from thirteen.bots._ofc_model import Model, later_streets, live_counts, model_for
from thirteen.engine.rules import get_rules

Z95 = 1.959963984540054


def finish(
    boards: int,
    sizes: ofc_values.I64,
    discards: ofc_values.I64,
    model: Model,
    p: ofc_values.F64,
    seed: int,
) -> tuple[float, float, float]:
    """Fouls, fantasylands and mean royalties of ``boards`` boards played from empty (the
    reference field's boards, ``_ofc_rollouts.field_boards``, by the policy ``p``)."""
    live_rank, live_suit = live_counts(range(52))
    ofc_rollouts.seed(seed)
    out = ofc_rollouts.field_boards(
        boards, sizes, discards, live_rank, live_suit, 52.0, model.it, model.rt, p
    )
    fouled = out[:, ofc_rollouts.RES_FOUL] > 0.0
    # field boards carry no fantasyland worth: it is the front's, on a board that holds
    earned = (model.rt[ofc_values.FLV, out[:, ofc_rollouts.RES_F].astype(np.int64)] > 0.0) & ~fouled
    royalties = (
        out[:, ofc_rollouts.RES_RF] + out[:, ofc_rollouts.RES_RM] + out[:, ofc_rollouts.RES_RB]
    )
    return float(fouled.mean()), float(earned.mean()), float(royalties.mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="ofc-pineapple")
    parser.add_argument("--boards", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rules = get_rules(args.rules)
    model = model_for(rules)
    streets, per_street = later_streets(rules, 0)
    sizes = np.array(streets, dtype=np.int64)
    discards = np.array(per_street, dtype=np.int64)
    own = float(model.p[ofc_values.P_FOUL_PEN])
    print(f"{rules.name}, {args.boards:,} boards from the first street (± 95 %):")
    print("| foul penalty | last two streets | fouls | fantasyland | royalties |")
    print("|---:|---|---:|---:|---:|")
    for scale in (1.0, 4.0 / 3.0, 5.0 / 3.0):
        for lookahead in (0.0, 3.0):
            p = model.p.copy()
            p[ofc_values.P_FOUL_PEN] = own * scale
            p[ofc_values.P_LOOKAHEAD] = lookahead
            fouls, fantasylands, royalties = finish(
                args.boards, sizes, discards, model, p, args.seed
            )
            half = [Z95 * math.sqrt(x * (1 - x) / args.boards) for x in (fouls, fantasylands)]
            print(
                f"| {own * scale:.0f} | {'together' if lookahead else 'one by one'} "
                f"| {fouls:.1%} ± {half[0]:.1%} | {fantasylands:.1%} ± {half[1]:.1%} "
                f"| {royalties:.2f} |"
            )


if __name__ == "__main__":
    main()
