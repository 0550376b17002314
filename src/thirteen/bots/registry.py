"""Bots by name, for every preset: ``make_bot("strong", get_rules("ofc-pineapple"), seed=1)``.

Levels (:data:`LEVELS`), the same names for every game:

- ``random``: :class:`~thirteen.bots.base.RandomBot`, a uniformly random legal move (it may foul).
- ``heuristic``: Chinese Poker :class:`SafeSetterBot`, the greedy setting that never fouls;
  OFC :class:`~thirteen.bots.ofc_heuristic.HeuristicOFCBot`.
- ``strong``: Chinese Poker :class:`SetterBot`, the setter's best action (naturals and
  surrender included); OFC :class:`~thirteen.bots.ofc_mc.MonteCarloOFCBot`.

Levels named for people (:data:`PEOPLE`), for players choosing an opponent; each keeps a table
moving:

- ``beginner``: :class:`BeginnerBot`, the heuristic making a mistake in :data:`MISTAKES` of its
  decisions (OFC: the heuristic's second or third choice for the street; Chinese Poker: a random
  setting that does not foul, no naturals, no surrender). Under a millisecond a decision.
- ``club``: the ``heuristic`` player. Under a millisecond a decision.
- ``expert``: the ``strong`` player, thinking the table's time per decision up to
  :data:`EXPERT_BUDGET` (the room gives bots 0.5 s by default; the Chinese Poker setter needs
  about 0.3 ms, card removal included, whatever it is given).

:data:`NAMES` is every name :func:`make_bot` takes.

>>> from thirteen.engine.rules import get_rules
>>> make_bot("heuristic", get_rules("ofc")).name
'heuristic'
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np

from thirteen.bots._ofc_model import decode, model_for, situation_from_view, street_options
from thirteen.bots.base import Bot, RandomBot
from thirteen.bots.ofc_heuristic import HeuristicOFCBot, fantasyland_action
from thirteen.bots.ofc_mc import MonteCarloOFCBot
from thirteen.engine.actions import Action, DeclareNatural, SetHand, Surrender
from thirteen.engine.autoplay import safe_setting
from thirteen.engine.errors import RuleError
from thirteen.engine.legal import Legal
from thirteen.engine.rules import Rules
from thirteen.engine.scoring import is_foul, row_strengths
from thirteen.engine.views import TableView

if TYPE_CHECKING:
    from thirteen.bots.setter import SetterChoice

LEVELS = ("random", "heuristic", "strong")
"""The bots :func:`make_bot` knows, weakest first."""
PEOPLE = ("beginner", "club", "expert")
"""Levels named for people, weakest first: ``club`` is ``heuristic`` and ``expert`` is
``strong`` (with at most :data:`EXPERT_BUDGET` a decision); ``beginner`` is :class:`BeginnerBot`."""
NAMES = (*LEVELS, *PEOPLE)
"""Every name :func:`make_bot` takes (in any case, around spaces)."""
MISTAKES = 0.3
"""Share of a beginner's decisions that are mistakes."""
EXPERT_BUDGET = 1.0
"""Most seconds an expert thinks about a decision, whatever the table allows."""


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


class BeginnerBot:
    """The heuristic player with a share of mistakes (:data:`MISTAKES`): on an OFC street the
    heuristic's second or third choice (at random) instead of its first; in Chinese Poker a
    random setting that does not foul instead of the safe setting. It never declares a natural
    or surrenders, and sets a fantasyland hand with the exact solver."""

    name = "beginner"

    def __init__(
        self, rules: Rules, rng: random.Random | None = None, mistakes: float = MISTAKES
    ) -> None:
        self.rules = rules
        self.rng = rng or random.Random()
        self.mistakes = mistakes
        self.model = model_for(rules) if rules.is_ofc else None

    def choose(self, view: TableView, legal: Legal, budget: float) -> Action:
        """The heuristic's move, or a plausible mistake."""
        wrong = self.rng.random() < self.mistakes
        if self.model is not None:
            if legal.mode == "set":
                return fantasyland_action(self.rules, legal)
            situation = situation_from_view(view, self.rules)
            codes, values = street_options(self.model, situation)
            order = np.argsort(-values, kind="stable")
            pick = self.rng.randrange(1, min(3, len(order))) if wrong and len(order) > 1 else 0
            return legal.place(decode(situation.cards, codes[int(order[pick])]))
        front, middle, back = safe_setting(self.rules, legal.cards)
        if wrong:
            cards = list(legal.cards)
            for _ in range(MISTAKE_TRIES):
                self.rng.shuffle(cards)
                rows = (tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:13]))
                if not is_foul(self.rules, *row_strengths(self.rules, *rows)):
                    front, middle, back = rows
                    break
        return SetHand(seat=legal.seat, front=front, middle=middle, back=back)


MISTAKE_TRIES = 100
"""Random settings a beginner draws looking for one that does not foul (about a third do);
if none does, it plays the safe setting."""


class Capped:
    """A bot that thinks at most ``most`` seconds about a decision, under another name."""

    def __init__(self, bot: Bot, name: str, most: float) -> None:
        self.bot = bot
        self.name = name
        self.most = most

    def choose(self, view: TableView, legal: Legal, budget: float) -> Action:
        return self.bot.choose(view, legal, min(budget, self.most))


def make_bot(name: str, rules: Rules, *, seed: int | None = None) -> Bot:
    """A bot of level ``name`` (see :data:`NAMES`) for a table with ``rules``.

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
    if key == "beginner":
        return BeginnerBot(rules, random.Random(seed))
    if key == "club":
        return Capped(make_bot("heuristic", rules, seed=seed), "club", EXPERT_BUDGET)
    if key == "expert":
        return Capped(make_bot("strong", rules, seed=seed), "expert", EXPERT_BUDGET)
    raise RuleError("unknown_bot", f"There is no bot {name!r}; bots: {', '.join(NAMES)}.")


def is_level(name: str) -> bool:
    """Whether :func:`make_bot` takes ``name``."""
    return name.strip().lower() in NAMES


__all__ = [
    "EXPERT_BUDGET",
    "LEVELS",
    "MISTAKES",
    "NAMES",
    "PEOPLE",
    "BeginnerBot",
    "Capped",
    "SafeSetterBot",
    "SetterBot",
    "is_level",
    "make_bot",
]
