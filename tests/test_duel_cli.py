"""``thirteen duel``: shapes, reproducibility and refusals."""

from __future__ import annotations

import json
import math
import statistics

import pytest
from rich.console import Console

from cli_helpers import run_cli
from thirteen.bots.arena import BotStats
from thirteen.commands.duel import interval, progress_bar


def duel_json(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> dict[str, object]:
    run = run_cli(["duel", *args, "--json"], capsys, monkeypatch)
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert isinstance(data, dict)
    return data


def test_duel_reports_every_bot_with_an_interval(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = duel_json(
        ["--rules", "ofc-pineapple", "--bots", "heuristic,random", "--hands", "6", "--seed", "3"],
        capsys,
        monkeypatch,
    )
    assert data["rules"] == "ofc-pineapple"
    assert data["deals"] == 6
    assert data["tables_per_deal"] == 1
    assert data["seed"] == 3
    bots = data["bots"]
    assert isinstance(bots, list)
    assert [b["bot"] for b in bots] == ["1:heuristic", "2:random"]
    assert sum(b["points"] for b in bots) == 0
    for b in bots:
        assert b["hands"] == 6
        assert b["ci95"] is not None  # six deals: an interval is known
        assert b["points_per_hand"] == pytest.approx(b["points"] / b["hands"], abs=1e-6)
        assert 0.0 <= b["foul_rate"] <= 1.0
        assert 0.0 <= b["fantasyland_rate"] <= 1.0


def test_duplicate_duel_plays_every_rotation_and_repeats_with_a_seed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["--rules", "ofc", "--bots", "strong,heuristic,random", "--hands", "2", "--duplicate"]
    args += ["--seed", "8", "--budget", "0.002"]
    first = duel_json(args, capsys, monkeypatch)
    second = duel_json(args, capsys, monkeypatch)
    assert first["tables_per_deal"] == 3
    bots = first["bots"]
    assert isinstance(bots, list)
    assert [b["hands"] for b in bots] == [6, 6, 6]
    strip = ("hands_per_second", "seconds_bots")
    assert {k: v for k, v in first.items() if k not in strip} == {
        k: v for k, v in second.items() if k not in strip
    }


def test_chinese_poker_duel(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = duel_json(
        ["--rules", "chinese-2-4", "--bots", "heuristic,random", "--hands", "5", "--seed", "1"],
        capsys,
        monkeypatch,
    )
    bots = data["bots"]
    assert isinstance(bots, list)
    assert bots[0]["foul_rate"] == 0.0


def test_duel_prints_a_table(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(
        [
            "duel",
            "--rules",
            "open-face-cards",
            "--bots",
            "heuristic,random",
            "--hands",
            "3",
            "--seed",
            "2",
        ],
        capsys,
        monkeypatch,
    )
    assert run.code == 0, run.err
    assert "1:heuristic" in run.out
    assert "2:random" in run.out
    assert "95% interval" in run.out
    assert "3 deals, 3 hands each in" in " ".join(run.out.split())  # the summary
    assert run.err == ""  # no progress bar when stderr is not a terminal


@pytest.mark.parametrize("terminal", [True, False])
def test_the_progress_bar_shows_only_on_a_terminal(
    terminal: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Console, "is_terminal", property(lambda self: terminal))
    bar = progress_bar()
    assert bar.disable is not terminal
    assert bar.live.transient


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bots", "heuristic,genius"], ["genius", "random", "heuristic", "strong"]),
        (["--bots", "heuristic"], ["2 to 3 bots", "not 1"]),
        (["--bots", "random,random,random,random"], ["2 to 3 bots", "not 4"]),
        (["--bots", "random,,random"], ["--bots"]),
        (["--rules", "ofc-turbo"], ["ofc-turbo", "Presets"]),
        (["--hands", "0"], ["at least one hand"]),
        (["--budget", "-1"], ["--budget"]),
    ],
)
def test_bad_duels_are_refused(
    args: list[str],
    words: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    base = {"--rules": "ofc-pineapple", "--bots": "heuristic,random", "--hands": "2"}
    for flag, value in zip(args[::2], args[1::2], strict=True):
        base[flag] = value
    run = run_cli(["duel", *[x for kv in base.items() for x in kv]], capsys, monkeypatch)
    assert run.code == 2
    assert run.out == ""
    assert len(run.err.strip().splitlines()) == 1
    for word in words:
        assert word in run.err


def test_the_interval_is_the_mean_plus_or_minus_1_96_standard_errors_per_hand() -> None:
    stats = BotStats("x", hands=8, points=12, per_hand=[6, -2, 4, 4])  # 4 deals, 2 tables each
    mean, low, high = interval(stats, rotations=2)
    assert mean == 1.5
    half = 1.959963984540054 * statistics.stdev([6, -2, 4, 4]) / 2 / 2
    assert (low, high) == pytest.approx((1.5 - half, 1.5 + half))
    one = interval(BotStats("y", hands=1, points=3, per_hand=[3]), rotations=1)
    assert one[0] == 3.0
    assert math.isnan(one[1])
    assert math.isnan(one[2])
