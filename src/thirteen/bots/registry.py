"""Bots by name, for every preset: ``make_bot("strong", get_rules("ofc-pineapple"), seed=1)``.

Levels (:data:`LEVELS`), the same names for every game:

- ``random``: :class:`~thirteen.bots.base.RandomBot`, a uniformly random legal move (it may foul).
- ``heuristic``: Chinese Poker :class:`SafeSetterBot`, the greedy setting that never fouls;
  OFC :class:`~thirteen.bots.ofc_heuristic.HeuristicOFCBot`.
- ``strong``: Chinese Poker :class:`SetterBot`, the setter's best action (naturals and
  surrender included); OFC :class:`~thirteen.bots.ofc_mc.MonteCarloOFCBot`.

>>> from thirteen.engine.rules import get_rules
>>> make_bot("heuristic", get_rules("ofc")).name
'heuristic'
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from thirteen.bots.base import Bot, RandomBot
from thirteen.bots.ofc_heuristic import HeuristicOFCBot
from thirteen.bots.ofc_mc import MonteCarloOFCBot
from thirteen.engine.actions import Action, DeclareNatural, SetHand, Surrender
from thirteen.engine.autoplay import safe_setting
from thirteen.engine.errors import RuleError
from thirteen.engine.legal import Legal
from thirteen.engine.rules import Rules
from thirteen.engine.views import TableView

if TYPE_CHECKING:
    from thirteen.bots.setter import SetterChoice

LEVELS = ("random", "heuristic", "strong")
"""Every bot name :func:`make_bot` knows, weakest first."""


class SafeSetterBot:
    """Chinese Poker: the greedy setting that never fouls (best back, then middle, then front)."""

    name = "heuristic"

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def choose(self, view: TableView, legal: Legal, budget: float) -> Action:
        return self.choose_legal(legal, budget)

    def choose_legal(self, legal: Legal, budget: float) -> Action:
        """Set the hand with :func:`thirteen.engine.autoplay.safe_setting`."""
        front, middle, back = safe_setting(self.rules, legal.cards)
        return SetHand(seat=legal.seat, front=front, middle=middle, back=back)


class SetterBot:
    """Chinese Poker: the setter's best action — a setting, a natural or a surrender."""

    name = "strong"

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.last_choice: SetterChoice | None = None
        """The setter's whole answer behind the last action (its expected values)."""

    def choose(self, view: TableView, legal: Legal, budget: float) -> Action:
        return self.choose_legal(legal, budget)

    def choose_legal(self, legal: Legal, budget: float) -> Action:
        """Play :func:`thirteen.bots.setter.best_setting`'s choice for the 13 cards."""
        from thirteen.bots.setter import best_setting  # the setter loads its tables on use

        choice = best_setting(legal.cards, self.rules)
        self.last_choice = choice
        if choice.surrender and legal.can_surrender:
            return Surrender(seat=legal.seat)
        if choice.natural is not None and choice.natural in legal.naturals:
            return DeclareNatural(seat=legal.seat, natural=choice.natural)
        best = choice.setting  # the natural's arrangement may not be a legal setting
        return SetHand(seat=legal.seat, front=best.front, middle=best.middle, back=best.back)


def make_bot(name: str, rules: Rules, *, seed: int | None = None) -> Bot:
    """A bot of level ``name`` (see :data:`LEVELS`) for a table with ``rules``.

    ``seed`` makes a randomized bot reproducible (the Monte Carlo player then also converts its
    time budget to a fixed amount of work). Raises :class:`RuleError` for an unknown name.
    """
    key = name.strip().lower()
    if key == "random":
        return RandomBot(random.Random(seed))
    if key == "heuristic":
        return HeuristicOFCBot(rules) if rules.is_ofc else SafeSetterBot(rules)
    if key == "strong":
        return MonteCarloOFCBot(rules, seed=seed) if rules.is_ofc else SetterBot(rules)
    raise RuleError("unknown_bot", f"There is no bot {name!r}; bots: {', '.join(LEVELS)}.")


__all__ = ["LEVELS", "SafeSetterBot", "SetterBot", "make_bot"]
