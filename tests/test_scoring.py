"""Golden showdowns from the seeds and RULES.md, one per rule, plus properties of every result."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import hand
from thirteen.engine.cards import DECK, parse_cards
from thirteen.engine.errors import RuleError
from thirteen.engine.evaluate import evaluate
from thirteen.engine.naturals import find_naturals
from thirteen.engine.rules import PRESETS, get_rules
from thirteen.engine.scoring import (
    DeclaredNatural,
    SetHand,
    Showing,
    Surrender,
    is_foul,
    row_strengths,
    score,
)

# --- seed 003: the two-player example ----------------------------------------------------------
# Back: full house beats flush; middle: two pair loses to a straight; front: kings beat fours.
SEED3_P1 = hand("Ks Kd 2c", "9h 9d 3c 3d 5h", "Th Td Tc 6h 6d")
SEED3_P2 = hand("4s 4d 7c", "5c 6c 7d 8s 9s", "Ah Qh Jh 8h 2h")


@pytest.mark.parametrize("preset", ["chinese-1-6", "chinese-1-4", "chinese-1-3"])
def test_seed_003_two_players(preset: str) -> None:
    result = score(get_rules(preset), [SEED3_P1, SEED3_P2])
    assert result.pairs[0].rows == (1, -1, 1)  # front, middle, back from player 1's side
    assert result.totals == (1, -1)


def test_seed_003_two_players_under_2_4_adds_the_overall_unit() -> None:
    assert score(get_rules("chinese-2-4"), [SEED3_P1, SEED3_P2]).totals == (2, -2)


# --- seed 003: the four-player example ---------------------------------------------------------
# Rows as the seed lists them. Its pictures are lost and its text would need six tens, so player
# 1's full house is sixes full here; every row keeps its category and the order between players.
#   back:   P1 full house > P2 9-high flush > P3 A-high straight > P4 aces and fours
#   middle: P2 K-high straight > P3 queens and fives > P1 eights and sevens > P4 jacks
#   front:  P4 nines > P2 deuces > P1 king high > P3 ten high
SEED3_FOUR = [
    hand("Kc 4c 3c", "8h 8d 7h 7d 2c", "6h 6d 6c 3h 3d"),
    hand("2h 2d 5c", "9c Td Jc Qd Kd", "9s 7s 5s 4s 2s"),
    hand("Th 6s 3s", "Qh Qc 5h 5d 8c", "Ts Jd Qs Ks Ac"),
    hand("9h 9d Tc", "Jh Js 8s 7c Ad", "Ah As 4h 4d Kh"),
]


@pytest.mark.parametrize(
    ("preset", "matrix_upper", "totals"),
    [
        # P1-P2, P1-P3, P1-P4, P2-P3 (a scoop), P2-P4, P3-P4
        ("chinese-1-6", (-1, 1, 1, 6, 1, 1), (1, 8, -6, -3)),
        ("chinese-2-4", (-2, 2, 2, 4, 2, 2), (2, 8, -4, -6)),
        ("chinese-1-4", (-1, 1, 1, 4, 1, 1), (1, 6, -4, -3)),
        ("chinese-1-3", (-1, 1, 1, 3, 1, 1), (1, 5, -3, -3)),
    ],
)
def test_seed_003_four_players(
    preset: str, matrix_upper: tuple[int, ...], totals: tuple[int, ...]
) -> None:
    result = score(get_rules(preset), SEED3_FOUR)
    assert tuple(p.total for p in result.pairs) == matrix_upper
    assert result.totals == totals
    assert not any(p.foul for p in result.players)


# --- RULES §2.3: the 2-4 method with ties ------------------------------------------------------
TIE_BASE = hand("Qs Jd 2c", "9h 9d 3c 4d 5h", "Th Td Tc 6h 6d")


@pytest.mark.parametrize(
    ("other", "expected"),
    [
        # 2 won + 1 tie = 3 (front tied, middle and back won)
        (hand("Qh Jc 2d", "8h 8d 3h 4h 5c", "7c 7s 7d 6c 6s"), 3),
        # 1 won + 1 lost + 1 tie = 0 (front tied, middle won, back lost)
        (hand("Qh Jc 2d", "8h 8d 3h 4h 5c", "Ac As Ah 6c 6s"), 0),
        # 1 won + 2 ties = 1 (front and middle tied, back won)
        (hand("Qh Jc 2d", "9c 9s 3h 4h 5c", "8c 8s 7c 7s Ac"), 1),
    ],
)
def test_two_four_with_ties(other: SetHand, expected: int) -> None:
    assert score(get_rules("chinese-2-4"), [TIE_BASE, other]).totals[0] == expected


# --- RULES §2.4: Chinese royalties are paid only on rows won -----------------------------------
def test_chinese_royalty_paid_only_by_the_loser_of_that_row() -> None:
    quads = hand("2c 3d 4h", "5c 5d 7h 8h 9c", "As Ad Ah Ac Kd")  # back quads: royalty 4
    weak = hand("2d 3h 4s", "6c 6d 7c 8c 9d", "Ks Kh Kc Qd Qh")
    stronger = hand("2h 3s 4c", "6h 6s 7d 8d 9h", "Qs Js Ts 9s 8s")  # back straight flush: 5
    r = score(get_rules("chinese-1-6"), [quads, weak])
    back_won = r.pairs[0]
    assert back_won.rows[2] == 1
    assert back_won.royalties == 4
    r = score(get_rules("chinese-1-6"), [quads, stronger])
    assert r.pairs[0].rows[2] == -1
    assert r.pairs[0].royalties == -5  # the quads earn nothing; the straight flush is paid


def test_chinese_tied_row_pays_no_royalty() -> None:
    # Straight flushes in the middle and royals in the back tie; the front decides.
    a = hand("2c 2d 3h", "5c 6c 7c 8c 9c", "Ts Js Qs Ks As")
    b = hand("4c 4d 3s", "5d 6d 7d 8d 9d", "Th Jh Qh Kh Ah")
    result = score(get_rules("chinese-1-6"), [a, b])
    assert result.players[0].royalties == 10 + 7  # what a's rows would earn if they won
    assert result.pairs[0].rows == (-1, 0, 0)
    assert result.pairs[0].royalties == 0
    assert result.totals == (-1, 1)


# --- RULES §2.5 and seed 002: fouls ------------------------------------------------------------
FOULED = hand("Ah Ad 2c", "Kc Kd 3c 4d 5h", "Qc Qd Qh 7s 7d")  # aces in front above kings
CLEAN_66 = hand("6s 6d 2d", "9c 9h 3s 4s 5s", "Ts Js Qs Ks 2s")  # 66 front, flush back
CLEAN_PLAIN = hand("2h 3h 4c", "8c 8d 5c 6c 7h", "Jc Jd Jh 8s 8h")


@pytest.mark.parametrize(
    ("preset", "scoop"),
    [("chinese-1-6", 6), ("chinese-2-4", 4), ("chinese-1-4", 4), ("chinese-1-3", 3)],
)
def test_a_fouled_chinese_hand_loses_a_scoop_plus_royalties(preset: str, scoop: int) -> None:
    rules = get_rules(preset)
    assert is_foul(rules, *row_strengths(rules, FOULED.front, FOULED.middle, FOULED.back))
    result = score(rules, [FOULED, CLEAN_PLAIN])
    assert result.totals == (-scoop, scoop)
    assert result.players[0].foul
    assert result.players[0].royalties == 0
    quads = hand("2h 3h 4h", "5c 6c 8c 9c Jc", "Ts Td Th Tc 8h")
    with_royalty = score(rules, [FOULED, quads])  # back quads: 4 in the Eastern table
    assert with_royalty.totals == (-scoop - 4, scoop + 4)


def test_seed_002_fouls_in_ofc() -> None:
    rules = get_rules("ofc")
    result = score(rules, [FOULED, CLEAN_66, CLEAN_PLAIN])
    clean_66 = result.players[1]
    assert clean_66.royalties == 1 + 4  # 66 in front, a flush in back (seed 001 table)
    assert result.matrix[0][1] == -(6 + 5)  # six plus the opponent's royalties
    assert result.players[2].royalties == 6  # a full house in back
    assert result.matrix[0][2] == -(6 + 6)
    assert result.players[0].royalties == 0


def test_two_fouled_players_exchange_nothing() -> None:
    other_foul = hand("Ks Kh 3h", "Qs Js 9s 4h 5d", "Tc Td 2s 3s 6h")
    for preset in PRESETS:
        result = score(get_rules(preset), [FOULED, other_foul])
        assert all(p.foul for p in result.players)
        assert result.totals == (0, 0)


# --- RULES §2.7: naturals ------------------------------------------------------------------------
DRAGON = DeclaredNatural("dragon", tuple(parse_cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")))
SIX_PAIRS = DeclaredNatural(
    "six-pairs", tuple(parse_cards("2h 2s 3h 3s 4c 4s 5h 5d 7c 7h 9c 9h Kc"))
)
FLUSHES = DeclaredNatural(
    "three-flushes", tuple(parse_cards("2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad"))
)


def test_natural_is_paid_by_every_opponent_without_rows() -> None:
    plain = hand("6h 6s 2d", "8c 8d Th Tc Qs", "Jc Jh Js Qh Qc")
    surrender = Surrender(tuple(parse_cards("As Ah 3c 4h 5c 6d 7s 8s 9d Ts Jd Kh Kd")))
    fouled = hand("Ad Qd Ks", "Ac 3d 5s 6c 7d", "8h 9s Td 2c 4d")
    result = score(get_rules("chinese-1-6"), [SIX_PAIRS, plain, surrender, fouled])
    assert result.players[3].foul
    assert result.matrix[0] == (0, 3, 3, 3)
    assert result.players[0].natural is not None
    assert result.players[0].natural.name == "six-pairs"
    assert result.pair(0, 1).kind == "natural"
    assert result.pair(0, 1).rows == (0, 0, 0)


def test_natural_against_natural() -> None:
    rules = get_rules("chinese-1-6")
    assert score(rules, [DRAGON, SIX_PAIRS]).totals == (13, -13)
    # Equal payouts exchange nothing: three flushes (4) against three straights (4).
    straights = DeclaredNatural(
        "three-straights", tuple(parse_cards("As 2s 3s 4h 5h 6h 7h 8h 5c 6c 7c 8c 9c"))
    )
    assert score(rules, [FLUSHES, straights]).totals == (0, 0)


def test_an_invalid_declaration_is_refused() -> None:
    bogus = DeclaredNatural("dragon", SIX_PAIRS.cards)
    other = hand("6c 6d Jh", "8c 8d Th Tc Qs", "Ac Ad As Qh Qc")
    with pytest.raises(RuleError, match="Player 1: Not dragon") as info:
        score(get_rules("chinese-1-6"), [bogus, other])
    assert info.value.code == "invalid_natural"


def test_naturals_off_or_not_offered() -> None:
    rules = get_rules("chinese-1-6")
    no_faces = DeclaredNatural(
        "no-face-cards", tuple(parse_cards("2c 3c 4d 5d 6h 7h 8s 9s Tc Td Ac Ad 2h"))
    )
    with pytest.raises(RuleError, match="not a natural at this table"):
        score(rules, [no_faces, CLEAN_66])
    enabled = rules.with_overrides({"natural_payouts": {"no-face-cards": 3}})
    assert score(enabled, [no_faces, CLEAN_66]).totals == (3, -3)
    with pytest.raises(RuleError, match="not a natural at this table"):
        score(get_rules("ofc"), [DRAGON, CLEAN_66])


# --- RULES §2.8 and §3.7: surrender -------------------------------------------------------------
@pytest.mark.parametrize(
    ("preset", "cost"),
    [
        ("chinese-1-6", 3),
        ("chinese-2-4", 3),
        ("chinese-1-4", 3),
        ("chinese-1-3", 3),
        ("ofc", 6),
        ("ofc-pineapple", 6),
    ],
)
def test_surrender_costs(preset: str, cost: int) -> None:
    rules = get_rules(preset)
    quit_ = Surrender(tuple(parse_cards("Ac 3h 4h 5d 6h")))
    hands = [quit_, CLEAN_66, FOULED, Surrender()][: rules.max_players]
    result = score(rules, hands)
    # Nothing passes between a surrenderer and a fouled or surrendered player.
    assert result.matrix[0] == (0, -cost, 0, 0)[: len(hands)]
    assert result.players[0].surrendered


def test_open_face_cards_has_no_surrender() -> None:
    with pytest.raises(RuleError, match="no surrender"):
        score(get_rules("open-face-cards"), [Surrender(), CLEAN_66])


# --- RULES §2.6: lowball middle ------------------------------------------------------------------
def test_lowball_middle() -> None:
    rules = get_rules("chinese-1-6", {"lowball_middle": True})
    # Middle 7-5-4-3-2 is the best low; a setting is legal when back >= front only.
    low = hand("Qs Qd 2c", "7h 5c 4d 3s 2d", "Kc Kd Kh 8s 8d")
    high = hand("Js Jd 3c", "Ah Ac As 9c 9d", "Tc Td Th 6s 6d")
    result = score(rules, [low, high])
    assert not any(p.foul for p in result.players)  # high's middle is above its back: legal here
    assert result.pairs[0].rows == (1, 1, 1)
    assert result.totals == (6, -6)
    assert score(get_rules("chinese-1-6"), [low, high]).players[1].foul


# --- RULES §3.4–3.6, seed 001: OFC royalties and fantasyland -----------------------------------
@pytest.mark.parametrize(
    ("row", "cards", "units"),
    [
        ("back", "2c 3d 4h 5s 6c", 2),
        ("back", "2c 5c 7c 9c Jc", 4),
        ("back", "2c 2d 2h 5s 5c", 6),
        ("back", "2c 2d 2h 2s 5c", 10),
        ("back", "2c 3c 4c 5c 6c", 15),
        ("back", "Tc Jc Qc Kc Ac", 25),
        ("middle", "2c 3d 4h 5s 6c", 4),
        ("middle", "2c 5c 7c 9c Jc", 8),
        ("middle", "2c 2d 2h 5s 5c", 12),
        ("middle", "2c 2d 2h 2s 5c", 20),
        ("middle", "2c 3c 4c 5c 6c", 30),
        ("middle", "Tc Jc Qc Kc Ac", 50),
        ("middle", "2c 2d 2h 5s 7c", 0),
        ("front", "5c 5d Ah", 0),
        ("front", "6c 6d 2h", 1),
        ("front", "7c 7d 2h", 2),
        ("front", "Tc Td 2h", 5),
        ("front", "Qc Qd 2h", 7),
        ("front", "Ac Ad Kh", 9),
        ("front", "2c 2d 2h", 20),
        ("front", "Ac Ad Ah", 20),
    ],
)
def test_seed_001_royalty_table(row: str, cards: str, units: int) -> None:
    table = get_rules("ofc").royalties
    assert table.royalty(row, evaluate(parse_cards(cards))) == units  # type: ignore[arg-type]


def test_modern_table_differs_in_middle_trips_and_front_trips() -> None:
    table = get_rules("ofc-pineapple").royalties
    assert table.royalty("middle", evaluate(parse_cards("2c 2d 2h 5s 7c"))) == 2
    assert table.royalty("front", evaluate(parse_cards("2c 2d 2h"))) == 10
    assert table.royalty("front", evaluate(parse_cards("Ac Ad Ah"))) == 22


def test_ofc_royalties_paid_whatever_the_rows_did() -> None:
    # a loses front and middle but has a back flush (4); b has kings in front (8).
    a = hand("2c 3d 4h", "5c 5d 7h 8h 9c", "2s 6s 8s Ts Js")
    b = hand("Kc Kd 4c", "Ac Ad 7c 8c 9d", "Ah As Kh Ks 3h")
    result = score(get_rules("ofc"), [a, b])
    pair = result.pairs[0]
    assert pair.rows == (-1, -1, 1)
    assert (result.players[0].royalties, result.players[1].royalties) == (4, 8)
    assert pair.royalties == 4 - 8
    assert result.totals == (-1 + 4 - 8, 1 - 4 + 8)


def test_ofc_fantasyland_entry_and_stay() -> None:
    rules = get_rules("ofc")
    qq = hand("Qc Qd 2h", "3c 3d 4h 4s 9c", "Ac Ad As 8d 8h")
    jj = hand("Jc Jd 2c", "3h 3s 5h 5s 9d", "Kc Kd Ks 7d 7h")
    result = score(rules, [qq, jj])
    assert [p.fantasyland_cards for p in result.players] == [13, None]
    # In fantasyland, queens in front do not keep you there; trips, a middle full house or
    # back quads do.
    in_fl = hand("Qc Qd 2h", "3c 3d 4h 4s 9c", "Ac Ad As 8d 8h", fl=True)
    assert score(rules, [in_fl, jj]).players[0].fantasyland_cards is None
    trips = hand("6c 6d 6h", "8c 8d 8h 2s 2d", "Ac Ad As Qd Qh", fl=True)
    assert score(rules, [trips, jj]).players[0].fantasyland_cards == 13
    middle_boat = hand("2h 2s 4c", "8c 8d 8h 3c 3d", "Ac Ad As Qd Qh", fl=True)
    assert score(rules, [middle_boat, jj]).players[0].fantasyland_cards == 13
    back_quads = hand("2h 2s 4c", "3c 3d 5c 5d 6h", "Ac Ad As Ah Qh", fl=True)
    assert score(rules, [back_quads, jj]).players[0].fantasyland_cards == 13
    fouled_fl = hand("Ac Ah Ad", "3c 3d 5c 5d 6h", "Qc Qd Qs 8h 8d", fl=True)
    assert score(rules, [fouled_fl, jj]).players[0].fantasyland_cards is None


def test_progressive_repeat_is_fourteen_cards() -> None:
    rules = get_rules("ofc-pineapple-progressive")
    trips_front = hand("7c 7d 7h", "8c 8d 8h 2s 2d", "Ac Ad As Kd Kh")
    other = hand("2c 3h 4c", "5c 5s 6d 6h 9d", "Tc Td Ts Js Jd")
    assert score(rules, [trips_front, other]).players[0].fantasyland_cards == 17
    again = hand("7c 7d 7h", "8c 8d 8h 2s 2d", "Ac Ad As Kd Kh", fl=True)
    assert score(rules, [again, other]).players[0].fantasyland_cards == 14


# --- RULES §4.3, seed 004: open-face-cards -------------------------------------------------------
FOULED_2 = hand("Qs Qh 9h", "Jh Js 3c 4d 5h", "Tc Th 6s 6h 8d")  # queens above jacks


def test_seed_004_foul_pays_six_each_and_the_others_compare() -> None:
    rules = get_rules("open-face-cards")
    a = hand("2c 3d 4h", "5c 5d 7h 8h 9c", "Ks Kh Kd 2s 2d")
    b = hand("Jc Td 4c", "6c 6d 7c 8c 9d", "As Ah Ac 3s 3h")
    result = score(rules, [FOULED_2, a, b])
    assert result.totals[0] == -12
    assert result.matrix[0][1] == result.matrix[0][2] == -6
    assert result.pair(1, 2).rows == (-1, -1, -1)
    assert result.matrix[1][2] == -3  # no scoop bonus: one unit per row
    assert result.totals == (-12, 6 - 3, 6 + 3)


def test_seed_004_fan_points() -> None:
    rules = get_rules("open-face-cards")
    qq = hand("Qc Qd 2h", "3c 3d 4h 4s 9c", "Ac Ad As 8d 8h")
    x = hand("Kc 3h 2c", "5c 5s 6d 6h 9d", "Tc Td Ts Js Jd")
    y = hand("Kd 3s 2d", "7c 7s 8c 8s 9h", "Kh Ks Qh Qs 2s")
    result = score(rules, [qq, x, y])
    assert [p.fan for p in result.players] == [1, 0, 0]
    assert [p.fan for p in result.pairs] == [1, 1, 0]  # pairs (0,1), (0,2), (1,2)
    # +2 for the queens three-handed, −1 from each other player (seed 004).
    fan_totals = [
        sum(p.fan for p in result.pairs if p.a == i) - sum(p.fan for p in result.pairs if p.b == i)
        for i in range(3)
    ]
    assert fan_totals == [2, -1, -1]


@pytest.mark.parametrize(
    ("front", "fan"),
    [("Qc Qd 2h", 1), ("Kc Kd 2h", 2), ("Ac Ad 2h", 3), ("7c 7d 7h", 4), ("Jc Jd 2h", 0)],
)
def test_fan_sizes(front: str, fan: int) -> None:
    rules = get_rules("open-face-cards")
    me = hand(front, "8c 8d 8s 3c 3d", "9s 9h 9c 4h 4d")
    them = hand("2c 3h 4c", "5c 5s 6d 6h 9d", "Tc Td Ts 2s 2d")
    result = score(rules, [me, them])
    assert not result.players[0].foul
    assert result.players[0].fan == fan
    assert result.pairs[0].fan == fan


def test_fan_is_paid_by_a_fouled_player() -> None:
    rules = get_rules("open-face-cards")
    kk = hand("Kc Kd 2h", "3s 3d 4h 4s 9c", "Ac As Ad 8c 8h")
    result = score(rules, [kk, FOULED_2])
    assert result.matrix[0][1] == 6 + 2


def test_seed_004_strict_front_below_middle() -> None:
    # Front QQ7 against middle QQ732: seed 004 compares ranks until one hand runs out, so the
    # two tie and "front < middle" fails. Under the shared scale alone the front is weaker.
    tie = hand("Qc Qd 7d", "Qh Qs 7c 3s 2d", "Ac Ad As Kd Kh")
    assert score(get_rules("open-face-cards"), [tie, CLEAN_PLAIN]).players[0].foul
    assert not score(get_rules("ofc-pineapple"), [tie, CLEAN_PLAIN]).players[0].foul


# --- input validation ---------------------------------------------------------------------------
def test_bad_hands_are_refused() -> None:
    rules = get_rules("chinese-1-6")
    with pytest.raises(RuleError, match="front holds 3 cards, not 2"):
        score(rules, [hand("As Kd", "2c 3c 4c 5c 7d", "8c 9c Tc Jc Kc"), CLEAN_66])
    with pytest.raises(RuleError, match=r"2s is used twice \(players 1 and 2\)"):
        score(rules, [CLEAN_66, hand("2s 3h 4c", "5c 5s 6d 6h 9d", "Tc Td Ts Js Jd")])
    with pytest.raises(RuleError, match="at least two players"):
        score(rules, [CLEAN_66])
    with pytest.raises(RuleError, match="at most 3 players"):
        score(get_rules("ofc-pineapple"), [Surrender(), Surrender(), Surrender(), Surrender()])
    with pytest.raises(RuleError, match="has no fantasyland"):
        score(rules, [hand("2c 3h 4c", "5c 5s 6d 6h 9d", "Tc Td Ts Js Jd", fl=True), CLEAN_66])


# --- properties over random showdowns -----------------------------------------------------------
@st.composite
def showdowns(draw: st.DrawFn) -> tuple[str, list[Showing]]:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    rules = get_rules(preset)
    n = draw(st.integers(2, rules.max_players))
    deck = draw(st.permutations(DECK))
    hands: list[Showing] = []
    for seat in range(n):
        cards = deck[seat * 13 : seat * 13 + 13]
        kind = draw(st.sampled_from(["set", "set", "set", "surrender", "natural"]))
        if kind == "surrender" and rules.surrender:
            hands.append(Surrender(tuple(cards)))
            continue
        if kind == "natural" and rules.natural_payouts:
            found = [x for x in find_naturals(cards) if rules.natural_payout(x.name) is not None]
            if found:
                hands.append(DeclaredNatural(found[0].name, tuple(cards)))
                continue
        order = draw(st.permutations(cards))
        fl = rules.fantasyland and draw(st.booleans())
        hands.append(SetHand.of(order[:3], order[3:8], order[8:], in_fantasyland=fl))
    return preset, hands


@given(showdowns())
def test_every_showdown_is_zero_sum_and_antisymmetric(case: tuple[str, list[Showing]]) -> None:
    preset, hands = case
    result = score(get_rules(preset), hands)
    assert sum(result.totals) == 0
    n = len(hands)
    for i in range(n):
        assert result.matrix[i][i] == 0
        for j in range(n):
            assert result.matrix[i][j] == -result.matrix[j][i]
        assert result.totals[i] == sum(result.matrix[i])


@given(showdowns(), st.data())
def test_swapping_two_players_mirrors_the_matrix(
    case: tuple[str, list[Showing]], data: st.DataObject
) -> None:
    preset, hands = case
    n = len(hands)
    i = data.draw(st.integers(0, n - 1))
    j = data.draw(st.integers(0, n - 1))
    perm = list(range(n))
    perm[i], perm[j] = perm[j], perm[i]
    before = score(get_rules(preset), hands)
    after = score(get_rules(preset), [hands[k] for k in perm])
    for a in range(n):
        for b in range(n):
            assert after.matrix[a][b] == before.matrix[perm[a]][perm[b]]


@given(showdowns())
def test_a_fouled_hand_never_wins_a_unit(case: tuple[str, list[Showing]]) -> None:
    preset, hands = case
    result = score(get_rules(preset), hands)
    for i, player in enumerate(result.players):
        if player.foul:
            assert all(x <= 0 for x in result.matrix[i])
            assert player.royalties == 0
            assert player.fantasyland_cards is None
