"""Actions in JSON: what a server receives from a client, validated at the edge."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from thirteen.engine.actions import (
    ACTION_TYPES,
    DeclareNatural,
    Place,
    SetHand,
    Sit,
    StartHand,
    Timeout,
    action_from_json,
    action_to_json,
    stamped,
)
from thirteen.engine.cards import parse_cards
from thirteen.engine.deck import Deal
from thirteen.engine.errors import RuleError

EXAMPLES = [
    Sit(seat=1, player="ann", stack=500, at=2.0),
    Place(
        seat=0,
        front=tuple(parse_cards("Qs")),
        back=tuple(parse_cards("As Ad")),
        discard=tuple(parse_cards("2c")),
        at=3.5,
    ),
    SetHand(
        seat=2,
        front=tuple(parse_cards("2c 3c 4c")),
        middle=tuple(parse_cards("5d 6d 7d 8d 9h")),
        back=tuple(parse_cards("Th Jh Qh Kh Ah")),
    ),
    DeclareNatural(seat=3, natural="dragon"),
    Timeout(seat=0, at=90.0),
    StartHand(deal=Deal.from_order(range(52), [bytes(16)] * 52), at=1.0),
]


@pytest.mark.parametrize("action", EXAMPLES, ids=lambda a: type(a).__name__)
def test_actions_round_trip_through_json(action: Any) -> None:
    assert action_from_json(action_to_json(action)) == action


@pytest.mark.parametrize("action", EXAMPLES, ids=lambda a: type(a).__name__)
def test_stamped_is_replace(action: Any) -> None:
    copy = stamped(action, 12.5)
    assert copy == dataclasses.replace(action, at=12.5)
    assert hash(copy) == hash(dataclasses.replace(action, at=12.5))
    assert type(copy) is type(action)
    assert action.at != 12.5  # the original is untouched


def test_every_action_is_plain_data() -> None:
    """:func:`stamped` copies past ``__init__``: right only while it merely assigns."""
    for cls in ACTION_TYPES.values():
        assert not hasattr(cls, "__post_init__"), cls
        assert not hasattr(cls, "__slots__"), cls
        assert "at" in {f.name for f in dataclasses.fields(cls)}, cls


def test_every_action_type_has_a_name() -> None:
    assert set(ACTION_TYPES) >= {
        "place",
        "set_hand",
        "declare_natural",
        "surrender",
        "time_out",
        "sit",
        "leave",
        "sit_out",
        "sit_in",
        "start_hand",
    }


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ("place", "must be an object"),
        ({"type": "fly"}, "Unknown action type 'fly'"),
        ({"type": "place", "seat": 0, "colour": "red"}, "no field 'colour'"),
        ({"type": "place", "seat": "zero"}, "seat must be a whole number"),
        ({"type": "place", "seat": 0, "back": "As Zz"}, '"Zz" is not a card'),
        ({"type": "place", "seat": 0, "back": "As As"}, "As is given twice"),
        ({"type": "place", "seat": 0, "at": "soon"}, "at must be a number"),
        ({"type": "set_hand", "seat": 0, "front": "2c 3c 4c"}, "needs back, middle"),
        ({"type": "sit", "seat": 0, "player": "", "stack": 5}, "player must be a non-empty text"),
        ({"type": "sit", "seat": 0, "player": "ann"}, "needs stack"),
        ({"type": "declare_natural", "seat": 1}, "needs natural"),
        ({"type": "time_out"}, "needs seat"),
        ({"type": "place"}, "needs seat"),  # (its rows may be left out; its seat may not)
        ({"type": "start_hand", "deal": "x"}, "no field 'deal'"),  # (a deal is deck and salts)
        ({"type": "start_hand", "deck": "As Kd", "salts": []}, "52 cards"),
        ({"type": "start_hand", "deck": " ".join(["As"]), "salts": "x"}, "salts must be a list"),
    ],
)
def test_bad_actions_are_refused_with_a_sentence(data: Any, says: str) -> None:
    with pytest.raises(RuleError, match=says) as info:
        action_from_json(data)
    assert info.value.code in {
        "bad_action",
        "unknown_card",
        "duplicate_card",
        "bad_deck",
        "bad_input",
    }
