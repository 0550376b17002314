"""Hands played for the review's tests: bots on a real table, some decisions left to time out,
with the table after every action kept (what each seat truly saw)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from thirteen.bots.arena import seated_table, seeded_deal
from thirteen.bots.base import Bot, LegalPlayer
from thirteen.engine.actions import (
    Action,
    DeclareNatural,
    Place,
    SetHand,
    StartHand,
    Surrender,
    Timeout,
    stamped,
)
from thirteen.engine.history import HandHistory, result_summary
from thirteen.engine.legal import legal_actions, legal_for
from thirteen.engine.rules import Rules
from thirteen.engine.state import Phase, TableState, deciders
from thirteen.engine.table import apply
from thirteen.engine.views import view

DECISIONS = (SetHand, Place, DeclareNatural, Surrender, Timeout)


def play_recorded(
    rules: Rules,
    bots: Sequence[Bot],
    rng: random.Random,
    *,
    timeouts: float = 0.0,
    fantasyland: Mapping[int, int] | None = None,
    budget: float = 0.1,
    time_out: Callable[[TableState, int], bool] | None = None,
) -> tuple[HandHistory, list[TableState]]:
    """A hand with ``bots[seat]`` in each seat; each decision is left to time out with odds
    ``timeouts``, or when ``time_out(table, seat)`` says so. Returns its history and the table before each action and after the last
    (``states[i]`` is the table before ``history.actions[i]``)."""
    state = seated_table(rules, len(bots), fantasyland=fantasyland)
    start = replace(state, hand=None)
    clock = 0.0
    deal = StartHand(deal=seeded_deal(rng), at=clock)
    actions: list[Action] = [deal]
    states = [state]
    state, _ = apply(state, deal)
    while state.phase == Phase.PLAYING:
        states.append(state)
        due = deciders(state)
        seat = min(due, key=lambda s: (due[s] or 0.0, s))
        deadline = due[seat]
        forced = time_out is not None and time_out(state, seat)
        late = deadline is not None and clock + 0.01 > deadline
        if forced or late or rng.random() < timeouts:
            clock = max(clock, deadline or clock)
            action: Action = Timeout(seat=seat, at=clock)
        else:
            clock += 0.01
            bot = bots[seat]
            if isinstance(bot, LegalPlayer):
                chosen = bot.choose_legal(legal_for(state, seat), budget)
            else:
                seat_view = view(state, seat)
                chosen = bot.choose(seat_view, legal_actions(seat_view), budget)
            action = stamped(chosen, clock)
        state, _ = apply(state, action)
        actions.append(action)
    states.append(state)
    return HandHistory(start, tuple(actions), result_summary(state)), states


def decisions_of(history: HandHistory, seat: int) -> list[int]:
    """The indexes of ``seat``'s decisions among the history's actions."""
    return [
        i
        for i, a in enumerate(history.actions)
        if isinstance(a, DECISIONS) and getattr(a, "seat", None) == seat
    ]
