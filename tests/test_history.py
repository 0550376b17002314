"""Hand histories: replay, JSON and text round trips, the commitment over the header, per-viewer
copies, and tampering with every field of both forms."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from table_helpers import SALTS, table_with
from thirteen.bots.base import RandomBot
from thirteen.engine import history_text
from thirteen.engine.actions import Place, StartHand, Surrender
from thirteen.engine.cards import format_cards, parse_cards
from thirteen.engine.deck import Deal
from thirteen.engine.errors import RuleError
from thirteen.engine.events import HandStarted
from thirteen.engine.history import (
    HandHistory,
    begin_history,
    finish,
    history_from_json,
    history_to_json,
    record,
    redact_history,
    replay,
)
from thirteen.engine.history_text import history_from_text, history_to_text
from thirteen.engine.history_verify import Verification, verify_history, verify_text
from thirteen.engine.legal import legal_actions
from thirteen.engine.rules import get_rules
from thirteen.engine.snapshot import (
    canonical_json,
    hand_commitment,
    header_commitment,
    snapshot_from_json,
    snapshot_to_json,
)
from thirteen.engine.state import Phase, TableState, deciders
from thirteen.engine.table import apply
from thirteen.engine.views import view


def play_hand(
    preset: str, players: int, seed: int, surrender_seat: int | None = None
) -> tuple[HandHistory, TableState]:
    rules = get_rules(preset)
    rng = random.Random(seed)
    state = table_with(rules, [f"p{i}" for i in range(players)])
    order = list(range(52))
    rng.shuffle(order)
    start = StartHand(deal=Deal.from_order(order, SALTS), at=5.0)
    history = begin_history(state, start)
    state, events = apply(state, start)
    assert state.hand is not None
    assert isinstance(events[0], HandStarted)
    assert events[0].commitment == state.hand.commitment == history_to_json(history)["commitment"]
    now = 5.0
    while state.phase == Phase.PLAYING:
        seat = min(deciders(state))
        seat_view = view(state, seat)
        assert seat_view.hand is not None
        assert seat_view.hand.commitment == state.hand.commitment
        action = (
            Surrender(seat=seat)
            if seat == surrender_seat
            else RandomBot(rng).choose(seat_view, legal_actions(seat_view), 1.0)
        )
        now += 1.5
        action = dataclasses.replace(action, at=now)
        state, _ = apply(state, action)
        history = record(history, action)
    return finish(history), state


@pytest.fixture(scope="module")
def pineapple() -> HandHistory:
    return play_hand("ofc-pineapple", 3, seed=3)[0]


@pytest.fixture(scope="module")
def chinese() -> HandHistory:
    """A Chinese Poker hand where seat 0 fouls (a result line worth forging)."""
    for seed in range(100):
        history, _ = play_hand("chinese-1-6", 2, seed=seed)
        assert history.result is not None
        if history.result["fouls"][history.result["seats"].index(0)]:
            return history
    raise AssertionError("no fouled hand in 100 seeds")


# --- replay and round trips ----------------------------------------------------------------------
def test_replay_rebuilds_the_exact_final_state() -> None:
    history, final = play_hand("ofc-pineapple", 3, seed=1)
    assert replay(history) == final
    assert history.result is not None
    assert sum(history.result["totals"]) == 0


@pytest.mark.parametrize(
    "preset", ["chinese-2-4", "ofc", "ofc-pineapple-progressive", "open-face-cards"]
)
def test_json_and_text_round_trips(preset: str) -> None:
    history, final = play_hand(preset, 3, seed=7)
    data = history_to_json(history)
    again = history_from_json(json.loads(json.dumps(data)))
    assert again == history
    assert replay(again) == final
    text = history_to_text(data)
    assert "start_hand" in text
    assert history_from_text(text) == data
    assert verify_text(text).status == "verified"
    for seat in (0, 1, 2, None):
        copy_ = redact_history(history, seat)
        assert history_from_text(history_to_text(copy_)) == copy_
        assert verify_text(history_to_text(copy_)).status == "partial"


def test_a_full_history_verifies_every_part(pineapple: HandHistory) -> None:
    report = verify_history(history_to_json(pineapple))
    assert report.status == "verified"
    assert report.ok
    assert not report.unchecked
    said = " ".join(report.checks)
    assert "make the commitment" in said
    assert "header (hand 1, ofc-pineapple rules, 3 seated players" in said
    assert "in time order, each decision within its deadline" in said
    assert "replayed result equals the recorded result" in said
    assert report.commitment == history_to_json(pineapple)["commitment"]


def test_place_history_line_round_trip() -> None:
    history, _ = play_hand("ofc-pineapple", 2, seed=10)
    text = history_to_text(history_to_json(history))
    place_lines = [line for line in text.splitlines() if " place " in line]
    assert place_lines
    assert all("discard:" in line for line in place_lines)
    assert isinstance(history.actions[1], Place)


# --- the commitment covers the header ------------------------------------------------------------
def test_the_commitment_binds_the_header_to_the_deck(pineapple: HandHistory) -> None:
    start, root, at = pineapple.start, pineapple.deal.root, pineapple.actions[0].at
    published = hand_commitment(start, at, root)
    assert published == header_commitment(start.hands_played + 1, start, at, root)
    seat = start.seats[1]
    assert seat is not None
    other_rules = get_rules("ofc-pineapple", {"foul_penalty": 3})
    changed = [
        header_commitment(start.hands_played + 2, start, at, root),
        hand_commitment(start, at + 1, root),
        hand_commitment(dataclasses.replace(start, button=2), at, root),
        hand_commitment(
            dataclasses.replace(start, config=dataclasses.replace(start.config, rules=other_rules)),
            at,
            root,
        ),
        hand_commitment(_with_seat(start, 1, dataclasses.replace(seat, player="eve")), at, root),
        hand_commitment(_with_seat(start, 1, dataclasses.replace(seat, stack=1)), at, root),
        hand_commitment(start, at, Deal.from_order(range(52), SALTS).root),
    ]
    assert published not in changed
    assert len(set(changed)) == len(changed)


def _with_seat(state: TableState, index: int, seat: Any) -> TableState:
    seats = list(state.seats)
    seats[index] = seat
    return dataclasses.replace(state, seats=tuple(seats))


def test_canonical_json_writes_a_number_the_same_whatever_its_type() -> None:
    assert canonical_json({"b": 90.0, "a": [90, 1.5, None, True, "é"]}) == (
        '{"a":[90,1.5,null,true,"é"],"b":90}'.encode()
    )
    assert canonical_json({"x": 1e300}) == b'{"x":1e+300}'
    with pytest.raises(ValueError, match="not JSON compliant"):
        canonical_json({"x": float("nan")})


def test_snapshots_round_trip_strictly(pineapple: HandHistory) -> None:
    data = snapshot_to_json(pineapple.start)
    assert snapshot_from_json(json.loads(json.dumps(data))) == pineapple.start
    for path, value, says in [
        (("seats", 0, "stack"), "1000", "stack must be a whole number"),
        (("seats", 0, "stack"), True, "stack must be a whole number"),
        (("seats", 0, "extra"), 1, "unknown field 'extra'"),
        (("clock",), float("inf"), "finite"),
        (("clock",), 10**400, "finite"),
        (("button",), 7, "button must run from 0 to 2"),
        (("phase",), "dancing", "phase must be one of"),
        (("rules", "foul_penalty"), "six", "foul_penalty"),
    ]:
        bad = copy.deepcopy(data)
        target = bad
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        with pytest.raises(RuleError, match=says):
            snapshot_from_json(bad)
    partial = copy.deepcopy(data)
    del partial["rules"]["foul_penalty"]
    with pytest.raises(RuleError, match="every setting"):
        snapshot_from_json(partial)


# --- tampering with the JSON form ----------------------------------------------------------------
def _last_decision(data: dict[str, Any]) -> dict[str, Any]:
    action = data["actions"][-1]
    assert isinstance(action, dict)
    return action


def _tamper_json(how: str, data: dict[str, Any]) -> None:
    if how == "deck":
        cards = data["deal"]["deck"].split()
        cards[0], cards[1] = cards[1], cards[0]
        data["deal"]["deck"] = " ".join(cards)
    elif how == "salt":
        data["deal"]["salts"][3] = "00" * 16
    elif how == "commitment":
        data["commitment"] = "0" * 64
    elif how == "hand":
        data["hand"] += 1
    elif how == "hands_played":
        data["start"]["hands_played"] += 1
    elif how == "rules":
        data["start"]["rules"]["foul_penalty"] = 3
    elif how == "rules_name":
        data["start"]["rules"]["name"] = "ofc"
    elif how == "player":
        data["start"]["seats"][0]["player"] = "mallory"
    elif how == "stack":
        data["start"]["seats"][0]["stack"] += 500
    elif how == "button":
        data["start"]["button"] = 1
    elif how == "table":
        data["start"]["table"]["point_value"] = 100
    elif how == "result":
        data["result"]["totals"][0] += 1
        data["result"]["totals"][1] -= 1
    elif how == "money":
        data["result"]["money"][0] += 40
        data["result"]["money"][1] -= 40
    elif how == "foul":
        data["result"]["fouls"][0] = not data["result"]["fouls"][0]
    elif how == "no_result":
        data["result"] = None
    elif how == "action_seat":
        place = next(a for a in data["actions"] if a["type"] == "place")
        place["seat"] = (place["seat"] + 1) % 3
    elif how == "action_cards":
        place = next(a for a in data["actions"] if a["type"] == "place" and a["back"])
        place["back"] = "As Ad Ac"
    elif how == "backwards":
        data["actions"][3]["at"] = data["actions"][2]["at"] - 1
    elif how == "deal_before_clock":
        data["actions"][0]["at"] = data["start"]["clock"] - 1
    elif how == "late":
        _last_decision(data)["at"] += 1000
    elif how == "deleted_last":
        data["actions"].pop()
    elif how == "deleted_middle":
        del data["actions"][4]
    elif how == "viewer":
        data["viewer"] = 1
    elif how == "extra_at_default":
        del data["actions"][2]["discard"]
    else:  # pragma: no cover
        raise AssertionError(how)


JSON_TAMPERING = [
    ("deck", "do not make the published commitment"),
    ("salt", "do not make the published commitment"),
    ("commitment", "do not make the published commitment"),
    ("hand", "the file calls this hand 2"),
    ("hands_played", "do not make the published commitment"),
    ("rules", "do not make the published commitment"),
    ("rules_name", "do not make the published commitment"),
    ("player", "do not make the published commitment"),
    ("stack", "do not make the published commitment"),
    ("button", "do not make the published commitment"),
    ("table", "do not make the published commitment"),
    ("result", "recorded result differs from the replay"),
    ("money", "recorded result differs from the replay"),
    ("foul", "recorded result differs from the replay"),
    ("no_result", "records no result"),
    ("action_seat", "is refused"),
    ("action_cards", "is refused"),
    ("backwards", "before the table's clock"),
    ("deal_before_clock", "do not make the published commitment"),
    ("late", "only the timeout is accepted"),
    ("deleted_last", "stop before the showdown"),
    ("deleted_middle", "action 5"),
    ("viewer", "viewer all"),
    ("extra_at_default", "writes actions[2].discard differently"),
]


@pytest.mark.parametrize(("how", "says"), JSON_TAMPERING)
def test_every_field_of_a_json_history_is_checked(
    pineapple: HandHistory, how: str, says: str
) -> None:
    data = history_to_json(pineapple)
    _tamper_json(how, data)
    report = verify_history(data)
    assert report.status == "failed", report
    assert any(says in p for p in report.problems), report.problems
    if how != "extra_at_default":  # the text form writes every field
        assert verify_text(history_to_text(data)).status == "failed"


def test_a_late_decision_fails_even_when_every_later_time_moves_with_it(
    pineapple: HandHistory,
) -> None:
    data = history_to_json(pineapple)
    for action in data["actions"][5:]:
        action["at"] += 60  # a street's deadline is 15 s after it opens
    report = verify_history(data)
    assert report.status == "failed"
    assert "action 6" in report.problems[0]
    assert "only the timeout is accepted" in report.problems[0]


@pytest.mark.parametrize(
    ("how", "says"),
    [
        ("not_an_object", "not a Thirteen hand history"),
        ("version", "Unsupported history version"),
        ("unknown_field", "unknown field 'note'"),
        ("at_text", "number of seconds"),
        ("at_nan", "finite"),
        ("at_huge", "finite"),
        ("move_at_text", "Action 3: at must be a number of seconds"),
        ("move_at_huge", "Action 3: at must be a finite number"),
        ("seat_text", "seat must be a whole number"),
        ("salts", "salts must be a list"),
        ("deck", "A deck holds each of the 52 cards once"),
        ("two_deals", "a history holds one deal"),
        ("result_shape", "as long as each other"),
        ("commitment_case", "lowercase hex"),
    ],
)
def test_malformed_json_is_unreadable_not_a_traceback(
    pineapple: HandHistory, how: str, says: str
) -> None:
    data: Any = history_to_json(pineapple)
    if how == "not_an_object":
        data = [data]
    elif how == "version":
        data["version"] = 1
    elif how == "unknown_field":
        data["note"] = "I won"
    elif how == "at_text":
        data["actions"][0]["at"] = "abc"
    elif how == "at_nan":
        data["actions"][0]["at"] = float("nan")
    elif how == "at_huge":
        data["actions"][0]["at"] = 10**4000
    elif how == "move_at_text":
        data["actions"][2]["at"] = "abc"
    elif how == "move_at_huge":
        data["actions"][2]["at"] = -(10**4000)
    elif how == "seat_text":
        data["actions"][2]["seat"] = "1"
    elif how == "salts":
        data["deal"]["salts"] = "00"
    elif how == "deck":
        data["deal"]["deck"] = "As Ks"
    elif how == "two_deals":
        data["actions"].append({"type": "start_hand", "at": 99.0})
    elif how == "result_shape":
        data["result"]["totals"].pop()
    elif how == "commitment_case":
        data["commitment"] = data["commitment"].upper()
    report = verify_history(data)
    assert report.status == "unreadable"
    assert says in report.problems[0], report.problems


def _junk() -> Iterator[Any]:
    yield from (None, "abc", -1, 10**40, [], {}, 1.5, True, float("nan"))


def _paths(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data[:3]):
            yield from _paths(value, (*path, i))


def _replaced(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    out = copy.copy(data)
    out[path[0]] = _replaced(data[path[0]], path[1:], value)
    return out


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


@pytest.mark.parametrize("form", ["full", "copy"])
def test_junk_anywhere_never_verifies_and_never_raises(form: str) -> None:
    history, _ = play_hand("chinese-1-6", 2, seed=1)
    data = history_to_json(history) if form == "full" else redact_history(history, 0)
    checked = 0
    for path in _paths(data):
        if path and path[0] == "deal" and len(path) > 2 and path[1] in ("salts", "leaves"):
            continue  # one salt or leaf is like another
        for junk in _junk():
            old = _at(data, path)
            if junk is old or (type(junk) is type(old) and junk == old):
                continue
            report = verify_history(_replaced(data, path, junk))
            assert isinstance(report, Verification)
            if form == "copy" and report.status == "partial":  # e.g. no openings: proves less
                continue
            assert report.status in ("failed", "unreadable"), (path, junk, report)
            assert report.problems
            checked += 1
    assert checked > 300


def test_junk_in_any_line_of_a_text_history_never_raises() -> None:
    history, _ = play_hand("chinese-1-6", 2, seed=1)
    for data in (history_to_json(history), redact_history(history, 1)):
        lines = history_to_text(data).split("\n")
        for n in range(len(lines)):
            for junk in (
                "",
                "abc",
                "1" * 5000,
                "# x",
                "data: {}",
                "0.0 seat 0 sit",
                lines[n] + "x",
            ):
                if junk == lines[n]:
                    continue
                changed = "\n".join([*lines[:n], junk, *lines[n + 1 :]])
                report = verify_text(changed)
                assert report.status in ("failed", "unreadable"), (n, junk[:20], report)


# --- tampering with the text form ----------------------------------------------------------------
def _edit(text: str, starts: str, change: Callable[[str], str]) -> str:
    lines = text.split("\n")
    n = next(i for i, line in enumerate(lines) if line.startswith(starts))
    lines[n] = change(lines[n])
    return "\n".join(lines)


TEXT_TAMPERING: list[tuple[str, str, Callable[[str], str], str]] = [
    ("result line", "result seat 1:", lambda _: "result seat 1: +40 points, +40 money", "line"),
    ("rules line", "rules:", lambda _: "rules: chinese-2-4", "line 2 says 'rules: chinese-2-4'"),
    ("seat name", "seat 1:", lambda line: line.replace('"p0"', '"mallory"'), "line"),
    ("seat stack", "seat 2:", lambda line: line.replace("stack 1000", "stack 9000"), "line"),
    ("hand number", "# Thirteen", lambda line: line.replace("hand 1,", "hand 7,"), "hand 7"),
    ("commitment", "commitment:", lambda line: line[:-4] + "0000", "commitment"),
    ("button line", "seat 2:", lambda line: "button before the deal: seat 2\n" + line, "line"),
]


@pytest.mark.parametrize(("what", "starts", "change", "says"), TEXT_TAMPERING)
@pytest.mark.parametrize("viewer", ["all", 1])
def test_every_line_of_a_text_history_is_checked(
    chinese: HandHistory,
    what: str,
    starts: str,
    change: Callable[[str], str],
    says: str,
    viewer: str | int,
) -> None:
    data = history_to_json(chinese) if viewer == "all" else redact_history(chinese, 1)
    text = history_to_text(data)
    assert "(fouled)" in next(line for line in text.split("\n") if line.startswith("result seat 1"))
    report = verify_text(_edit(text, starts, change))
    assert report.status == "failed", (what, report)
    assert any(says in p for p in report.problems), report.problems


def test_text_data_line_and_header_edits_fail(chinese: HandHistory) -> None:
    text = history_to_text(history_to_json(chinese))
    forged = _edit(text, "data:", lambda line: line.replace('"player":"p1"', '"player":"eve"'))
    report = verify_text(forged)
    assert report.status == "failed"
    assert "line" in report.problems[0]  # the seat line no longer matches the data
    both = _edit(forged, "seat 2:", lambda line: line.replace('"p1"', '"eve"'))
    report = verify_text(both)
    assert report.status == "failed"
    assert "do not make the published commitment" in report.problems[0]


@pytest.mark.parametrize("readable", [True, False])
def test_text_action_time_edits_fail(chinese: HandHistory, readable: bool) -> None:
    text = history_to_text(history_to_json(chinese), readable=readable)
    lines = text.split("\n")
    n = next(i for i, line in enumerate(lines) if " set_hand " in line)
    at, _, rest = lines[n].partition(" ")
    early = history_text._time_text(1.0, readable)
    backwards = "\n".join([*lines[:n], f"{early} {rest}", *lines[n + 1 :]])
    report = verify_text(backwards)
    assert report.status == "failed"
    assert "before the table's clock" in report.problems[0]
    later = history_text._time_text(history_text._parse_time(at) + 500, readable)
    late = "\n".join([*lines[:n], f"{later} {rest}", *lines[n + 1 :]])
    report = verify_text(late)
    assert report.status == "failed"
    assert "only the timeout is accepted" in " ".join(report.problems)
    deleted = "\n".join([*lines[:n], *lines[n + 1 :]])
    assert verify_text(deleted).status == "failed"


def test_trailing_spaces_and_windows_line_ends_are_fine(chinese: HandHistory) -> None:
    text = history_to_text(history_to_json(chinese))
    assert verify_text(text.replace("\n", "  \r\n")).status == "verified"
    assert verify_text("\ufeff" + text + "\n\n").status == "verified"


# --- a player's copy -----------------------------------------------------------------------------
def cards_named(data: Any) -> set[str]:
    text = json.dumps(data)
    return {
        t
        for t in text.replace('"', " ").replace(",", " ").split()
        if len(t) == 2 and t[0] in "23456789TJQKA" and t[1] in "cdhs"
    }


def test_redacted_history_hides_others_discards_and_surrenders() -> None:
    history, final = play_hand("ofc-pineapple", 3, seed=4, surrender_seat=2)
    assert final.hand is not None
    discards = {
        s: set(format_cards(b.discards).split()) - {""}
        for s, b in ((b.seat, b) for b in final.hand.boards)
    }
    surrendered = final.hand.board_of(2)
    assert surrendered is not None
    hidden_surrender = set(format_cards(surrendered.dealt).split())
    for viewer in (0, 1, None):
        redacted = redact_history(history, viewer)
        assert "deck" not in redacted["deal"]
        named = cards_named(redacted["actions"]) | {o[1] for o in redacted["deal"]["openings"]}
        for seat, cards in discards.items():
            if seat != viewer:
                assert not (cards & named), (viewer, seat)
        assert not (hidden_surrender & named)
        if viewer is not None:
            assert discards[viewer] <= named  # your own discards are yours to see
        report = verify_history(redacted)
        assert report.status == "partial", report.problems
    mine = redact_history(history, 2)
    assert hidden_surrender <= {o[1] for o in mine["deal"]["openings"]}


def test_a_players_copy_says_what_it_proves_and_what_it_cannot(pineapple: HandHistory) -> None:
    copy_ = redact_history(pineapple, 1)
    report = verify_history(copy_)
    assert report.status == "partial"
    assert not report.ok
    said = " ".join(report.checks)
    assert "opened cards match" in said
    assert "make the commitment" in said
    assert "replay" not in said
    assert "result" not in said
    assert "cannot be replayed" in report.unchecked[0]
    assert "result" in report.unchecked[0]


@pytest.mark.parametrize("how", ["forged_result", "deleted_action", "forged_action"])
def test_a_forged_result_or_deleted_action_in_a_copy_is_never_verified(
    pineapple: HandHistory, how: str
) -> None:
    copy_ = redact_history(pineapple, 1)
    if how == "forged_result":
        copy_["result"]["totals"] = [-t for t in copy_["result"]["totals"]]
        copy_["result"]["money"] = [-m for m in copy_["result"]["money"]]
    elif how == "deleted_action":
        copy_["actions"].pop()
    else:
        copy_["actions"][1]["seat"] = 2
    for report in (verify_history(copy_), verify_text(history_to_text(copy_))):
        assert report.status == "partial"  # what it proves still holds; the rest is unproven
        assert not report.ok
        assert all("result" not in c and "replay" not in c for c in report.checks)


def test_a_forged_opening_is_caught(pineapple: HandHistory) -> None:
    redacted = redact_history(pineapple, 0)
    position, card, salt = redacted["deal"]["openings"][0]
    other = "As" if card != "As" else "Kd"
    redacted["deal"]["openings"][0] = [position, other, salt]
    report = verify_history(redacted)
    assert report.status == "failed"
    assert "do not match the commitment" in report.problems[0]


@pytest.mark.parametrize(
    ("how", "says"),
    [
        ("position -1", "position must run from 0 to 51"),
        ("position 999", "position must run from 0 to 51"),
        ("position text", "position must be a whole number"),
        ("unsorted", "in deck order"),
        ("bad card", "Zz"),
        ("short salt", "salt must be 16 bytes"),
        ("51 leaves", "52 leaves"),
        ("viewer", 'The viewer ("all", "spectator" or a seat) must run from 0 to 2'),
        ("hidden own", "discard"),
    ],
)
def test_a_malformed_copy_is_unreadable(pineapple: HandHistory, how: str, says: str) -> None:
    copy_ = redact_history(pineapple, 0)
    openings = copy_["deal"]["openings"]
    if how == "position -1":
        openings[0][0] = -1
    elif how == "position 999":
        openings[-1][0] = 999
    elif how == "position text":
        openings[0][0] = "3"
    elif how == "unsorted":
        openings[0], openings[1] = openings[1], openings[0]
    elif how == "bad card":
        openings[0][1] = "Zz"
    elif how == "short salt":
        openings[0][2] = "00"
    elif how == "51 leaves":
        copy_["deal"]["leaves"].pop()
    elif how == "viewer":
        copy_["viewer"] = 9
    elif how == "hidden own":
        mine = next(a for a in copy_["actions"] if a.get("seat") == 0 and a.get("discard"))
        mine["discard"] = "?? ?"
    report = verify_history(copy_)
    assert report.status == "unreadable", report
    assert says in report.problems[0], report.problems


def test_a_copy_with_the_wrong_viewer_or_times_fails(pineapple: HandHistory) -> None:
    copy_ = redact_history(pineapple, 0)
    copy_["viewer"] = "all"
    assert "names its viewer" in verify_history(copy_).problems[0]
    copy_ = redact_history(pineapple, 0)
    copy_["actions"][3]["at"] = 1.0
    assert "not in time order" in " ".join(verify_history(copy_).problems)


def test_history_from_json_refuses_bad_input(pineapple: HandHistory) -> None:
    data = history_to_json(pineapple)
    with pytest.raises(RuleError, match="not a Thirteen hand history"):
        history_from_json({"format": "pgn"})
    with pytest.raises(RuleError, match="redacted"):
        history_from_json(redact_history(pineapple, 0))
    bad = copy.deepcopy(data)
    bad["actions"][1]["type"] = "fly"
    with pytest.raises(RuleError, match="Action 2: Unknown action type 'fly'"):
        history_from_json(bad)
    assert parse_cards(data["deal"]["deck"])  # the full deck is there to replay


def test_text_that_is_not_a_history_is_unreadable() -> None:
    for text in ("", "hello", "# Thirteen hand history v2 — hand 1, viewer all\n"):
        report = verify_text(text)
        assert report.status == "unreadable"
        assert report.problems
    report = verify_text("# Thirteen hand history v2 — hand 1, viewer all\n" + "7" * 5000)
    assert report.status == "unreadable"
    assert "5000 digits" in report.problems[0]
