"""``thirteen solve ofc``: the recommended placement, its alternatives, and refusals."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from cli_helpers import run_cli
from thirteen.bots.advice import GAMBLE_FOUL, GAMBLE_MARGIN, MIN_DEALS, SAFE_SLACK, percent
from thirteen.bots.ofc_mc import Analysis, Option
from thirteen.commands.solve_ofc import _verdict
from thirteen.engine.cards import parse_cards


def solve(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> dict[str, Any]:
    run = run_cli(["solve", "ofc", *args, "--budget", "0.02", "--json"], capsys, monkeypatch)
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert isinstance(data, dict)
    return data


def cards_of(option: dict[str, Any], *rows: str) -> list[int]:
    return [c for row in rows for c in parse_cards(option[row])]


def test_first_street_places_all_five_cards(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = solve(
        ["--rules", "ofc-pineapple", "--cards", "Qs Qd 7c 8h 9h", "--top", "3"], capsys, monkeypatch
    )
    assert data["street"] == 1
    assert data["discard"] == 0
    best = data["best"]
    assert sorted(cards_of(best, "front", "middle", "back")) == sorted(
        parse_cards("Qs Qd 7c 8h 9h")
    )
    assert best["discard"] == ""
    options = data["options"]
    assert len(options) == 3
    assert options[0] == best
    assert all(o["deals"] > 0 for o in options)
    assert len({(o["front"], o["middle"], o["back"]) for o in options}) == 3
    again = solve(
        ["--rules", "ofc-pineapple", "--cards", "Qs Qd 7c 8h 9h", "--top", "3"], capsys, monkeypatch
    )
    assert again == data  # seeded sampling: the same answer every time


def test_later_street_discards_one_and_respects_the_rows(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    board = "front: Qs Qd / middle: 9c 9d 4s 4h / back: As Ad Kc"
    data = solve(
        ["--rules", "ofc-pineapple", "--board", board, "--cards", "Kh 5c 2d", "--dead", "3c 3d"],
        capsys,
        monkeypatch,
    )
    assert data["street"] == 4
    assert data["discard"] == 1
    assert data["board"] == {"front": "Qs Qd", "middle": "9c 9d 4s 4h", "back": "As Ad Kc"}
    for option in data["options"]:
        assert len(parse_cards(option["discard"])) == 1
        assert len(parse_cards(option["front"])) <= 1
        assert len(parse_cards(option["middle"])) <= 1
        placed = cards_of(option, "front", "middle", "back", "discard")
        assert sorted(placed) == sorted(parse_cards("Kh 5c 2d"))


def test_classic_last_card_has_one_place(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    board = "Qs 2d 3c / 9c 9d 4s 4h 8d / As Ad Kc Kd"
    data = solve(["--rules", "ofc", "--board", board, "--cards", "Ks"], capsys, monkeypatch)
    assert data["street"] == 9
    assert data["best"]["back"] == "Ks"
    assert len(data["options"]) == 1
    assert data["options"][0]["ev"] is not None


def test_human_output_names_the_play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(
        [
            "solve",
            "ofc",
            "--rules",
            "open-face-cards",
            "--cards",
            "2c 7d 9h Js Ks",
            "--budget",
            "0.02",
        ],
        capsys,
        monkeypatch,
    )
    assert run.code == 0, run.err
    assert "Play:" in run.out
    assert "EV" in run.out


README_BOARD = ["--board", "front: Qs / middle: 9h 9d / back: Ac Kc", "--cards", "Qd 7c 2s"]


def test_the_readme_example_gives_the_same_advice_whatever_the_seed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    picks = set()
    for seed in (-1, 0, 1, 2, 3):
        args = ["--rules", "ofc-pineapple", *README_BOARD, "--budget", "0.6", f"--seed={seed}"]
        run = run_cli(["solve", "ofc", *args, "--json"], capsys, monkeypatch)
        assert run.code == 0, run.err
        data = json.loads(run.out)
        assert data["clear"], data["options"][:2]  # the top pick leads by 2 standard errors
        best = data["best"]
        picks.add((best["front"], best["middle"], best["back"], best["discard"]))
    assert picks == {("Qd", "", "7c", "2s")}


def test_options_are_ranked_by_the_ev_shown(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = solve(["--rules", "ofc-pineapple", *README_BOARD, "--top", "8"], capsys, monkeypatch)
    assert data["ranked_by"] == "ev"
    options = data["options"]
    assert options[0] == data["best"]
    evs = [o["ev"] for o in options]
    assert evs == sorted(evs, reverse=True)
    assert data["best"]["within_noise"] is None
    assert data["best"]["behind_best"] == 0.0
    for option in options[1:]:
        assert option["ev_se"] > 0
        clear = option["behind_best"] > 2 * option["behind_best_se"]
        assert option["within_noise"] == (not clear)
    assert data["clear"] == (not any(o["within_noise"] for o in options[1:]))


def test_the_readme_example_shows_fantasyland_and_calls_the_queens_a_gamble(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = solve(["--rules", "ofc-pineapple", *README_BOARD, "--top", "30"], capsys, monkeypatch)
    best, options = data["best"], data["options"]
    assert (best["front"], best["back"]) == ("Qd", "7c")
    for o in options:
        assert o["fantasyland_rate"] >= 0.0
        assert o["fantasyland_rate"] + o["foul_rate"] <= 1.0 + 1e-9  # a foul earns nothing
        assert o["fantasyland_ev"] >= 0.0
        assert (o["fantasyland_ev"] > 0) == (o["fantasyland_rate"] > 0)
    # queens up front: fantasyland is what makes the fouls worth it
    assert best["fantasyland_rate"] > 0.25
    assert best["foul_rate"] >= GAMBLE_FOUL
    safer = [o for o in options[1:] if o["deals"] >= MIN_DEALS]
    least = min(o["foul_rate"] for o in safer)
    (safe, *_) = [o for o in safer if o["foul_rate"] <= least + SAFE_SLACK]
    assert best["foul_rate"] - safe["foul_rate"] >= GAMBLE_MARGIN
    gamble = data["gamble"]
    assert gamble.startswith(
        f"A gamble: this play fouls {percent(best['foul_rate'])} of the time; "
    )
    assert f"reaches fantasyland {percent(best['fantasyland_rate'])} of the time" in gamble
    assert f"fouls {percent(safe['foul_rate'])} and reaches fantasyland" in gamble
    assert f"its EV is {safe['behind_best']:.1f} points lower." in gamble


def test_a_safe_top_pick_is_no_gamble(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    board = "front: Qs Qd / middle: 9c 9d 4s 4h / back: As Ad Kc"
    args = ["--rules", "ofc-pineapple", "--board", board, "--cards", "Kh 5c 2d", "--dead", "3c 3d"]
    data = solve(args, capsys, monkeypatch)
    assert data["best"]["foul_rate"] < GAMBLE_FOUL
    assert data["best"]["fantasyland_rate"] > 0.9  # queens up with aces full: it holds
    assert data["gamble"] is None


def test_human_output_shows_the_ranking_and_how_sure_it_is(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["solve", "ofc", "--rules", "ofc-pineapple", *README_BOARD, "--budget", "0.6"]
    run = run_cli(args, capsys, monkeypatch)
    assert run.code == 0, run.err
    text = " ".join(run.out.split())
    assert "ranked by EV" in text
    assert "behind #1" in text
    assert "Play: front Qd, back 7c, discard 2s — ahead of the next best" in text
    assert "fouls FL deals" in text  # the fantasyland column
    assert "A gamble: this play fouls " in text
    assert "The safer play, " in text


def test_close_options_are_called_within_noise() -> None:
    placement = ((), (), (), ())
    best = Option(placement, 1.0, 0.1, 100, 0.0, 0.1, 0.0, 0.0)
    two, three = parse_cards("2c 3c")
    close = Option(((two,), (), (), ()), 0.9, 0.1, 100, 0.0, 0.1, 0.1, 0.2)
    far = Option(((three,), (), (), ()), 0.1, 0.1, 100, 0.0, 0.1, 0.9, 0.2)
    empty = np.zeros((0, 1), dtype=np.int64)
    result = Analysis((best, close, far), 100, 1.0, empty, clear=False)
    assert result.close == (close,)
    assert _verdict(result).startswith("within noise of front 2c (0.10 ± 0.20 points behind)")
    settled = Analysis((best, far), 100, 1.0, empty, clear=True)
    assert _verdict(settled).startswith("ahead of the next best (front 3c) by 0.90 ± 0.20")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--cards", "Qs Qd 7c 8h Zz"], ["--cards", "Zz"]),
        (["--cards", "Qs Qd 7c 8h 9h", "--dead", "9h"], ["9h", "twice"]),
        (["--board", "front: Qs", "--cards", "Qs Qd 7c 8h 9h"], ["between streets"]),
        (["--board", "front: Qs 2c 3d 4h / back: 5c 6c", "--cards", "Kd 7c 8h"], ["front holds 3"]),
        (
            ["--board", "front: Qs Qd / middle: 9c 9d 4s", "--cards", "Kh 5c"],
            ["deals 3 cards", "gives 2"],
        ),
        (["--board", "front: Qs Qd / middle: 9c 9d 4s", "--cards", "Kh 5c Qs"], ["Qs", "twice"]),
        (["--board", "side: Qs", "--cards", "Kh 5c 2d"], ["side", "not a row"]),
        (["--board", "front: Qs / front: Qd", "--cards", "Kh 5c 2d"], ["twice"]),
        (["--rules", "chinese-1-6", "--cards", "Kh 5c 2d"], ["not an OFC game"]),
        (["--rules", "ofc-fast", "--cards", "Kh 5c 2d"], ["ofc-fast"]),
        (["--cards", "Qs Qd 7c 8h 9h", "--opponents", "3"], ["opponents"]),
        (
            ["--board", "Qs Qd 2c / 9c 9d 4s 4h 8d / As Ad Kc Kd Ks", "--cards", "2h 3h 4d"],
            ["complete"],
        ),
    ],
)
def test_bad_input_is_refused(
    args: list[str],
    words: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run = run_cli(["solve", "ofc", *args, "--budget", "0.02"], capsys, monkeypatch)
    assert run.code == 2, run.out
    assert run.out == ""
    assert len(run.err.strip().splitlines()) == 1
    for word in words:
        assert word in run.err, run.err
