"""The fantasyland solver: exact against exhaustive search, never fouls, values staying right."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from thirteen.bots._fantasyland_reference import reference_solve
from thirteen.bots.fantasyland import (
    STAY_VALUES,
    FantasylandSolution,
    default_stay_value,
    solve_fantasyland,
)
from thirteen.engine.cards import Card, parse_cards
from thirteen.engine.errors import CardError, RuleError
from thirteen.engine.evaluate import Category, best_five, category, evaluate
from thirteen.engine.rules import Rules, get_rules
from thirteen.engine.scoring import SetHand, is_foul, next_fantasyland, score

CUSTOM_TABLE = {
    # Not monotone in strength on purpose: a small pair pays more than queens.
    "front": {"pair": 5, "QQ": 1, "trips": 2},
    "middle": {"two pair": 3, "flush": 1},
    "back": {"high card": 2, "straight": 9},
}

RULESETS: list[Rules] = [
    get_rules("ofc"),
    get_rules("ofc-pineapple"),
    get_rules("ofc-pineapple-progressive"),
    get_rules("ofc-pineapple", {"front_below_middle": True}),
    get_rules("ofc", {"royalties": CUSTOM_TABLE}),
    get_rules("ofc-pineapple", {"fantasyland_stay": {"front": "QQ", "middle": "flush"}}),
    get_rules("ofc-pineapple", {"fantasyland_stay": {}, "royalty_mode": "winner"}),
    get_rules("ofc", {"royalty_mode": "off", "fantasyland_stay": {"back": "straight"}}),
]
STAY_CHOICES = (0.0, 2.5, 7.0, 14.6, 40.0)


def random_hand(rng: np.random.Generator, size: int) -> list[Card]:
    return [int(c) for c in rng.choice(52, size, replace=False)]


def objective(royalties: int, stays: bool, stay_value: float) -> float:
    return royalties + (stay_value if stays else 0.0)


def opponent_for(hand: Sequence[Card]) -> SetHand:
    """Some legal-or-not setting of 13 unused cards, so :func:`score` has two players."""
    rest = [c for c in range(52) if c not in hand][:13]
    return SetHand.of(rest[:3], rest[3:8], rest[8:13])


def check_solution(hand: list[Card], rules: Rules, best: FantasylandSolution) -> None:
    """The setting is legal, uses the given cards, and earns what the showdown says."""
    rows = (best.front, best.middle, best.back)
    assert [len(r) for r in rows] == [3, 5, 5]
    assert sorted(best.front + best.middle + best.back + best.discards) == sorted(hand)
    assert len(best.discards) == len(hand) - 13
    strengths = (evaluate(best.front), evaluate(best.middle), evaluate(best.back))
    assert best.strengths == strengths
    assert not is_foul(rules, *strengths)
    mine = SetHand.of(*rows, in_fantasyland=True)
    result = score(rules, [mine, opponent_for(hand)]).players[0]
    assert not result.foul
    assert best.royalty_rows == result.royalty_rows
    assert best.royalties == result.royalties
    stays = next_fantasyland(rules, strengths, in_fantasyland=True) is not None
    assert best.stays == stays == result.fantasyland
    assert best.value == objective(best.royalties, best.stays, best.stay_value)


def compare_with_reference(
    hand: list[Card], rules: Rules, stay_value: float
) -> tuple[FantasylandSolution, float]:
    best = solve_fantasyland(hand, rules, stay_value=stay_value)
    check_solution(hand, rules, best)
    ref = reference_solve(hand, rules, stay_value)
    ref_value = objective(ref.royalties, ref.stays, stay_value)
    assert best.value == ref_value, (hand, rules.name, stay_value)
    # Same tie-break: the strongest back, then middle, then front among the best values.
    assert best.strengths == ref.strengths, (hand, rules.name, stay_value)
    return best, ref_value


@pytest.mark.parametrize(("size", "count"), [(13, 160), (14, 160), (15, 16), (16, 4), (17, 2)])
def test_matches_exhaustive_search(size: int, count: int) -> None:
    rng = np.random.default_rng(1000 + size)
    stayed = 0
    for i in range(count):
        rules = RULESETS[i % len(RULESETS)]
        stay_value = STAY_CHOICES[(i // len(RULESETS)) % len(STAY_CHOICES)]
        best, _ = compare_with_reference(random_hand(rng, size), rules, stay_value)
        stayed += best.stays
    if count >= 100:
        assert stayed > 0  # the random hands do exercise the stay rule


def test_matches_exhaustive_search_on_hands_rich_in_royalties() -> None:
    """Hands drawn from few ranks or few suits: quads, full houses, flushes, trips in front."""
    rng = np.random.default_rng(77)
    for i in range(60):
        ranks = rng.choice(13, 5, replace=False)
        pool = [r * 4 + s for r in ranks for s in range(4)] if i % 2 else []
        if not pool:
            suits = rng.choice(4, 2, replace=False)
            pool = [r * 4 + s for r in range(13) for s in suits]
        size = 13 + i % 3
        hand = [int(c) for c in rng.choice(pool, size, replace=False)]
        rules = RULESETS[i % len(RULESETS)]
        compare_with_reference(hand, rules, STAY_CHOICES[i % len(STAY_CHOICES)])


def test_reference_settings_are_legal_and_scored_like_the_showdown() -> None:
    rng = np.random.default_rng(5)
    for i in range(10):
        rules = RULESETS[i % len(RULESETS)]
        hand = random_hand(rng, 14)
        ref = reference_solve(hand, rules, 7.0)
        result = score(
            rules,
            [SetHand.of(ref.front, ref.middle, ref.back, in_fantasyland=True), opponent_for(hand)],
        ).players[0]
        assert not result.foul
        assert result.royalties == ref.royalties
        assert result.fantasyland == ref.stays


ROYALTY_RULES = st.sampled_from(RULESETS)


@given(
    hand=st.lists(st.integers(0, 51), min_size=13, max_size=17, unique=True),
    rules=ROYALTY_RULES,
    stay_value=st.one_of(st.none(), st.floats(0, 100), st.integers(0, 60)),
)
def test_never_fouls_and_reports_what_the_showdown_pays(
    hand: list[int], rules: Rules, stay_value: float | None
) -> None:
    best = solve_fantasyland(hand, rules, stay_value=stay_value)
    check_solution(hand, rules, best)


def test_staying_wins_only_when_worth_more_than_the_royalties_it_costs() -> None:
    # Four aces in back stay in fantasyland (quads+ in back), but the ace of spades is also the
    # only way to a spade flush. Best without staying (RULES §3.5 modern table): JJ in front (6),
    # the spade flush in the middle (8), aces full in back (6) = 20. Best that stays: JJ in front
    # (6), eights and deuces in the middle (0), quad aces in back (10) = 16.
    rules = get_rules("ofc-pineapple")
    hand = parse_cards("As Ah Ad Ac Ks Qh Jh Jd 8s 8h 6s 4s 2d 2c")
    greedy = solve_fantasyland(hand, rules, stay_value=0)
    assert (greedy.royalties, greedy.stays) == (20, False)
    assert category(greedy.strengths[1]) == Category.FLUSH
    staying = solve_fantasyland(hand, rules, stay_value=100)
    assert (staying.royalties, staying.stays) == (16, True)
    assert category(staying.strengths[2]) == Category.QUADS
    gap = greedy.royalties - staying.royalties
    assert not solve_fantasyland(hand, rules, stay_value=gap - 0.5).stays
    assert solve_fantasyland(hand, rules, stay_value=gap + 0.5).stays
    # At exactly the gap both are worth 20; the tie goes to the stronger back: quads.
    tied = solve_fantasyland(hand, rules, stay_value=gap)
    assert tied.stays
    assert tied.value == greedy.royalties


def test_staying_and_royalties_can_agree() -> None:
    # Trips in front both stay and pay the most (AAA = 22), whatever staying is worth.
    rules = get_rules("ofc-pineapple")
    # The middle (a club flush) beats the front and the back (eights full) beats the middle.
    hand = parse_cards("As Ah Ad Kc Qc Jc 9c 7c 8d 8h 8s 5d 5h 2s")
    for stay_value in (0, 5, 50):
        best = solve_fantasyland(hand, rules, stay_value=stay_value)
        assert best.stays
        assert sorted(best.front) == sorted(parse_cards("As Ah Ad"))


def test_with_nothing_to_earn_the_rows_are_as_strong_as_possible_back_first() -> None:
    rules = get_rules("ofc", {"royalty_mode": "off", "fantasyland_stay": {}})
    rng = np.random.default_rng(9)
    for _ in range(20):
        hand = random_hand(rng, 14)
        best = solve_fantasyland(hand, rules)
        assert best.value == 0
        assert best.strengths[2] == best_five(hand)[0]
        rest = [c for c in hand if c not in best.back]
        strongest_middle = max(
            evaluate(m)
            for m in combinations(rest, 5)
            if any(
                not is_foul(rules, evaluate(f), evaluate(m), best.strengths[2])
                for f in combinations([c for c in rest if c not in m], 3)
            )
        )
        assert best.strengths[1] == strongest_middle


def test_answer_depends_on_the_cards_not_their_order() -> None:
    rng = np.random.default_rng(3)
    rules = get_rules("ofc-pineapple-progressive")
    for size in (13, 15, 17):
        hand = random_hand(rng, size)
        first = solve_fantasyland(hand, rules)
        shuffled = list(reversed(hand))
        assert solve_fantasyland(shuffled, rules) == first
        assert solve_fantasyland(np.array(hand), rules) == first


def test_default_stay_values() -> None:
    for name in ("ofc", "ofc-pineapple", "ofc-pineapple-progressive"):
        assert default_stay_value(get_rules(name)) == STAY_VALUES[name]
        custom = get_rules(name, {"front_below_middle": True})
        assert default_stay_value(custom) == STAY_VALUES[name]
    assert STAY_VALUES["ofc-pineapple"] > STAY_VALUES["ofc"] > 0
    hand = list(range(0, 52, 4))
    best = solve_fantasyland(hand, get_rules("ofc"))
    assert best.stay_value == STAY_VALUES["ofc"]


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        (list(range(12)), "bad_hand_size"),
        (list(range(18)), "bad_hand_size"),
        ([*range(13), 0], "duplicate_card"),
        ([*range(12), 52], "unknown_card"),
    ],
)
def test_refuses_bad_hands(cards: list[int], code: str) -> None:
    with pytest.raises(CardError) as caught:
        solve_fantasyland(cards, get_rules("ofc-pineapple"))
    assert caught.value.code == code


@pytest.mark.parametrize("name", ["chinese-1-6", "open-face-cards"])
def test_refuses_rules_without_fantasyland(name: str) -> None:
    with pytest.raises(RuleError, match="has no fantasyland"):
        solve_fantasyland(list(range(14)), get_rules(name))


@pytest.mark.parametrize("stay_value", [-1.0, float("nan"), float("inf"), 2e6])
def test_refuses_bad_stay_values(stay_value: float) -> None:
    with pytest.raises(RuleError, match="stay value"):
        solve_fantasyland(list(range(14)), get_rules("ofc-pineapple"), stay_value=stay_value)
