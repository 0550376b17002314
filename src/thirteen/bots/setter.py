"""The Chinese Poker setter: the best way to set 13 cards against a field of strong players.

:func:`best_setting` searches every legal setting of the 13 cards (all 72,072 splits, in compiled
code) and scores each one with win, tie and loss odds per row learned by simulation (see
``docs/setter.md``): row points, royalties paid only on rows won (RULES §2.4), and the scoop or
overall bonus with the rows' dependence measured in the same simulation. It then compares the
best setting with declaring a natural the table pays (§2.7) and with surrendering (§2.8).

Every value is in units **per opponent**: what the hand is expected to win from one opponent of
the field (naturals and surrenders of that opponent included). Scoring is pairwise, so against
``n`` opponents the expectation is ``n`` times as much.

>>> from thirteen.engine.cards import parse_cards
>>> from thirteen.engine.rules import get_rules
>>> hand = parse_cards("As Ad Kc Kd 9h 9s 7c 6d 5h 4s 3c 2d Jh")
>>> choice = best_setting(hand, get_rules("chinese-1-6"))
>>> choice.natural, choice.surrender
(None, False)
>>> [len(row) for row in (choice.front, choice.middle, choice.back)]
[3, 5, 5]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from thirteen.bots import _setter_decide as setter_decide
from thirteen.bots import _setter_search as setter_search
from thirteen.bots import _setter_values as setter_values
from thirteen.bots._setter_removal import Removal, adjusted_odds, removal_for, search_removal
from thirteen.bots._setter_tables import Model, SetterTablesError, model_for
from thirteen.engine.cards import Card, check_cards, check_distinct
from thirteen.engine.errors import CardError, RuleError
from thirteen.engine.naturals import check_natural
from thirteen.engine.rules import Rules, get_rules
from thirteen.engine.scoring import is_foul, row_strengths

__all__ = [
    "SetterChoice",
    "SetterTablesError",
    "Setting",
    "best_setting",
    "natural_ev",
    "percentile_setting",
    "setting_ev",
    "surrender_ev",
]

Row = tuple[Card, ...]


@dataclass(frozen=True)
class Setting:
    """A legal setting and its expected units per opponent."""

    front: Row
    middle: Row
    back: Row
    ev: float


@dataclass(frozen=True)
class SetterChoice:
    """What to do with 13 cards: a setting, a natural to declare, or surrender.

    ``front``/``middle``/``back`` are the best setting, or the natural's arrangement when
    ``natural`` is set. ``ev`` is the expected units per opponent of the chosen action;
    ``setting`` is always the best legal setting (what to play if the natural or the surrender
    cannot be made), ``play_ev`` its value; ``alternatives`` the next best settings.
    """

    front: Row
    middle: Row
    back: Row
    ev: float
    natural: str | None
    surrender: bool
    setting: Setting
    alternatives: tuple[Setting, ...] = ()

    @property
    def play_ev(self) -> float:
        """What playing the best setting is worth."""
        return self.setting.ev

    @property
    def action(self) -> str:
        """``'natural'``, ``'surrender'`` or ``'set'``."""
        if self.natural is not None:
            return "natural"
        return "surrender" if self.surrender else "set"


def _check_rules(rules: Rules) -> None:
    if rules.game != "chinese":
        raise RuleError(
            "not_chinese",
            f"The setter plays Chinese Poker; {rules.name} is an open-face (OFC) game.",
        )


def _check_hand(cards: Sequence[Card]) -> npt.NDArray[np.int8]:
    hand = check_cards(cards)
    if len(hand) != 13:
        raise CardError("bad_hand_size", f"A Chinese Poker hand has 13 cards, not {len(hand)}.")
    check_distinct([hand])
    return np.array(hand, dtype=np.int8)


def _search(
    hand: npt.NDArray[np.int8], m: Model, count: int, removal: Removal | None = None
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int32], int]:
    evs = np.empty(count, dtype=np.float64)
    picks = np.empty((count, 3), dtype=np.int32)
    if removal is None:
        plain = (hand, *setter_search.SEARCH_TABLES, *m.search_args, evs, picks)
        filled = setter_search.search(*plain)
    else:
        args: tuple[Any, ...] = (
            hand,
            *setter_search.SEARCH_TABLES,
            *m.search_args,
            *removal.search_args,
            evs,
            picks,
        )
        filled = search_removal(*args)
    return evs, picks, int(filled)


def _rows(hand: npt.NDArray[np.int8], pick: npt.NDArray[np.int32]) -> tuple[Row, Row, Row]:
    front = tuple(sorted((int(c) for c in hand[setter_search.SUB3[pick[0]]]), reverse=True))
    middle = tuple(sorted((int(c) for c in hand[setter_search.SUB5[pick[1]]]), reverse=True))
    back = tuple(sorted((int(c) for c in hand[setter_search.SUB5[pick[2]]]), reverse=True))
    return front, middle, back


def _play_value(m: Model, rows_value: float) -> float:
    """A setting's value per opponent from its value against an opponent who sets."""
    return m.p_rows * rows_value + m.p_surrender * m.surrender_cost - m.opp_naturals


def best_setting(
    cards: Sequence[Card],
    rules: Rules | None = None,
    *,
    alternatives: int = 0,
    card_removal: bool = True,
) -> SetterChoice:
    """The best action for 13 cards at a Chinese Poker table (default rules: ``chinese-1-6``).

    Searches every legal setting; never returns a fouled one. Declares a natural only when the
    table pays it and it is worth more than playing; surrenders only when the table allows it and
    the best setting is expected to lose more than the surrender costs. ``alternatives`` asks
    for that many runner-up settings too. With ``card_removal`` (the default) the field's row
    odds are conditioned on these 13 cards (``docs/setter.md``, "Card removal"; a plain middle
    only); without it they are the tables' full-deck odds (the setter before card removal).

    Raises :class:`CardError` unless ``cards`` are 13 distinct cards, :class:`RuleError` for
    non-Chinese rules, and :class:`SetterTablesError` if the shipped tables are damaged.

    >>> from thirteen.engine.cards import parse_cards
    >>> best_setting(parse_cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")).natural
    'dragon'
    """
    rules = get_rules("chinese-1-6") if rules is None else rules
    _check_rules(rules)
    hand = _check_hand(cards)
    m = model_for(rules)  # loads (and checks) the tables even when the bank's odds are used
    removal = removal_for(rules) if card_removal else None
    m = m if removal is None else removal.model
    evs, picks, filled = _search(hand, m, 1 + max(0, alternatives), removal)
    if filled == 0:  # only conceivable with front_below_middle; every hand has a legal setting
        raise RuleError("no_legal_setting", "These 13 cards have no legal setting at this table.")
    action, ev = setter_decide.decide(
        float(evs[0]), setter_decide.natural_mask(hand), *m.decide_args
    )
    settings = [
        Setting(*_rows(hand, picks[i]), ev=_play_value(m, float(evs[i]))) for i in range(filled)
    ]
    best = settings[0]
    front, middle, back = best.front, best.middle, best.back
    natural = None
    if action >= 0:
        natural = setter_decide.NATURAL_ORDER[action]
        shown = check_natural(natural, [int(c) for c in hand])
        front, middle, back = shown.front, shown.middle, shown.back
    return SetterChoice(
        front,
        middle,
        back,
        float(ev),
        natural,
        action == -2,
        best,
        tuple(settings[1:]),
    )


def percentile_setting(cards: Sequence[Card], rules: Rules | None = None) -> tuple[Row, Row, Row]:
    """A simple heuristic setter (a baseline): the legal setting whose rows are worth most
    against random hands of their size (row points and royalties), summed over rows — no
    simulation, bonuses or naturals.
    """
    rules = get_rules("chinese-1-6") if rules is None else rules
    _check_rules(rules)
    hand = _check_hand(cards)
    _, picks, _ = _search(hand, model_for(rules, "random"), 1)
    return _rows(hand, picks[0])


def setting_ev(
    rules: Rules,
    front: Sequence[Card],
    middle: Sequence[Card],
    back: Sequence[Card],
    *,
    card_removal: bool = True,
) -> float:
    """The setter's expected units per opponent for a given setting (a fouled one included),
    valued as :func:`best_setting` values it (``card_removal`` likewise).

    Raises :class:`CardError` unless the rows hold 3, 5 and 5 distinct cards.
    """
    _check_rules(rules)
    hand = _check_hand([*front, *middle, *back])
    if len(front) != 3 or len(middle) != 5:
        raise CardError("bad_row_size", "A setting has 3 cards in front, 5 in middle, 5 in back.")
    m = model_for(rules)  # loads (and checks) the tables even when the bank's odds are used
    removal = removal_for(rules) if card_removal else None
    m = m if removal is None else removal.model
    fs, ms, bs = row_strengths(rules, front, middle, back)
    if is_foul(rules, fs, ms, bs):
        return -m.p_rows * (m.foul_cost + m.opp_royalties) - m.opp_naturals
    if removal is None:
        value = setter_values.rows_value(fs, ms, bs, *m.value_args)
    else:
        d, dr = removal.deltas(hand)
        lin, wins, losses = adjusted_odds(removal, d, dr, m.lin, m.win, m.lose, (fs, ms, bs))
        value = lin[0] + lin[1] + lin[2]
        if m.scoop != 0.0 or m.overall != 0.0:
            bonus: tuple[Any, ...] = (*wins, *losses, *m.value_args[1:5], m.grid)
            bonus = (*bonus[:6], m.scoop, m.overall, *bonus[6:])
            value += setter_values.nonlinear(*bonus)
    return _play_value(m, float(value))


def _decision_model(rules: Rules, card_removal: bool) -> Model:
    """The model :func:`best_setting` decides with (the bank's, with card removal)."""
    _check_rules(rules)
    m = model_for(rules)
    removal = removal_for(rules) if card_removal else None
    return m if removal is None else removal.model


_NEVER = -1e18
"""A setting's value no natural nor surrender falls below: :func:`natural_ev` and
:func:`surrender_ev` ask the deciding code for one action's value by offering it alone against
a setting worth this."""


def natural_ev(rules: Rules, natural: str, *, card_removal: bool = True) -> float:
    """What declaring ``natural`` is worth per opponent, as :func:`best_setting` weighs it
    against playing (the same compiled code: the payout from every opponent who sets or
    surrenders, the natural against theirs). It does not depend on the cards beyond holding it.

    Raises :class:`RuleError` when the table does not pay ``natural``.

    >>> from thirteen.engine.rules import get_rules
    >>> natural_ev(get_rules("chinese-1-6"), "dragon") > 12
    True
    """
    m = _decision_model(rules, card_removal)
    if natural not in setter_decide.NATURAL_ORDER or rules.natural_payout(natural) is None:
        raise RuleError("natural_not_played", f"{natural!r} is not a natural at {rules.name}.")
    mask = 1 << setter_decide.NATURAL_ORDER.index(natural)
    payout, p_rows, p_surrender, p_natural, _, cost = m.decide_args
    action, ev = setter_decide.decide(
        _NEVER, mask, payout, p_rows, p_surrender, p_natural, False, cost
    )
    assert action >= 0
    return float(ev)


def surrender_ev(rules: Rules, *, card_removal: bool = True) -> float:
    """What surrendering is worth per opponent, as :func:`best_setting` weighs it against
    playing (the cost paid to each opponent who sets, less what their naturals take anyway).

    Raises :class:`RuleError` when the table has no surrender.

    >>> from thirteen.engine.rules import get_rules
    >>> -3 < surrender_ev(get_rules("chinese-1-6")) < 0
    True
    """
    m = _decision_model(rules, card_removal)
    if not rules.surrender:
        raise RuleError("no_surrender", f"{rules.name} has no surrender.")
    payout, p_rows, p_surrender, p_natural, _, cost = m.decide_args
    action, ev = setter_decide.decide(_NEVER, 0, payout, p_rows, p_surrender, p_natural, True, cost)
    assert action == -2
    return float(ev)
