"""The fast OFC player: one look at every way to play the street, judged by a heuristic.

For each legal placement of the street's cards, :class:`HeuristicOFCBot` judges the board it
would leave with ``_ofc_values.board_value`` — an expected worth per opponent,

    P(no foul) × (royalties + fantasyland + fan + row strength) − P(foul) × foul penalty,

where the chance of a foul comes from how far each lower row must still climb to stay above the
row over it (pairing outs, flush and straight draws among the cards still to come, counted from
the unseen cards). Fouling is the big danger in OFC, so a strong front is only worth it when the
rows under it are likely to hold. It plays the best placement; ties go to the first in a fixed
order, so the choice depends on the view alone. A decision costs a few microseconds of compiled
code (see ``thirteen bench bots``).

In fantasyland it sets its cards with the exact solver
(:func:`thirteen.bots.fantasyland.solve_fantasyland`).
"""

from __future__ import annotations

import numpy as np

from thirteen.bots._ofc_model import decode, model_for, situation_from_view, street_options
from thirteen.bots.fantasyland import solve_fantasyland
from thirteen.engine.actions import Action, SetHand
from thirteen.engine.errors import RuleError
from thirteen.engine.legal import Legal, Placement
from thirteen.engine.rules import Rules
from thirteen.engine.views import TableView


def fantasyland_action(rules: Rules, legal: Legal) -> SetHand:
    """Set a fantasyland hand with the exact solver."""
    best = solve_fantasyland(legal.cards, rules)
    return SetHand(seat=legal.seat, front=best.front, middle=best.middle, back=best.back)


class HeuristicOFCBot:
    """A deterministic, cheap OFC player that knows fouling is the big danger."""

    name = "heuristic"

    def __init__(self, rules: Rules) -> None:
        if not rules.is_ofc:
            raise RuleError("not_ofc", f"The OFC heuristic player cannot play {rules.name}.")
        self.rules = rules
        self.model = model_for(rules)

    def best_placement(self, view: TableView) -> Placement:
        """The placement this player makes for the street its view shows."""
        situation = situation_from_view(view, self.rules)
        codes, values = street_options(self.model, situation)
        return decode(situation.cards, codes[int(np.argmax(values))])

    def choose(self, view: TableView, legal: Legal, budget: float) -> Action:
        """Play the street (or set a fantasyland hand); ``budget`` is not needed."""
        if legal.mode == "set":
            return fantasyland_action(self.rules, legal)
        return legal.place(self.best_placement(view))


__all__ = ["HeuristicOFCBot", "fantasyland_action"]
