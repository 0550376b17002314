"""Hand histories: replay, JSON and text round trips, tampering, per-viewer redaction, the CLI."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import Run, run_cli
from table_helpers import SALTS, table_with
from thirteen.bots.base import RandomBot
from thirteen.engine.actions import Place, StartHand, Surrender
from thirteen.engine.cards import format_cards, parse_cards
from thirteen.engine.deck import Deal
from thirteen.engine.history import (
    HandHistory,
    begin_history,
    finish,
    history_from_json,
    history_from_text,
    history_to_json,
    history_to_text,
    record,
    redact_history,
    replay,
    verify_history,
)
from thirteen.engine.legal import legal_actions
from thirteen.engine.rules import get_rules
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
    state, _ = apply(state, start)
    now = 5.0
    while state.phase == Phase.PLAYING:
        seat = min(deciders(state))
        seat_view = view(state, seat)
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
    assert verify_history(history_from_text(text)).ok


def test_verify_full_history() -> None:
    history, _ = play_hand("ofc-pineapple", 3, seed=2)
    report = verify_history(history_to_json(history))
    assert report.ok
    assert any("commitment" in c for c in report.checks)
    assert any("replay" in c for c in report.checks)


def tamper(data: dict[str, Any], how: str) -> dict[str, Any]:
    bad = copy.deepcopy(data)
    if how == "deck":
        cards = bad["deal"]["deck"].split()
        cards[0], cards[1] = cards[1], cards[0]
        bad["deal"]["deck"] = " ".join(cards)
    elif how == "salt":
        bad["deal"]["salts"][3] = "00" * 16
    elif how == "result":
        bad["result"]["totals"][0] += 1
        bad["result"]["totals"][1] -= 1
    elif how == "action":
        place = next(a for a in bad["actions"] if a["type"] == "place")
        place["seat"] = (place["seat"] + 1) % 3
    return bad


@pytest.mark.parametrize(
    ("how", "says"),
    [
        ("deck", "do not match the published commitment"),
        ("salt", "do not match the published commitment"),
        ("result", "differs from the recorded result"),
        ("action", "do not replay"),
    ],
)
def test_tampered_histories_do_not_verify(how: str, says: str) -> None:
    history, _ = play_hand("ofc-pineapple", 3, seed=3)
    report = verify_history(tamper(history_to_json(history), how))
    assert not report.ok
    assert any(says in p for p in report.problems), report.problems


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
        assert report.ok, report.problems
    mine = redact_history(history, 2)
    assert hidden_surrender <= {o[1] for o in mine["deal"]["openings"]}


def test_a_forged_opening_is_caught() -> None:
    history, _ = play_hand("ofc", 2, seed=5)
    redacted = redact_history(history, 0)
    position, card, salt = redacted["deal"]["openings"][0]
    other = "As" if card != "As" else "Kd"
    redacted["deal"]["openings"][0] = [position, other, salt]
    report = verify_history(redacted)
    assert not report.ok
    assert "do not match the commitment" in report.problems[0]


def test_history_from_json_refuses_bad_input() -> None:
    history, _ = play_hand("ofc", 2, seed=6)
    data = history_to_json(history)
    from thirteen.engine.errors import RuleError

    with pytest.raises(RuleError, match="not a Thirteen hand history"):
        history_from_json({"format": "pgn"})
    with pytest.raises(RuleError, match="redacted"):
        history_from_json(redact_history(history, 0))
    bad = copy.deepcopy(data)
    bad["actions"][1]["type"] = "fly"
    with pytest.raises(RuleError, match="Action 2: Unknown action type 'fly'"):
        history_from_json(bad)
    assert parse_cards(data["deal"]["deck"])  # the full deck is there to replay


# --- the CLI -------------------------------------------------------------------------------------
CLI = Callable[..., Run]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> CLI:
    return lambda args, stdin="": run_cli(args, capsys, monkeypatch, stdin)


def test_verify_command(cli: CLI, tmp_path: Path) -> None:
    history, _ = play_hand("ofc-pineapple", 3, seed=8)
    data = history_to_json(history)
    good = tmp_path / "hand.json"
    good.write_text(json.dumps(data))
    r = cli(["verify", str(good)])
    assert r.code == 0, r.err
    assert "commitment" in r.out
    text = tmp_path / "hand.txt"
    text.write_text(history_to_text(redact_history(history, 1)))
    r = cli(["verify", str(text)])
    assert r.code == 0, r.err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tamper(data, "deck")))
    r = cli(["verify", str(bad)])
    assert r.code == 2
    assert "does not verify" in r.err
    assert len(r.err.strip().splitlines()) == 1
    r = cli(["verify", str(tmp_path / "missing.json")])
    assert r.code == 2
    r = cli(["verify", "-"], stdin="{not json")
    assert r.code == 2
    assert "not valid JSON" in r.err


def test_simulate_command(cli: CLI) -> None:
    args = [
        "simulate",
        "--rules",
        "ofc-pineapple",
        "--players",
        "3",
        "--hands",
        "15",
        "--seed",
        "9",
        "--json",
    ]
    first = cli(args)
    assert first.code == 0, first.err
    out = json.loads(first.out)
    assert out["hands"] == 15
    assert len(out["totals"]) == 3
    assert sum(out["totals"]) == 0
    assert out["hands_per_second"] > 0
    assert 0 <= out["foul_rate"][0] <= 1
    assert json.loads(cli(args).out)["totals"] == out["totals"]  # --seed reproduces
    human = cli(["simulate", "--rules", "chinese-1-6", "--players", "4", "--hands", "10"])
    assert human.code == 0
    assert "hands per second" in human.out
    bad = cli(["simulate", "--rules", "ofc-pineapple", "--players", "4", "--hands", "5"])
    assert bad.code == 2
    assert "2 to 3 players" in bad.err
    assert cli(["simulate", "--hands", "0"]).code == 2


def test_place_history_line_round_trip() -> None:
    history, _ = play_hand("ofc-pineapple", 2, seed=10)
    data = history_to_json(history)
    text = history_to_text(data)
    place_lines = [line for line in text.splitlines() if " place " in line]
    assert place_lines
    assert all("discard:" in line for line in place_lines)
    assert isinstance(history.actions[1], Place)
