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
    bounds_of,
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
        ("chinese-1-6", {"surrender_cost": -1}, "surrender_cost must be from 0 to 1,000 units"),
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
        (
            "ofc",
            {"fantasyland_entry": {"QQ": 12}},
            r"fantasyland_entry\['QQ'\] must be from 13 to 17",
        ),
        ("ofc", {"fantasyland_entry": {"QQ": 18}}, "13 to 17 cards"),
        ("ofc", {"fantasyland_stay": {"side": "trips"}}, "rows front, middle, back"),
        ("ofc", {"set_hand_seconds": 0}, "set_hand_seconds must be from 0.001 to 3,600 seconds"),
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


@pytest.mark.parametrize(
    ("preset", "overrides", "says"),
    [
        # what JSON (1e999, NaN, huge integers) hands a server: refused, naming key and range
        (
            "chinese-1-6",
            {"set_hand_seconds": float("inf")},
            "set_hand_seconds must be a finite number from 0.001 to 3,600 seconds, not inf",
        ),
        ("chinese-1-6", {"showdown_seconds": float("nan")}, "showdown_seconds must be a finite"),
        ("chinese-1-6", {"sit_out_seconds": -float("inf")}, "from 0.001 to 86,400 seconds"),
        ("chinese-1-6", {"sit_out_seconds": 10**400}, "not a number far too large"),
        ("chinese-1-6", {"foul_penalty": 10**30}, "foul_penalty must be from 0 to 1,000 units"),
        ("chinese-1-6", {"surrender_cost": 1001}, "surrender_cost must be from 0 to 1,000"),
        ("chinese-1-6", {"surrender_cost": 2.5}, "surrender_cost must be a whole number"),
        ("chinese-1-6", {"natural_payouts": {"dragon": 10**20}}, r"natural_payouts\['dragon'\]"),
        ("chinese-1-6", {"royalties": {"front": {"trips": 1e999}}}, r"royalties.front\['trips'\]"),
        ("chinese-1-6", {"royalties": {"back": {"quads": 10**19}}}, "from 0 to 1,000 units"),
        ("chinese-1-6", {"royalties": {"x" * 10**5: {}}}, "rows front, middle and back, not"),
        ("ofc", {"fantasyland_repeat_cards": 10**30}, "fantasyland_repeat_cards must be from 13"),
        ("ofc", {"streets": [13] * 10**4}, "1 to 13 card counts"),
        ("ofc", {"streets": [5, 10**30]}, "streets must be from 1 to 13 cards"),
        ("ofc", {"discards_per_street": 10**30}, "discards_per_street must be from 0 to 12"),
        ("chinese-1-6", {"max_players": 10**30}, "max_players must be from 2 to 4 players"),
        ("chinese-1-6", {"name": "n" * 65}, "name must be a text of 1 to 64 characters"),
        ("chinese-1-6", {"x" * 10**5: 1}, "There is no setting 'xxxx"),
        ("chinese-1-6", {"fan_bonuses": [[{"a": [[[]]]}, 1]]}, "names hands in short texts"),
        ("ofc", {"fantasyland_stay": {"front": ["trips"]}}, "must name a hand"),
    ],
)
def test_every_number_is_finite_and_in_its_range(
    preset: str, overrides: dict[str, Any], says: str
) -> None:
    with pytest.raises(RulesConfigError, match=says) as refused:
        get_rules(preset, overrides)
    assert len(str(refused.value)) < 600  # a sentence (the settings listed at most)


def test_every_numeric_setting_states_its_range() -> None:
    """The schema is complete: a setting that holds numbers has its range as data, and
    ``thirteen rules PRESET`` shows it; every preset lies within every range."""
    numeric = {
        f.name
        for f in __import__("dataclasses").fields(Rules)
        if any(word in f.type for word in ("int", "float", "Entries", "RoyaltyTable"))
    }
    assert numeric >= {"set_hand_seconds", "foul_penalty", "royalties", "streets"}
    for name in numeric:
        assert bounds_of(name) is not None, name
    meanings = {row[0]: row[2] for row in get_rules("ofc").describe()}
    assert meanings["set_hand_seconds"].endswith("(0.001 to 3,600 seconds)")
    assert meanings["foul_penalty"].endswith("(0 to 1,000 units)")
    assert bounds_of("scoring") is None


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(RulesConfigError, match="Presets: chinese-1-6"):
        get_rules("holdem")


def test_rules_built_in_python_are_checked_too() -> None:
    with pytest.raises(RulesConfigError, match="Naturals are a Chinese Poker rule"):
        Rules(game="ofc", streets=(5, 1, 1, 1, 1, 1, 1, 1, 1))
    with pytest.raises(RulesConfigError, match="scoring must be one of"):
        Rules(scoring="9-9")  # type: ignore[arg-type]
    with pytest.raises(RulesConfigError, match="from 0 to 1,000 units"):
        Rules(surrender_cost=-1)
    one_street = Rules(game="ofc", streets=(13,), natural_payouts=())
    assert one_street.cards_per_player == 13


def test_describe_lists_every_setting() -> None:
    rows = get_rules("ofc-pineapple").describe()
    names = [r[0] for r in rows]
    assert names[:2] == ["name", "game"]
    assert {r[0]: r[1] for r in rows}["streets"] == "5, then 4 × 3 (discard 1)"
