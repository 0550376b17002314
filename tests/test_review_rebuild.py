"""A player's decisions rebuilt from their copy of a hand alone (``thirteen.review.rebuild``):
the view rebuilt at each decision is the very view the table gave that seat, and what a copy
cannot support is refused with a sentence."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from review_helpers import decisions_of, play_recorded
from thirteen.bots.base import RandomBot
from thirteen.engine.actions import Surrender, Timeout
from thirteen.engine.history import HandHistory, history_to_json, redact_history
from thirteen.engine.rules import PRESETS, get_rules
from thirteen.engine.state import TableState
from thirteen.engine.views import view
from thirteen.review.rebuild import ReviewError, read_history, rebuild, rebuild_seat


def random_bots(players: int, rng: random.Random, surrender: float = 0.04) -> list[RandomBot]:
    return [RandomBot(random.Random(rng.random()), surrender) for _ in range(players)]


@pytest.mark.parametrize("preset", PRESETS)
def test_each_rebuilt_view_is_the_view_the_seat_had(preset: str) -> None:
    """Every seat's copy of hands with surrenders, timeouts and fantasyland rebuilds, decision
    by decision, the view the table gave that seat (the deck completed with stand-ins never
    shows), unless the copy cannot support it — and then it says so and stops there: only
    after another player's OFC street played by the table on a timeout, from cards the copy
    does not hold (a hidden discard in the pineapple games, or a board later surrendered,
    whose cards a copy does not open)."""
    rules = get_rules(preset)
    rng = random.Random(preset)
    compared = cut = 0
    for number in range(6):
        players = 2 + number % (rules.max_players - 1)
        fantasyland = None
        if rules.fantasyland and number % 2:
            fantasyland = {number % players: max(c for _, c in rules.fantasyland_entry)}
        history, states = play_recorded(
            rules, random_bots(players, rng), rng, timeouts=0.15, fantasyland=fantasyland
        )
        for seat in range(players):
            rebuilt = rebuild(read_history(redact_history(history, seat)))
            wanted = decisions_of(history, seat)
            got = [d.index for d in rebuilt.decisions]
            if rebuilt.cut is None:
                assert got == wanted
            else:
                cut += 1
                assert got == wanted[: len(got)]
                who = int(rebuilt.cut.split()[1].removesuffix("'s"))
                surrendered = any(
                    isinstance(a, Surrender) and a.seat == who for a in history.actions
                )
                assert rules.discards_per_street or surrendered
                assert f"nor the {len(wanted) - len(got)} decision(s) of seat {seat}" in (
                    rebuilt.cut
                )
            for decision in rebuilt.decisions:
                assert decision.view == view(states[decision.index], seat)
                assert decision.action == history.actions[decision.index]
                compared += 1
    assert compared >= 12
    if not rules.is_ofc:
        assert cut == 0


def pineapple_timeout() -> HandHistory:
    """A pineapple hand where seat 1's third street (after a discard) is played on a timeout."""
    rules = get_rules("ofc-pineapple")
    rng = random.Random(7)

    def third_street_of_seat_1(state: TableState, seat: int) -> bool:
        board = state.hand.board_of(seat) if state.hand is not None else None
        return seat == 1 and board is not None and board.street == 2

    history, _ = play_recorded(
        rules, random_bots(2, rng, 0.0), rng, time_out=third_street_of_seat_1
    )
    assert sum(isinstance(a, Timeout) for a in history.actions) == 1
    return history


def test_an_opponents_automatic_street_after_a_hidden_discard_stops_the_rebuild() -> None:
    """The table's move for a timed-out pineapple street looks at cards the other player's copy
    does not hold: the rebuild stops before it, says so, and keeps what came before."""
    history = pineapple_timeout()
    copy0 = rebuild(read_history(redact_history(history, 0)))
    assert copy0.cut is not None
    assert "seat 1's street" in copy0.cut.lower()
    assert "from cards this copy does not show" in copy0.cut
    assert 0 < len(copy0.decisions) < len(decisions_of(history, 0))
    own = rebuild(read_history(redact_history(history, 1)))  # one's own timeout is known
    assert own.cut is None
    assert [d.timed_out for d in own.decisions].count(True) == 1


def copy_of(history: HandHistory, seat: int) -> dict[str, Any]:
    return redact_history(history, seat)


@pytest.fixture(scope="module")
def chinese() -> HandHistory:
    rules = get_rules("chinese-1-6")
    rng = random.Random(3)
    history, _ = play_recorded(rules, random_bots(3, rng), rng)
    return history


def test_a_full_history_is_reviewed_as_the_copy_of_the_seat_named(chinese: HandHistory) -> None:
    full = history_to_json(chinese)
    with pytest.raises(ReviewError, match=r"full history .* name the seat"):
        rebuild_seat(full)
    by_seat = rebuild_seat(full, 1)
    from_copy = rebuild_seat(copy_of(chinese, 1))
    assert by_seat.decisions == from_copy.decisions
    assert by_seat.known == from_copy.known
    with pytest.raises(ReviewError, match="seat 2's copy, not seat 1's"):
        rebuild_seat(copy_of(chinese, 2), 1)


def open_another_card(data: dict[str, Any]) -> None:
    opening = data["deal"]["openings"][0]
    opening[1] = "3c" if opening[1] == "2c" else "2c"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(viewer="spectator"), "spectator's copy holds no decisions"),
        (open_another_card, "do not match its commitment"),
        (
            lambda d: d["result"]["totals"].__setitem__(0, d["result"]["totals"][0] + 1),
            "does not end with the copy's result",
        ),
        (lambda d: d["actions"].pop(), "stop before the showdown"),
    ],
)
def test_a_copy_that_cannot_be_rebuilt_is_refused(
    chinese: HandHistory, change: Any, message: str
) -> None:
    data = copy.deepcopy(copy_of(chinese, 0))
    change(data)
    with pytest.raises(ReviewError, match=message):
        rebuild_seat(data)


def test_a_seat_not_dealt_in_made_no_decisions(chinese: HandHistory) -> None:
    with pytest.raises(ReviewError, match="Seat 5 was not dealt into this hand"):
        rebuild_seat(history_to_json(chinese), 5)
