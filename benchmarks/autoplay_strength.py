"""The table's automatic OFC placement against the ``club`` player, in the same seats.

A duplicate duel (every deal played once per rotation of the two players over the seats, so each
gets the other's cards): one seat played by :func:`thirteen.engine.autoplay.auto_placement` — the
move the table makes for a seat that timed out or left — the other by ``club``. It reports each
player's foul rate and points, and counts the automatic placement's *avoidable dead boards*: a
street where it left a board that can no longer avoid a foul while another placement of the same
cards kept it alive (:func:`thirteen.engine.autoplay.foul_certain`; on the last street this is
exactly "fouled when a legal non-fouling placement existed").

Usage: PYTHONPATH=src python benchmarks/autoplay_strength.py [--rules ofc] [--deals 300]
       [--seed 2026]

Figures measured are in docs/decisions.md ("Timeouts").
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence

from thirteen.bots.arena import play_hand, seated_table, seeded_deal
from thirteen.bots.registry import make_bot
from thirteen.engine.actions import Action, SetHand
from thirteen.engine.autoplay import auto_placement, foul_certain, safe_setting
from thirteen.engine.cards import Card
from thirteen.engine.legal import Legal, Placement, street_placements
from thirteen.engine.rules import Rules, get_rules
from thirteen.engine.state import Board
from thirteen.engine.views import TableView, unseen_cards


def board_from_view(view: TableView) -> Board:
    """The viewer's own board as the engine holds it, rebuilt from their view."""
    assert view.hand is not None
    assert view.hand.me is not None
    me = view.hand.me
    mine = next(b for b in view.hand.boards if b.seat == me.seat)
    placed = me.front + me.middle + me.back
    return Board(
        seat=me.seat,
        position=mine.position,
        dealt=placed + me.discards + me.cards,
        pending=me.cards,
        front=me.front,
        middle=me.middle,
        back=me.back,
        discards=me.discards,
        street=mine.street,
    )


class TableAutoplay:
    """A player that makes the table's automatic placement on every street."""

    name = "table"

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.decisions = 0
        self.avoidable_dead = 0
        self.seconds = 0.0

    def choose(self, view: TableView, legal: Legal, budget: float) -> Action:
        if legal.mode == "set":  # fantasyland: the table's own setting, as on a timeout
            front, middle, back = safe_setting(self.rules, legal.cards)
            return SetHand(seat=legal.seat, front=front, middle=middle, back=back)
        board = board_from_view(view)
        unseen = unseen_cards(view)
        started = time.perf_counter()
        placement = auto_placement(self.rules, board, unseen)
        self.seconds += time.perf_counter() - started
        self.decisions += 1
        if self._dead(board, placement, unseen) and any(
            not self._dead(board, p, unseen) for p in street_placements(self.rules, board)
        ):
            self.avoidable_dead += 1
        return legal.place(placement)

    def _dead(self, board: Board, placement: Placement, unseen: Sequence[Card]) -> bool:
        front, middle, back = board.rows
        rows = (front + placement[0], middle + placement[1], back + placement[2])
        return foul_certain(self.rules, rows, unseen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="ofc")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rules = get_rules(args.rules)
    auto = TableAutoplay(rules)
    players = [auto, make_bot("club", rules)]
    deals = random.Random(args.seed)
    tables = [seated_table(rules, 2) for _ in range(2)]
    clocks = [0.0, 0.0]
    hands, fouls, points, fantasylands = [0, 0], [0, 0], [0, 0], [0, 0]
    per_deal: list[int] = []
    for _ in range(args.deals):
        deal = seeded_deal(deals)
        net = 0
        for shift in range(2):
            seat_player = [(seat + shift) % 2 for seat in range(2)]
            played = play_hand(
                tables[shift], [players[p] for p in seat_player], deal, clocks[shift]
            )
            tables[shift], clocks[shift] = played.state, played.clock
            hand = played.state.hand
            assert hand is not None
            assert hand.result is not None
            for board, result in zip(hand.boards, hand.result.players, strict=True):
                who = seat_player[board.seat]
                hands[who] += 1
                fouls[who] += result.foul
                points[who] += result.total
                fantasylands[who] += result.fantasyland_cards is not None
                if who == 0:
                    net += result.total
        per_deal.append(net)
    mean = statistics.fmean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(len(per_deal))
    print(f"{rules.name}: {args.deals} deals x 2 seats, seed {args.seed}")
    for i, name in enumerate(("table autoplay", "club")):
        print(
            f"  {name:15} fouls {fouls[i] / hands[i]:6.1%}  "
            f"fantasylands {fantasylands[i] / hands[i]:6.1%}  points {points[i]:+6d}"
        )
    print(f"  autoplay net per deal vs club: {mean:+.2f} ± {half:.2f} (95%)")
    print(
        f"  avoidable dead boards: {auto.avoidable_dead} of {auto.decisions} decisions; "
        f"{1000 * auto.seconds / max(1, auto.decisions):.1f} ms a decision"
    )


if __name__ == "__main__":
    main()
