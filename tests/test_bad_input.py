"""Bad input, as a new user gives it: one short, clear line on stderr, exit code 2, never a
traceback, and nothing half-printed (issue 9, item 6: each case below was once a traceback, an
unreadable message, a memory hog, or silently accepted)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from cli_helpers import CLI, Run
from table_helpers import SALTS, table_with
from thirteen.engine.actions import StartHand
from thirteen.engine.deck import Deal
from thirteen.engine.errors import quote
from thirteen.engine.history import begin_history, history_to_json
from thirteen.engine.history_format import FORMAT
from thirteen.engine.rules import get_rules

SET_HAND = {"front": "Qs Qd 2c", "middle": "9c 9d 5h 5s 2d", "back": "Ah Kh 8h 6h 3h"}
SURRENDERED = "2h 7s 4d 5c 5d 6s 7h 8c 8d 8s 9h Tc Jc"
HAND13 = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
HAND14 = "As Ah Ad Ac Ks Qh Jh Jd 8s 8h 6s 4s 2d 2c"
OFC_STREET = [
    "solve",
    "ofc",
    "--board",
    "front: Qs / middle: 9h 9d / back: Ac Kc",
    "--cards",
    "Qd 7c 2s",
]
NESTED = "[" * 100_000 + "]" * 100_000
HUGE_NUMBER = "1" * 5_000


def refused(r: Run, says: str) -> None:
    """The one way bad input ends."""
    assert r.code == 2, r
    assert r.out == ""
    assert r.err.startswith("thirteen: ")
    assert r.err.endswith("\n")
    assert len(r.err.splitlines()) == 1, r.err
    assert "Traceback" not in r.err
    assert len(r.err) < 500
    r.err.encode("utf-8")  # no surrogate escapes of undecodable bytes
    assert not r.err.rstrip().endswith(".."), r.err
    assert says in r.err, r.err


def write(tmp_path: Path, data: str | bytes, name: str = "input.json") -> str:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return str(path)


def history_with(deck: str) -> str:
    """A real history's JSON (a dealt Chinese Poker hand) with its deck replaced by ``deck``."""
    state = table_with(get_rules("chinese-1-6"), ["ann", "bob"])
    start = StartHand(deal=Deal.from_order(range(52), SALTS), at=1.0)
    data = history_to_json(begin_history(state, start))
    data["deal"]["deck"] = deck
    return json.dumps(data)


# ------------------------------------------------------------------ once tracebacks
@pytest.mark.parametrize("command", ["score", "verify"])
def test_json_nested_without_end(cli: CLI, tmp_path: Path, command: str) -> None:
    refused(cli([command, write(tmp_path, NESTED)]), "nests arrays or objects too deeply")


def test_json_nested_without_end_on_stdin(cli: CLI) -> None:
    refused(cli(["score", "-"], stdin=NESTED), "standard input nests")


def test_a_number_of_5000_digits(cli: CLI, tmp_path: Path) -> None:
    score = f'{{"rules_overrides": {{"surrender_cost": {HUGE_NUMBER}}}, "players": []}}'
    refused(cli(["score", "-"], stdin=score), "a number of 5,000 digits")
    history = f'{{"format": "{FORMAT}", "version": {HUGE_NUMBER}}}'
    refused(cli(["verify", write(tmp_path, history)]), "a number of 5,000 digits")


@pytest.mark.parametrize("number", ["1e999", "-1e400", "NaN", "Infinity"])
def test_json_numbers_no_game_needs(cli: CLI, number: str) -> None:
    r = cli(["score", "-"], stdin=f'{{"rules_overrides": {{"surrender_cost": {number}}}}}')
    refused(r, "standard input")


@pytest.mark.parametrize(
    "args",
    [
        [*OFC_STREET, "--budget", "1e308"],
        ["duel", "--bots", "strong,heuristic", "--budget", "1e308"],
        ["demo", "--budget", "1e308"],
    ],
)
def test_a_budget_too_large(cli: CLI, args: list[str]) -> None:
    refused(cli(args), "--budget is seconds")


# ------------------------------------------------------------------ messages
def test_a_50_mb_token_is_not_echoed(cli: CLI) -> None:
    token = "Z" * (50 * 1024 * 1024)
    refused(cli(["eval", "-"], stdin=token + "\n"), "line 1 is longer than 4,096 characters")


@pytest.mark.parametrize(
    "args",
    [
        ["eval", "Z" * 1_000_000],
        ["solve", "setting", HAND13[:-3] + " " + "Q" * 1_000_000],
        ["solve", "fantasyland", "Q" * 1_000_000],
        [*OFC_STREET[:-1], "Qd 7c " + "Q" * 1_000_000],
        ["rules", "x" * 1_000_000],
    ],
)
def test_long_bad_input_is_quoted_short(cli: CLI, args: list[str]) -> None:
    r = cli(args)
    refused(r, "…")


def test_long_bad_token_in_json(cli: CLI) -> None:
    players = [{**SET_HAND, "front": "Qs Qd " + "X" * 500_000}, {"surrender": True}]
    refused(cli(["score", "-"], stdin=json.dumps({"players": players})), '"XXXXXXXX')


def test_binary_input(cli: CLI, tmp_path: Path) -> None:
    refused(
        cli(["eval", "-"], stdin=b"As Ks Qs\n\xff\xfe\x00\x81\n"),
        "line 2 is not UTF-8 text: byte 1 is 0xff.",
    )
    refused(cli(["score", "-"], stdin=b'{"players": "\xff"}'), "standard input is not UTF-8")
    path = write(tmp_path, b"\x89PNG\r\n\x1a\n\x00\x00", "picture.png")
    refused(cli(["score", path]), 'picture.png" is not UTF-8 text: byte 1 is 0x89.')
    refused(cli(["verify", path]), "is not UTF-8 text")


def test_undecodable_arguments_are_escaped(cli: CLI) -> None:
    # Python hands undecodable bytes of argv over as surrogate escapes.
    refused(cli(["eval", "As", "\udcff\udcfeK", "Qs"]), '"\\xff\\xfeK" is not a card')
    refused(cli(["rules", "of\udcffc"]), "There is no preset 'of\\xffc'")


def test_control_characters_are_escaped(cli: CLI) -> None:
    r = cli(["eval", "As", "\x1b[31mK", "Qs"])
    refused(r, '"\\x1b[31mK" is not a card')
    assert "\x1b" not in r.err


def test_a_byte_order_mark_is_accepted(cli: CLI, tmp_path: Path) -> None:
    data = json.dumps({"players": [SET_HAND, {"surrender": True, "cards": SURRENDERED}]})
    r = cli(["score", write(tmp_path, "\ufeff" + data)])
    assert r.code == 0, r.err
    assert json.loads(r.out)["totals"] == [3, -3]
    r = cli(["score", "-"], stdin=b"\xef\xbb\xbf" + data.encode())
    assert r.code == 0, r.err
    r = cli(["eval", "-"], stdin=b"\xef\xbb\xbfAs Ks Qs\n")
    assert r.code == 0, r.err
    assert json.loads(r.out)["cards"] == "As Ks Qs"
    r = cli(["solve", "setting", "-", "--json"], stdin=b"\xef\xbb\xbf" + HAND13.encode())
    assert r.code == 0, r.err


@pytest.mark.parametrize(
    "args",
    [
        [*OFC_STREET, "--budget", "nan"],
        ["duel", "--bots", "strong,heuristic", "--budget", "nan"],
        ["demo", "--budget", "nan"],
    ],
)
def test_budget_nan(cli: CLI, args: list[str]) -> None:
    r = cli(args)
    refused(r, "not nan.")
    assert "≤" not in r.err


@pytest.mark.parametrize(
    "args",
    [
        [*OFC_STREET, "--budget", "-1"],
        [*OFC_STREET, "--budget", "0"],
        ["duel", "--budget", "-0.5"],
        ["demo", "--budget", "6"],
    ],
)
def test_budget_out_of_range(cli: CLI, args: list[str]) -> None:
    refused(cli(args), "--budget is seconds")


def test_a_short_deck_in_a_history(cli: CLI, tmp_path: Path) -> None:
    deck = " ".join(f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs")[3:]
    r = cli(["verify", write(tmp_path, history_with(deck))])
    refused(r, "A deck holds each of the 52 cards once; this one has 51 cards.")
    assert "salts" not in r.err
    repeated = cli(["verify", write(tmp_path, history_with(deck + " 3c"))])
    refused(repeated, "3c is given twice.")


def test_messages_end_in_one_full_stop(cli: CLI, tmp_path: Path) -> None:
    refused(cli(["score", str(tmp_path / "nope.")]), 'There is no file "')
    refused(cli(["verify", write(tmp_path, history_with("As"))]), "this one has 1 cards.")


# ------------------------------------------------------------------ memory
class LinesOnly(io.StringIO):
    """A standard input that refuses to be read whole."""

    def read(self, size: int | None = -1) -> str:
        if size is None or size < 0 or size > 65_536:
            raise AssertionError("standard input was read whole")
        return super().read(size)

    def readlines(self, hint: int = -1) -> list[str]:
        raise AssertionError("standard input was read whole")


def test_eval_streams_its_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    hands = "As Ks Qs Js Ts\n" * 20_000
    monkeypatch.setattr(sys, "argv", ["thirteen", "eval", "-"])
    monkeypatch.setattr(sys, "stdin", LinesOnly(hands))
    from thirteen.cli import main

    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 20_000
    assert json.loads(out[-1])["category"] == "straight flush"


def test_eval_prints_nothing_when_the_last_line_is_bad(cli: CLI) -> None:
    refused(cli(["eval", "-"], stdin="As Ks Qs\n" * 50_000 + "As Ks\n"), "line 50001: a hand")


def test_score_refuses_a_crowd_before_reading_hands(cli: CLI) -> None:
    crowd = json.dumps({"players": [{}] * 660_000})
    refused(cli(["score", "-"], stdin=crowd), "larger than 1,048,576 bytes")
    five = json.dumps({"players": [{"wings": 1}] * 5})
    refused(cli(["score", "-"], stdin=five), "A chinese-1-6 table seats at most 4")


# ------------------------------------------------------------------ once silently accepted
@pytest.mark.parametrize(
    ("surrender", "says"),
    [
        ({"surrender": True}, "a surrender shows the 13 cards given up"),
        ({"surrender": True, "cards": ""}, "a surrender gives up 13 cards, not 0"),
        ({"surrender": True, "cards": "2h 7s"}, "a surrender gives up 13 cards, not 2"),
    ],
)
def test_a_surrender_shows_its_cards(cli: CLI, surrender: dict[str, object], says: str) -> None:
    r = cli(["score", "-"], stdin=json.dumps({"players": [SET_HAND, surrender]}))
    refused(r, f"player 2: {says}")


def test_fantasyland_of_a_size_the_rules_never_deal(cli: CLI) -> None:
    refused(
        cli(["solve", "fantasyland", HAND14, "--rules", "ofc"]),
        "fantasyland in ofc deals 13 cards, not 14.",
    )
    refused(
        cli(["solve", "fantasyland", HAND13, "--rules", "ofc-pineapple-progressive"]),
        "deals 14 or 15 or 16 or 17 cards, not 13.",
    )


@pytest.mark.parametrize("command", [["solve", "setting"], ["solve", "fantasyland"], ["eval"]])
@pytest.mark.parametrize("stdin", ["", "\n  \n\n"])
def test_no_hands_on_standard_input(cli: CLI, command: list[str], stdin: str) -> None:
    refused(cli([*command, "-"], stdin=stdin), "Standard input holds no hands")


# ------------------------------------------------------------------ the quoting helper
def test_quote_keeps_user_text_short_and_printable() -> None:
    assert quote("Zz") == '"Zz"'
    assert quote("x" * 1_000) == '"' + "x" * 40 + '…"'
    assert quote("a\nb\tc\x00") == '"a\\nb\\tc\\x00"'
    assert quote("\udcff\ufeff") == '"\\xff\\ufeff"'
    assert quote("ofc", mark="'") == "'ofc'"
