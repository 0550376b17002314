"""The decisions reviewed exactly: a Chinese Poker hand (the setter) and a fantasyland hand
(the exact solver). Each reads the player's cards from the view they had, and nothing else.

**Chinese Poker.** :func:`~thirteen.bots.setter.best_setting` gives the setter's first choice —
a setting, a natural or a surrender — and its value per opponent; the player's play is valued by
the same model: :func:`~thirteen.bots.setter.setting_ev` for a setting (a fouled one included:
it pays each opponent who sets the foul's cost and their royalties),
:func:`~thirteen.bots.setter.natural_ev` and :func:`~thirteen.bots.setter.surrender_ev`. Those
are values per opponent of the setter's field, for each opponent whose hand was still hidden
when the player decided; against one the view already showed — a natural (shown at once) or a
surrender — the play is worth exactly what the scorer gives it. When such opponents make
another of the setter's plays worth more (its best setting, a natural held, surrendering), that
play is the best.

**Fantasyland.** :func:`~thirteen.bots.fantasyland.solve_fantasyland` gives the setting that
maximizes royalties + the worth of staying (``stay_value`` royalty units when the setting stays
in fantasyland); the player's setting is valued the same way, and a fouled one at
``-rules.foul_cost`` (it earns no royalty, cannot stay, and pays each opponent the foul's cost;
the opponents' royalties it pays either way). These are points per opponent (royalties are paid
by each opponent); the review multiplies them by the opponents not surrendered. Row points are
not in the solver's objective, nor in this value.
"""

from __future__ import annotations

from collections.abc import Sequence

from thirteen.bots.fantasyland import solve_fantasyland
from thirteen.bots.setter import best_setting, natural_ev, setting_ev, surrender_ev
from thirteen.engine.cards import Card
from thirteen.engine.naturals import check_natural
from thirteen.engine.rules import Rules
from thirteen.engine.scoring import (
    DeclaredNatural,
    SetHand,
    Showing,
    Surrender,
    evaluate_player,
    score,
)
from thirteen.review.figures import DecisionReview
from thirteen.review.kinds import setting_kind
from thirteen.review.plays import Play, play_of
from thirteen.review.rebuild import Decision

__all__ = ["EXACT", "fantasyland_value", "review_fantasyland", "review_setting"]

EXACT = 1e-9
"""Differences of value below this are rounding: the plays are worth the same."""


def _me(decision: Decision) -> tuple[tuple[int, ...], int, int]:
    """The player's cards, the opponents dealt in, and those of them not surrendered."""
    hand = decision.view.hand
    assert hand is not None
    assert hand.me is not None
    others = [b for b in hand.boards if b.seat != hand.me.seat]
    playing = [b for b in others if b.outcome != "surrendered"]
    return hand.me.cards, len(others), len(playing)


def _loss(best: float, choice: float) -> float:
    return max(0.0, best - choice) if best - choice > EXACT else 0.0


def _showing(play: Play, cards: Sequence[Card]) -> Showing:
    if play.action == "surrender":
        return Surrender(tuple(cards))
    if play.action == "natural":
        assert play.natural is not None
        return DeclaredNatural(play.natural, tuple(cards))
    return SetHand(play.front, play.middle, play.back)


class _Table:
    """How a Chinese Poker play is worth against the opponents as the player saw them: the
    setter's value per opponent for those whose hands were still hidden, and the scorer's exact
    result against those the view showed (a natural, shown at once; a surrender)."""

    def __init__(self, rules: Rules, decision: Decision) -> None:
        hand = decision.view.hand
        assert hand is not None
        assert hand.me is not None
        self.rules = rules
        self.cards = hand.me.cards
        self.me = hand.me
        self.hidden = 0
        self.shown: list[Showing] = []
        for b in hand.boards:
            if b.seat == hand.me.seat:
                continue
            if b.outcome == "surrendered":
                self.shown.append(Surrender())
            elif b.outcome == "natural" and b.natural is not None:
                self.shown.append(DeclaredNatural(b.natural, b.front + b.middle + b.back))
            else:
                self.hidden += 1

    def value(self, play: Play) -> float:
        rules = self.rules
        if play.action == "surrender":
            each = surrender_ev(rules)
        elif play.action == "natural":
            assert play.natural is not None
            each = natural_ev(rules, play.natural)
        else:
            each = setting_ev(rules, play.front, play.middle, play.back)
        mine = _showing(play, self.cards)
        exact = sum(score(rules, [mine, other]).matrix[0][1] for other in self.shown)
        return self.hidden * each + exact

    def best(self) -> tuple[Play, float]:
        """The setter's first choice, unless the shown opponents make another of its plays —
        the best setting, a natural held, a surrender — worth more."""
        top = best_setting(self.cards, self.rules)
        setting = Play("set", top.setting.front, top.setting.middle, top.setting.back)
        plays = [setting]
        for natural in self.me.naturals:
            shown = check_natural(natural, self.cards)
            plays.append(Play("natural", shown.front, shown.middle, shown.back, natural=natural))
        if self.me.can_surrender:
            plays.append(Play("surrender"))
        if top.surrender:
            first = Play("surrender")
        elif top.natural is not None:
            first = next(p for p in plays if p.natural == top.natural)
        else:
            first = setting
        best, most = first, self.value(first)
        for play in plays:
            worth = self.value(play)
            if worth > most + EXACT:
                best, most = play, worth
        return best, most


def _exact(
    rules: Rules,
    decision: Decision,
    cards: Sequence[Card],
    plays: tuple[Play, Play],
    evs: tuple[float, float],
    opponents: int,
    *,
    fantasyland: bool,
) -> DecisionReview:
    """A setting valued exactly (no sampling: its error is 0): the player's play and the best,
    ``plays``, worth ``evs``; the setter's for Chinese Poker, the solver's in fantasyland."""
    (choice, best), (ev_choice, ev_best) = plays, evs
    return DecisionReview(
        index=decision.index,
        decision=decision.kind,
        street=None,
        cards=tuple(cards),
        board=((), (), ()),
        choice=choice,
        best=best,
        ev_choice=ev_choice,
        ev_best=ev_best,
        loss=_loss(ev_best, ev_choice),
        loss_se=0.0,
        method="fantasyland solver" if fantasyland else "setter",
        kind=setting_kind(rules, choice, best, fantasyland=fantasyland),
        timed_out=decision.timed_out,
        opponents=opponents,
    )


def review_setting(rules: Rules, decision: Decision) -> DecisionReview:
    """A Chinese Poker hand's decision: setting, natural or surrender (module notes)."""
    table = _Table(rules, decision)
    best, ev_best = table.best()
    choice = play_of(decision.move, table.cards)
    ev_choice = ev_best if choice.same(best) else table.value(choice)
    opponents = table.hidden + len(table.shown)
    plays, evs = (choice, best), (ev_choice, ev_best)
    return _exact(rules, decision, table.cards, plays, evs, opponents, fantasyland=False)


def fantasyland_value(rules: Rules, play: Play, stay_value: float) -> float:
    """A fantasyland setting's value per opponent: royalties + ``stay_value`` if it stays, or
    ``-rules.foul_cost`` if it fouls; a surrender's, ``-rules.surrender_cost``."""
    if play.action == "surrender":
        return -float(rules.surrender_cost)
    result = evaluate_player(rules, SetHand(*play.rows, in_fantasyland=True))
    if result.foul:
        return -float(rules.foul_cost)
    return result.royalties + (stay_value if result.fantasyland else 0.0)


def review_fantasyland(rules: Rules, decision: Decision) -> DecisionReview:
    """A fantasyland hand's setting (module notes)."""
    cards, _, opponents = _me(decision)
    solved = solve_fantasyland(cards, rules)
    best = Play("set", solved.front, solved.middle, solved.back, solved.discards)
    choice = play_of(decision.move, cards)
    ev_best = solved.value * opponents
    ev_choice = fantasyland_value(rules, choice, solved.stay_value) * opponents
    if choice.same(best):
        ev_choice = ev_best
    plays, evs = (choice, best), (ev_choice, ev_best)
    return _exact(rules, decision, cards, plays, evs, opponents, fantasyland=True)
