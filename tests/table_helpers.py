"""Building tables and stacked decks for scenario tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from thirteen.engine.actions import Action, Sit, StartHand
from thirteen.engine.cards import DECK, parse_cards
from thirteen.engine.deck import Deal
from thirteen.engine.events import Event
from thirteen.engine.rules import Rules
from thirteen.engine.state import TableState, new_table
from thirteen.engine.table import apply

SALTS = [bytes([i]) * 16 for i in range(52)]


def stacked(rules: Rules, slices: Sequence[str]) -> Deal:
    """A deal giving dealing position ``p`` the cards ``slices[p]`` first, in that order.

    Each position owns ``max(cards per player, biggest fantasyland)`` deck cards; the rest of a
    slice and the rest of the deck are filled with the unused cards in ascending order.
    """
    size = max(rules.cards_per_player, rules.max_fantasyland_cards)
    wanted = [parse_cards(s) for s in slices]
    used = {c for w in wanted for c in w}
    spare = [c for c in DECK if c not in used]
    order: list[int] = []
    for p in range(52 // size + 1):
        chunk = list(wanted[p]) if p < len(wanted) else []
        while len(chunk) < size and spare and len(order) + len(chunk) < 52:
            chunk.append(spare.pop(0))
        order.extend(chunk)
    order.extend(spare)
    return Deal.from_order(order[:52], SALTS)


def table_with(rules: Rules, players: Sequence[str | None], stack: int = 1000) -> TableState:
    """A table with ``players[i]`` in seat ``i`` (``None`` leaves a seat empty)."""
    state = new_table(rules, seats=len(players))
    for seat, name in enumerate(players):
        if name is not None:
            state, _ = apply(state, Sit(seat=seat, player=name, stack=stack))
    return state


def stamp(state: TableState, action: Action) -> Action:
    """``action`` stamped no earlier than the table's clock, as a server stamps what it receives
    (the table refuses an action stamped before its clock)."""
    return action if action.at >= state.clock else replace(action, at=state.clock)


def run(state: TableState, *actions: Action) -> tuple[TableState, list[Event]]:
    """Apply actions in order (each :func:`stamp`-ed); return the final state and every event."""
    events: list[Event] = []
    for action in actions:
        state, more = apply(state, stamp(state, action))
        events.extend(more)
    return state, events


def deal(state: TableState, d: Deal, at: float = 0.0) -> TableState:
    state, _ = apply(state, StartHand(deal=d, at=at))
    return state
