from __future__ import annotations

import pytest

from thirteen.engine.cards import (
    DECK,
    card_name,
    check_distinct,
    format_cards,
    from_mask,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
    to_mask,
)
from thirteen.engine.errors import CardError


def test_every_card_round_trips_through_its_name() -> None:
    assert [parse_card(card_name(c)) for c in DECK] == list(DECK)
    assert len({card_name(c) for c in DECK}) == 52


def test_encoding_is_rank_times_four_plus_suit() -> None:
    assert parse_card("2c") == 0
    assert parse_card("As") == 51
    assert make_card(rank_of(parse_card("Td")), suit_of(parse_card("Td"))) == parse_card("Td")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As Td 9c", "As Td 9c"),
        ("as td 9C", "As Td 9c"),
        ("10h 10S", "Th Ts"),
        ("A♠, K♥", "As Kh"),
        ("  Qs\tQd\n2c ", "Qs Qd 2c"),
    ],
)
def test_parse_accepts_common_spellings(text: str, expected: str) -> None:
    assert format_cards(parse_cards(text)) == expected


@pytest.mark.parametrize("token", ["Zz", "1s", "11h", "A", "Asx", "Ax"])
def test_parse_names_the_bad_token(token: str) -> None:
    with pytest.raises(CardError) as info:
        parse_cards(f"Kd {token} 2c")
    assert info.value.code == "unknown_card"
    assert f'"{token}"' in str(info.value)


def test_parse_refuses_duplicates_by_name() -> None:
    with pytest.raises(CardError, match="As is given twice") as info:
        parse_cards("As Kd as")
    assert info.value.code == "duplicate_card"
    assert parse_cards("As As", allow_duplicates=True) == [51, 51]


def test_masks_round_trip() -> None:
    cards = parse_cards("2c 7h Ks As")
    assert from_mask(to_mask(cards)) == sorted(cards)
    assert to_mask([]) == 0


def test_check_distinct_names_the_owners() -> None:
    check_distinct([parse_cards("As Kd"), parse_cards("Qh")], owner="player")
    with pytest.raises(CardError, match=r"Kd is used twice \(players 1 and 3\)"):
        check_distinct([parse_cards("As Kd"), parse_cards("Qh"), parse_cards("Kd")], owner="player")


def test_check_cards_accepts_numpy_integers_and_refuses_the_rest() -> None:
    import numpy as np

    from thirteen.engine.cards import check_cards

    assert check_cards([np.int8(3), np.int64(51), 0]) == [3, 51, 0]
    assert all(type(c) is int for c in check_cards(np.array([1, 2, 3])))
    for bad in (52, -1, True, "As", 1.0):
        with pytest.raises(CardError, match="not a card number"):
            check_cards([bad])  # type: ignore[list-item]
