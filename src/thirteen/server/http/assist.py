"""Help for a player at a table, over HTTP: what an arrangement of cards makes under the table's
rules (``/evaluate``, for anyone), and at a practice table what the strong bot would do from
your seat (``/hint``).

A hint is the strong bot's decision on the seat's own view — the view a bot of that seat would
get, never the deck — made the way the table's bots decide (:meth:`TableOwner.decide`: in a
thread, within the table's time budget), with the bot's own expected value where it has one.
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from thirteen.bots.advice import gamble_text, percent
from thirteen.bots.base import Bot
from thirteen.bots.ofc_mc import Analysis, MonteCarloOFCBot
from thirteen.bots.registry import SetterBot, make_bot
from thirteen.engine.actions import (
    Action,
    DeclareNatural,
    Place,
    SetHand,
    Surrender,
    action_to_json,
)
from thirteen.engine.arrangement import MAX_ROW_TEXT, TITLES, assess, row_name
from thirteen.engine.cards import format_cards
from thirteen.engine.errors import RuleError
from thirteen.engine.naturals import NATURAL_TITLES
from thirteen.engine.royalties import ROWS
from thirteen.engine.rules import Rules
from thirteen.engine.scoring import SetHand as Showing
from thirteen.engine.scoring import evaluate_player
from thirteen.engine.views import TableView
from thirteen.server.competitions import practice
from thirteen.server.http.api import ApiError, RowId, User, errors
from thirteen.server.room import Room
from thirteen.server.tables.owner import TableOwner
from thirteen.server.tables.relay import Call

router = APIRouter()


class RowOut(BaseModel):
    row: Literal["front", "middle", "back"]
    cards: str = Field(description='The row\'s cards as the room writes them ("" for none).')
    name: str | None = Field(
        description="What the cards make (an incomplete row: by ranks so far), or null when empty."
    )
    royalty: int = Field(description="Royalty units the row earns at this table (complete rows).")


class Evaluation(BaseModel):
    rows: list[RowOut] = Field(description="Front, middle and back, in that order.")
    foul: bool = Field(
        description="The arrangement fouls, or can no longer avoid fouling however it is finished."
    )
    warning: str | None = Field(description="Why it fouls, in a sentence; null when it does not.")
    royalties: int = Field(description="The royalty units of the complete rows (0 on a foul).")


RowCards = Annotated[
    str,
    Query(
        max_length=MAX_ROW_TEXT,
        description='The row\'s cards, e.g. "As Kd" (may be empty or incomplete).',
    ),
]


@router.get("/api/tables/{table_id}/evaluate", responses=errors(404, 422))
async def evaluate_arrangement(
    table_id: RowId,
    request: Request,
    front: RowCards = "",
    middle: RowCards = "",
    back: RowCards = "",
) -> Evaluation:
    """Each row's hand name, whether the arrangement fouls and the royalties it would earn under
    this table's rules; rows may be incomplete. Anyone may ask."""
    room: Room = request.app.state.room
    try:
        rules = await room.table_rules(table_id)
    except RuleError as e:
        raise ApiError(e.code, e.message) from None
    found = assess(rules, front, middle, back)
    return Evaluation(
        rows=[RowOut(row=r.row, cards=r.cards, name=r.name, royalty=r.royalty) for r in found.rows],
        foul=found.foul,
        warning=found.warning,
        royalties=found.royalties,
    )


# ----------------------------------------------------------------------------- hints
HINT_LEVEL = "strong"
"""The bot whose decision a hint is, whatever level the table's own bots play."""
KEPT_HINTS = 64
"""Hints kept (by table, seat and decision), so asking again does not think again."""
HINT_OPTIONS = 5
"""The sampled options of an OFC street a hint lists, best first."""


@dataclass(frozen=True)
class HintOption:
    """One sampled way to play an OFC street, with its risks."""

    placement: dict[str, str]
    ev: float | None
    foul_rate: float
    fantasyland_rate: float
    deals: int


@dataclass(frozen=True)
class Hint:
    state_id: int
    action: dict[str, Any]
    ev: float | None
    text: str
    foul_rate: float | None = None
    fantasyland_rate: float | None = None
    gamble: str | None = None
    options: tuple[HintOption, ...] = ()


class OptionOut(BaseModel):
    front: str = Field(description="Cards the play adds to the front, as the room writes them.")
    middle: str = Field(description="Cards the play adds to the middle.")
    back: str = Field(description="Cards the play adds to the back.")
    discard: str = Field(description='The card discarded ("" on a street without a discard).')
    ev: float | None = Field(
        description="Expected points for the hand against every opponent, fantasyland's worth "
        "included (the mean over the deals this play was sampled on)."
    )
    foul_rate: float = Field(description="Chance (0 to 1) that this play ends in a foul.")
    fantasyland_rate: float = Field(description="Chance (0 to 1) that it earns fantasyland.")
    deals: int = Field(description="The sampled deals these figures come from.")


class HintOut(BaseModel):
    state_id: int = Field(description="The state id the hint was made on: send the action with it.")
    action: dict[str, Any] = Field(
        description="The action as a client sends it (set_hand, place, declare_natural, surrender)."
    )
    ev: float | None = Field(
        description="The bot's expected points for the hand, against every opponent; null when "
        "it has no such figure (a fantasyland setting, a street with one way to play it)."
    )
    text: str = Field(description="The hint in a sentence.")
    foul_rate: float | None = Field(
        default=None,
        description="The chance (0 to 1) that the hinted OFC play ends in a foul, the share of "
        "the bot's sampled deals on which it fouled; null when the bot sampled none (a Chinese "
        "Poker or fantasyland setting, a street with one way to play it).",
    )
    fantasyland_rate: float | None = Field(
        default=None,
        description="The chance (0 to 1) that the hinted OFC play earns fantasyland, the share "
        "of the bot's sampled deals on which it did; null as for foul_rate.",
    )
    gamble: str | None = Field(
        default=None,
        description="When the hinted play is a gamble (it fouls at least a quarter of the time, "
        "and clearly more often than the safer play), why it is first anyway and what the safer "
        "play would foul and give up, in words (the sentence `thirteen solve ofc` prints); "
        "null otherwise. The same sentence ends `text`.",
    )
    options: list[OptionOut] = Field(
        default_factory=list,
        description=f"For an OFC street, up to {HINT_OPTIONS} of the plays the bot sampled, "
        "best first (the first is the hint): each one's expected value, foul and fantasyland "
        "chances. Empty for any other decision.",
    )


def client_action(action: Action) -> dict[str, Any]:
    """An action as a client sends it: the room fills in the seat and the time."""
    data = action_to_json(action)
    del data["seat"], data["at"]
    if data.get("discard") == "":
        del data["discard"]
    return data


def _expected(bot: Bot, seen: TableView, action: Action) -> float | None:
    """The bot's own expected points of ``action`` for the hand (every opponent), or ``None``."""
    hand = seen.hand
    assert hand is not None
    if isinstance(bot, SetterBot) and bot.last_choice is not None:
        choice = bot.last_choice  # per opponent: what the hand wins from one of them
        per = choice.play_ev if isinstance(action, SetHand) else choice.ev
        return per * (len(hand.boards) - 1)
    if isinstance(bot, MonteCarloOFCBot) and isinstance(action, Place):
        found = bot.last_analysis
        if found is not None and math.isfinite(found.best.ev):
            return found.best.ev
    return None


def _figure(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _options(found: Analysis) -> tuple[HintOption, ...]:
    sampled = [o for o in found.options if o.deals][:HINT_OPTIONS]
    return tuple(
        HintOption(
            placement={
                name: format_cards(cards)
                for name, cards in zip((*ROWS, "discard"), o.placement, strict=True)
            },
            ev=_figure(o.ev),
            foul_rate=o.foul_rate,
            fantasyland_rate=o.fantasyland_rate,
            deals=o.deals,
        )
        for o in sampled
    )


def _rows_text(rules: Rules, action: SetHand) -> str:
    rows = dict(zip(ROWS, (action.front, action.middle, action.back), strict=True))
    return ", ".join(f"{TITLES[r]}: {row_name(rules, r, rows[r])}" for r in reversed(ROWS))


def explain(rules: Rules, seen: TableView, action: Action, bot: Bot) -> Hint:
    """The hint for ``action``, the bot's decision on the seat's view ``seen``."""
    ev = _expected(bot, seen, action)
    risks: dict[str, Any] = {}
    after = f" — expected {ev:+.1f} points a hand" if ev is not None else ""
    if isinstance(action, SetHand):
        text = _rows_text(rules, action)
        me = seen.hand.me if seen.hand is not None else None
        if me is not None and len(me.cards) > 13:  # a fantasyland: the rest is discarded
            kept = {*action.front, *action.middle, *action.back}
            text += f"; discard {format_cards(c for c in me.cards if c not in kept)}"
        if ev is None and rules.is_ofc:
            result = evaluate_player(
                rules,
                Showing.of(action.front, action.middle, action.back, in_fantasyland=True),
            )
            after = f" — {result.royalties} in royalties"
            if result.fantasyland:
                after += ", and you stay in fantasyland"
    elif isinstance(action, Place):
        placed = zip(ROWS, (action.front, action.middle, action.back), strict=True)
        text = ", ".join(f"{TITLES[r]}: {format_cards(cards)}" for r, cards in placed if cards)
        if action.discard:
            text += f"; discard {format_cards(action.discard)}"
        found = bot.last_analysis if isinstance(bot, MonteCarloOFCBot) else None
        if found is not None and found.best.deals:
            best = found.best
            after += (
                f" (fouls {percent(best.foul_rate)}, fantasyland {percent(best.fantasyland_rate)})"
            )
            warning = gamble_text(found)
            if warning is not None:
                after += ". " + warning.removesuffix(".")
            risks = {
                "foul_rate": best.foul_rate,
                "fantasyland_rate": best.fantasyland_rate,
                "gamble": warning,
                "options": _options(found),
            }
    elif isinstance(action, DeclareNatural):
        text = f"Declare {NATURAL_TITLES.get(action.natural, action.natural).lower()}"
    elif isinstance(action, Surrender):
        text = "Surrender this hand"
    else:  # a bot only ever decides a hand
        raise RuleError("no_hint", "There is no move to suggest here.")
    return Hint(seen.state_id, client_action(action), ev, text + after + ".", **risks)


async def _advise(owner: TableOwner, seat: int) -> Hint:
    bot = make_bot(HINT_LEVEL, owner.rules)
    try:
        seen, action = await owner.decide(seat, bot)
    except RuleError as e:
        if e.code == "not_your_turn":
            raise ApiError(
                "not_your_turn", "You have nothing to decide now; ask again on your turn."
            ) from None
        raise ApiError("no_hint", "There is no move to suggest here.") from None
    return explain(owner.rules, seen, action, bot)


@router.get("/api/tables/{table_id}/hint", responses=errors(401, 403, 404, 409, 422))
async def hint(table_id: RowId, me: User, request: Request) -> HintOut:
    """At a practice table, what the strong bot would do from your seat now (your turn only),
    computed from what your seat may see."""
    room: Room = request.app.state.room
    try:
        found = await room.ask(table_id, "hint", {"user_id": me.user_id})
    except RuleError as e:
        raise ApiError(e.code, e.message) from None
    return HintOut(**found)


def hint_out(found: Hint) -> HintOut:
    """A hint as the API answers it."""
    return HintOut(
        state_id=found.state_id,
        action=found.action,
        ev=found.ev,
        text=found.text,
        foul_rate=found.foul_rate,
        fantasyland_rate=found.fantasyland_rate,
        gamble=found.gamble,
        options=[
            OptionOut(
                **o.placement,
                ev=o.ev,
                foul_rate=o.foul_rate,
                fantasyland_rate=o.fantasyland_rate,
                deals=o.deals,
            )
            for o in found.options
        ],
    )


def hint_call(state: Any) -> Call:
    """The practice hint as a question for the process that runs the table (this one or
    another): the hint's JSON, keeping the last :data:`KEPT_HINTS` in ``state.hints``."""
    hints: dict[tuple[int, int, int], asyncio.Task[Hint]] = {}
    state.hints = hints

    async def answer(owner: TableOwner, args: dict[str, Any]) -> dict[str, Any]:
        if not owner.settings.practice:
            raise ApiError("not_practice", "Hints are given at practice tables only.")
        if practice.private_to(owner) is not None:
            raise ApiError(
                "no_hints",
                "Hints are off in a duplicate practice run: it measures your own play against "
                "the bot's.",
            )
        seat = owner.seat_of(int(args["user_id"]))
        if seat is None:
            raise ApiError("not_seated", "Take a seat at this table to ask for a hint.")
        # the same decision (pending since the same state id) gets the same answer, thought once
        key = (owner.id, seat, owner.decision_since.get(seat, owner.state.state_id))
        task = hints.get(key)
        if task is None:
            task = hints[key] = asyncio.ensure_future(_advise(owner, seat))
            for old in [k for k, t in hints.items() if t.done()][: max(0, len(hints) - KEPT_HINTS)]:
                del hints[old]
        found = await asyncio.shield(task)
        return hint_out(found).model_dump()

    return answer


__all__ = ["explain", "hint_call", "router"]
