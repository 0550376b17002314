"""The Chinese Poker setter: legal settings, an exact search, naturals, surrender, its tables,
and play that beats simpler setters at the engine's own scoring."""

from __future__ import annotations

import hashlib
import importlib.util
import io
import math
import shutil
import sys
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from thirteen.bots import _setter_decide as setter_decide
from thirteen.bots import _setter_tables as tables
from thirteen.bots import _setter_values as setter_values
from thirteen.bots._setter_checksum import TABLES_SHA256
from thirteen.bots.setter import (
    SetterChoice,
    SetterTablesError,
    best_setting,
    percentile_setting,
    setting_ev,
)
from thirteen.engine.cards import Card, parse_cards
from thirteen.engine.errors import CardError, RuleError
from thirteen.engine.evaluate import evaluate_batch, lowball_batch, middle_floors
from thirteen.engine.naturals import check_natural, find_naturals, greedy_setting
from thirteen.engine.rules import Rules, get_rules
from thirteen.engine.scoring import (
    DeclaredNatural,
    SetHand,
    Showing,
    Surrender,
    is_foul,
    row_strengths,
    score,
)

ROOT = Path(__file__).resolve().parent.parent

RULES = [
    get_rules("chinese-1-6"),
    get_rules("chinese-2-4"),
    get_rules("chinese-1-4"),
    get_rules("chinese-1-3"),
    get_rules("chinese-1-6", {"lowball_middle": True}),
    get_rules("chinese-2-4", {"lowball_middle": True}),
    get_rules("chinese-1-3", {"lowball_middle": True}),
    get_rules("chinese-1-4", {"front_below_middle": True}),
    get_rules("chinese-1-6", {"royalties": "none", "surrender": False}),
]
RULE_IDS = [r.name + (" lowball" if r.lowball_middle else "") for r in RULES]

deals = st.permutations(list(range(52))).map(lambda deck: deck[:13])


def p(text: str) -> list[Card]:
    return parse_cards(text)


def _settings(choice: SetterChoice) -> list[tuple[tuple[Card, ...], ...]]:
    shown = [] if choice.natural else [(choice.front, choice.middle, choice.back)]
    best = choice.setting
    return [*shown, (best.front, best.middle, best.back)] + [
        (a.front, a.middle, a.back) for a in choice.alternatives
    ]


# ------------------------------------------------------------------------------ legal settings
@given(deals, st.sampled_from(RULES))
def test_never_fouls_and_uses_every_card(cards: list[Card], rules: Rules) -> None:
    choice = best_setting(cards, rules, alternatives=3)
    for front, middle, back in _settings(choice):
        assert (len(front), len(middle), len(back)) == (3, 5, 5)
        assert sorted(front + middle + back) == sorted(cards)
        assert not is_foul(rules, *row_strengths(rules, front, middle, back))
    if choice.natural is None:
        assert (choice.front, choice.middle, choice.back) == (
            choice.setting.front,
            choice.setting.middle,
            choice.setting.back,
        )
    evs = [choice.play_ev] + [a.ev for a in choice.alternatives]
    assert evs == sorted(evs, reverse=True)
    if choice.natural is not None:
        assert rules.natural_payout(choice.natural) is not None
        shown = check_natural(choice.natural, cards)
        assert (choice.front, choice.middle, choice.back) == (shown.front, shown.middle, shown.back)
    if choice.surrender:
        assert rules.surrender
        assert choice.ev > choice.play_ev  # surrendering beats playing this hand
        # Paid to every opponent who sets (not to one who surrenders too).
        assert -rules.surrender_cost - 0.05 < choice.ev < -0.5 * rules.surrender_cost
    assert choice.ev >= choice.play_ev - 1e-12  # the chosen action is never worse than playing


@pytest.fixture(scope="module")
def all_splits() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (front, middle, back) split of positions 0..12, built independently of the setter."""
    fronts, middles, backs = [], [], []
    positions = set(range(13))
    for back in combinations(range(13), 5):
        rest = sorted(positions - set(back))
        for middle in combinations(rest, 5):
            fronts.append(sorted(set(rest) - set(middle)))
            middles.append(middle)
            backs.append(back)
    return np.array(fronts), np.array(middles), np.array(backs)


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_search_finds_the_best_of_all_72072_splits(
    rules: Rules, all_splits: tuple[np.ndarray, np.ndarray, np.ndarray]
) -> None:
    fronts, middles, backs = all_splits
    assert len(backs) == 72_072
    rng = np.random.default_rng(20)
    model = tables.model_for(rules)
    for _ in range(6):
        hand = rng.permutation(52)[:13].astype(np.int8)
        fs = evaluate_batch(hand[fronts]).astype(np.int32)
        ms = evaluate_batch(hand[middles]).astype(np.int32)
        bs = evaluate_batch(hand[backs]).astype(np.int32)
        if rules.lowball_middle:
            legal = bs >= fs
            ms = lowball_batch(hand[middles]).astype(np.int32)
        else:  # the weakest middle a front allows: itself, or past it under the strict rule
            legal = (middle_floors(rules.front_below_middle)[fs] <= ms) & (ms <= bs)
        rows = np.ascontiguousarray(np.stack([fs, ms, bs], axis=1)[legal])
        values = setter_values.rows_values(rows, *model.value_args)
        best = int(np.argmax(values))
        where = np.flatnonzero(legal)[best]
        brute = setting_ev(
            rules,
            [int(c) for c in hand[fronts[where]]],
            [int(c) for c in hand[middles[where]]],
            [int(c) for c in hand[backs[where]]],
            card_removal=False,
        )
        cards = [int(c) for c in hand]
        # the tables' search (tests/test_setter_removal.py checks the card-removal one)
        choice = best_setting(cards, rules, alternatives=2, card_removal=False)
        assert choice.play_ev == pytest.approx(brute, abs=1e-9)
        top3 = np.sort(values)[::-1][:3]
        found = [choice.play_ev] + [a.ev for a in choice.alternatives]
        scale = model.p_rows
        assert np.allclose(np.diff(found), scale * np.diff(top3), atol=1e-9)


def test_setting_ev_agrees_with_the_search_and_punishes_fouls() -> None:
    rules = get_rules("chinese-1-6")
    cards = p("As Ad Kc Kd 9h 9s 7c 6d 5h 4s 3c 2d Jh")
    choice = best_setting(cards, rules)
    assert setting_ev(rules, choice.front, choice.middle, choice.back) == pytest.approx(
        choice.play_ev, abs=1e-12
    )
    fouled = setting_ev(rules, p("As Ad Kc"), p("Kd 9h 7c 6d 5h"), p("9s 4s 3c 2d Jh"))
    assert fouled < -rules.foul_cost * 0.9  # a scoop and the opponents' royalties
    with pytest.raises(CardError):
        setting_ev(rules, p("As Ad"), p("Kd 9h 7c 6d 5h Kc"), p("9s 4s 3c 2d Jh"))


# ------------------------------------------------------------------------------ naturals
def test_declares_a_dragon() -> None:
    cards = p("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")
    choice = best_setting(cards, get_rules("chinese-1-6"))
    assert choice.natural == "dragon"
    assert choice.ev > 12
    assert not choice.surrender


def test_plays_three_flushes_when_the_straight_flushes_are_worth_more() -> None:
    # Three flushes (payout 4) where two of them are straight flushes: royalties 10 + 5 alone
    # beat declaring.
    cards = p("9s Ts Js Qs Ks 2c 3c 4c 5c 6c Ah Kh 7h")
    assert {n.name for n in find_naturals(cards)} >= {"three-flushes"}
    choice = best_setting(cards, get_rules("chinese-1-6"))
    assert choice.natural is None
    assert choice.play_ev > 4


def test_declares_six_pairs_when_playing_them_is_worth_less() -> None:
    cards = p("2c 2d 3c 3d 4h 4s 6c 6d 8h 8s Tc Td Kh")
    choice = best_setting(cards, get_rules("chinese-1-6"))
    assert choice.play_ev < 3
    assert choice.natural == "six-pairs"
    assert choice.ev == pytest.approx(3, abs=0.1)


def test_never_declares_a_natural_the_table_does_not_pay() -> None:
    cards = p("2c 2d 3c 3d 4h 4s 6c 6d 8h 8s Tc Td Kh")
    rules = get_rules("chinese-1-6", {"natural_payouts": {"dragon": 13}})
    assert best_setting(cards, rules).natural is None
    no_faces = p("2c 2d 3h 4s 5c 6d 7h 8s 9c Td Ah As 3c")
    assert best_setting(no_faces, get_rules("chinese-1-6")).natural != "no-face-cards"
    paid = get_rules("chinese-1-6", {"natural_payouts": {"no-face-cards": 30}})
    assert best_setting(no_faces, paid).natural == "no-face-cards"


# ------------------------------------------------------------------------------ surrender
WEAK = "2c 2d 3h 3s 4c 5d 7h 8s 9c Jd Qh Ks 4d"


def test_surrenders_a_hopeless_hand_only_when_it_pays() -> None:
    cards = p(WEAK)
    rules = get_rules("chinese-1-6")
    choice = best_setting(cards, rules)
    assert choice.play_ev < -rules.surrender_cost
    assert choice.surrender
    assert choice.ev > choice.play_ev
    # Without surrender at the table, or when it costs more than a scoop, it plays.
    for other in (
        get_rules("chinese-1-6", {"surrender": False}),
        get_rules("chinese-1-6", {"surrender_cost": 7}),
    ):
        kept = best_setting(cards, other)
        assert not kept.surrender
        assert kept.ev == pytest.approx(kept.play_ev)


def test_a_strong_hand_never_surrenders() -> None:
    choice = best_setting(p("As Ad Ah Kc Kd Qh Qs Js Jc Tc 9d 8h 7s"), get_rules("chinese-2-4"))
    assert not choice.surrender
    assert choice.natural is None
    assert choice.ev > 0


# ------------------------------------------------------------------------------ refusals
def test_refuses_bad_hands_and_rules() -> None:
    with pytest.raises(CardError, match="13 cards, not 12"):
        best_setting(p("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks"))
    with pytest.raises(CardError, match="twice"):
        best_setting([0, 0, *range(1, 12)])
    with pytest.raises(CardError):
        best_setting([52, *range(12)])
    with pytest.raises(RuleError, match="OFC"):
        best_setting(list(range(13)), get_rules("ofc"))


# A strategy rich in naturals: a few suits or ranks, so flushes, straights and pairs abound.
natural_rich = st.one_of(
    deals,
    st.permutations([c for c in range(52) if c % 4 < 2]).map(lambda d: d[:13]),
    st.permutations(list(range(32))).map(lambda d: d[:13]),
    st.permutations([c for c in range(52) if c // 4 <= 8]).map(lambda d: d[:13]),
)


@given(natural_rich)
def test_the_compiled_natural_check_agrees_with_the_engine(cards: list[Card]) -> None:
    mask = int(setter_decide.natural_mask(np.array(cards, dtype=np.int8)))
    compiled = {name for i, name in enumerate(setter_decide.NATURAL_ORDER) if mask >> i & 1}
    assert compiled == {n.name for n in find_naturals(cards)}


# ------------------------------------------------------------------------------ the tables
def test_shipped_tables_match_their_checksum() -> None:
    data = tables.default_path().read_bytes()
    loaded = tables.load_tables()
    assert hashlib.sha256(data).hexdigest() == TABLES_SHA256 == loaded.sha256
    assert set(loaded.fields) == {
        f"{s}{low}" for s in ("1-6", "2-4", "1-4", "1-3") for low in ("", "-lowball")
    }
    for field in loaded.fields.values():
        for row in field.rows:
            assert row.sum() == pytest.approx(1, abs=1e-4)
    assert len(data) < 3_000_000


def test_a_changed_or_missing_table_file_is_refused(tmp_path: Path) -> None:
    good = tmp_path / "tables.npz"
    shutil.copyfile(tables.default_path(), good)
    tables.read_tables(good)  # the copy is fine
    data = bytearray(good.read_bytes())
    data[len(data) // 2] ^= 0x01
    bad = tmp_path / "changed.npz"
    bad.write_bytes(bytes(data))
    with pytest.raises(SetterTablesError, match="do not match their checksum"):
        tables.read_tables(bad)
    with pytest.raises(SetterTablesError, match="missing"):
        tables.read_tables(tmp_path / "nowhere.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip file")
    with pytest.raises(SetterTablesError, match="not a setter table file"):
        tables.read_tables(junk, sha256=hashlib.sha256(b"not a zip file").hexdigest())


def _load_script() -> Any:
    path = ROOT / "scripts" / "make_setter_tables.py"
    spec = importlib.util.spec_from_file_location("make_setter_tables", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_setter_tables"] = module
    spec.loader.exec_module(module)
    return module


def test_table_script_is_reproducible() -> None:
    script = _load_script()
    quiet = Console(file=io.StringIO())
    runs = [
        script.build(7, 0.0, [("1-6", False)], quiet, rounds=(100, 100, 100))[0] for _ in range(2)
    ]
    assert runs[0] == runs[1]
    other = script.build(8, 0.0, [("1-6", False)], quiet, rounds=(100, 100, 100))[0]
    assert other != runs[0]
    digest = hashlib.sha256(runs[0]).hexdigest()
    made = tables.read_tables_bytes(runs[0], sha256=digest)
    assert list(made.fields) == ["1-6"]


# ------------------------------------------------------------------------------ strength
def _showing(choice: SetterChoice, cards: Sequence[Card]) -> Showing:
    if choice.natural is not None:
        return DeclaredNatural(choice.natural, tuple(cards))
    if choice.surrender:
        return Surrender(tuple(cards))
    return SetHand.of(choice.front, choice.middle, choice.back)


def _duplicate_margins(
    rules: Rules, other: Callable[[list[Card]], Showing], deals: int, seed: int
) -> Iterator[float]:
    """Per deal: the setter and ``other`` play both hands of a two-handed deal, seats swapped;
    yield the setter's mean result of the two games (engine scoring)."""
    rng = np.random.default_rng(seed)
    for _ in range(deals):
        deck = [int(c) for c in rng.permutation(52)]
        a, b = deck[:13], deck[13:26]
        ours_a = _showing(best_setting(a, rules), a)
        ours_b = _showing(best_setting(b, rules), b)
        first = score(rules, [ours_a, other(b)]).matrix[0][1]
        second = score(rules, [other(a), ours_b]).matrix[1][0]
        yield (first + second) / 2


def _interval(margins: list[float]) -> tuple[float, float]:
    mean = sum(margins) / len(margins)
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / (len(margins) - 1))
    half = 1.96 * sd / math.sqrt(len(margins))
    return mean - half, mean + half


def test_beats_the_greedy_setter() -> None:
    rules = get_rules("chinese-1-6")
    margins = list(_duplicate_margins(rules, lambda c: SetHand.of(*greedy_setting(c)), 250, seed=1))
    low, high = _interval(margins)
    assert low > 0, (low, high)


@pytest.mark.parametrize("name", ["chinese-1-6", "chinese-2-4"])
def test_beats_the_percentile_heuristic(name: str) -> None:
    rules = get_rules(name)
    margins = list(
        _duplicate_margins(rules, lambda c: SetHand.of(*percentile_setting(c, rules)), 1200, seed=2)
    )
    low, high = _interval(margins)
    assert low > 0, (low, high)
