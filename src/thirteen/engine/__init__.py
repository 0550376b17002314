"""The rules of Chinese Poker and OFC: pure, no I/O, no clock, no global random.

>>> from thirteen.engine import evaluate, parse_cards, describe
>>> describe(evaluate(parse_cards("Qs Qd 7c")))
'Pair of Queens'
"""

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
    evaluate,
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
