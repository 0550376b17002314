"""The arrangement a player is setting, judged as the table would judge it: names, fouls and
royalties agree with the engine's scoring on complete hands, an incomplete hand is called a foul
only when no way of finishing it escapes one, and bad cards get a sentence."""

from __future__ import annotations

import random
import statistics
import time

import pytest

from thirteen.engine.arrangement import assess
from thirteen.engine.cards import format_cards
from thirteen.engine.errors import RuleError
from thirteen.engine.evaluate import describe, evaluate
from thirteen.engine.rules import PRESETS, get_rules
from thirteen.engine.scoring import SetHand, evaluate_player, is_foul, row_strengths

SIZES = (3, 5, 5)


def _deal(rng: random.Random) -> tuple[list[int], list[int], list[int]]:
    cards = rng.sample(range(52), 13)
    return cards[:3], cards[3:8], cards[8:]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_complete_hands_are_judged_as_the_showdown_judges_them(preset: str) -> None:
    rules = get_rules(preset)
    rng = random.Random(preset)
    fouls = 0
    for _ in range(600):
        front, middle, back = _deal(rng)
        if rng.random() < 0.5:  # sorted rows foul far less often: both kinds get tried
            ranked = sorted(front + middle + back, key=lambda c: c // 4)
            front, middle, back = ranked[:3], ranked[3:8], ranked[8:]
        found = assess(rules, format_cards(front), format_cards(middle), format_cards(back))
        result = evaluate_player(rules, SetHand.of(front, middle, back))
        assert (
            found.foul == result.foul == is_foul(rules, *row_strengths(rules, front, middle, back))
        )
        assert (found.warning is not None) == found.foul
        assert found.royalties == result.royalties
        assert [r.royalty for r in found.rows] == list(result.royalty_rows)
        assert [r.cards for r in found.rows] == [format_cards(x) for x in (front, middle, back)]
        assert found.rows[0].name == describe(evaluate(front))
        assert found.rows[2].name == describe(evaluate(back))
        if not rules.lowball_middle:
            assert found.rows[1].name == describe(evaluate(middle))
        fouls += found.foul
    assert 0 < fouls < 600


def test_names_and_royalties_of_a_hand() -> None:
    found = assess(get_rules("ofc"), "Qs Qd 7c", "9c 9d 5h 5s 2d", "Ah Kh 8h 6h 3h")
    assert [(r.row, r.name, r.royalty) for r in found.rows] == [
        ("front", "Pair of Queens", 7),
        ("middle", "Two pair, Nines and Fives", 0),
        ("back", "Ace-high flush", 4),
    ]
    assert (found.foul, found.warning, found.royalties) == (False, None, 11)


def test_a_foul_says_which_row_beats_which_and_earns_nothing() -> None:
    found = assess(get_rules("ofc"), "2c 3d 4h", "7s 7h 7d Kc Kd", "Ah Kh 8h 6h 3h")
    assert found.foul
    assert found.warning == "Middle beats Back: this hand would foul."
    assert found.royalties == 0
    assert [r.royalty for r in found.rows] == [0, 0, 0]
    assert found.rows[1].name == "Sevens full of Kings"


def test_incomplete_rows_are_named_by_what_they_make() -> None:
    found = assess(get_rules("ofc"), "", "Kd Kc 4s", "9s 9h 9d 2c")
    assert [r.name for r in found.rows] == [None, "Pair of Kings", "Three Nines"]
    assert [r.cards for r in found.rows] == ["", "Kd Kc 4s", "9s 9h 9d 2c"]
    assert not found.foul
    assert found.warning is None
    names = [assess(get_rules("ofc"), "", "", text).rows[2].name for text in ("Ah", "7c 7d 2s 2h")]
    assert names == ["Ace high", "Two pair, Sevens and Twos"]
    assert assess(get_rules("ofc"), "", "", "6c 6d 6h 6s").rows[2].name == "Four Sixes"


def test_an_incomplete_hand_fouls_only_when_nothing_can_save_it() -> None:
    rules = get_rules("ofc")
    doomed = assess(rules, "Ks Kd", "Qc Qh 7c 5h 2s", "")
    assert doomed.foul
    assert doomed.warning == "Front already beats Middle: this hand will foul whatever comes."
    # a king high front may still finish below a pair of queens; two complete rows out of order
    assert not assess(rules, "Ks 2d", "Qc Qh 7c 5h 2s", "").foul
    out_of_order = assess(rules, "", "Ac Ad 7c 5h 2s", "Kc Kh 7d 5c 2h")
    assert out_of_order.foul
    assert out_of_order.warning == "Middle beats Back: this hand would foul."
    # a complete front above a complete back, the middle still open
    assert assess(rules, "Ac Ad As", "2c", "Kc Kh Kd 5c 2h").foul
    # complete rows earn their royalties while the hand can still be saved
    open_hand = assess(rules, "Qs Qd 7c", "", "")
    assert (open_hand.foul, open_hand.royalties, open_hand.rows[0].royalty) == (False, 7, 7)


@pytest.mark.parametrize("preset", ["ofc", "open-face-cards", "chinese-1-6"])
def test_a_certain_foul_cannot_be_escaped(preset: str) -> None:
    """Every incomplete hand called a foul fouls however it is finished (sampled), and the
    check calls a fair share of the hands that are sure to foul."""
    rules = get_rules(preset)
    rng = random.Random(7)
    called = 0
    for _ in range(400):
        rows = _deal(rng)
        cut = [rng.randint(0, size) for size in SIZES]
        partial = [row[:n] for row, n in zip(rows, cut, strict=True)]
        found = assess(rules, *(format_cards(p) for p in partial))
        if not found.foul or all(n == s for n, s in zip(cut, SIZES, strict=True)):
            continue
        called += 1
        used = {c for p in partial for c in p}
        for _ in range(40):
            rest = rng.sample([c for c in range(52) if c not in used], 13 - len(used))
            finished = []
            for p, size in zip(partial, SIZES, strict=True):
                finished.append(p + rest[: size - len(p)])
                rest = rest[size - len(p) :]
            assert is_foul(rules, *row_strengths(rules, *finished)), (partial, finished)
    assert called > 10


@pytest.mark.parametrize(
    ("rows", "says"),
    [
        (("As Kd Qc Jh", "", ""), "The front holds at most 3 cards, not 4."),
        (("As", "As", ""), "As is used twice."),
        (("", "Xx", ""), 'Middle: "Xx" is not a card'),
        (("", "", "As Ad Ad"), "Back: Ad is given twice."),
        (("", "", "A" * 70), "Back: that is too long for a row of cards."),
    ],
)
def test_bad_cards_are_refused_with_a_sentence(rows: tuple[str, str, str], says: str) -> None:
    with pytest.raises(RuleError) as refused:
        assess(get_rules("ofc"), *rows)
    assert refused.value.code == "bad_cards"
    assert refused.value.message.startswith(says)


def test_lowball_middles_are_named_as_lows() -> None:
    rules = get_rules("chinese-1-6").with_overrides({"lowball_middle": True})
    found = assess(rules, "Qs Qd 7c", "9c 7d 5h 3s 2d", "Ah Kh 8h 6h 3h")
    assert found.rows[1].name == "2-7 low 9-7-5-3-2"
    assert not found.foul
    paired = assess(rules, "Qs Qd 7c", "9c 9d 5h 3s 2d", "Ah Kh 8h 6h 3h")
    assert paired.rows[1].name == "Pair of Nines"
    assert assess(rules, "As Ad 7c", "9c 7d 5h 3s 2d", "Kh Qh 8c 6h 3h").foul


def test_assessing_is_fast() -> None:
    """Sane, not a benchmark: the page calls it on every card moved."""
    rules = get_rules("ofc-pineapple")
    rng = random.Random(1)
    hands = [tuple(format_cards(r) for r in _deal(rng)) for _ in range(1000)]
    times = []
    for hand in hands:
        start = time.perf_counter()
        assess(rules, *hand)
        times.append(time.perf_counter() - start)
    assert statistics.median(times) < 0.005
