"""The arena: bots play whole hands on a real table, through views only.

Used by ``thirteen simulate`` (random players), ``thirteen duel`` and the benchmarks. Each bot
sees its seat's view and nothing else; a :class:`~thirteen.bots.base.LegalPlayer`, which reads
only its legal actions, gets those alone and no view is built for it (the same move, for less).
With ``duplicate``, every deal is played once per rotation of the bots over the seats, on
separate tables fed the same deck orders, so every bot gets every seat position's cards (seed
004's duplicate idea).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from thirteen.bots.base import Bot, LegalPlayer, show_the_showdown
from thirteen.engine.actions import Action, Sit, StartHand, stamped
from thirteen.engine.cards import DECK
from thirteen.engine.deck import SALT_BYTES, Deal, fresh_deal
from thirteen.engine.history import HandHistory, result_summary
from thirteen.engine.legal import legal_actions, legal_for
from thirteen.engine.rules import Rules
from thirteen.engine.state import Phase, TableState, deciders, new_table
from thirteen.engine.table import apply
from thirteen.engine.views import view

BIG_STACK = 10**15
"""Arena stacks: large enough that settlement never caps a result (points are what we count)."""


@dataclass
class BotStats:
    """What one bot did over the games it played."""

    name: str
    hands: int = 0
    points: int = 0
    fouls: int = 0
    fantasylands_earned: int = 0
    hands_in_fantasyland: int = 0
    per_hand: list[int] = field(default_factory=list)
    """Points per deal, summed over the tables the deal was played on."""
    fouls_per_deal: list[int] = field(default_factory=list)
    """Fouls per deal, over the tables the deal was played on (for paired comparisons)."""
    fantasylands_per_deal: list[int] = field(default_factory=list)
    """Fantasylands earned per deal, likewise."""

    @property
    def foul_rate(self) -> float:
        return self.fouls / self.hands if self.hands else 0.0

    @property
    def fantasyland_rate(self) -> float:
        return self.fantasylands_earned / self.hands if self.hands else 0.0


@dataclass
class ArenaResult:
    deals: int
    bots: list[BotStats]
    seconds_engine: float
    seconds_bots: float
    seconds_total: float

    @property
    def hands_played(self) -> int:
        return sum(b.hands for b in self.bots) // max(1, len(self.bots))

    @property
    def hands_per_second(self) -> float:
        return self.hands_played / self.seconds_total if self.seconds_total else 0.0


def seeded_deal(rng: random.Random) -> Deal:
    """A deal drawn from ``rng`` (reproducible; tests and benchmarks only)."""
    order = list(DECK)
    rng.shuffle(order)
    return Deal.from_order(order, [rng.randbytes(SALT_BYTES) for _ in range(52)])


def seated_table(
    rules: Rules, players: int, *, fantasyland: Mapping[int, int] | None = None
) -> TableState:
    """A table of ``players`` seats, every seat taken with an arena stack.

    ``fantasyland`` puts seats in fantasyland for the next hand (seat → cards), as if they had
    earned it: for experiments and tests that start from a fantasyland hand.
    """
    state = new_table(rules, seats=players, max_buy_in=BIG_STACK)
    for seat in range(players):
        state, _ = apply(state, Sit(seat=seat, player=f"seat{seat}", stack=BIG_STACK))
    if fantasyland:
        seats = list(state.seats)
        for seat, cards in fantasyland.items():
            occupant = seats[seat]
            assert occupant is not None
            seats[seat] = replace(occupant, fantasyland=cards)
        state = replace(state, seats=tuple(seats))
    return state


@dataclass(frozen=True)
class HandPlayed:
    """A hand played to its showdown: the table after it and where the time went."""

    state: TableState
    clock: float
    seconds_engine: float
    seconds_bots: float
    history: HandHistory | None = None
    """The hand's history, when asked for (``record``)."""


def play_hand(
    state: TableState,
    seat_bots: Sequence[Bot],
    deal: Deal,
    clock: float,
    *,
    budget: float = 1.0,
    record: bool = False,
) -> HandPlayed:
    """Deal ``deal`` and let ``seat_bots[seat]`` make every decision of that seat, each on its
    view alone, until the showdown. Each action is stamped one second after the previous one.
    With ``record``, the hand's history comes back too."""
    tick = time.perf_counter()
    clock = max(clock, state.next_deal_at or clock)
    before = state
    start = StartHand(deal=deal, at=clock)
    state, _ = apply(state, start)
    actions: list[Action] | None = [start] if record else None
    engine = time.perf_counter() - tick
    bots_time = 0.0
    # A player that reads only its legal actions gets no view (building one is most of the cost).
    legal_players = [b if isinstance(b, LegalPlayer) else None for b in seat_bots]
    while state.phase == Phase.PLAYING:
        tick = time.perf_counter()
        due = deciders(state)
        if len(due) == 1:  # as in sequential OFC, most of the time
            (seat,) = due
        else:
            seat = min(due, key=lambda s: (due[s] or 0.0, s))
        legal_player = legal_players[seat]
        if legal_player is not None:
            legal = legal_for(state, seat)
            mid = time.perf_counter()
            action = legal_player.choose_legal(legal, budget)
        else:
            seat_view = view(state, seat)
            legal = legal_actions(seat_view)
            mid = time.perf_counter()
            action = seat_bots[seat].choose(seat_view, legal, budget)
        after = time.perf_counter()
        clock += 1.0
        action = stamped(action, clock)
        state, _ = apply(state, action)
        if actions is not None:
            actions.append(action)
        done = time.perf_counter()
        engine += (mid - tick) + (done - after)
        bots_time += after - mid
    show_the_showdown(state, enumerate(seat_bots))
    history = None
    if actions is not None:
        start_state = replace(before, hand=None)
        history = HandHistory(start_state, tuple(actions), result_summary(state))
    return HandPlayed(state, clock, engine, bots_time, history)


def play(
    rules: Rules,
    bots: Sequence[Bot],
    deals: int,
    *,
    seed: int | None = None,
    budget: float = 1.0,
    duplicate: bool = False,
    on_deal: Callable[[int], None] | None = None,
    on_hand: Callable[[int, HandHistory], None] | None = None,
) -> ArenaResult:
    """Play ``deals`` deals with ``bots[i]`` in seat ``i`` (rotated over seats if ``duplicate``).

    ``on_hand(table, history)`` receives every hand's history (``table`` counts the rotations).
    """
    n = len(bots)
    if not 2 <= n <= rules.max_players:
        raise ValueError(f"{rules.name} needs 2 to {rules.max_players} players, not {n}.")
    rng = random.Random(seed) if seed is not None else None
    rotations = list(range(n)) if duplicate else [0]
    tables = [seated_table(rules, n) for _ in rotations]
    clocks = [0.0 for _ in rotations]
    stats = [BotStats(bot.name) for bot in bots]
    engine = bots_time = 0.0
    started = time.perf_counter()
    for number in range(deals):
        deal = seeded_deal(rng) if rng is not None else fresh_deal()
        deal_points = [0] * n
        deal_fouls = [0] * n
        deal_fantasylands = [0] * n
        for t, shift in enumerate(rotations):
            seat_bot = [(seat + shift) % n for seat in range(n)]  # which bot sits where
            played = play_hand(
                tables[t],
                [bots[b] for b in seat_bot],
                deal,
                clocks[t],
                budget=budget,
                record=on_hand is not None,
            )
            if on_hand is not None and played.history is not None:
                on_hand(t, played.history)
            state, clock = played.state, played.clock
            engine += played.seconds_engine
            bots_time += played.seconds_bots
            hand = state.hand
            assert hand is not None
            assert hand.result is not None
            for board, player in zip(hand.boards, hand.result.players, strict=True):
                s = stats[seat_bot[board.seat]]
                s.hands += 1
                s.points += player.total
                s.fouls += player.foul
                s.fantasylands_earned += player.fantasyland_cards is not None
                s.hands_in_fantasyland += board.in_fantasyland
                deal_points[seat_bot[board.seat]] += player.total
                deal_fouls[seat_bot[board.seat]] += player.foul
                deal_fantasylands[seat_bot[board.seat]] += player.fantasyland_cards is not None
            tables[t], clocks[t] = state, clock
        for i, points in enumerate(deal_points):
            stats[i].per_hand.append(points)
            stats[i].fouls_per_deal.append(deal_fouls[i])
            stats[i].fantasylands_per_deal.append(deal_fantasylands[i])
        if on_deal is not None:
            on_deal(number + 1)
    total = time.perf_counter() - started
    return ArenaResult(deals, stats, engine, bots_time, total)
