"""The decisions reviewed exactly: a Chinese Poker hand (the setter) and a fantasyland hand
(the exact solver). Each reads the player's cards from the view they had, and nothing else.

**Chinese Poker.** :func:`~thirteen.bots.setter.best_setting` gives the setter's first choice —
a setting, a natural or a surrender — and its value per opponent; the player's play is valued by
the same model: :func:`~thirteen.bots.setter.setting_ev` for a setting (a fouled one included:
it pays each opponent who sets the foul's cost and their royalties),
:func:`~thirteen.bots.setter.natural_ev` and :func:`~thirteen.bots.setter.surrender_ev`. Values
are per opponent of the setter's field; the review multiplies them by the opponents dealt in.

**Fantasyland.** :func:`~thirteen.bots.fantasyland.solve_fantasyland` gives the setting that
maximizes royalties + the worth of staying (``stay_value`` royalty units when the setting stays
in fantasyland); the player's setting is valued the same way, and a fouled one at
``-rules.foul_cost`` (it earns no royalty, cannot stay, and pays each opponent the foul's cost;
the opponents' royalties it pays either way). These are points per opponent (royalties are paid
by each opponent); the review multiplies them by the opponents not surrendered. Row points are
not in the solver's objective, nor in this value.
"""

from __future__ import annotations

from thirteen.bots.fantasyland import solve_fantasyland
from thirteen.bots.setter import best_setting, natural_ev, setting_ev, surrender_ev
from thirteen.engine.rules import Rules
from thirteen.engine.scoring import SetHand as Showing
from thirteen.engine.scoring import evaluate_player
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


def _setting_value(rules: Rules, play: Play) -> float:
    if play.action == "surrender":
        return surrender_ev(rules)
    if play.action == "natural":
        assert play.natural is not None
        return natural_ev(rules, play.natural)
    return setting_ev(rules, play.front, play.middle, play.back)


def review_setting(rules: Rules, decision: Decision) -> DecisionReview:
    """A Chinese Poker hand's decision: setting, natural or surrender (module notes)."""
    cards, opponents, _ = _me(decision)
    top = best_setting(cards, rules)
    if top.surrender:
        best = Play("surrender")
    elif top.natural is not None:
        best = Play("natural", top.front, top.middle, top.back, natural=top.natural)
    else:
        best = Play("set", top.front, top.middle, top.back)
    choice = play_of(decision.move, cards)
    ev_best = top.ev * opponents
    ev_choice = ev_best if choice.same(best) else _setting_value(rules, choice) * opponents
    return DecisionReview(
        index=decision.index,
        decision=decision.kind,
        street=None,
        cards=cards,
        board=((), (), ()),
        choice=choice,
        best=best,
        ev_choice=ev_choice,
        ev_best=ev_best,
        loss=_loss(ev_best, ev_choice),
        loss_se=0.0,
        method="setter",
        kind=setting_kind(rules, choice, best, fantasyland=False),
        timed_out=decision.timed_out,
        opponents=opponents,
    )


def fantasyland_value(rules: Rules, play: Play, stay_value: float) -> float:
    """A fantasyland setting's value per opponent: royalties + ``stay_value`` if it stays, or
    ``-rules.foul_cost`` if it fouls; a surrender's, ``-rules.surrender_cost``."""
    if play.action == "surrender":
        return -float(rules.surrender_cost)
    result = evaluate_player(rules, Showing(*play.rows, in_fantasyland=True))
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
    return DecisionReview(
        index=decision.index,
        decision=decision.kind,
        street=None,
        cards=cards,
        board=((), (), ()),
        choice=choice,
        best=best,
        ev_choice=ev_choice,
        ev_best=ev_best,
        loss=_loss(ev_best, ev_choice),
        loss_se=0.0,
        method="fantasyland solver",
        kind=setting_kind(rules, choice, best, fantasyland=True),
        timed_out=decision.timed_out,
        opponents=opponents,
    )
