"""``thirteen eval``, ``score`` and ``rules``: the exact shapes other tools rely on."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cli_helpers import CLI
from thirteen.engine.cards import format_cards
from thirteen.engine.evaluate import evaluate_batch
from thirteen.engine.rules import PRESETS


def test_eval_one_hand(cli: CLI) -> None:
    r = cli(["eval", "As", "Ks", "Qs", "Js", "10s"])
    assert r.code == 0
    obj = json.loads(r.out)
    assert obj["cards"] == "As Ks Qs Js Ts"
    assert obj["category"] == "straight flush"
    assert isinstance(obj["strength"], int)
    r2 = json.loads(cli(["eval", "Qs Qd 7c"]).out)
    assert r2["category"] == "pair"
    assert r2["strength"] < obj["strength"]


def test_eval_stdin_matches_the_batch_evaluator(cli: CLI) -> None:
    rng = np.random.default_rng(11)
    hands = [rng.choice(52, 5 if i % 3 else 3, replace=False) for i in range(3000)]
    text = "\n".join(format_cards(map(int, h)) for h in hands) + "\n\n"
    r = cli(["eval", "-"], stdin=text)
    assert r.code == 0
    lines = [json.loads(line) for line in r.out.splitlines()]
    assert len(lines) == len(hands)
    fives = [h for h in hands if len(h) == 5]
    expected5 = evaluate_batch(np.array(fives)).tolist()
    got5 = [line["strength"] for line in lines if len(line["cards"].split()) == 5]
    assert got5 == expected5
    assert {line["category"] for line in lines} >= {"high card", "pair", "two pair", "trips"}


@pytest.mark.parametrize(
    ("args", "stdin", "says"),
    [
        (["eval", "As", "Zz", "Kd"], "", '"Zz" is not a card'),
        (["eval", "As", "As", "Kd"], "", "As is given twice"),
        (["eval", "As", "Kd"], "", "3 or 5 cards, not 2"),
        (["eval", "-"], "As Kd Qc\nAs Kd 2x\n", 'line 2: "2x" is not a card'),
        (["eval"], "", "Give a hand"),
    ],
)
def test_eval_refuses_bad_input(cli: CLI, args: list[str], stdin: str, says: str) -> None:
    r = cli(args, stdin=stdin)
    assert r.code == 2
    assert r.out == ""  # nothing half-done
    assert says in r.err
    assert len(r.err.strip().splitlines()) == 1


SCORE_INPUT = {
    "rules": "chinese-1-6",
    "players": [
        {"front": "Qs Qd 2c", "middle": "9c 9d 5h 5s 2d", "back": "Ah Kh 8h 6h 3h"},
        {"front": "Kc Kd 4c", "middle": "7c 7d 6c 6d 3c", "back": "As Ks Js Ts 9s"},
        {"surrender": True, "cards": "2h 7s 4d 5c 5d 6s 7h 8c 8d 8s 9h Tc Jc"},
        {"natural": "six-pairs", "cards": "Ac Ad Qc Qh Jd Jh Td Th 4h 4s 3s 3d 2s"},
    ],
}


def test_score_prints_totals_matrix_and_players(cli: CLI, tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(SCORE_INPUT))
    r = cli(["score", str(path)])
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert out["totals"] == [-1, 1, -9, 9]
    assert out["matrix"][3] == [3, 3, 3, 0]
    assert [p["foul"] for p in out["players"]] == [False] * 4
    assert [p["fantasyland"] for p in out["players"]] == [False] * 4
    assert all(isinstance(p["royalties"], int) for p in out["players"])
    assert out["players"][3]["natural"]["name"] == "six-pairs"


def test_score_ofc_from_stdin_with_overrides(cli: CLI) -> None:
    data = {
        "rules": "ofc",
        "rules_overrides": {"royalties": "modern"},
        "players": [
            {"top": "Qs Qd 2c", "middle": "9c 9d 5h 5s 2d", "bottom": "Ah Kh 8h 6h 3h"},
            {"front": "2s 3s 4c", "middle": "Kc Kd 6c 7d 8c", "back": "Tc Td Ts 7c 7h"},
            {
                "front": "Jc Jd Jh",
                "middle": "3d 4d 5d 6d 7s",
                "back": "As Ad Ac 8s 8d",
                "in_fantasyland": True,
            },
        ],
    }
    r = cli(["score", "-"], stdin=json.dumps(data))
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert sum(out["totals"]) == 0
    assert out["players"][0]["royalties"] == 7 + 4  # QQ front, back flush
    assert out["players"][0]["fantasyland"] is True
    assert (
        out["players"][2]["royalties"] == 19 + 4 + 6
    )  # JJJ front (modern), middle straight, back boat
    assert out["players"][2]["fantasyland"] is True  # trips in front keep fantasyland
    assert out["rules"] == "ofc (custom)"


@pytest.mark.parametrize(
    ("stdin", "says"),
    [
        ("{", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"players": 3}', '"players" must be a list'),
        ('{"players": [], "extra": 1}', "Unknown field 'extra'"),
        ('{"rules": "poker", "players": []}', "no preset 'poker'"),
        (
            '{"players": [{"front": "Qs Qd", "middle": "9c 9d 5h 5s 2d", "back": "Ah Kh 8h 6h 3h"},'
            ' {"surrender": true, "cards": "2h 7s 4d 5c 5d 6s 7h 8c 8d 8s 9h Tc Jc"}]}',
            "front holds 3 cards, not 2",
        ),
        (
            '{"players": [{"front": "Qs Qd 2c", "middle": "9c 9d 5h 5s 2d"}, {"surrender": true, "cards": "2h 7s 4d 5c 5d 6s 7h 8c 8d 8s 9h Tc Jc"}]}',
            "back is missing",
        ),
        (
            '{"players": [{"front": "Qs Qd Xc", "middle": "9c 9d 5h 5s 2d", "back": "Ah Kh 8h 6h 3h"}]}',
            '"Xc" is not a card',
        ),
        (
            '{"players": [{"front": "Qs Qd 2c", "middle": "9c 9d 5h 5s 2d", "back": "Ah Kh 8h 6h 3h"},'
            ' {"front": "Qs Jd 3c", "middle": "8c 8d 5c 5d 2h", "back": "As Ks 8s 6s 3s"}]}',
            "Qs is used twice (players 1 and 2)",
        ),
        (
            '{"players": [{"natural": "dragon", "cards": "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 8c"}, {"surrender": true, "cards": "9h 9s Th Ts Jh Js Qh Qs Kh Ks Ah As 2h"}]}',
            "Not dragon",
        ),
        (
            '{"players": [{"natural": "dragon"}, {"surrender": true, "cards": "2h 7s 4d 5c 5d 6s 7h 8c 8d 8s 9h Tc Jc"}]}',
            "cards must be text",
        ),
        (
            '{"players": [{"front": 3}, {"surrender": true, "cards": "2h 7s 4d 5c 5d 6s 7h 8c 8d 8s 9h Tc Jc"}]}',
            "cards must be text",
        ),
        (
            '{"players": [{"wings": "As"}, {"surrender": true, "cards": "2h 7s 4d 5c 5d 6s 7h 8c 8d 8s 9h Tc Jc"}]}',
            "unknown field 'wings'",
        ),
        ('{"rules_overrides": {"scoring": "9-9"}, "players": []}', "scoring must be one of"),
    ],
)
def test_score_refuses_bad_input_with_one_line(cli: CLI, stdin: str, says: str) -> None:
    r = cli(["score", "-"], stdin=stdin)
    assert r.code == 2
    assert r.out == ""
    assert says in r.err
    assert len(r.err.strip().splitlines()) == 1


def test_score_missing_file(cli: CLI, tmp_path: Path) -> None:
    r = cli(["score", str(tmp_path / "nope.json")])
    assert r.code == 2
    assert "There is no file" in r.err


def test_rules_lists_presets_and_shows_one(cli: CLI) -> None:
    r = cli(["rules"])
    assert r.code == 0
    for name in ("chinese-1-6", "ofc-pineapple-progressive", "open-face-cards"):
        assert name in r.out
    detail = cli(["rules", "ofc", "--json"])
    settings = json.loads(detail.out)
    assert settings["royalties"]["front"]["QQ"] == 7
    assert settings["fantasyland_entry"] == {"QQ": 13}
    human = cli(["rules", "open-face-cards"])
    assert "fan_bonuses" in human.out
    bad = cli(["rules", "nope"])
    assert bad.code == 2
    assert "There is no preset 'nope'" in bad.err


def test_demo_plays_every_preset_with_the_bots_reproducibly(cli: CLI) -> None:
    r = cli(["demo", "--seed", "5", "--budget", "0.01"])
    assert r.code == 0, r.err
    for name in PRESETS:
        assert f"{name}, hand 1" in r.out
    for level in ("strong", "heuristic", "random"):
        assert level in r.out
    again = cli(["demo", "--seed", "5", "--budget", "0.01"])
    assert again.out == r.out


@pytest.mark.parametrize(
    "program",
    [[str(Path(sys.executable).parent / "thirteen")], [sys.executable, "-m", "thirteen"]],
    ids=["script", "python -m"],
)
def test_the_installed_script_answers_with_exit_code_two(program: list[str]) -> None:
    ok = subprocess.run(
        [*program, "eval", "Qs", "Qd", "7c"], capture_output=True, text=True, check=False
    )
    assert ok.returncode == 0
    assert json.loads(ok.stdout)["description"] == "Pair of Queens"
    bad = subprocess.run(
        [*program, "eval", "Qs", "Qq"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("thirteen: ")


@pytest.mark.parametrize(
    ("name", "preset"),
    [
        ("OFC", "ofc"),
        ("Chinese", "chinese-1-6"),
        ("chinese-2-4", "chinese-2-4"),
        (" Pineapple ", "ofc-pineapple"),
        ("PROGRESSIVE", "ofc-pineapple-progressive"),
        ("ofcards", "open-face-cards"),
    ],
)
def test_rules_names_are_not_case_sensitive(cli: CLI, name: str, preset: str) -> None:
    r = cli(["rules", name, "--json"])
    assert r.code == 0, r.err
    assert json.loads(r.out)["name"] == preset


def test_rules_lists_the_other_names(cli: CLI) -> None:
    out = cli(["rules"]).out
    assert "chinese or chinese-poker for chinese-1-6" in out
    assert "pineapple for ofc-pineapple" in out
    assert "not case-sensitive" in out
    assert "(also called chinese, chinese-poker)" in cli(["rules", "chinese"]).out


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_speak_of_the_game(cli: CLI, preset: str) -> None:
    out = cli(["rules", preset]).out
    assert "seed" not in out.lower()
    assert "()" not in out


def test_piped_output_is_plain_lines(cli: CLI) -> None:
    rules = cli(["rules"]).out.splitlines()
    assert not any(set(line) & set("│┃━─┏└") for line in rules)
    assert sum(line.startswith(tuple(PRESETS)) for line in rules) == len(PRESETS)
    (progressive,) = [line for line in rules if line.startswith("ofc-pineapple-progressive ")]
    assert "5, then 4 × 3 (discard 1)  AA 16, KK 15, QQ 14, trips 17" in progressive
    hand = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
    args = ["solve", "setting", hand, "--overrides", '{"natural_payouts": []}']
    best = json.loads(cli([*args, "--json"]).out)
    lines = cli(args).out.splitlines()
    assert len(lines) == 6  # title, header, three rows, the verdict: nothing wrapped
    assert lines[0] == f"{hand}  (chinese-1-6 (custom))"
    for line, row in zip(lines[2:5], ("front", "middle", "back"), strict=True):
        assert line.startswith(f"{row} ")
        assert f" {best[row]} " in line
