"""The bot interface the table calls: ``choose(view, legal, budget) -> action``.

A bot sees only what its seat's view shows (:func:`thirteen.engine.views.view`) — never the
table state — so it cannot know a hidden card. ``legal`` describes what the seat may do now
(:class:`Legal`); ``budget`` is how many seconds it may think.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from thirteen.engine.actions import Action, SetHand, Surrender
from thirteen.engine.legal import Legal
from thirteen.engine.state import TableState
from thirteen.engine.views import TableView, view


class Bot(Protocol):
    """Anything that can play a seat."""

    name: str

    def choose(self, view: TableView, legal: Legal, budget: float) -> Action: ...


@runtime_checkable
class LegalPlayer(Protocol):
    """A bot whose choice depends on its legal actions alone: it never reads the view, so the
    arena need not build one for it (:func:`thirteen.engine.legal.legal_for`).
    ``choose_legal(legal, budget)`` must choose what ``choose(view, legal, budget)`` would."""

    def choose_legal(self, legal: Legal, budget: float) -> Action: ...


@runtime_checkable
class Observer(Protocol):
    """A bot that learns from showdowns: the table shows it each finished hand as its seat saw
    it (``observe(view)``, the view at the showdown), after the results are in."""

    def observe(self, view: TableView) -> None: ...


def observer_of(bot: Bot) -> Observer | None:
    """What in ``bot`` learns from showdowns: the bot itself, or the one a wrapper plays
    through (its ``bot``, as a level that caps another's time), or nothing."""
    if isinstance(bot, Observer):
        return bot
    inner = getattr(bot, "bot", None)
    return inner if isinstance(inner, Observer) else None


def show_the_showdown(state: TableState, bots: Iterable[tuple[int, Bot]]) -> None:
    """Show each ``(seat, bot)`` that learns from showdowns the one ``state`` holds, as its
    seat sees it (a seat left empty sees nothing): the arena and the room both call this."""
    for seat, bot in bots:
        learner = observer_of(bot)
        if learner is not None and state.seats[seat] is not None:
            learner.observe(view(state, seat))


class RandomBot:
    """A uniformly random legal player (a random setting may well foul): the baseline."""

    name = "random"

    def __init__(self, rng: random.Random | None = None, surrender_rate: float = 0.0) -> None:
        self.rng = rng or random.Random()
        self.surrender_rate = surrender_rate

    def choose(self, view: TableView, legal: Legal, budget: float) -> Action:
        return self.choose_legal(legal, budget)

    def choose_legal(self, legal: Legal, budget: float) -> Action:
        """A random legal move (the view tells it nothing more)."""
        rng = self.rng
        if legal.can_surrender and rng.random() < self.surrender_rate:
            return Surrender(seat=legal.seat)
        if legal.mode == "street":
            return legal.place(rng.choice(legal.placements()))
        cards = list(legal.cards)
        rng.shuffle(cards)
        return SetHand(
            seat=legal.seat,
            front=tuple(cards[:3]),
            middle=tuple(cards[3:8]),
            back=tuple(cards[8:13]),
        )


__all__ = ["Bot", "LegalPlayer", "Observer", "RandomBot", "observer_of", "show_the_showdown"]
