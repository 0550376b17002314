"""The table's special paths, each with a scripted deck."""

from __future__ import annotations

import dataclasses

import pytest

from table_helpers import deal, run, stacked, stamp, table_with
from thirteen.engine.actions import (
    DeclareNatural,
    Leave,
    Place,
    SetHand,
    Sit,
    SitIn,
    SitOut,
    StartHand,
    Surrender,
    Timeout,
)
from thirteen.engine.autoplay import auto_action
from thirteen.engine.cards import parse_cards
from thirteen.engine.errors import IllegalActionError, RuleError
from thirteen.engine.events import (
    HandStarted,
    NaturalDeclared,
    PlayerLeft,
    TimedOut,
)
from thirteen.engine.rules import get_rules
from thirteen.engine.state import Phase, TableState, deciders
from thirteen.engine.table import apply, settle
from thirteen.engine.views import view, view_to_json


def c(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def finish_with_auto(state: TableState, at: float = 1.0) -> TableState:
    """Play every remaining decision with the table's automatic move."""
    while state.phase == Phase.PLAYING:
        seat = min(deciders(state))
        state, _ = apply(state, stamp(state, auto_action(state, seat)))
    return state


def refused(state: TableState, action: object, code: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        apply(state, stamp(state, action))  # type: ignore[arg-type]
    assert info.value.code == code, info.value
    assert str(info.value)  # a sentence for the player
    return info.value


# --- seating and the button ----------------------------------------------------------------
def test_seating_rules() -> None:
    rules = get_rules("chinese-1-6")
    t = table_with(rules, ["ann", None, None, None])
    refused(t, Sit(seat=0, player="bob", stack=100), "seat_taken")
    refused(t, Sit(seat=1, player="ann", stack=100), "already_seated")
    refused(t, Sit(seat=7, player="bob", stack=100), "no_such_seat")
    refused(t, Sit(seat=1, player="bob", stack=0), "bad_buy_in")
    refused(t, StartHand(deal=stacked(rules, [])), "not_enough_players")


def test_button_starts_at_the_top_seat_and_moves_to_the_next_active_seat() -> None:
    rules = get_rules("chinese-1-6")
    t = table_with(rules, ["ann", "bob", None, "dan"])
    t = deal(t, stacked(rules, []))
    assert t.hand is not None
    assert t.hand.button == 0
    assert [b.seat for b in t.hand.boards] == [1, 3, 0]  # dealt from the left of the button
    t = finish_with_auto(t)
    t = deal(t, stacked(rules, []), at=t.next_deal_at or 0)
    assert t.hand is not None
    assert t.hand.button == 1
    assert [b.seat for b in t.hand.boards] == [3, 0, 1]
    t = finish_with_auto(t)
    t, _ = run(t, SitOut(seat=3))  # a sitting-out seat is skipped and not dealt in
    t = deal(t, stacked(rules, []), at=t.next_deal_at or 0)
    assert t.hand is not None
    assert t.hand.button == 0
    assert [b.seat for b in t.hand.boards] == [1, 0]


def test_first_button_skips_an_empty_top_seat() -> None:
    rules = get_rules("ofc")
    t = deal(table_with(rules, [None, "bob", "cat"]), stacked(rules, []))
    assert t.hand is not None
    assert t.hand.button == 1
    assert [b.seat for b in t.hand.boards] == [2, 1]


def test_leave_between_hands_and_during_a_hand() -> None:
    rules = get_rules("chinese-1-6")
    t = table_with(rules, ["ann", "bob", "cat"])
    t, events = run(t, Leave(seat=2))
    assert t.seats[2] is None
    assert events == [PlayerLeft(2, "cat", 1000, "asked")]
    t = deal(t, stacked(rules, []))
    t, events = run(t, Leave(seat=0))
    assert t.seats[0] is not None  # still playing this hand
    t = finish_with_auto(t)
    assert t.seats[0] is None
    assert t.hand is not None
    assert t.hand.settlement is not None


# --- Chinese Poker: natural, invalid natural, surrender, showdown --------------------------
DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
PLAIN = "2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc 2h"
ANN = "As Ad Ah Kd Kh Qc Qd Jc Js Ts Th 9d 3s"


def test_chinese_natural_surrender_and_showdown() -> None:
    rules = get_rules("chinese-1-6")
    t = table_with(rules, ["ann", "bob", "cat"])
    t = deal(t, stacked(rules, [DRAGON, PLAIN, ANN]))  # positions: bob, cat, ann
    assert t.hand is not None
    # An invalid declaration is refused with the reason; the turn goes on.
    before = t
    with pytest.raises(RuleError, match="Not six pairs") as info:
        apply(t, DeclareNatural(seat=2, natural="six-pairs"))
    assert info.value.code == "invalid_natural"
    assert t == before
    assert 2 in deciders(t)
    # A valid natural ends the turn and is shown at once.
    t, events = run(t, DeclareNatural(seat=1, natural="dragon"))
    assert any(isinstance(e, NaturalDeclared) for e in events)
    seen_by_cat = view(t, 2)
    assert seen_by_cat.hand is not None
    bob_board = next(b for b in seen_by_cat.hand.boards if b.seat == 1)
    assert sorted(bob_board.front + bob_board.middle + bob_board.back) == sorted(c(DRAGON))
    # A surrender is shown face down and stays hidden, also at the showdown.
    t, _ = run(t, Surrender(seat=0))
    cards = c(PLAIN)
    t, _ = run(t, SetHand(seat=2, front=cards[:3], middle=cards[3:8], back=cards[8:]))
    assert t.phase == Phase.SHOWDOWN
    assert t.hand is not None
    assert t.hand.result is not None
    # bob's dragon: 13 from each; ann surrendered: pays 3 to cat unless cat fouled (cat's
    # cards in deal order make a middle straight above a king-high back: a foul).
    cat_fouled = t.hand.result.players[1].foul
    assert cat_fouled
    ann_pays_cat = 0
    totals = dict(zip([b.seat for b in t.hand.boards], t.hand.result.totals, strict=True))
    assert totals == {1: 26, 2: -13 + ann_pays_cat, 0: -13 - ann_pays_cat}
    assert [s.stack for s in t.seats if s] == [1000 + totals[0], 1000 + totals[1], 1000 + totals[2]]
    for viewer in (1, 2, None):
        shown = view(t, viewer)
        assert shown.hand is not None
        ann = next(b for b in shown.hand.boards if b.seat == 0)
        assert ann.face_down
        assert ann.front == ann.middle == ann.back == ()


def test_chinese_hands_stay_hidden_until_the_showdown() -> None:
    rules = get_rules("chinese-2-4")
    t = table_with(rules, ["ann", "bob"])
    t = deal(t, stacked(rules, [PLAIN, ANN]))
    mine = c(PLAIN)
    t, _ = run(t, SetHand(seat=1, front=mine[:3], middle=mine[3:8], back=mine[8:]))
    other = view(t, 0)
    assert other.hand is not None
    bob = next(b for b in other.hand.boards if b.seat == 1)
    assert bob.face_down
    assert bob.front == bob.middle == bob.back == ()
    assert other.hand.me is not None
    assert sorted(other.hand.me.cards) == sorted(c(ANN))


# --- OFC: sequential streets, placement rules ------------------------------------------------
def test_ofc_sequential_turns_and_placement_rules() -> None:
    rules = get_rules("ofc")
    t = table_with(rules, ["ann", "bob"])
    t = deal(t, stacked(rules, ["Qs Qd As Ad Ac 2h 9s 9h 5c 5d 7s Kd Kh"]))
    assert t.hand is not None
    assert list(deciders(t)) == [1]  # the seat left of the button plays first
    refused(t, Place(seat=0, back=c("2c 3c 4c 5c 6c")), "not_your_turn")
    refused(t, Place(seat=1, back=c("Qs Qd As Ad")), "bad_placement")  # Ac not placed
    refused(t, Place(seat=1, front=c("Qs Qd As Ad")), "bad_placement")  # front holds 3
    refused(t, Place(seat=1, back=c("Qs Qd As Ad 2c")), "bad_cards")  # 2c not dealt
    refused(t, Place(seat=1, back=c("Qs Qd As Ad Ac"), discard=c("Qs")), "bad_cards")  # Qs twice
    refused(t, SetHand(seat=1, front=(), middle=(), back=()), "use_place")
    t, _ = run(t, Place(seat=1, front=c("Qs Qd"), back=c("As Ad Ac")))
    assert list(deciders(t)) == [0]
    seen = view(t, 0)
    assert seen.hand is not None
    bob = next(b for b in seen.hand.boards if b.seat == 1)
    assert bob.front == c("Qs Qd")  # placed cards are face up for everyone
    t, _ = run(t, auto_action(t, 0))
    # Street two: one card each, still in turn.
    assert list(deciders(t)) == [1]
    assert t.hand is not None
    assert t.hand.boards[0].pending == c("2h")
    t, _ = run(t, Place(seat=1, front=c("2h")))
    refused(t, Place(seat=1, middle=c("9s")), "not_your_turn")
    for card, row in (
        ("9s", "m"),
        ("9h", "m"),
        ("5c", "m"),
        ("5d", "m"),
        ("7s", "m"),
        ("Kd", "b"),
        ("Kh", "b"),
    ):
        t, _ = run(t, auto_action(t, 0))
        kwargs = {"middle": c(card)} if row == "m" else {"back": c(card)}
        t, _ = run(t, Place(seat=1, **kwargs))  # type: ignore[arg-type]
    t, _ = run(t, auto_action(t, 0))
    assert t.phase == Phase.SHOWDOWN
    assert t.hand is not None
    assert t.hand.boards[0].rows == (c("Qs Qd 2h"), c("9s 9h 5c 5d 7s"), c("As Ad Ac Kd Kh"))
    assert t.hand.result is not None
    assert t.hand.result.players[0].fantasyland_cards == 13


def test_ofc_simultaneous_streets() -> None:
    rules = get_rules("ofc", {"turn_order": "simultaneous"})
    t = deal(table_with(rules, ["ann", "bob", "cat"]), stacked(rules, []))
    assert sorted(deciders(t)) == [0, 1, 2]
    t, _ = run(t, auto_action(t, 2))
    assert sorted(deciders(t)) == [0, 1]
    t, _ = run(t, auto_action(t, 0))
    t, _ = run(t, Timeout(seat=1, at=rules.first_street_seconds))
    assert t.hand is not None
    assert t.hand.street == 1
    assert sorted(deciders(t)) == [0, 1, 2]


# --- pineapple discards -------------------------------------------------------------------
def test_pineapple_discards_are_hidden_from_everyone_else() -> None:
    rules = get_rules("ofc-pineapple")
    t = deal(table_with(rules, ["ann", "bob"]), stacked(rules, ["2c 3c 4c 5c 6c 7d 8d 9d"]))
    t, _ = run(t, Place(seat=1, back=c("2c 3c 4c 5c 6c")))
    t, _ = run(t, auto_action(t, 0))
    refused(t, Place(seat=1, middle=c("7d 8d 9d")), "bad_placement")  # must discard one
    t, _ = run(t, Place(seat=1, middle=c("7d 8d"), discard=c("9d")))
    for viewer in (0, None):
        text = str(view_to_json(view(t, viewer)))
        assert "9d" not in text
    mine = view(t, 1)
    assert mine.hand is not None
    assert mine.hand.me is not None
    assert mine.hand.me.discards == c("9d")


# --- fantasyland ----------------------------------------------------------------------------
FL_ENTRY = "Qs Qd As Ad Ac 2h 9s 9h 5c 5d 7s Kd Kh"  # plays to QQ / 99 55 / AAA KK


FL_ENTRY_STREETS = [
    ("front", "2h"),
    ("middle", "9s"),
    ("middle", "9h"),
    ("middle", "5c"),
    ("middle", "5d"),
    ("middle", "7s"),
    ("back", "Kd"),
    ("back", "Kh"),
]


def play_entry_hand(t: TableState) -> TableState:
    t, _ = run(t, Place(seat=1, front=c("Qs Qd"), back=c("As Ad Ac")))
    t, _ = run(t, auto_action(t, 0))
    for row, card in FL_ENTRY_STREETS:
        t, _ = run(t, Place(seat=1, **{row: c(card)}))  # type: ignore[arg-type]
        t, _ = run(t, auto_action(t, 0))
    return t


def test_fantasyland_entry_stay_exit_and_the_frozen_button() -> None:
    rules = get_rules("ofc")
    t = deal(table_with(rules, ["ann", "bob"]), stacked(rules, [FL_ENTRY]))
    t = play_entry_hand(t)
    assert t.phase == Phase.SHOWDOWN
    assert t.seats[1] is not None
    assert t.seats[1].fantasyland == 13
    # Hand 2: bob in fantasyland gets 13 cards at once; the button does not move.
    stay = "7s 7d 7h 8s 8d 8h 2s 2d As Ad Ac Kd Kh"
    t, events = run(t, StartHand(deal=stacked(rules, [stay]), at=t.next_deal_at or 0))
    started = next(e for e in events if isinstance(e, HandStarted))
    assert started.button == 0
    assert started.fantasyland == ((1, 13),)
    assert t.hand is not None
    fl = t.hand.board_of(1)
    assert fl is not None
    assert len(fl.pending) == 13
    assert sorted(deciders(t)) == [0, 1]  # the fantasyland player sets on their own clock
    cards = c(stay)
    t, _ = run(t, SetHand(seat=1, front=cards[:3], middle=cards[3:8], back=cards[8:]))
    hidden = view(t, 0)
    assert hidden.hand is not None
    bob = next(b for b in hidden.hand.boards if b.seat == 1)
    assert bob.face_down  # a fantasyland board is revealed only at the showdown
    assert bob.front == ()
    t = finish_with_auto(t)
    shown = view(t, 0)
    assert shown.hand is not None
    assert next(b for b in shown.hand.boards if b.seat == 1).front == cards[:3]
    assert t.seats[1] is not None
    assert t.seats[1].fantasyland == 13  # trips in front: stays
    # Hand 3: still in fantasyland; set without meeting the stay rule and leave it.
    leave = "2c 3d 4h 9c 9d 5h 5s 7c Jc Jd Jh Tc Td"
    t = deal(t, stacked(rules, [leave]), at=t.next_deal_at or 0)
    assert t.hand is not None
    assert t.hand.button == 0
    cards = c(leave)
    t, _ = run(t, SetHand(seat=1, front=cards[:3], middle=cards[3:8], back=cards[8:]))
    t = finish_with_auto(t)
    assert t.seats[1] is not None
    assert t.seats[1].fantasyland is None
    t = deal(t, stacked(rules, []), at=t.next_deal_at or 0)
    assert t.hand is not None
    assert t.hand.button == 1  # no fantasyland on this hand: the button moves again


def test_progressive_fantasyland_deals_fifteen_for_kings() -> None:
    rules = get_rules("ofc-pineapple-progressive")
    slice0 = "Ks Kd As Ad Ac 2h 9s 3c 9h 5c 4c 5d 7s 6c Qd Qh 8c"
    t = deal(table_with(rules, ["ann", "bob"]), stacked(rules, [slice0]))
    streets = [
        {"front": "Ks Kd", "back": "As Ad Ac"},
        {"front": "2h", "middle": "9s", "discard": "3c"},
        {"middle": "9h 5c", "discard": "4c"},
        {"middle": "5d 7s", "discard": "6c"},
        {"back": "Qd Qh", "discard": "8c"},
    ]
    for street in streets:
        t, _ = run(t, Place(seat=1, **{k: c(v) for k, v in street.items()}))  # type: ignore[arg-type]
        t, _ = run(t, auto_action(t, 0))
    assert t.seats[1] is not None
    assert t.seats[1].fantasyland == 15
    t = deal(t, stacked(rules, []), at=t.next_deal_at or 0)
    assert t.hand is not None
    board = t.hand.board_of(1)
    assert board is not None
    assert len(board.pending) == 15


# --- time: deadlines, timeouts, sit-out ------------------------------------------------------
def test_timeout_makes_a_legal_move_and_sits_the_player_out() -> None:
    rules = get_rules("chinese-1-6")
    t = table_with(rules, ["ann", "bob", "cat"])
    t = deal(t, stacked(rules, []), at=100.0)
    assert deciders(t)[0] == 100.0 + rules.set_hand_seconds
    before = t
    refused(t, Timeout(seat=0, at=150.0), "not_due")
    assert t == before
    t, events = run(t, Timeout(seat=0, at=190.0))
    assert events[0] == TimedOut(0)
    assert t.hand is not None
    assert t.hand.board_of(0) is not None
    assert t.hand.board_of(0).outcome == "set"  # type: ignore[union-attr]
    t = finish_with_auto(t)
    assert t.hand is not None
    assert t.hand.result is not None
    assert not t.hand.result.players[2].foul  # seat 0 is dealt last: position 2
    assert t.seats[0] is not None
    assert t.seats[0].sitting_out
    # Not dealt in while sitting out; back after sitting in.
    t = deal(t, stacked(rules, []), at=t.next_deal_at or 0)
    assert t.hand is not None
    assert t.hand.board_of(0) is None
    t = finish_with_auto(t)
    t, _ = run(t, SitIn(seat=0))
    t = deal(t, stacked(rules, []), at=t.next_deal_at or 0)
    assert t.hand is not None
    assert t.hand.board_of(0) is not None


def test_sitting_out_too_long_unseats_and_returns_the_stack() -> None:
    rules = get_rules("ofc")
    t = table_with(rules, ["ann", "bob"], stack=500)
    t, _ = run(t, SitOut(seat=1, at=10.0))
    refused(t, Timeout(seat=1, at=10.0 + rules.sit_out_seconds - 1), "not_due")
    t, events = run(t, Timeout(seat=1, at=10.0 + rules.sit_out_seconds))
    assert t.seats[1] is None
    assert events == [PlayerLeft(1, "bob", 500, "sat out too long")]
    refused(t, Timeout(seat=0, at=5000.0), "nothing_due")


def test_ofc_timeout_places_legally() -> None:
    rules = get_rules("ofc-pineapple")
    t = deal(table_with(rules, ["ann", "bob"]), stacked(rules, []), at=0.0)
    deadline = deciders(t)[1]
    assert deadline == rules.first_street_seconds
    t, events = run(t, Timeout(seat=1, at=deadline))
    assert isinstance(events[0], TimedOut)
    assert t.hand is not None
    assert len(t.hand.boards[0].placed) == 5
    t = finish_with_auto(t)
    assert t.seats[1] is not None
    assert t.seats[1].sitting_out


def test_time_never_runs_backwards() -> None:
    rules = get_rules("chinese-1-6")
    t = deal(table_with(rules, ["ann", "bob"]), stacked(rules, []), at=10.0)
    assert t.hand is not None
    cards = t.hand.boards[0].dealt
    seat = t.hand.boards[0].seat
    setting = SetHand(seat=seat, front=cards[:3], middle=cards[3:8], back=cards[8:])
    for at in (9.999, float("nan"), float("inf")):
        with pytest.raises(IllegalActionError) as info:
            apply(t, dataclasses.replace(setting, at=at))
        assert info.value.code == "time_order"
        assert "before the table's clock" in str(info.value)
    with pytest.raises(IllegalActionError, match="clock"):
        apply(t, StartHand(deal=stacked(rules, []), at=0.0))
    t, _ = run(t, dataclasses.replace(setting, at=10.0))  # the same moment is not backwards
    assert t.clock == 10.0


@pytest.mark.parametrize("preset", ["chinese-1-6", "ofc-pineapple"])
def test_a_decision_after_its_deadline_is_refused_only_the_timeout_is_accepted(
    preset: str,
) -> None:
    rules = get_rules(preset)
    t = deal(table_with(rules, ["ann", "bob"]), stacked(rules, []), at=0.0)
    seat, deadline = min(deciders(t).items(), key=lambda sd: sd[0])
    assert deadline is not None
    move = auto_action(t, seat)
    late = dataclasses.replace(move, at=deadline + 0.001)
    error = refused(t, late, "too_late")
    assert "only the timeout" in str(error)
    refused(t, Surrender(seat=seat, at=deadline + 1), "too_late")
    on_time, _ = run(t, dataclasses.replace(move, at=deadline))  # the last moment still counts
    assert on_time.state_id == t.state_id + 1
    t, events = run(t, Timeout(seat=seat, at=deadline + 0.001))
    assert events[0] == TimedOut(seat)


# --- seed 004: duplicate deals ------------------------------------------------------------------
def test_seed_004_duplicate_deal_across_three_tables() -> None:
    rules = get_rules("open-face-cards")
    seatings = [["A1", "B1", "C1"], ["B2", "C2", "A2"], ["C3", "A3", "B3"]]
    d = stacked(rules, [])
    tables = [deal(table_with(rules, names), d) for names in seatings]
    for seat in range(3):
        dealt = {t.hand.board_of(seat).dealt for t in tables}  # type: ignore[union-attr]
        assert len(dealt) == 1  # same seat position, same cards, at every table
    # Team A sits in every position once, so the team plays all three hands of the deal.
    team_a = {
        t.seats.index(next(s for s in t.seats if s and s.player.startswith("A"))) for t in tables
    }
    assert team_a == {0, 1, 2}
    # Whatever each table decides, the next deal again gives equal seats equal cards.
    tables = [finish_with_auto(t) for t in tables]
    d2 = stacked(rules, ["Ah Kh Qh Jh Th"])
    tables = [deal(t, d2, at=t.next_deal_at or 0) for t in tables]
    for seat in range(3):
        assert len({t.hand.board_of(seat).dealt for t in tables}) == 1  # type: ignore[union-attr]


# --- money ------------------------------------------------------------------------------------
def test_settlement_caps_losses_at_the_stack_and_pays_winners_in_order() -> None:
    assert settle([6, 3, -9], [100, 100, 4]) == [4, 0, -4]
    assert settle([3, 6, -9], [100, 100, 4]) == [3, 1, -4]
    assert settle([-2, 2], [100, 100], point_value=50) == [-100, 100]
    assert sum(settle([5, -1, -4], [1, 1, 1])) == 0
    rules = get_rules("chinese-1-6")
    t = table_with(rules, ["ann", "bob"], stack=1000)
    t, _ = run(t, Leave(seat=1))
    t, _ = run(t, Sit(seat=1, player="bob", stack=2))
    t = deal(t, stacked(rules, []))
    # bob surrenders: he owes 3 but has 2.
    t, _ = run(t, Surrender(seat=1))
    t = finish_with_auto(t)
    assert t.seats[1] is not None
    assert t.seats[1].stack == 0
    assert t.seats[0] is not None
    assert t.seats[0].stack == 1002
    assert t.seats[1].sitting_out  # no chips: not dealt in


def test_illegal_actions_change_nothing() -> None:
    rules = get_rules("open-face-cards")
    t = deal(table_with(rules, ["ann", "bob"]), stacked(rules, []))
    before = t
    refused(t, Surrender(seat=1), "no_surrender")
    refused(t, StartHand(deal=stacked(rules, [])), "hand_in_progress")
    refused(t, DeclareNatural(seat=1, natural="dragon"), "natural_not_played")
    refused(t, SetHand(seat=1, front=(), middle=(), back=()), "use_place")
    refused(t, SitIn(seat=0), "not_sitting_out")
    refused(t, Leave(seat=2), "no_such_seat")
    assert t == before
    assert t.state_id == before.state_id
    t2, _ = run(t, auto_action(t, 1))
    assert t2.state_id == t.state_id + 1


def test_several_players_in_fantasyland_at_once() -> None:
    rules = get_rules("ofc")
    second = "Kc Ks 2d 2c 2s 3c 4h 4d 6c 6h 8c Jd Js"  # plays to KK3 / 66 44 8 / 222 JJ
    t = deal(table_with(rules, ["ann", "bob"]), stacked(rules, [FL_ENTRY, second]))
    mine = FL_ENTRY_STREETS
    theirs = [
        ("front", "3c"),
        ("middle", "4h"),
        ("middle", "4d"),
        ("middle", "6c"),
        ("middle", "6h"),
        ("middle", "8c"),
        ("back", "Jd"),
        ("back", "Js"),
    ]
    t, _ = run(
        t,
        Place(seat=1, front=c("Qs Qd"), back=c("As Ad Ac")),
        Place(seat=0, front=c("Kc Ks"), back=c("2d 2c 2s")),
    )
    for (row1, card1), (row0, card0) in zip(mine, theirs, strict=True):
        t, _ = run(t, Place(seat=1, **{row1: c(card1)}), Place(seat=0, **{row0: c(card0)}))  # type: ignore[arg-type]
    assert t.phase == Phase.SHOWDOWN
    assert [s.fantasyland for s in t.seats if s] == [13, 13]
    t, events = run(t, StartHand(deal=stacked(rules, []), at=t.next_deal_at or 0))
    started = next(e for e in events if isinstance(e, HandStarted))
    assert started.fantasyland == ((1, 13), (0, 13))
    assert sorted(deciders(t)) == [0, 1]
    assert t.hand is not None
    assert all(len(b.pending) == 13 for b in t.hand.boards)
    t = finish_with_auto(t)
    assert t.phase == Phase.SHOWDOWN
    assert t.hand is not None
    assert t.hand.result is not None
    assert sum(t.hand.result.totals) == 0


def test_fresh_deals_are_full_decks_with_unpredictable_commitments() -> None:
    from thirteen.engine.deck import fresh_deal, verify_openings

    deals = [fresh_deal() for _ in range(5)]
    assert all(sorted(d.order) == list(range(52)) for d in deals)
    assert len({d.root for d in deals}) == 5
    assert len({d.order for d in deals}) == 5
    d = deals[0]
    assert verify_openings(d.root, d.leaves(), d.openings(range(52)))
    assert "root" in repr(d)
    assert len(repr(d)) < 60  # a live deck is never printed by accident


def test_fresh_deals_draw_uniformly() -> None:
    """The shuffle's draws throw away the top of the 32-bit range that would favour low
    numbers, and over many deals every card lands in every position about equally often."""
    from thirteen.engine.deck import _below, fresh_deal

    top = (1 << 32) - 1  # 2**32 - 1 is past the last whole multiple of 3: drawn again
    assert _below(3, iter([top, 7])) == 7 % 3
    assert _below(3, iter([top - 1])) == (top - 1) % 3
    assert _below(1, iter([top])) == 0
    deals = 2600
    counts = [[0] * 52 for _ in range(4)]  # where the first four cards land
    for _ in range(deals):
        order = fresh_deal().order
        for card in range(4):
            counts[card][order.index(card)] += 1
    expected = deals / 52
    for row in counts:  # chi-square, 51 degrees of freedom: above 110 has odds under 1e-6
        assert sum((c - expected) ** 2 / expected for c in row) < 110
