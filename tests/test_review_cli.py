"""``thirteen review FILE…``: tables and a summary for people, JSON lines for tools, and one
sentence with exit 2 for a file it cannot review."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import CLI


@pytest.fixture
def hands(cli: CLI, tmp_path: Path) -> Path:
    """Two hands of pineapple and two of Chinese Poker, as ``thirteen simulate`` writes them."""
    for rules in ("ofc-pineapple", "chinese-1-6"):
        args = ["simulate", "--rules", rules, "--hands", "2", "--seed", "3"]
        r = cli([*args, "--histories", str(tmp_path)])
        assert r.code == 0, r.err
    return tmp_path


def test_a_review_of_copies_shows_each_hand_and_the_summary(cli: CLI, hands: Path) -> None:
    files = sorted(str(p) for p in hands.glob("*-seat0.json"))
    r = cli(["review", *files, "--budget", "0.05"])
    assert r.code == 0, r.err
    for name in files:
        assert f"{name}: hand " in r.out
    assert "street 1" in r.out
    assert "setting" in r.out
    assert "4 hands, 12 decisions" in r.out
    assert "EV lost a hand:" in r.out
    assert "95 % interval" in r.out
    assert "The worst decisions" in r.out
    assert "By kind of mistake" in r.out


def test_json_gives_one_object_a_hand_then_the_summary(cli: CLI, hands: Path) -> None:
    files = sorted(str(p) for p in hands.glob("*-seat1.json"))
    r = cli(["review", *files, "--budget", "0.05", "--seed", "2", "--json"])
    assert r.code == 0, r.err
    lines = [json.loads(line) for line in r.out.splitlines()]
    assert len(lines) == len(files) + 1
    for name, hand in zip(files, lines, strict=False):
        assert hand["file"] == name
        assert hand["seat"] == 1
        assert hand["settings"] == {"budget": 0.05, "seed": 2}
        assert hand["decisions"]
        assert all(d["loss"] >= 0 for d in hand["decisions"])
        assert hand["loss"] == pytest.approx(sum(d["loss"] for d in hand["decisions"]), abs=1e-3)
    summary = lines[-1]["summary"]
    assert summary["hands"] == len(files)
    assert summary["loss"] == pytest.approx(sum(h["loss"] for h in lines[:-1]), abs=1e-3)
    assert r.err == ""  # no progress bar where stderr is not a terminal


def test_text_histories_and_full_ones_with_a_seat(cli: CLI, hands: Path) -> None:
    copy = str(hands / "chinese-1-6-hand-00001-seat1.txt")
    full = str(hands / "chinese-1-6-hand-00001.json")
    by_copy = cli(["review", copy, "--json"])
    by_seat = cli(["review", full, "--seat", "1", "--json"])
    assert by_copy.code == by_seat.code == 0
    (first, _), (second, _) = (
        [json.loads(line) for line in r.out.splitlines()] for r in (by_copy, by_seat)
    )
    assert {**first, "file": ""} == {**second, "file": ""}


@pytest.mark.parametrize(
    ("make", "args", "message"),
    [
        (None, [], "There is no file"),
        ("{}", [], "is not a Thirteen hand history"),
        ("not json", [], "is not valid JSON"),
        ("full", [], "full history (every seat's cards): name the seat"),
        ("full", ["--seat", "3"], "Seat 3 was not dealt into this hand"),
        ("copy", ["--budget", "0"], "--budget is seconds of sampling"),
    ],
)
def test_a_file_it_cannot_review_is_one_sentence_and_exit_2(
    cli: CLI, hands: Path, make: str | None, args: list[str], message: str
) -> None:
    path = hands / "bad.json"
    if make == "full":
        path = hands / "chinese-1-6-hand-00002.json"
    elif make == "copy":
        path = hands / "chinese-1-6-hand-00002-seat1.json"
    elif make is not None:
        path.write_text(make)
    good = str(hands / "ofc-pineapple-hand-00001.json")  # a full history: --seat 3 is for it
    r = cli(["review", str(path), good, *args])
    assert r.code == 2
    assert r.out == ""
    assert message in r.err
    assert len(r.err.strip().splitlines()) == 1
    assert "Traceback" not in r.err


def test_a_history_of_no_decisions_is_refused(cli: CLI, hands: Path) -> None:
    data = json.loads((hands / "chinese-1-6-hand-00001-seat0.json").read_text())
    data["viewer"] = "spectator"
    path = hands / "spectator.json"
    path.write_text(json.dumps(data))
    r = cli(["review", str(path)])
    assert r.code == 2
    assert "A spectator's copy holds no decisions to review" in r.err


def test_no_file_is_one_sentence(cli: CLI) -> None:
    r = cli(["review"])
    assert r.code == 2
    assert r.err == "thirteen: Give the hand histories to review: thirteen review FILE…\n"
