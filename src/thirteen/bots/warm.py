"""Compile the bots' kernels before anyone waits on them.

The bots' compiled kernels (numba, cached on disk after their first compilation) take tens of
seconds to compile the first time a fresh install uses them — a first bot move, or a first
practice hint, that stalls a table. :func:`warm_bots` plays one short hand of each kind of game
with every kind of bot, which compiles (or loads from the cache) everything they use: the
setter with card removal, the OFC heuristic, the Monte Carlo player and the fantasyland solver.
``make`` runs it once when it sets up the environment (``python -m thirteen.bots.warm``); an
install made otherwise runs that once. Not at every start of ``thirteen serve``: with the cache
written it would only load what the first bot move loads anyway, and after a crash it would take
the interpreter from the tables being resumed.
"""

from __future__ import annotations

import random

from thirteen.bots.arena import play_hand, seated_table, seeded_deal
from thirteen.bots.registry import make_bot
from thirteen.engine.rules import get_rules

HANDS: tuple[tuple[str, dict[int, int]], ...] = (
    ("chinese-1-6", {}),
    ("ofc-pineapple", {}),
    ("ofc-pineapple", {0: 14}),  # seat 0 in fantasyland: the exact solver
    ("ofc", {}),
)
"""Presets played, with the seats put in fantasyland (seat → cards)."""


def warm_bots(budget: float = 0.01) -> list[tuple[str, int]]:
    """Play one hand of each of :data:`HANDS` between the expert and the club player (a
    ``budget`` of seconds a decision); each preset played with its table's hands played."""
    played = []
    for n, (preset, fantasyland) in enumerate(HANDS):
        rules = get_rules(preset)
        bots = [make_bot("expert", rules, seed=n), make_bot("club", rules, seed=n)]
        table = seated_table(rules, 2, fantasyland=fantasyland)
        done = play_hand(table, bots, seeded_deal(random.Random(n)), 0.0, budget=budget)
        played.append((preset, done.state.hands_played))
    return played


if __name__ == "__main__":  # pragma: no cover - make's set-up step
    print("bots ready:", ", ".join(preset for preset, _ in warm_bots()))
