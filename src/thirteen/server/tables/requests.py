"""What a table's owner is asked (:class:`Request`), and a player's action answered exactly once.

A client names an action by its own id; :class:`ClientActions` makes it the engine's action —
the player's seat and the server's time filled in, checked against the decision pending now
(:class:`Decisions`) — hands it to the hand loop, and remembers the answer, so an action sent
again is answered as it was the first time (and an id answered before a restart, by the
journal).
"""

from __future__ import annotations

import asyncio
import copy
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import IntegrityError

from thirteen.engine.actions import Action, UseTimeBank, action_from_json
from thirteen.engine.errors import RuleError
from thirteen.engine.state import TableState, deciders
from thirteen.server.tables.broadcast import Broadcaster, Watcher
from thirteen.server.tables.journal import Journal
from thirteen.server.tables.live import Accept, LiveTable, now
from thirteen.server.tables.protocol import SEAT_ACTIONS, ProtocolError, ack_frame, error_frame

REMEMBERED_ANSWERS = 64
"""Answers to action ids a table keeps (the oldest forgotten first; the journal still answers
an accepted one): a client sends again only what was in flight when its connection broke, a
few actions a player. 4096 a table were ~1.8 MB each when full — at 1,000 tables most of a
room's memory growth in an hour's soak (issue 33)."""


TOGETHER = SEAT_ACTIONS - {"time_bank"}
"""A player's decisions, which a table takes together with those queued with them (the seats'
hands set after a deal arrive at once): applied one after another, journaled in one piece and
told each socket in one write (:mod:`.together`; issue 33). A time bank is spent alone."""


@dataclass
class Request:
    """Something for the owner to do, with a future for its answer."""

    kind: str  # "action", "bot", "attach", "detach", "resync", "close", "hook", "stop"
    watcher: Watcher | None = None
    user_id: int | None = None
    name: str | None = None
    client_id: str | None = None
    state_id: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)
    action: Action | None = None
    since: int | None = None
    reply: asyncio.Future[dict[str, Any]] | None = None
    alone: bool = False
    """Taken alone, not with the decisions queued with it (:data:`TOGETHER`): it was not taken
    with those before it (refused there, or after one the room acts on), or they could not be
    written together."""
    acked: bool = False
    """The action's ``ack`` went out with its socket's frame (the owner's): the socket does
    not send the answer again."""


def ack_with_frame(
    request: Request | None, client_id: str | None, state_id: int
) -> tuple[Watcher, dict[str, Any]] | None:
    """The socket that sent the action being accepted (``request``, the one answered now, when
    ``client_id`` is its id) and the action's ``ack``, to go out with that socket's frame; the
    request is marked as told (``acked``), so its socket does not send the answer again."""
    if (
        request is None
        or request.acked
        or request.watcher is None
        or client_id is None
        or request.client_id != client_id
    ):
        return None
    request.acked = True
    return request.watcher, ack_frame(client_id, state_id)


class Decisions:
    """Which decision each seat has pending, and since which state: a decision must be made on
    the one pending now, not on an earlier one a slow client (or bot) still saw."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.since: dict[int, int] = {}
        self._keys = self._decision_keys(table.state)
        self._ahead: int | None = None
        """The state these decisions are tracked to, when it is not the table's (:meth:`ahead`)."""

    def ahead(self) -> Decisions:
        """A copy to track states the table has not reached yet (actions applied, not yet
        written): checked against the last one tracked, not the table's."""
        ahead = copy.copy(self)
        ahead.since = dict(self.since)  # (``_keys`` is replaced by tracking, never changed)
        ahead._ahead = self.table.state.state_id
        return ahead

    @staticmethod
    def _decision_keys(state: TableState) -> dict[int, tuple[Any, ...]]:
        hand = state.hand
        if hand is None:
            return {}
        keys: dict[int, tuple[Any, ...]] = {}
        for seat in deciders(state):  # not the deadline: a time bank does not change the decision
            board = hand.board_of(seat)
            assert board is not None
            keys[seat] = (hand.number, board.street, board.pending)
        return keys

    def track(self, new: TableState) -> None:
        """After an action: the decisions pending in ``new``, each since it became pending."""
        keys = self._decision_keys(new)
        for seat, key in keys.items():
            if self._keys.get(seat) != key:
                self.since[seat] = new.state_id
        for seat in set(self.since) - set(keys):
            del self.since[seat]
        self._keys = keys
        if self._ahead is not None:
            self._ahead = new.state_id

    def check_fresh(self, seat: int | None, state_id: int | None) -> None:
        """A decision must be made on the decision now pending (not an earlier one)."""
        if seat is None or state_id is None:
            return
        since = self.since.get(seat)
        if since is None:  # nothing pending: the engine says why in its own words
            return
        current = self.table.state.state_id if self._ahead is None else self._ahead
        if not since <= state_id <= current:
            raise ProtocolError(
                "stale",
                "The table moved on since you decided; here is where it stands now.",
            )


class ClientActions:
    """A player's action requests, each made an engine action and answered once."""

    def __init__(
        self,
        table: LiveTable,
        decisions: Decisions,
        journal: Journal,
        broadcaster: Broadcaster,
        accept: Accept,
    ) -> None:
        self.table = table
        self.decisions = decisions
        self.journal = journal
        self.broadcaster = broadcaster
        self.accept = accept
        self.answers: OrderedDict[tuple[int, str], dict[str, Any]] = OrderedDict()

    def together(self, request: Request, decisions: Decisions) -> Action | None:
        """The engine action for a decision queued with others (:data:`TOGETHER`), checked
        against ``decisions`` (tracked ahead of the table), to be taken with them; ``None`` when
        it must be taken alone (:meth:`answer`): an id answered before, or one the room or the
        engine refuses — its answer says why."""
        if (request.user_id, request.client_id) in self.answers:
            return None
        try:
            return self._action_for(request, decisions)
        except Exception:  # taken alone, it is answered (or fails) as it would be alone
            return None

    def answered(self, request: Request, state_id: int) -> dict[str, Any]:
        """The answer to an action taken with others (:meth:`together`) that made
        ``state_id``, remembered as :meth:`answer` remembers its own."""
        assert request.user_id is not None
        assert request.client_id is not None
        answer = ack_frame(request.client_id, state_id)
        self._remember((request.user_id, request.client_id), answer)
        return answer

    async def answer(self, request: Request) -> dict[str, Any]:
        user_id, client_id = request.user_id, request.client_id
        assert user_id is not None
        assert client_id is not None
        key = (user_id, client_id)
        if key in self.answers:
            self.answers.move_to_end(key)
            return self.answers[key]
        # An id this owner has not answered may still have been accepted before a restart: the
        # journal knows. It is asked only when the action is refused — by the engine, or by the
        # journal's unique (table, user, client id) index when the same action is accepted
        # again — so an action taken for the first time costs no read.
        try:
            action = self._action_for(request)
            if isinstance(action, UseTimeBank):  # spent before the frames that show it go out
                who = self.table.seated[action.seat]
                full = self.table.settings.time_bank_seconds
                kept = who.spend_bank(full, now(), action.seconds)
                try:
                    made = await self.accept(action, user_id=user_id, client_id=client_id)
                except Exception:
                    who.bank, who.bank_at = kept
                    raise
            else:
                made = await self.accept(action, user_id=user_id, client_id=client_id)
            # the state the action made, as its journal entry says (and answers after a restart)
            answer = ack_frame(client_id, made)
        except RuleError as e:
            done = await self.journal.journaled_answer(user_id, client_id)
            if done is not None:
                answer = done
            else:
                answer = error_frame(e.code, e.message, client_id)
                if e.code == "stale" and request.watcher is not None:
                    request.watcher.offer(self.broadcaster.snapshot(request.watcher, None))
        except IntegrityError:
            done = await self.journal.journaled_answer(user_id, client_id)
            if done is None:
                raise
            answer = done
        self._remember(key, answer)
        return answer

    def _remember(self, key: tuple[int, str], answer: dict[str, Any]) -> None:
        self.answers[key] = answer
        if len(self.answers) > REMEMBERED_ANSWERS:
            self.answers.popitem(last=False)

    def _action_for(self, request: Request, decisions: Decisions | None = None) -> Action:
        """The engine action a client asked for, with its seat and the server's time (a
        decision checked against ``decisions``, else the table's)."""
        decisions = self.decisions if decisions is None else decisions
        settings = self.table.settings
        data = dict(request.payload)
        kind = data.get("type")
        seat = self.table.seat_of(request.user_id)
        if kind == "time_bank":
            who = self.table.seated.get(seat) if seat is not None else None
            if who is None:
                raise ProtocolError("not_seated", "Take a seat first.")
            if set(data) != {"type"}:
                raise ProtocolError("bad_action", 'A "time_bank" action has no other fields.')
            seconds = float(int(who.time_bank(settings.time_bank_seconds, now())))
            if seconds < 1:
                raise ProtocolError(
                    "no_time_bank",
                    f"Your time bank is empty; it refills with {settings.time_bank_seconds:g} "
                    "seconds an hour.",
                )
            decisions.check_fresh(seat, request.state_id)
            assert seat is not None
            return UseTimeBank(seat=seat, seconds=seconds, at=now())
        if settings.is_tournament and kind in ("sit", "leave", "top_up", "sit_out"):
            raise ProtocolError(
                "tournament_table",
                "At a sit & go or an event's table the room seats the players, and nobody adds "
                "chips, sits out or leaves; an absent player is dealt in and played for.",
            )
        if kind == "sit":
            if seat is not None:
                raise ProtocolError("already_seated", "You already have a seat at this table.")
            if set(data) - {"type", "seat", "buy_in"}:
                raise ProtocolError("bad_action", 'A "sit" action has "seat" and "buy_in".')
            data = {"type": "sit", "seat": data.get("seat"), "stack": data.get("buy_in")}
            data["player"] = self._name_of(request)
        else:
            if seat is None:
                raise ProtocolError("not_seated", "Take a seat first.")
            if "seat" in data or "at" in data:
                raise ProtocolError("bad_action", "The room fills in the seat and the time.")
            data["seat"] = seat
        missing = [f for f in ("seat", "stack") if f in data and data[f] is None]
        if missing:
            field = "buy_in" if missing[0] == "stack" else missing[0]
            raise ProtocolError("bad_action", f'A "sit" action needs "{field}".')
        data["at"] = now()  # (the client's own "at" was refused above)
        action = action_from_json(data)
        if kind in SEAT_ACTIONS:
            decisions.check_fresh(seat, request.state_id)
        return action

    def _name_of(self, request: Request) -> str:
        if request.name:
            return request.name
        raise ProtocolError("not_logged_in", "Log in to take a seat.")


__all__ = ["TOGETHER", "ClientActions", "Decisions", "Request", "ack_with_frame"]
