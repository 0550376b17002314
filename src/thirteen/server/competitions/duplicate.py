"""The duplicate system of seed 004 (§IV): who sits where, and which teams meet in each round.

**Seating.** Three teams A, B, C of three players meet on three tables with staggered seats —
``A1 B1 C1 · B2 C2 A2 · C3 A3 B3`` — and every hand is dealt from one deck order at all three
tables, so each team plays each position's cards exactly once. At table ``t`` (0, 1, 2) the seat
``p`` holds team ``(p + t) mod 3``'s player number ``t + 1``: :func:`seating`.

**Rounds.** With more than three teams, each round splits them into groups of three (each group
plays its own three tables). Teams should meet as many different teams as possible, so each
round's grouping is chosen to repeat as few earlier meetings as it can: :func:`schedule` starts
from a grouping, then swaps teams between groups while that lowers the cost of the round — the
sum over every pair of teams grouped together of ``(times they met before) ** 2``, so one pair
meeting three times costs more than three pairs meeting twice — trying several seeded starts
and keeping the cheapest. It is deterministic for a given number of teams, rounds and seed.
When a perfect schedule exists and is small (9 teams over 4 rounds: every pair meets exactly
once) it finds it; ``docs/duplicate.md`` has measured figures.

The number of teams must be a multiple of three: a director fills a short field with bot teams.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

TABLES = 3
"""Tables (and players per team, and teams) in one group of the duplicate system."""
STARTS = 40
"""Seeded starting groupings tried for each round (the cheapest result is kept)."""

Group = tuple[int, int, int]
"""Three teams (by index) playing one another's cards in a round."""


def seating(group: Sequence[int]) -> list[list[tuple[int, int]]]:
    """The three tables of a group of teams ``(A, B, C)``: for each table, its seats in order,
    each as ``(team, player number 1-3)`` — ``A1 B1 C1``, ``B2 C2 A2``, ``C3 A3 B3``."""
    if len(group) != TABLES or len(set(group)) != TABLES:
        raise ValueError("A duplicate group is three different teams.")
    return [
        [(group[(seat + table) % TABLES], table + 1) for seat in range(TABLES)]
        for table in range(TABLES)
    ]


def meetings(rounds: Sequence[Sequence[Group]]) -> Counter[tuple[int, int]]:
    """How many times each pair of teams (lower index first) was in one group."""
    met: Counter[tuple[int, int]] = Counter()
    for groups in rounds:
        for group in groups:
            for a, b in itertools.combinations(sorted(group), 2):
                met[(a, b)] += 1
    return met


def _cost(groups: Sequence[Sequence[int]], met: Counter[tuple[int, int]]) -> int:
    return sum(met[(a, b)] ** 2 for g in groups for a, b in itertools.combinations(sorted(g), 2))


def _improve(groups: list[list[int]], met: Counter[tuple[int, int]]) -> int:
    """Swap teams between groups while a swap lowers the round's cost; the final cost."""

    def group_cost(g: Sequence[int]) -> int:
        return sum(met[(a, b)] ** 2 for a, b in itertools.combinations(sorted(g), 2))

    improved = True
    while improved:
        improved = False
        for gi, gj in itertools.combinations(range(len(groups)), 2):
            for i, j in itertools.product(range(TABLES), range(TABLES)):
                before = group_cost(groups[gi]) + group_cost(groups[gj])
                groups[gi][i], groups[gj][j] = groups[gj][j], groups[gi][i]
                if group_cost(groups[gi]) + group_cost(groups[gj]) < before:
                    improved = True
                else:
                    groups[gi][i], groups[gj][j] = groups[gj][j], groups[gi][i]
    return _cost(groups, met)


def schedule(teams: int, rounds: int, seed: int = 0) -> list[list[Group]]:
    """Each round's groups of three teams (teams are ``0 … teams - 1``), repeating as few
    meetings as the search finds (see the module's docstring)."""
    if teams < TABLES or teams % TABLES:
        raise ValueError(
            "A duplicate event needs a multiple of three teams (3, 6, 9, …); fill the field "
            "with bot teams."
        )
    if not 1 <= rounds <= 50:
        raise ValueError("An event has 1 to 50 rounds.")
    rng = random.Random(seed)
    best: list[list[list[int]]] | None = None
    best_cost = -1
    for _start in range(1 if teams == TABLES else STARTS):
        plan = _one_plan(teams, rounds, rng)
        cost = sum(n * n for n in meetings(_groups(plan)).values())
        if best is None or cost < best_cost:
            best, best_cost = plan, cost
    assert best is not None
    return _groups(best)


def _groups(plan: list[list[list[int]]]) -> list[list[Group]]:
    return [sorted((g[0], g[1], g[2]) for g in (sorted(g) for g in groups)) for groups in plan]


def _one_plan(teams: int, rounds: int, rng: random.Random) -> list[list[list[int]]]:
    """Round by round, each grouping improved against the rounds before it; then sweeps over
    every round, each improved against all the others, until a sweep changes nothing."""
    plan: list[list[list[int]]] = []
    for _ in range(rounds):
        order = list(range(teams))
        rng.shuffle(order)
        groups = [order[k : k + TABLES] for k in range(0, teams, TABLES)]
        _improve(groups, meetings(_groups(plan)))
        plan.append(groups)
    changed = True
    while changed:
        changed = False
        for r in range(rounds):
            others = meetings(_groups(plan[:r] + plan[r + 1 :]))
            before = _cost(plan[r], others)
            if _improve(plan[r], others) < before:
                changed = True
    return plan


__all__ = ["TABLES", "Group", "meetings", "schedule", "seating"]
