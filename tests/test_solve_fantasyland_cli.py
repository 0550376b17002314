"""``thirteen solve fantasyland``: the shapes other tools rely on, and clear refusals."""

from __future__ import annotations

import json

import pytest

from cli_helpers import CLI
from thirteen.bots.fantasyland import solve_fantasyland
from thirteen.engine.cards import format_cards, parse_cards
from thirteen.engine.rules import get_rules

HAND14 = "As Ah Ad Ac Ks Qh Jh Jd 8s 8h 6s 4s 2d 2c"
HAND13 = "Kc Kd 7h 7s 9c 9d Ts Jh Qd 2c 3d 4h 5s"
HAND17 = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d 3d 4d 5d"


def expected(text: str, preset: str, stay_value: float | None = None) -> dict[str, object]:
    """What the library says about a hand, in the command's JSON shape."""
    best = solve_fantasyland(parse_cards(text), get_rules(preset), stay_value=stay_value)
    return {
        "front": format_cards(best.front),
        "middle": format_cards(best.middle),
        "back": format_cards(best.back),
        "discards": format_cards(best.discards),
        "royalties": best.royalties,
        "stays": best.stays,
        "value": best.value,
        "stay_value": best.stay_value,
    }


def test_json_for_one_hand(cli: CLI) -> None:
    r = cli(["solve", "fantasyland", *HAND14.split(), "--json"])
    assert r.code == 0
    assert r.err == ""
    out = json.loads(r.out)
    assert out["rules"] == "ofc-pineapple"  # 14 cards: the pineapple fantasyland
    assert out["cards"] == HAND14
    assert {k: out[k] for k in expected(HAND14, "ofc-pineapple")} == expected(
        HAND14, "ofc-pineapple"
    )
    assert isinstance(out["royalties"], int)
    assert isinstance(out["stays"], bool)
    assert sum(out["royalty_rows"].values()) == out["royalties"]
    assert set(out["hands"]) == {"front", "middle", "back"}
    placed = " ".join(out[k] for k in ("front", "middle", "back", "discards")).split()
    assert sorted(placed) == sorted(HAND14.split())


def test_one_argument_with_spaces_is_one_hand(cli: CLI) -> None:
    split = json.loads(cli(["solve", "fantasyland", *HAND13.split(), "--json"]).out)
    joined = json.loads(cli(["solve", "fantasyland", HAND13, "--json"]).out)
    assert split == joined
    assert joined["rules"] == "ofc"  # 13 cards: classic OFC
    assert joined["discards"] == ""


def test_rules_and_stay_value_options(cli: CLI) -> None:
    preset = "ofc-pineapple-progressive"
    r = cli(["solve", "fantasyland", HAND14, "--rules", preset, "--stay-value", "3", "--json"])
    assert r.code == 0
    out = json.loads(r.out)
    assert out["rules"] == preset
    assert {k: out[k] for k in expected(HAND14, preset, 3)} == expected(HAND14, preset, 3)
    assert out["stay_value"] == 3


def test_a_hand_the_rules_never_deal_is_refused(cli: CLI) -> None:
    r = cli(["solve", "fantasyland", HAND14, "--rules", "ofc"])
    assert r.code == 2
    assert r.err == "thirteen: fantasyland in ofc deals 13 cards, not 14.\n"


def test_stdin_one_hand_per_line(cli: CLI) -> None:
    r = cli(["solve", "fantasyland", "-", "--json"], stdin=f"{HAND14}\n\n{HAND17}\n{HAND13}\n")
    assert r.code == 0
    lines = [json.loads(line) for line in r.out.splitlines()]
    assert [line["rules"] for line in lines] == [
        "ofc-pineapple",
        "ofc-pineapple-progressive",
        "ofc",
    ]
    for line, text, preset in zip(
        lines,
        (HAND14, HAND17, HAND13),
        ("ofc-pineapple", "ofc-pineapple-progressive", "ofc"),
        strict=True,
    ):
        assert {k: line[k] for k in expected(text, preset)} == expected(text, preset)
    assert len(lines[1]["discards"].split()) == 4


def test_readable_output(cli: CLI) -> None:
    r = cli(["solve", "fantasyland", HAND14])
    assert r.code == 0
    best = expected(HAND14, "ofc-pineapple")
    for row in ("front", "middle", "back", "discards"):
        assert row in r.out
        assert str(best[row]) in r.out
    assert f"royalties {best['royalties']}" in r.out
    assert "stays in fantasyland" in r.out


@pytest.mark.parametrize(
    ("args", "stdin", "says"),
    [
        (["As", "Zz", *HAND13.split()[2:]], "", '"Zz" is not a card'),
        ([*HAND13.split(), "Kc"], "", "Kc is given twice"),
        (HAND13.split()[:12], "", "13 to 17 cards, not 12"),
        ([HAND17, "6d"], "", "13 to 17 cards, not 18"),
        ([HAND14, "--rules", "chinese-1-6"], "", "chinese-1-6 has no fantasyland"),
        ([HAND14, "--rules", "open-face-cards"], "", "open-face-cards has no fantasyland"),
        ([HAND14, "--rules", "nonsense"], "", "There is no preset 'nonsense'"),
        ([HAND14, "--stay-value", "-1"], "", "stay value must be a number from 0"),
        (["-"], f"{HAND14}\n{HAND13} 2c\n", "line 2: 2c is given twice"),
        (["-"], f"{HAND14}\nAs Kd\n", "line 2: a fantasyland hand has 13 to 17 cards, not 2"),
        ([], "", "Give 13 to 17 cards"),
    ],
)
def test_refuses_bad_input_with_one_line(cli: CLI, args: list[str], stdin: str, says: str) -> None:
    r = cli(["solve", "fantasyland", *args, "--json"], stdin=stdin)
    assert r.code == 2
    assert r.out == ""  # nothing half-done
    assert says in r.err
    assert r.err.startswith("thirteen: ")
    assert len(r.err.strip().splitlines()) == 1
