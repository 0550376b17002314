"""Seed 004's duplicate system: the staggered seating, and rounds in which teams meet as many
different teams as possible."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from thirteen.server.competitions.duplicate import meetings, schedule, seating


def test_the_seating_of_seed_004() -> None:
    a, b, c = 7, 3, 5
    tables = seating((a, b, c))
    assert tables == [
        [(a, 1), (b, 1), (c, 1)],
        [(b, 2), (c, 2), (a, 2)],
        [(c, 3), (a, 3), (b, 3)],
    ]
    # each team plays each position's cards once, with a different player at each table
    for team in (a, b, c):
        positions = [seat for table in tables for seat, who in enumerate(table) if who[0] == team]
        assert sorted(positions) == [0, 1, 2]
        players = [who[1] for table in tables for who in table if who[0] == team]
        assert sorted(players) == [1, 2, 3]
    with pytest.raises(ValueError, match="three different teams"):
        seating((1, 1, 2))


def _partitions(teams: int, rounds: list[list[tuple[int, int, int]]]) -> None:
    for groups in rounds:
        assert sorted(t for g in groups for t in g) == list(range(teams))


def test_nine_teams_over_four_rounds_meet_every_other_team_exactly_once() -> None:
    rounds = schedule(9, 4)
    _partitions(9, rounds)
    met = meetings(rounds)
    assert set(met) == set(itertools.combinations(range(9), 2))
    assert set(met.values()) == {1}


@pytest.mark.parametrize(("teams", "rounds"), [(12, 4), (15, 5)])
def test_no_team_meets_another_twice_while_the_rounds_allow_it(teams: int, rounds: int) -> None:
    plan = schedule(teams, rounds, seed=1)
    _partitions(teams, plan)
    assert max(meetings(plan).values()) == 1


def test_over_many_rounds_everyone_meets_everyone_and_meetings_stay_even() -> None:
    plan = schedule(12, 11)
    _partitions(12, plan)
    met = meetings(plan)
    counts = Counter(met[pair] for pair in itertools.combinations(range(12), 2))
    # each team has 22 meetings with 11 others: 2 each on average
    assert min(counts) >= 1
    assert max(counts) <= 3


def test_a_schedule_is_the_same_for_the_same_seed_and_refuses_bad_fields() -> None:
    assert schedule(12, 4, seed=3) == schedule(12, 4, seed=3)
    assert schedule(3, 2) == [[(0, 1, 2)], [(0, 1, 2)]]
    for teams, rounds in ((4, 2), (0, 1), (6, 0), (6, 51)):
        with pytest.raises(ValueError, match=r"multiple of three teams|1 to 50 rounds"):
            schedule(teams, rounds)
