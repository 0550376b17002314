"""Hand strength: exhaustive counts, an independent evaluator, and RULES §1's examples."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise

import numpy as np
import pytest

from thirteen.engine.cards import DECK, parse_cards
from thirteen.engine.errors import CardError
from thirteen.engine.evaluate import (
    CATEGORY_OF,
    MAX_STRENGTH,
    NUM_STRENGTHS,
    Category,
    category,
    category_name,
    describe,
    evaluate,
    evaluate_batch,
    hand_labels,
    is_front_class,
    known_labels,
    label_floor,
    lowball,
    lowball_batch,
)


@pytest.fixture(scope="module")
def all_fives() -> np.ndarray:
    return np.array(list(combinations(DECK, 5)), dtype=np.int8)


@pytest.fixture(scope="module")
def all_threes() -> np.ndarray:
    return np.array(list(combinations(DECK, 3)), dtype=np.int8)


def s(text: str) -> int:
    return evaluate(parse_cards(text))


def test_five_card_category_counts(all_fives: np.ndarray) -> None:
    strengths = evaluate_batch(all_fives)
    counts = Counter(CATEGORY_OF[strengths].tolist())
    assert len(all_fives) == 2_598_960
    assert counts == {
        Category.STRAIGHT_FLUSH: 40,
        Category.QUADS: 624,
        Category.FULL_HOUSE: 3_744,
        Category.FLUSH: 5_108,
        Category.STRAIGHT: 10_200,
        Category.TRIPS: 54_912,
        Category.TWO_PAIR: 123_552,
        Category.PAIR: 1_098_240,
        Category.HIGH_CARD: 1_302_540,
    }
    assert len(np.unique(strengths)) == 7_462
    assert int((strengths == MAX_STRENGTH).sum()) == 4  # the royal flushes


def test_three_card_category_counts(all_threes: np.ndarray) -> None:
    strengths = evaluate_batch(all_threes)
    counts = Counter(CATEGORY_OF[strengths].tolist())
    assert counts == {Category.TRIPS: 52, Category.PAIR: 3_744, Category.HIGH_CARD: 18_304}
    assert len(np.unique(strengths)) == 455
    assert all(is_front_class(int(x)) for x in np.unique(strengths))


def test_scalar_path_equals_batch_path(all_fives: np.ndarray, all_threes: np.ndarray) -> None:
    batch = evaluate_batch(all_fives)
    step = 7  # every 7th hand keeps this a few seconds; the batch path is checked exhaustively
    sample = all_fives[::step]
    assert [evaluate(h) for h in sample.tolist()] == batch[::step].tolist()
    assert [evaluate(h) for h in all_threes.tolist()] == evaluate_batch(all_threes).tolist()


def test_ordering_agrees_with_eval7_on_every_five_card_hand(all_fives: np.ndarray) -> None:
    eval7 = pytest.importorskip("eval7")
    cards = [eval7.Card(n) for n in ("23456789TJQKA"[c >> 2] + "cdhs"[c & 3] for c in DECK)]
    theirs = np.fromiter(
        (eval7.evaluate([cards[c] for c in h]) for h in all_fives.tolist()),
        dtype=np.int64,
        count=len(all_fives),
    )
    ours = evaluate_batch(all_fives).astype(np.int64)
    # Same order: sorting by ours leaves theirs non-decreasing, and equal exactly when ours is.
    order = np.argsort(ours, kind="stable")
    o, t = ours[order], theirs[order]
    assert np.all(np.diff(t) >= 0)
    assert np.array_equal(np.diff(o) == 0, np.diff(t) == 0)


def test_phevaluator_agrees_on_a_random_sample() -> None:
    phe = pytest.importorskip("phevaluator")
    rng = np.random.default_rng(7)
    hands = np.array([rng.choice(52, 5, replace=False) for _ in range(20_000)])
    ours = evaluate_batch(hands)
    # phevaluator's card ids are rank * 4 + suit with suits c d h s, like ours; lower is better.
    theirs = np.array([phe.evaluate_cards(*map(int, h)) for h in hands])
    for i, j in zip(range(0, 19_999, 2), range(1, 20_000, 2), strict=True):
        assert np.sign(ours[i] - ours[j]) == -np.sign(theirs[i] - theirs[j])


def naive_front_key(ranks: list[int]) -> tuple[int, ...]:
    """An independent 3-card order: trips > pair > high card, then ranks by importance."""
    counts = Counter(ranks)
    by_importance = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
    return (max(counts.values()), *by_importance)


def test_front_ordering_matches_a_naive_comparator(all_threes: np.ndarray) -> None:
    strengths = evaluate_batch(all_threes).tolist()
    keys = [naive_front_key([c >> 2 for c in h]) for h in all_threes.tolist()]
    pairs = sorted(zip(keys, strengths, strict=True))
    for (k1, s1), (k2, s2) in pairwise(pairs):
        assert (s1 < s2) if k1 < k2 else (s1 == s2)


def test_straights_and_flushes_do_not_count_in_front() -> None:
    assert category(s("Qh Kh Ah")) == Category.HIGH_CARD
    assert s("Qh Kh Ah") == s("Qc Kd Ah")


@pytest.mark.parametrize(
    ("front", "middle", "legal"),
    [
        ("Qs Qd 7c", "Qh Qc 9d 8s 2c", True),  # QQ7 vs QQ982
        ("Qs Qd 7c", "Qh Qc 6d 5s 4c", False),  # QQ7 vs QQ654
        ("Ks Kd Ac", "Kh Kc Qd 7s 3c", False),  # KKA vs KKQ73
        ("Qs Qd 7c", "Qh Qc 7d 4s 3c", True),  # QQ7 vs QQ743: equal first ranks, front weaker
    ],
)
def test_cross_size_examples_of_rules_section_1(front: str, middle: str, legal: bool) -> None:
    assert (s(front) <= s(middle)) is legal


def test_front_is_weaker_than_any_five_sharing_its_first_ranks() -> None:
    assert s("As Kd Qc") < s("Ah Kc Qd 3s 2c")
    assert s("Qs Qd 7c") < s("Qh Qc 7d 3s 2c")
    assert s("7s 7d 7c") < s("7h 7d 7c 3s 2c")
    assert s("7s 7d 7c") > s("6h 6d 6c As Kc")


def test_trips_front_beats_two_pair() -> None:
    assert s("2s 2d 2c") > s("Ah Ad Kh Kd Qc")


def test_wheel_is_the_lowest_straight_and_there_is_no_wrap() -> None:
    wheel = s("As 2d 3c 4h 5s")
    assert category(wheel) == Category.STRAIGHT
    assert wheel < s("2s 3d 4c 5h 6s")
    assert category(s("Js Qd Kc Ah 2s")) == Category.HIGH_CARD
    assert category(s("Ac 2c 3c 4c 5c")) == Category.STRAIGHT_FLUSH
    assert s("Ac 2c 3c 4c 5c") < s("2d 3d 4d 5d 6d")


def test_suits_never_break_ties() -> None:
    assert s("As Ks Qs Js 9s") == s("Ah Kh Qh Jh 9h")
    assert s("As Kd Qc Jh 9s") == s("Ah Kc Qd Js 9h")


def test_royal_flush_and_descriptions() -> None:
    assert s("Ts Js Qs Ks As") == MAX_STRENGTH == NUM_STRENGTHS - 1
    assert category_name(MAX_STRENGTH) == "straight flush"
    assert describe(MAX_STRENGTH) == "Royal flush"
    assert describe(s("Qs Qd Qc 7h 7d")) == "Queens full of Sevens"
    assert describe(s("6s 6d 2c")) == "Pair of Sixes"
    assert describe(s("Ks Kd 2c 2h 9s")) == "Two pair, Kings and Twos"
    assert describe(s("5s 4d 3c 2h As")) == "Five-high straight"
    assert describe(s("Ks 9d 2c")) == "King high"


def test_labels_and_floors() -> None:
    assert hand_labels(s("Qs Qd 2c")) == ("QQ", "pair")
    assert hand_labels(s("2s 2d 2c")) == ("222", "trips")
    assert hand_labels(MAX_STRENGTH) == ("royal flush", "straight flush")
    assert label_floor("QQ", 3) == s("Qs Qd 2c")
    assert s("Js Jd Ac") < label_floor("QQ", 3) <= s("Qs Qd 3c")
    assert label_floor("full house", 5) == s("2s 2d 2c 3h 3d")
    with pytest.raises(ValueError, match="no 3-card hand"):
        label_floor("flush", 3)


@pytest.mark.parametrize("size", [3, 5])
def test_known_labels_are_the_labels_of_every_hand(size: int) -> None:
    every = {
        label
        for strength in range(NUM_STRENGTHS)
        if is_front_class(strength) == (size == 3)
        for label in hand_labels(strength)
    }
    assert known_labels(size) == every


def test_lowball_order(all_fives: np.ndarray) -> None:
    best = lowball(parse_cards("7s 5d 4c 3h 2s"))
    every = lowball_batch(all_fives)
    assert best == int(every.max())
    assert len(np.unique(every)) == 7_462
    assert lowball(parse_cards("7s 5d 4c 3h 2s")) > lowball(parse_cards("8s 5d 4c 3h 2s"))
    # Aces are high only: A-2-3-4-5 is an ace-high hand, not a straight.
    assert lowball(parse_cards("As 5d 4c 3h 2s")) < lowball(parse_cards("Ks Qd Jc 9h 8s"))
    assert lowball(parse_cards("As 5d 4c 3h 2s")) > lowball(parse_cards("2c 2d 4c 5h 6s"))
    # Straights and flushes count against the hand.
    assert lowball(parse_cards("6s 5d 4c 3h 2s")) < lowball(parse_cards("As Kd Qc Jh 9s"))
    assert lowball(parse_cards("7s 5s 4s 3s 2s")) < lowball(parse_cards("As Kd Qc Jh 9s"))


def test_lowball_reverses_eval7_except_for_wheels(all_fives: np.ndarray) -> None:
    eval7 = pytest.importorskip("eval7")
    rng = np.random.default_rng(3)
    sample = all_fives[rng.choice(len(all_fives), 30_000, replace=False)]
    ranks = np.sort(sample >> 2, axis=1)
    wheel = np.all(ranks == np.array([0, 1, 2, 3, 12]), axis=1)
    sample = sample[~wheel]
    cards = [eval7.Card("23456789TJQKA"[c >> 2] + "cdhs"[c & 3]) for c in DECK]
    theirs = np.array([eval7.evaluate([cards[c] for c in h]) for h in sample.tolist()])
    ours = lowball_batch(sample).astype(np.int64)
    a, b = ours[:-1], ours[1:]
    ta, tb = theirs[:-1], theirs[1:]
    assert np.array_equal(np.sign(a - b), -np.sign(ta - tb))


@pytest.mark.parametrize("n", [0, 1, 2, 4, 6])
def test_wrong_sizes_are_refused(n: int) -> None:
    with pytest.raises(CardError, match="3 or 5 cards"):
        evaluate(list(range(n)))


def test_batch_refuses_bad_shapes() -> None:
    with pytest.raises(CardError):
        evaluate_batch(np.zeros((3, 4), dtype=np.int8))
    with pytest.raises(CardError):
        lowball_batch(np.zeros((3, 3), dtype=np.int8))
