from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from thirteen.engine.cards import DECK, parse_cards
from thirteen.engine.errors import RuleError
from thirteen.engine.evaluate import Category, category, evaluate
from thirteen.engine.naturals import check_natural, find_naturals, greedy_setting

DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
THREE_FLUSHES = "2h 5h 9h Jh Kh 3s 4s 8s Ts Qs 6d 7d 2d"
THREE_STRAIGHTS = "Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc"
SIX_PAIRS = "Ac Ad Qc Qh Jd Jh Td Th 4h 4s 3s 3d 2s"
SIX_PAIRS_WITH_QUADS = "Ac Ad Ah As Qc Qh Jd Jh Td Th 4h 4s 2s"
NO_FACES = "2c 3c 4d 5d 6h 7h 8s 9s Tc Td Ac Ad 2h"


def names(text: str) -> set[str]:
    return {n.name for n in find_naturals(parse_cards(text))}


def test_each_natural_is_found() -> None:
    assert "dragon" in names(DRAGON)
    assert names(THREE_FLUSHES) >= {"three-flushes"}
    assert "three-straights" in names(THREE_STRAIGHTS)
    assert "six-pairs" in names(SIX_PAIRS)
    assert "six-pairs" in names(SIX_PAIRS_WITH_QUADS)
    assert "no-face-cards" in names(NO_FACES)


def test_three_straights_use_ace_low_and_ace_high_fronts() -> None:
    assert "three-straights" in names("Ac 2d 3h 4s 5c 6d 7h 8s 5h 6s 7c 8d 9h")  # A-2-3 front
    assert "three-straights" in names("Qc Kd Ah 2s 3c 4d 5h 6s 7c 8d 9h Ts Jc")  # Q-K-A front
    # K-A-2 would wrap: no straight is made that way.
    assert "three-straights" not in names("Kc Ad 2h 3s 3c 4d 4h 5s 5c 6d 6h 7s 7c")


def test_trips_count_as_one_pair_and_quads_as_two() -> None:
    assert "six-pairs" not in names("Ac Ad Ah Qc Qh Jd Jh Td Th 4h 4s 2s 3d")  # 5 pairs
    assert "six-pairs" in names(SIX_PAIRS_WITH_QUADS)


def test_three_flushes_in_every_suit_shape() -> None:
    assert "three-flushes" in names("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah")  # 13 of a suit
    assert "three-flushes" in names("2h 3h 4h 5h 6h 7h 8h 9h Th Jh 2s 3s 4s")  # 10 + 3
    assert "three-flushes" not in names("2h 3h 4h 5h 6h 7h 8h 9h Th 2s 3s 4s 5s")  # 9 + 4
    natural = check_natural("three-flushes", parse_cards("2h 3h 4h 5h 6h 7h 8h 9h Th Jh 2s 3s 4s"))
    assert sorted(natural.front + natural.middle + natural.back) == sorted(
        parse_cards("2h 3h 4h 5h 6h 7h 8h 9h Th Jh 2s 3s 4s")
    )


def test_three_flushes_with_eight_of_one_suit() -> None:
    assert "three-flushes" in names("2h 3h 4h 5h 6h 7h 8h 9h 2s 3s 4s 5s 7s")
    assert "three-flushes" not in names("2h 3h 4h 5h 6h 7h 8h 9h 2s 3s 4s 5s 7d")


@pytest.mark.parametrize(
    ("natural", "cards", "says"),
    [
        ("dragon", THREE_FLUSHES, "this hand has no"),
        ("six-pairs", DRAGON, "this hand has 0 pairs"),
        ("three-flushes", DRAGON, "suits count"),
        ("three-straights", SIX_PAIRS, "two 5-card straights"),
        ("no-face-cards", DRAGON, "this hand has Jd, Qh, Ks"),
    ],
)
def test_a_wrong_declaration_says_why(natural: str, cards: str, says: str) -> None:
    with pytest.raises(RuleError, match=says) as info:
        check_natural(natural, parse_cards(cards))
    assert info.value.code == "invalid_natural"


def test_unknown_natural_and_wrong_size() -> None:
    with pytest.raises(RuleError, match="no natural called 'royal'"):
        check_natural("royal", parse_cards(DRAGON))
    with pytest.raises(RuleError, match="13 cards"):
        check_natural("dragon", parse_cards("2c 3d"))


@pytest.mark.parametrize("text", [DRAGON, THREE_FLUSHES, THREE_STRAIGHTS, SIX_PAIRS, NO_FACES])
def test_arrangements_use_exactly_the_cards(text: str) -> None:
    cards = parse_cards(text)
    for natural in find_naturals(cards):
        shown = natural.front + natural.middle + natural.back
        assert sorted(shown) == sorted(cards)
        assert (len(natural.front), len(natural.middle), len(natural.back)) == (3, 5, 5)


def test_three_flushes_arrangement_shows_flushes() -> None:
    natural = check_natural("three-flushes", parse_cards(THREE_FLUSHES))
    assert category(evaluate(natural.middle)) == Category.FLUSH
    assert category(evaluate(natural.back)) == Category.FLUSH
    assert len({c & 3 for c in natural.front}) == 1


@given(st.permutations(DECK))
def test_greedy_setting_never_fouls(deck: list[int]) -> None:
    front, middle, back = greedy_setting(deck[:13])
    assert evaluate(front) <= evaluate(middle) <= evaluate(back)
    assert sorted(front + middle + back) == sorted(deck[:13])


def _runs(size: int) -> list[list[int]]:
    """Every straight of ``size`` ranks (0 = deuce … 12 = ace), the wheel's ace low too."""
    return [list(range(lo, lo + size)) for lo in range(13 - size + 1)] + [[12, *range(size - 1)]]


def _is_three_straights(cards: list[int]) -> bool:
    """The slow, obvious oracle: some 3-card straight and two 5-card ones use exactly these
    cards' ranks."""
    ranks = sorted(c >> 2 for c in cards)
    return any(sorted(a + b + c) == ranks for a in _runs(3) for b in _runs(5) for c in _runs(5))


@st.composite
def hands_near_naturals(draw: st.DrawFn) -> list[int]:
    """Thirteen cards: any, or three straights' ranks (maybe one card off) in random suits —
    random hands almost never hold three straights or six pairs."""
    if draw(st.booleans()):
        return draw(st.permutations(DECK))[:13]
    shape = draw(st.sampled_from(["straights", "pairs", "flushes", "dragon"]))
    if shape in ("flushes", "dragon"):  # cards of three suits (3, 5, 5), or of every rank
        if shape == "flushes":
            suits = [draw(st.integers(0, 3)) for _ in range(3)]
            want = [suits[0]] * 3 + [suits[1]] * 5 + [suits[2]] * 5
            by_suit = {s: draw(st.permutations(range(13))) for s in set(want)}
            cards = [by_suit[s].pop() * 4 + s for s in want]
        else:
            cards = [r * 4 + draw(st.integers(0, 3)) for r in range(13)]
        if draw(st.booleans()):  # one card off
            cards[draw(st.integers(0, 12))] = draw(
                st.sampled_from([c for c in DECK if c not in cards])
            )
        return cards
    if shape == "straights":
        ranks = draw(st.sampled_from(_runs(3))) + [
            r for _ in range(2) for r in draw(st.sampled_from(_runs(5)))
        ]
    else:
        ranks = [
            r for r in draw(st.lists(st.integers(0, 12), min_size=6, max_size=6)) for _ in "xx"
        ]
        ranks.append(draw(st.integers(0, 12)))
    if draw(st.booleans()):
        ranks[draw(st.integers(0, 12))] = draw(st.integers(0, 12))
    cards: list[int] = []
    for r in ranks:
        free = [r * 4 + s for s in range(4) if r * 4 + s not in cards]
        if not free:
            return draw(st.permutations(DECK))[:13]
        cards.append(draw(st.sampled_from(free)))
    return cards


def _is_three_flushes(cards: list[int]) -> bool:
    """The obvious oracle: some suits of 3, 5 and 5 cards hold exactly these cards' suits."""
    held = [sum(1 for c in cards if c & 3 == s) for s in range(4)]
    for a, b, c in itertools.product(range(4), repeat=3):
        need = [0] * 4
        need[a] += 3
        need[b] += 5
        need[c] += 5
        if need == held:
            return True
    return False


@given(hands_near_naturals())
def test_every_natural_against_the_obvious_count(cards: list[int]) -> None:
    """The shortcuts (every finder's first test taken at once on a bit set of the cards, a bit
    a rank in the finders, pairs counted first) decide as the slow way does, and the
    arrangement shown uses exactly the cards."""
    found = {n.name: n for n in find_naturals(cards)}
    assert ("three-straights" in found) == _is_three_straights(cards)
    pairs = sum(n // 2 for n in (sorted(c >> 2 for c in cards).count(r) for r in range(13)))
    assert ("six-pairs" in found) == (pairs >= 6)
    assert ("three-flushes" in found) == _is_three_flushes(cards)
    assert ("dragon" in found) == (len({c >> 2 for c in cards}) == 13)
    assert ("no-face-cards" in found) == all(c >> 2 not in (9, 10, 11) for c in cards)
    for natural in found.values():
        assert sorted(natural.front + natural.middle + natural.back) == sorted(cards)


def test_only_the_naturals_asked_for_are_looked_for() -> None:
    cards = parse_cards(DRAGON)
    assert {n.name for n in find_naturals(cards, {"dragon", "six-pairs"})} == {"dragon"}
    assert find_naturals(cards, ()) == []
