"""The rules of Chinese Poker and OFC: pure, no I/O, no clock, no global random.

>>> from thirteen.engine import evaluate, parse_cards, describe
>>> describe(evaluate(parse_cards("Qs Qd 7c")))
'Pair of Queens'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# The one name imported at once: the submodule ``evaluate`` would otherwise stand in for it.
from thirteen.engine.evaluate import evaluate

if TYPE_CHECKING:
    from thirteen.engine.cards import (
        Card,
        CardSet,
        card_name,
        format_cards,
        from_mask,
        parse_card,
        parse_cards,
        to_mask,
    )
    from thirteen.engine.errors import CardError, IllegalActionError, RuleError, RulesConfigError
    from thirteen.engine.evaluate import (
        Category,
        category,
        category_name,
        describe,
        evaluate_batch,
        lowball,
        lowball_batch,
    )
    from thirteen.engine.legal import Legal, legal_actions
    from thirteen.engine.naturals import Natural, check_natural, find_naturals, greedy_setting
    from thirteen.engine.rules import PRESETS, Rules, get_rules
    from thirteen.engine.scoring import (
        DeclaredNatural,
        PairResult,
        PlayerResult,
        SetHand,
        Showdown,
        Showing,
        Surrender,
        is_foul,
        score,
    )

_HOME = {
    "Card": "cards",
    "CardSet": "cards",
    "card_name": "cards",
    "format_cards": "cards",
    "from_mask": "cards",
    "parse_card": "cards",
    "parse_cards": "cards",
    "to_mask": "cards",
    "CardError": "errors",
    "IllegalActionError": "errors",
    "RuleError": "errors",
    "RulesConfigError": "errors",
    "Category": "evaluate",
    "category": "evaluate",
    "category_name": "evaluate",
    "describe": "evaluate",
    "evaluate_batch": "evaluate",
    "lowball": "evaluate",
    "lowball_batch": "evaluate",
    "Legal": "legal",
    "legal_actions": "legal",
    "Natural": "naturals",
    "check_natural": "naturals",
    "find_naturals": "naturals",
    "greedy_setting": "naturals",
    "PRESETS": "rules",
    "Rules": "rules",
    "get_rules": "rules",
    "DeclaredNatural": "scoring",
    "PairResult": "scoring",
    "PlayerResult": "scoring",
    "SetHand": "scoring",
    "Showdown": "scoring",
    "Showing": "scoring",
    "Surrender": "scoring",
    "is_foul": "scoring",
    "score": "scoring",
}
"""The module each public name lives in: imported when the name is first used, so that
``import thirteen.engine.cards`` does not build every table of the engine."""


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"thirteen.engine.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))


__all__ = [
    "PRESETS",
    "Card",
    "CardError",
    "CardSet",
    "Category",
    "DeclaredNatural",
    "IllegalActionError",
    "Legal",
    "Natural",
    "PairResult",
    "PlayerResult",
    "RuleError",
    "Rules",
    "RulesConfigError",
    "SetHand",
    "Showdown",
    "Showing",
    "Surrender",
    "card_name",
    "category",
    "category_name",
    "check_natural",
    "describe",
    "evaluate",
    "evaluate_batch",
    "find_naturals",
    "format_cards",
    "from_mask",
    "get_rules",
    "greedy_setting",
    "is_foul",
    "legal_actions",
    "lowball",
    "lowball_batch",
    "parse_card",
    "parse_cards",
    "score",
    "to_mask",
]
