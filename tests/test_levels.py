"""Bot levels named for people — ``beginner``, ``club``, ``expert`` — on top of the bots."""

from __future__ import annotations

import random

import numpy as np
import pytest

from thirteen.bots._ofc_model import decode, model_for, situation_from_view, street_options
from thirteen.bots.arena import play
from thirteen.bots.base import Bot
from thirteen.bots.registry import (
    EXPERT_BUDGET,
    LEVELS,
    NAMES,
    PEOPLE,
    BeginnerBot,
    Capped,
    make_bot,
)
from thirteen.engine.actions import Action, Place, SetHand
from thirteen.engine.autoplay import safe_setting
from thirteen.engine.errors import RuleError
from thirteen.engine.legal import Legal
from thirteen.engine.rules import PRESETS, get_rules
from thirteen.engine.scoring import is_foul, row_strengths
from thirteen.engine.views import TableView


def test_every_name_is_taken_the_old_ones_too() -> None:
    assert set(NAMES) == {*LEVELS, *PEOPLE}
    assert len(NAMES) == 6
    assert PEOPLE == ("beginner", "club", "expert")
    for preset in ("chinese-1-6", "ofc-pineapple"):
        rules = get_rules(preset)
        for name in NAMES:
            assert make_bot(f" {name.upper()} ", rules, seed=1).name == name
    with pytest.raises(RuleError) as info:
        make_bot("grandmaster", get_rules("ofc"))
    assert all(name in str(info.value) for name in NAMES)


class Recorder:
    """A bot that remembers the budgets it was given."""

    name = "recorder"

    def __init__(self) -> None:
        self.budgets: list[float] = []

    def choose(self, view: TableView, legal: Legal, budget: float) -> Action:
        self.budgets.append(budget)
        return SetHand(seat=legal.seat, front=(), middle=(), back=())


def test_an_expert_thinks_the_tables_time_up_to_its_cap() -> None:
    inner = Recorder()
    capped = Capped(inner, "expert", EXPERT_BUDGET)
    legal = Legal(0, "set", (), ((), (), ()), (3, 5, 5), 0, (), False)
    for budget in (0.05, 0.5, 30.0):
        capped.choose(None, legal, budget)  # type: ignore[arg-type]
    assert inner.budgets == [0.05, 0.5, EXPERT_BUDGET]


@pytest.mark.parametrize("preset", ["chinese-1-6", "ofc-pineapple"])
def test_club_and_expert_play_as_heuristic_and_strong(preset: str) -> None:
    rules = get_rules(preset)
    for person, bot in (("club", "heuristic"), ("expert", "strong")):
        ours = [make_bot(person, rules, seed=5), make_bot("random", rules, seed=6)]
        theirs = [make_bot(bot, rules, seed=5), make_bot("random", rules, seed=6)]
        a = play(rules, ours, 2, seed=4, budget=0.002, duplicate=True)
        b = play(rules, theirs, 2, seed=4, budget=0.002, duplicate=True)
        assert [s.per_hand for s in a.bots] == [s.per_hand for s in b.bots]


@pytest.mark.parametrize("preset", [n for n, r in PRESETS.items()])
def test_the_people_levels_play_legal_hands(preset: str) -> None:
    rules = get_rules(preset)
    bots = [make_bot(name, rules, seed=i) for i, name in enumerate(PEOPLE)][: rules.max_players]
    result = play(rules, bots, 2, seed=7, budget=0.002, duplicate=True)
    assert sum(b.points for b in result.bots) == 0


class Judge:
    """Plays the beginner, and notes where its placement ranks in the heuristic's order."""

    name = "judge"

    def __init__(self, beginner: BeginnerBot) -> None:
        self.beginner = beginner
        self.ranks: list[int] = []

    def choose(self, view: TableView, legal: Legal, budget: float) -> Action:
        action = self.beginner.choose(view, legal, budget)
        if isinstance(action, Place):
            rules = self.beginner.rules
            situation = situation_from_view(view, rules)
            codes, values = street_options(model_for(rules), situation)
            order = [int(i) for i in np.argsort(-values, kind="stable")]
            placed = (action.front, action.middle, action.back, action.discard)
            ranked = [decode(situation.cards, codes[i]) for i in order]
            self.ranks.append(ranked.index(placed) if len(ranked) > 1 else -1)
        return action


@pytest.mark.parametrize(("mistakes", "allowed"), [(0.0, {0}), (1.0, {1, 2}), (0.3, {0, 1, 2})])
def test_an_ofc_beginners_mistakes_are_the_heuristics_next_choices(
    mistakes: float, allowed: set[int]
) -> None:
    rules = get_rules("ofc-pineapple")
    judge = Judge(BeginnerBot(rules, random.Random(1), mistakes))
    bots: list[Bot] = [judge, make_bot("heuristic", rules)]
    play(rules, bots, 6, seed=3, duplicate=True)
    ranks = [r for r in judge.ranks if r >= 0]
    assert len(ranks) >= 20
    assert set(ranks) <= allowed
    if mistakes == 0.3:
        assert 0.1 < sum(r > 0 for r in ranks) / len(ranks) < 0.6


def test_a_chinese_poker_beginner_never_fouls_and_sometimes_leaves_the_safe_setting() -> None:
    rules = get_rules("chinese-1-6")
    beginner = BeginnerBot(rules, random.Random(2))
    rng = random.Random(3)
    changed = 0
    for _ in range(200):
        cards = tuple(rng.sample(range(52), 13))
        legal = Legal(0, "set", cards, ((), (), ()), (3, 5, 5), 0, (), False)
        action = beginner.choose(None, legal, 0.1)  # type: ignore[arg-type]
        assert isinstance(action, SetHand)
        rows = (action.front, action.middle, action.back)
        assert sorted(c for row in rows for c in row) == sorted(cards)
        assert not is_foul(rules, *row_strengths(rules, *rows))
        changed += rows != safe_setting(rules, cards)
    assert 30 <= changed <= 90  # about 30 % of 200
