"""Card removal in the setter: the field's row odds conditioned on your 13 cards, checked against
a plain numpy weighing of the bank, in the direction the cards you hold push them, through the
exact search (every split), and the bank file's checksum."""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
import sys
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from thirteen.bots import _setter_decide as setter_decide
from thirteen.bots import _setter_removal as removal
from thirteen.bots import _setter_search as setter_search
from thirteen.bots import _setter_values as setter_values
from thirteen.bots._setter_removal_checksum import REMOVAL_SHA256
from thirteen.bots._setter_tables import model_for
from thirteen.bots.setter import SetterTablesError, best_setting, setting_ev
from thirteen.engine.cards import Card, parse_cards
from thirteen.engine.evaluate import evaluate, evaluate_batch, middle_floors
from thirteen.engine.rules import Rules, get_rules
from thirteen.engine.scoring import is_foul, row_strengths

RULES = [
    get_rules("chinese-1-6"),
    get_rules("chinese-2-4"),
    get_rules("chinese-2-4", {"royalty_mode": "off", "natural_payouts": {}}),
    get_rules("chinese-1-3", {"royalty_mode": "always"}),
]


def p(text: str) -> list[Card]:
    return parse_cards(text)


def _numpy_weights(bank: removal.Bank, hand: list[Card], suits: bool) -> np.ndarray:
    """Each bank hand's odds of being dealt beside ``hand``, from its rank (and suit) counts,
    written out with math.comb (independently of the kernel's grouped lookups)."""
    held = np.bincount([c >> 2 for c in hand], minlength=13)
    held_suits = np.bincount([c & 3 for c in hand], minlength=4)
    avoid = np.array([[comb(4 - h, x) / comb(4, x) for x in range(5)] for h in range(5)])
    avoid_suit = np.array([[comb(13 - h, x) / comb(13, x) for x in range(14)] for h in range(14)])
    w = np.prod(avoid[held[None, :], bank.ranks], axis=1)
    if suits:
        w *= np.prod(avoid_suit[held_suits[None, :], bank.suits], axis=1)
    return w


@pytest.mark.parametrize("suits", [True, False])
def test_the_deltas_are_the_weighted_banks_odds_less_the_plain_banks(suits: bool) -> None:
    rules = get_rules("chinese-1-6")
    bank = removal.load_banks()["1-6"]
    found = removal.build_removal(bank, rules, suits=suits)
    roy = np.stack([found.roy[r][bank.strengths[:, r]] for r in range(3)], axis=1)
    rng = np.random.default_rng(3)
    for _ in range(3):
        hand = [int(c) for c in rng.permutation(52)[:13]]
        d, dr = found.deltas(np.array(hand, dtype=np.int8))
        w = _numpy_weights(bank, hand, suits)
        w /= w.sum()
        plain = np.full(len(w), 1 / len(w))
        for r in range(3):
            t = bank.strengths[:, r]
            for s in rng.choice(t, 25):
                below, above = t < s, t > s
                wins = w[below].sum() - plain[below].sum()
                losses = w[above].sum() - plain[above].sum()
                paid = (w * roy[:, r])[above].sum() - (plain * roy[:, r])[above].sum()
                assert d[r, bank.lo_idx[r, s]] == pytest.approx(wins, abs=1e-9)
                assert -d[r, bank.hi_idx[r, s]] == pytest.approx(losses, abs=1e-9)
                assert dr[r, bank.hi_idx[r, s]] == pytest.approx(paid, abs=1e-9)


def _measured_wins(rules: Rules, hand: list[Card], rows: list[list[Card]], n: int) -> list[float]:
    """How often each row beats the field's row of that kind, measured: ``n`` opponents dealt
    from the 39 other cards and set by the setter without card removal (the field)."""
    m = model_for(rules)
    rest = np.array([c for c in range(52) if c not in hand], dtype=np.int8)
    rng = np.random.default_rng(5)
    dealt = np.ascontiguousarray(np.argsort(rng.random((n, 39)), axis=1)[:, :13])
    opponents = np.ascontiguousarray(rest[dealt])
    picks = np.empty((n, 3), np.int32)
    actions = np.empty(n, np.int32)
    evs = np.empty(n)
    args = (*setter_search.SEARCH_TABLES, *m.search_args, *m.decide_args, picks, actions, evs)
    setter_decide.search_many(opponents, *args)
    set_ = actions == -1
    index = np.arange(n)[set_][:, None]
    front = evaluate_batch(opponents[index, setter_search.SUB3[picks[set_, 0]]])
    middle = evaluate_batch(opponents[index, setter_search.SUB5[picks[set_, 1]]])
    back = evaluate_batch(opponents[index, setter_search.SUB5[picks[set_, 2]]])
    theirs = np.stack([front, middle, back], axis=1)
    return [float(np.mean(theirs[:, r] < evaluate(cards))) for r, cards in enumerate(rows)]


@pytest.mark.parametrize(
    ("hand", "rows", "moved"),
    [
        # Four aces and two kings held: no opponent can show aces, few kings; a front of queens
        # and a middle of kings win far more often than against a full deck.
        (
            "As Ad Ah Ac Ks Kd Qs Qd 9c 7h 5d 4s 2c",
            ["Qs Qd 9c", "Ks Kd 9c 7h 5d", "As Ad Ah Ac 4s"],
            (+1, +1, 0),
        ),
        # Only small cards held: the opponents hold the big ones; a front of sevens and a back
        # of deuces full win less often.
        (
            "7s 7d 2s 2d 3c 3h 4s 4d 5c 5h 6s 6d 2h",
            ["7s 7d 6s", "5c 5h 4s 4d 6d", "2s 2d 2h 3c 3h"],
            (-1, 0, -1),
        ),
    ],
)
def test_conditioned_odds_match_odds_measured_from_the_39_other_cards(
    hand: str, rows: list[str], moved: tuple[int, int, int]
) -> None:
    rules = get_rules("chinese-1-6")
    cards = p(hand)
    found = removal.removal_for(rules)
    assert found is not None
    d, _ = found.deltas(np.array(cards, dtype=np.int8))
    measured = _measured_wins(rules, cards, [p(r) for r in rows], 20_000)
    for r, (row, way) in enumerate(zip(rows, moved, strict=True)):
        s = evaluate(p(row))
        plain = float(found.model.win[r, s])
        held = plain + float(d[r, found.bank.lo_idx[r, s]])
        # the conditioned odds are close to what the opponents' rows really do…
        assert held == pytest.approx(measured[r], abs=0.02), (row, plain, held, measured[r])
        # …and where the cards held move the odds a long way, the full-deck odds are not
        if way:
            assert way * (held - plain) > 0.05, (row, plain, held)
            assert abs(plain - measured[r]) > 0.05, (row, plain, measured[r])


def test_the_setting_can_change_with_what_removal_says() -> None:
    rules = get_rules("chinese-1-6")
    rng = np.random.default_rng(11)
    changed = 0
    for _ in range(60):
        hand = [int(c) for c in rng.permutation(52)[:13]]
        new = best_setting(hand, rules)
        old = best_setting(hand, rules, card_removal=False)
        rows_new = (new.setting.front, new.setting.middle, new.setting.back)
        rows_old = (old.setting.front, old.setting.middle, old.setting.back)
        changed += rows_new != rows_old
        # each is the best under its own valuation
        assert setting_ev(rules, *rows_new) >= setting_ev(rules, *rows_old) - 1e-12
        assert setting_ev(rules, *rows_old, card_removal=False) >= (
            setting_ev(rules, *rows_new, card_removal=False) - 1e-12
        )
    assert 0 < changed < 60


@pytest.fixture(scope="module")
def all_splits() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    fronts, middles, backs = [], [], []
    positions = set(range(13))
    for back in combinations(range(13), 5):
        rest = sorted(positions - set(back))
        for middle in combinations(rest, 5):
            fronts.append(sorted(set(rest) - set(middle)))
            middles.append(middle)
            backs.append(back)
    return np.array(fronts), np.array(middles), np.array(backs)


def _conditioned_table(rules: Rules, hand: np.ndarray) -> np.ndarray:
    """The search table with every strength's value and odds moved by the hand's deltas,
    in numpy (the kernel moves only the hand's own rows)."""
    found = removal.removal_for(rules)
    assert found is not None
    m = found.model
    d, dr = found.deltas(hand)
    table = m.table.copy()
    b = found.bank
    for r in range(3):
        lo, hi = b.lo_idx[r], b.hi_idx[r]
        dw, dl = d[r, lo], -d[r, hi]
        shift = dw - dl
        if rules.royalty_mode == "winner":
            shift = shift + found.roy[r] * dw - dr[r, hi]
        elif rules.royalty_mode == "always":
            shift = shift - dr[r, 0]
        table[:, 3 * r] += shift
        table[:, 3 * r + 1] = np.clip(table[:, 3 * r + 1] + dw, 0, 1)
        table[:, 3 * r + 2] = np.clip(table[:, 3 * r + 2] + dl, 0, 1)
    return table


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.name} {r.royalty_mode}")
def test_the_removal_search_finds_the_best_of_all_72072_splits(
    rules: Rules, all_splits: tuple[np.ndarray, np.ndarray, np.ndarray]
) -> None:
    fronts, middles, backs = all_splits
    found = removal.removal_for(rules)
    assert found is not None
    m = found.model
    rng = np.random.default_rng(21)
    for _ in range(4):
        hand = rng.permutation(52)[:13].astype(np.int8)
        fs = evaluate_batch(hand[fronts]).astype(np.int32)
        ms = evaluate_batch(hand[middles]).astype(np.int32)
        bs = evaluate_batch(hand[backs]).astype(np.int32)
        legal = (middle_floors(rules.front_below_middle)[fs] <= ms) & (ms <= bs)
        rows = np.ascontiguousarray(np.stack([fs, ms, bs], axis=1)[legal])
        table = _conditioned_table(rules, hand)
        values = setter_values.rows_values(rows, table, *m.value_args[1:])
        where = np.flatnonzero(legal)[int(np.argmax(values))]
        cards = [int(c) for c in hand]
        choice = best_setting(cards, rules, alternatives=2)
        brute = setting_ev(
            rules,
            [int(c) for c in hand[fronts[where]]],
            [int(c) for c in hand[middles[where]]],
            [int(c) for c in hand[backs[where]]],
        )
        assert choice.play_ev == pytest.approx(brute, abs=1e-9)
        assert choice.play_ev == pytest.approx(
            m.p_rows * float(values.max()) + m.p_surrender * m.surrender_cost - m.opp_naturals,
            abs=1e-9,
        )
        top3 = np.sort(values)[::-1][:3]
        evs = [choice.play_ev] + [a.ev for a in choice.alternatives]
        assert np.allclose(np.diff(evs), m.p_rows * np.diff(top3), atol=1e-9)
        for a in (choice.setting, *choice.alternatives):
            assert not is_foul(rules, *row_strengths(rules, a.front, a.middle, a.back))
            assert sorted(a.front + a.middle + a.back) == sorted(cards)


def test_lowball_middles_are_left_unconditioned() -> None:
    rules = get_rules("chinese-1-6", {"lowball_middle": True})
    assert removal.removal_for(rules) is None
    hand = p("As Ad Kc Kd 9h 9s 7c 6d 5h 4s 3c 2d Jh")
    assert best_setting(hand, rules) == best_setting(hand, rules, card_removal=False)


def test_the_shipped_bank_matches_its_checksum() -> None:
    data = removal.default_path().read_bytes()
    banks = removal.load_banks()
    assert hashlib.sha256(data).hexdigest() == REMOVAL_SHA256
    assert set(banks) == {"1-6", "2-4", "1-4", "1-3"}
    for bank in banks.values():
        assert bank.sha256 == REMOVAL_SHA256
        assert len(bank.strengths) == 65_536
        assert (bank.ranks.sum(axis=1) == 13).all()
        assert (bank.suits.sum(axis=1) == 13).all()
        assert (bank.ranks <= 4).all()
        rows = bank.strengths.astype(np.int64)
        # the field never fouls: front ≤ middle ≤ back on the shared scale
        assert (middle_floors(False)[rows[:, 0]] <= rows[:, 1]).all()
        assert (rows[:, 1] <= rows[:, 2]).all()


def test_a_changed_or_missing_bank_is_refused(tmp_path: Path) -> None:
    good = tmp_path / "bank.npz"
    shutil.copyfile(removal.default_path(), good)
    removal.read_banks(good)
    data = bytearray(good.read_bytes())
    data[len(data) // 3] ^= 0x01
    bad = tmp_path / "changed.npz"
    bad.write_bytes(bytes(data))
    with pytest.raises(SetterTablesError, match="does not match its checksum"):
        removal.read_banks(bad)
    with pytest.raises(SetterTablesError, match="missing"):
        removal.read_banks(tmp_path / "nowhere.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip file")
    with pytest.raises(SetterTablesError, match="not a card-removal bank"):
        removal.read_banks(junk, sha256=hashlib.sha256(b"not a zip file").hexdigest())


def test_the_table_models_odds_are_unchanged_without_removal() -> None:
    rules = get_rules("chinese-1-6")
    hand = p("As Ad Kc Kd 9h 9s 7c 6d 5h 4s 3c 2d Jh")
    old = best_setting(hand, rules, card_removal=False)
    m = model_for(rules)
    fs, ms, bs = row_strengths(rules, old.setting.front, old.setting.middle, old.setting.back)
    value = setter_values.rows_value(fs, ms, bs, *m.value_args)
    assert old.play_ev == pytest.approx(
        m.p_rows * value + m.p_surrender * m.surrender_cost - m.opp_naturals, abs=1e-12
    )


def _load_bank_script() -> Any:
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "scripts"))
    try:
        spec = importlib.util.spec_from_file_location(
            "make_setter_removal", root / "scripts" / "make_setter_removal.py"
        )
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(root / "scripts"))
    return module


def test_the_bank_script_is_reproducible() -> None:
    script = _load_bank_script()
    runs = [script.build(300, 5, ("1-6", "2-4")) for _ in range(2)]
    assert runs[0] == runs[1]
    assert script.build(300, 6, ("1-6", "2-4")) != runs[0]
    banks = removal.read_banks_bytes(runs[0], sha256=hashlib.sha256(runs[0]).hexdigest())
    assert set(banks) == {"1-6", "2-4"}
    for bank in banks.values():
        assert len(bank.strengths) == 300
        assert (bank.ranks.sum(axis=1) == 13).all()
