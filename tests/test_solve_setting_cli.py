"""``thirteen solve setting``: output shapes, stdin, and one-line refusals with exit code 2."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_helpers import CLI
from thirteen.bots import _setter_tables as tables
from thirteen.bots._setter_checksum import TABLES_SHA256
from thirteen.engine.cards import parse_cards
from thirteen.engine.rules import get_rules
from thirteen.engine.scoring import is_foul, row_strengths

HAND = "As Ad Kc Kd 9h 9s 7c 6d 5h 4s 3c 2d Jh"
DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"


def _legal(obj: dict[str, object], rules_name: str = "chinese-1-6", **overrides: object) -> bool:
    rules = get_rules(rules_name, overrides or None)
    rows = [parse_cards(str(obj[row])) for row in ("front", "middle", "back")]
    return not is_foul(rules, *row_strengths(rules, *rows))


def test_json_for_one_hand(cli: CLI) -> None:
    r = cli(["solve", "setting", *HAND.split(), "--json"])
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert {"front", "middle", "back", "ev", "natural", "surrender"} <= set(obj)
    assert [len(str(obj[row]).split()) for row in ("front", "middle", "back")] == [3, 5, 5]
    assert sorted(" ".join(str(obj[r]) for r in ("front", "middle", "back")).split()) == sorted(
        HAND.split()
    )
    assert _legal(obj)
    assert obj["natural"] is None
    assert obj["surrender"] is False
    assert isinstance(obj["ev"], float)


def test_json_reports_a_natural(cli: CLI) -> None:
    obj = json.loads(cli(["solve", "setting", DRAGON, "--json"]).out)
    assert obj["natural"] == "dragon"
    assert obj["ev"] > 12


def test_stdin_one_hand_per_line_with_rules_and_alternatives(cli: CLI) -> None:
    text = f"{HAND}\n\n{DRAGON}\n2c 2d 3h 3s 4c 5d 7h 8s 9c Jd Qh Ks 4d\n"
    r = cli(
        [
            "solve",
            "setting",
            "-",
            "--rules",
            "chinese-2-4",
            "--lowball-middle",
            "--json",
            "--top",
            "2",
        ],
        stdin=text,
    )
    assert r.code == 0, r.err
    objs = [json.loads(line) for line in r.out.splitlines()]
    assert len(objs) == 3
    for obj in objs:
        assert obj["rules"] == "chinese-2-4 (custom)"
        if obj["natural"] is None:
            assert _legal(obj, "chinese-2-4", lowball_middle=True)
            assert len(obj["alternatives"]) == 2
            assert obj["alternatives"][0]["ev"] <= obj["play_ev"]


def test_readable_output(cli: CLI) -> None:
    r = cli(["solve", "setting", *HAND.split()])
    assert r.code == 0, r.err
    for word in ("front", "middle", "back", "Expected", "per opponent"):
        assert word in r.out
    r2 = cli(["solve", "setting", DRAGON])
    assert "Declare Dragon" in r2.out
    r3 = cli(["solve", "setting", "2c 2d 3h 3s 4c 5d 7h 8s 9c Jd Qh Ks 4d"])
    assert "Surrender" in r3.out


@pytest.mark.parametrize(
    ("args", "stdin", "says"),
    [
        (["Zz", *HAND.split()[1:]], "", '"Zz" is not a card'),
        (["As", *HAND.split()[:-1]], "", "As is given twice"),
        (HAND.split()[:12], "", "13 cards, not 12"),
        ([*HAND.split(), "--rules", "chinese-9-9"], "", "There is no preset 'chinese-9-9'"),
        ([*HAND.split(), "--rules", "ofc"], "", "ofc is an OFC game"),
        ([*HAND.split(), "--overrides", "{nope"], "", "--overrides is not valid JSON"),
        ([*HAND.split(), "--overrides", '{"colour": 1}'], "", "There is no setting 'colour'"),
        (["-"], f"{HAND}\n{HAND[:-3]}\n", "line 2: a Chinese Poker hand has 13 cards, not 12"),
        (["-"], f"{HAND}\nAs Ad\n{DRAGON} 2x\n", "line 2: a Chinese Poker hand has 13 cards"),
        ([], "", "Give 13 cards"),
    ],
)
def test_refuses_bad_input(cli: CLI, args: list[str], stdin: str, says: str) -> None:
    r = cli(["solve", "setting", *args], stdin=stdin)
    assert r.code == 2
    assert r.out == ""  # nothing half-done
    assert r.err.startswith("thirteen: ")
    assert says in r.err
    assert len(r.err.strip().splitlines()) == 1


@pytest.fixture
def damaged_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    data = bytearray(tables.default_path().read_bytes())
    data[100] ^= 0xFF
    bad = tmp_path / "setter_tables.npz"
    bad.write_bytes(bytes(data))
    monkeypatch.setattr(tables, "default_path", lambda: bad)
    tables.load_tables.cache_clear()
    tables.model_for.cache_clear()
    yield
    tables.load_tables.cache_clear()
    tables.model_for.cache_clear()


@pytest.mark.usefixtures("damaged_tables")
def test_damaged_tables_are_one_clear_line(cli: CLI) -> None:
    r = cli(["solve", "setting", *HAND.split(), "--json"])
    assert r.code == 2
    assert r.out == ""
    assert "do not match their checksum" in r.err
    assert len(r.err.strip().splitlines()) == 1


def test_copy_of_tables_still_loads(tmp_path: Path) -> None:
    copy = tmp_path / "t.npz"
    shutil.copyfile(tables.default_path(), copy)
    assert tables.read_tables(copy).sha256 == TABLES_SHA256  # checked against the shipped sum
