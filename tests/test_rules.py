from __future__ import annotations

from typing import Any

import pytest

from thirteen.engine.cards import parse_cards
from thirteen.engine.errors import RulesConfigError
from thirteen.engine.evaluate import evaluate
from thirteen.engine.royalties import EASTERN, MODERN, SEED_001
from thirteen.engine.rules import (
    PRESETS,
    Rules,
    fantasyland_cards_for,
    get_rules,
    rules_from_dict,
)

REQUIRED = {
    "chinese-1-6",
    "chinese-2-4",
    "chinese-1-4",
    "chinese-1-3",
    "ofc",
    "ofc-pineapple",
    "ofc-pineapple-progressive",
    "open-face-cards",
}


def test_every_required_preset_exists_and_round_trips() -> None:
    assert set(PRESETS) >= REQUIRED
    for name, rules in PRESETS.items():
        assert rules.name == name
        assert rules_from_dict(rules.to_dict()) == rules


def test_preset_facts() -> None:
    assert get_rules("chinese-2-4").surrender_cost == 3
    assert get_rules("chinese-1-6").scoop_value == 6
    assert get_rules("chinese-2-4").scoop_value == 4
    assert get_rules("chinese-1-4").scoop_value == 4
    assert get_rules("chinese-1-3").scoop_value == 3
    assert get_rules("chinese-1-6").royalties == EASTERN
    assert get_rules("ofc").royalties == SEED_001
    assert get_rules("ofc-pineapple").royalties == MODERN
    assert get_rules("ofc").cards_per_player == 13
    assert get_rules("ofc-pineapple").cards_per_player == 17
    assert get_rules("open-face-cards").foul_cost == 6
    assert get_rules("open-face-cards").royalty_mode == "off"
    assert get_rules("pineapple") == get_rules("ofc-pineapple")


def test_progressive_fantasyland_sizes() -> None:
    rules = get_rules("ofc-pineapple-progressive")

    def cards(front: str) -> int | None:
        return fantasyland_cards_for(rules, evaluate(parse_cards(front)))

    assert cards("Js Jd Ac") is None
    assert cards("Qs Qd 2c") == 14
    assert cards("Ks Kd 2c") == 15
    assert cards("As Ad 2c") == 16
    assert cards("2s 2d 2c") == 17
    assert rules.fantasyland_repeat_cards == 14


def test_overrides_are_validated_copies() -> None:
    base = get_rules("chinese-1-6")
    changed = base.with_overrides({"scoring": "2-4", "surrender_cost": 2})
    assert changed.scoring == "2-4"
    assert base.scoring == "1-6"
    assert changed.name == "chinese-1-6 (custom)"
    assert get_rules("ofc", {"royalties": "modern"}).royalties == MODERN
    custom = get_rules("ofc", {"royalties": {"front": {"QQ": 5}, "back": {"quads": 1}}})
    assert custom.royalties.royalty("front", evaluate(parse_cards("Qs Qd 2c"))) == 5


@pytest.mark.parametrize(
    ("preset", "overrides", "says"),
    [
        ("ofc-pineapple", {"max_players": 4}, "4 players need 68 cards"),
        ("chinese-1-6", {"colour": "red"}, "no setting 'colour'"),
        ("chinese-1-6", {"scoring": "2-5"}, "scoring must be one of"),
        ("chinese-1-6", {"surrender_cost": -1}, "at least 0"),
        ("chinese-1-6", {"surrender_cost": "3"}, "whole number"),
        ("chinese-1-6", {"surrender": "yes"}, "true or false"),
        ("chinese-1-6", {"fantasyland": True}, "Fantasyland is an OFC rule"),
        ("chinese-1-6", {"streets": [5, 8]}, "13 cards at once"),
        ("chinese-1-6", {"natural_payouts": {"royal": 5}}, "Unknown natural"),
        ("chinese-1-6", {"min_players": 3, "max_players": 2}, "2 to 4 players"),
        ("chinese-1-6", {"max_players": 5}, "2 to 4 players"),
        ("chinese-1-6", {"royalties": "huge"}, "Unknown royalty table"),
        ("chinese-1-6", {"royalties": {"front": {"flush": 3}}}, "No 3-card front hand"),
        ("chinese-1-6", {"royalties": {"side": {}}}, "rows front, middle and back"),
        ("chinese-1-6", {"lowball_middle": True, "front_below_middle": True}, "lowball"),
        ("ofc", {"natural_payouts": {"dragon": 13}}, "Chinese Poker rule"),
        ("ofc", {"streets": [5, 1, 1]}, "place 7 cards"),
        ("ofc", {"fantasyland_entry": {"QQ": 12}}, "at least 13"),
        ("ofc", {"fantasyland_entry": {"QQ": 18}}, "13 to 17 cards"),
        ("ofc", {"fantasyland_stay": {"side": "trips"}}, "rows front, middle, back"),
        ("ofc", {"set_hand_seconds": 0}, "longer than 0"),
        ("ofc-pineapple-progressive", {"max_players": 4}, "players need"),
        ("ofc", {"lowball_middle": True}, "Chinese Poker variant"),
        ("ofc", {"discards_per_street": 1}, "more cards than it discards"),
    ],
)
def test_impossible_settings_are_refused_with_a_reason(
    preset: str, overrides: dict[str, Any], says: str
) -> None:
    with pytest.raises(RulesConfigError, match=says):
        get_rules(preset, overrides)


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(RulesConfigError, match="Presets: chinese-1-6"):
        get_rules("holdem")


def test_rules_built_in_python_are_checked_too() -> None:
    with pytest.raises(RulesConfigError, match="Naturals are a Chinese Poker rule"):
        Rules(game="ofc", streets=(5, 1, 1, 1, 1, 1, 1, 1, 1))
    with pytest.raises(RulesConfigError, match="scoring must be one of"):
        Rules(scoring="9-9")  # type: ignore[arg-type]
    with pytest.raises(RulesConfigError, match="at least 0"):
        Rules(surrender_cost=-1)
    one_street = Rules(game="ofc", streets=(13,), natural_payouts=())
    assert one_street.cards_per_player == 13


def test_describe_lists_every_setting() -> None:
    rows = get_rules("ofc-pineapple").describe()
    names = [r[0] for r in rows]
    assert names[:2] == ["name", "game"]
    assert {r[0]: r[1] for r in rows}["streets"] == "5, then 4 × 3 (discard 1)"
