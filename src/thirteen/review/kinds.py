"""What kind of mistake a play is, when it is not the play the solvers rank first.

Each decision whose play differs from the best gets exactly one kind: the first rule below that
holds (a decision that plays the best has none). ``docs/review.md`` lists them with examples.

A setting (Chinese Poker; a fantasyland hand):

1. ``surrender`` — one of the two plays surrenders and the other does not;
2. ``natural`` — one of them declares a natural and the other does not (or another natural);
3. ``foul`` — the player's setting fouls;
4. ``fantasyland chase`` / ``fantasyland missed`` — in fantasyland, the player's setting stays
   there and the best does not / the best stays and the player's does not;
5. ``discard`` — in fantasyland, the player keeps other cards than the best;
6. ``front too strong`` / ``front too weak`` — the player's front is stronger / weaker than the
   best's;
7. ``setting shape`` — the same front, the other cards split otherwise between middle and back.

An OFC street (the rates are the Monte Carlo comparison's, on the same deals for both plays):

1. ``surrender`` — the player surrenders;
2. ``fantasyland chase`` / ``fantasyland missed`` — the player's play reaches fantasyland at
   least :data:`FANTASYLAND_GAP` more often / less often than the best;
3. ``foul`` — the player's play fouls at least :data:`FOUL_GAP` more often than the best;
4. ``discard`` — the player discards another card than the best;
5. ``front too strong`` / ``front too weak`` — the player's front after the street is stronger
   / weaker than the best's (partial fronts compared by :func:`front_key`);
6. ``setting shape`` — the same front, the other cards placed otherwise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from thirteen.engine.cards import Card, rank_of
from thirteen.engine.evaluate import evaluate
from thirteen.engine.rules import Rules
from thirteen.engine.scoring import SetHand as Showing
from thirteen.engine.scoring import evaluate_player
from thirteen.review.plays import Play

__all__ = [
    "DISCARD",
    "FANTASYLAND_CHASE",
    "FANTASYLAND_GAP",
    "FANTASYLAND_MISSED",
    "FOUL",
    "FOUL_GAP",
    "FRONT_STRONG",
    "FRONT_WEAK",
    "KINDS",
    "NATURAL",
    "SHAPE",
    "SURRENDER",
    "front_key",
    "setting_kind",
    "street_kind",
]

SURRENDER = "surrender"
NATURAL = "natural"
FOUL = "foul"
FANTASYLAND_CHASE = "fantasyland chase"
FANTASYLAND_MISSED = "fantasyland missed"
DISCARD = "discard"
FRONT_STRONG = "front too strong"
FRONT_WEAK = "front too weak"
SHAPE = "setting shape"
KINDS = (
    FOUL,
    FANTASYLAND_CHASE,
    FANTASYLAND_MISSED,
    DISCARD,
    FRONT_STRONG,
    FRONT_WEAK,
    SHAPE,
    NATURAL,
    SURRENDER,
)
"""Every kind, in the order a breakdown lists them."""

FOUL_GAP = 0.10
"""A street is a ``foul`` mistake when its play fouls on at least 10 % more of the sampled deals
than the best (a tenth of a hand's foul is worth 0.6 to 1.2 points against each opponent)."""
FANTASYLAND_GAP = 0.05
"""…and a ``fantasyland`` one when it reaches fantasyland 5 % more (or less) often."""


def front_key(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """A front's strength, full or partial, by its ranks: the most cards of one rank (1 high
    card, 2 a pair, 3 trips), then the ranks, most copies and highest first. A full front
    compares as :func:`~thirteen.engine.evaluate.evaluate` does; a partial one as far as it
    goes (``Q`` beats an empty front, ``QQ`` beats ``AK``)."""
    counts = Counter(rank_of(c) for c in cards)
    ranks = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
    return (max(counts.values(), default=0), ranks)


def _front_kind(choice: Sequence[Card], best: Sequence[Card]) -> str | None:
    if len(choice) == len(best) == 3:
        mine, theirs = evaluate(list(choice)), evaluate(list(best))
    else:
        a, b = front_key(choice), front_key(best)
        mine, theirs = (0, 1) if a < b else (1, 0) if a > b else (0, 0)
    if mine > theirs:
        return FRONT_STRONG
    if mine < theirs:
        return FRONT_WEAK
    return None


def _both(choice: Play, best: Play, action: str) -> bool:
    return (choice.action == action) != (best.action == action)


def setting_kind(rules: Rules, choice: Play, best: Play, *, fantasyland: bool) -> str | None:
    """The kind of a setting's mistake (module notes), ``None`` when it is the best."""
    if choice.same(best):
        return None
    if _both(choice, best, "surrender"):
        return SURRENDER
    if choice.action == "natural" or best.action == "natural":
        return NATURAL
    if choice.action != "set" or best.action != "set":  # both surrender: the same play
        return None
    mine = evaluate_player(rules, Showing(*choice.rows, in_fantasyland=fantasyland))
    if mine.foul:
        return FOUL
    if fantasyland:
        theirs = evaluate_player(rules, Showing(*best.rows, in_fantasyland=True))
        if mine.fantasyland != theirs.fantasyland:
            return FANTASYLAND_CHASE if mine.fantasyland else FANTASYLAND_MISSED
        if set(choice.discard) != set(best.discard):
            return DISCARD
    return _front_kind(choice.front, best.front) or SHAPE


def street_kind(
    choice: Play,
    best: Play,
    board_front: Sequence[Card],
    rates: tuple[float | None, float | None, float | None, float | None],
) -> str | None:
    """The kind of a street's mistake (module notes), ``None`` when it is the best. ``rates``:
    the foul and fantasyland rates of the choice and of the best, as sampled (``None`` when
    not sampled)."""
    if choice.same(best):
        return None
    if choice.action == "surrender":
        return SURRENDER
    foul_choice, foul_best, fl_choice, fl_best = rates
    if fl_choice is not None and fl_best is not None:
        if fl_choice >= fl_best + FANTASYLAND_GAP:
            return FANTASYLAND_CHASE
        if fl_best >= fl_choice + FANTASYLAND_GAP:
            return FANTASYLAND_MISSED
    if foul_choice is not None and foul_best is not None and foul_choice >= foul_best + FOUL_GAP:
        return FOUL
    if set(choice.discard) != set(best.discard):
        return DISCARD
    front = tuple(board_front)
    return _front_kind(front + choice.front, front + best.front) or SHAPE
