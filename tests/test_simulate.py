"""``thirteen simulate``'s self-play: a seed fixes every hand, and speed work must not change one.

The digests below were taken with the code before issue 9 §5's speed-up of the arena, the
table and the random player; the same seeds must keep giving the very same actions, results and
fantasylands. If a deliberate change of the rules or of the random player's draws changes them,
say so in the commit and take new digests.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from typing import Any

import pytest

from thirteen.bots.arena import play, play_hand, seated_table, seeded_deal
from thirteen.bots.base import RandomBot
from thirteen.engine.actions import Action, StartHand, action_to_json
from thirteen.engine.deck import Deal
from thirteen.engine.history import HandHistory
from thirteen.engine.legal import legal_actions
from thirteen.engine.rules import PRESETS, get_rules
from thirteen.engine.state import Phase, TableState, deciders
from thirteen.engine.table import apply
from thirteen.engine.views import view

HANDS = 12

GOLDEN = {
    "chinese-1-6": "ad39e787a2b9c6e49931a25a117942ad183c50e9f7cf15acfbd716a344d0f346",
    "chinese-2-4": "258a3ab2d7525284e9eb43038b67bad28d3307d1eb5745f63a3b1ccd6f309193",
    "chinese-1-4": "655d18b80f913b81b366ef370869e57c6acdab3045259f978be3567dd5eaa1a7",
    "chinese-1-3": "4688fef42e7668e16fc9b6ae1c5a90c1bc856975d61f3e7930d88041aea5b801",
    "ofc": "a232cc7384bcaa5c0643a004973993cd0bf9216d4aab2a80b6cb5c768b1bc59c",
    "ofc-pineapple": "92eb14c83feb36d7a9f9c9d0a72696c94efe49ccf1aa063cfd49dac5828000b2",
    "ofc-pineapple-progressive": "50fcd9e65eca952a5c8a160e273f8af8144aefdbf34a8267701a374b5ec38d14",
    "open-face-cards": "32eeef4341f7996869566799441207352e1f54804d29b3932ab50c767beeda07",
}


def bots(players: int, seed: int) -> list[RandomBot]:
    rng = random.Random(seed)
    return [RandomBot(random.Random(rng.random()), surrender_rate=0.05) for _ in range(players)]


def decided(action: Action) -> dict[str, Any]:
    """An action as the digest counts it: what was decided, without the deal's version of the
    automatic moves (a label that names which move a time-out plays, added after these digests)."""
    raw = action_to_json(action)
    raw.pop("autoplay", None)
    return raw


def digest(preset: str, seed: int = 9) -> str:
    """Everything a seeded run decides: each hand's actions and result, each player's totals."""
    rules = get_rules(preset)
    players = min(3, rules.max_players)
    hands: list[Any] = []

    def keep(table: int, history: HandHistory) -> None:
        hands.append([[decided(a) for a in history.actions], history.result])

    result = play(rules, bots(players, seed), HANDS, seed=seed, on_hand=keep)
    per_bot = [
        [b.hands, b.points, b.fouls, b.fantasylands_earned, b.hands_in_fantasyland, b.per_hand]
        for b in result.bots
    ]
    if rules.fantasyland:  # random players rarely earn it: start hands with seat 0 in it
        rng = random.Random(seed)
        seat_bots = bots(players, seed + 1)
        clock = 0.0
        for _, cards in rules.fantasyland_entry:
            state = seated_table(rules, players, fantasyland={0: cards})
            played = play_hand(state, seat_bots, seeded_deal(rng), clock, record=True)
            assert played.history is not None
            history = played.history
            seats = [(s.stack, s.fantasyland) for s in played.state.seats if s is not None]
            hands.append([[decided(a) for a in history.actions], history.result, seats])
            clock = played.clock
    text = json.dumps([hands, per_bot], sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_seed_plays_the_same_hands_as_before(preset: str) -> None:
    assert digest(preset) == GOLDEN[preset]


def reference_hand(
    state: TableState, seat_bots: list[RandomBot], deal: Deal, clock: float
) -> tuple[TableState, float, list[Action]]:
    """The arena's loop the plain way: every seat's view built, legal actions read from it."""
    clock = max(clock, state.next_deal_at or clock)
    state, _ = apply(state, StartHand(deal=deal, at=clock))
    actions: list[Action] = []
    while state.phase == Phase.PLAYING:
        due = deciders(state)
        seat = min(due, key=lambda s: (due[s] or 0.0, s))
        seat_view = view(state, seat)
        action = seat_bots[seat].choose(seat_view, legal_actions(seat_view), 1.0)
        clock += 1.0
        action = dataclasses.replace(action, at=clock)
        state, _ = apply(state, action)
        actions.append(action)
    return state, clock, actions


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_arena_plays_as_the_views_and_legal_actions_say(preset: str) -> None:
    rules = get_rules(preset)
    players = min(3, rules.max_players)
    fast, slow = bots(players, 4), bots(players, 4)
    rng = random.Random(4)
    state_fast = state_slow = seated_table(rules, players)
    clock_fast = clock_slow = 0.0
    for _ in range(6):
        deal = seeded_deal(rng)
        played = play_hand(state_fast, fast, deal, clock_fast, record=True)
        state_slow, clock_slow, actions = reference_hand(state_slow, slow, deal, clock_slow)
        assert played.history is not None
        assert list(played.history.actions[1:]) == actions
        assert played.state == state_slow
        assert played.clock == clock_slow
        state_fast, clock_fast = played.state, played.clock
