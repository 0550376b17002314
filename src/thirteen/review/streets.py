"""The OFC streets reviewed by the Monte Carlo player's sampling, from the view the player had.

:func:`~thirteen.bots._ofc_model.situation_from_view` reads the decision from the player's view
alone: their rows and the street's cards, every card they have not seen (the deck, the other
players' hidden cards and discards), and each opponent's board as it stood. Two stages, each
sampling ``budget`` seconds of work at the player's fixed rate (``ofc_mc.STEPS_PER_SECOND``, a
count of steps, never the clock), from seeds drawn from the review's seed and the decision's
place in the history, so a review is the same on every run and every machine:

1. **The best play**: the strong player's first choice, ranked as it plays — expected points
   against the opponents at the table (rows, bonuses, royalties, fouls, fantasyland at its
   worth) less its foul aversion for each foul (``ofc_mc.analyze``'s ``aversion``: the duels
   of ``docs/duels.md`` chose it) — sampled as ``thirteen solve ofc`` samples: every legal
   placement, the heuristic's best :data:`~thirteen.bots.ofc_mc.KEEP` by successive halving (a
   third of the budget), then the leader against every option it does not yet lead by two
   standard errors (the rest).
2. **The comparison**, in points: when the player played otherwise, the best play and the
   player's are sampled together on fresh deals (common random numbers). Their EVs are the
   means of the points on those deals; the loss is the difference, never below 0, and its
   error bar the standard error of the paired difference. Fresh deals keep the luck that made
   the best look best in stage 1 out of the loss. A play the strong player ranks lower for its
   fouls may score as many points as its first choice: its loss is then 0, its kind (a foul, a
   fantasyland chase) still named, and the foul rates show the difference.

A street with one legal play is ``forced``: no loss, nothing sampled. A surrender is valued at
its cost against each opponent still playing (as if none of them fouled: the sampling does not
say how often they would), beside the best play's stage-1 EV.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

from thirteen.bots._ofc_model import model_for, situation_from_view
from thirteen.bots.ofc_mc import STEPS_PER_SECOND, Analysis, Option, analyze
from thirteen.engine.legal import placements
from thirteen.engine.rules import Rules
from thirteen.review.figures import DecisionReview, ReviewSettings
from thirteen.review.kinds import street_kind
from thirteen.review.plays import Play, placement_play, play_of
from thirteen.review.rebuild import Decision

__all__ = ["HALVING_SHARE", "decision_seed", "review_street"]

HALVING_SHARE = 1 / 3
"""Share of stage 1's budget for the successive halving; the rest separates the leader."""


def decision_seed(settings: ReviewSettings, index: int, stage: int) -> int:
    """The sampling seed of a decision's stage: from the review's seed and the decision's
    place in the history only (never from a card, so a card the player did not see cannot
    change it)."""
    digest = hashlib.sha256(f"{settings.seed}:{index}:{stage}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % 2**31


def _find(analysis: Analysis, play: Play) -> Option:
    return next(o for o in analysis.options if placement_play(o.placement).same(play))


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def review_street(rules: Rules, decision: Decision, settings: ReviewSettings) -> DecisionReview:
    """An OFC street's decision (module notes)."""
    hand = decision.view.hand
    assert hand is not None
    assert hand.me is not None
    me = hand.me
    choice = play_of(decision.move, me.cards)
    mine = next(b for b in hand.boards if b.seat == me.seat)

    def review(best: Play, method: str, **figures: Any) -> DecisionReview:
        return DecisionReview(
            index=decision.index,
            decision=decision.kind,
            street=mine.street + 1,
            cards=me.cards,
            board=(me.front, me.middle, me.back),
            choice=choice,
            best=best,
            method=method,
            timed_out=decision.timed_out,
            opponents=len(hand.boards) - 1,
            **figures,
        )

    if choice.action == "place" and len(placements(me.cards, me.room, me.discard_now)) == 1:
        return review(
            choice, "forced", ev_choice=None, ev_best=None, loss=0.0, loss_se=0.0, kind=None
        )
    situation = situation_from_view(decision.view, rules)
    model = model_for(rules)
    steps = settings.budget * STEPS_PER_SECOND
    first = analyze(
        model,
        situation,
        steps=steps * HALVING_SHARE,
        seed=decision_seed(settings, decision.index, 1),
        separate=steps * (1 - HALVING_SHARE),
    )
    top = first.best
    best = placement_play(top.placement)
    if choice.action == "surrender":
        playing = sum(1 for b in hand.boards if b.seat != me.seat and b.outcome != "surrendered")
        ev_choice = -float(rules.surrender_cost) * playing
        return review(
            best,
            "monte carlo",
            ev_choice=ev_choice,
            ev_best=top.ev,
            loss=max(0.0, top.ev - ev_choice),
            loss_se=top.stderr,
            kind=street_kind(choice, best, me.front, (None, None, None, None)),
            deals=top.deals,
            foul_rate_best=_number(top.foul_rate),
            fantasyland_rate_best=_number(top.fantasyland_rate),
        )
    if choice.same(best):
        theirs = played = top
        loss_se = 0.0
    else:
        second = analyze(
            model.by_ev(),  # the same sampling; its paired figures are in points
            situation,
            steps=steps,
            seed=decision_seed(settings, decision.index, 2),
            candidates=[top.placement, (*choice.rows, choice.discard)],
        )
        played, theirs = _find(second, choice), _find(second, best)
        loss_se = (played if played.ev <= theirs.ev else theirs).behind_se
    rates = (played.foul_rate, theirs.foul_rate, played.fantasyland_rate, theirs.fantasyland_rate)
    return review(
        best,
        "monte carlo",
        ev_choice=played.ev,
        ev_best=theirs.ev,
        loss=max(0.0, theirs.ev - played.ev),
        loss_se=loss_se,
        kind=street_kind(choice, best, me.front, rates),
        deals=played.deals,
        foul_rate_choice=_number(rates[0]),
        foul_rate_best=_number(rates[1]),
        fantasyland_rate_choice=_number(rates[2]),
        fantasyland_rate_best=_number(rates[3]),
    )
