"""A live table's memory, which every piece of its owner shares: its settings, the engine's
state and who sits where (:class:`LiveTable`), the clock they all read (:func:`now`), and the
way in for an action (:class:`Accept`).

The owner (:mod:`.owner`) is composed of pieces — the hand loop (:mod:`.hands`), seating and
money (:mod:`.seating`), the journal (:mod:`.journal`), broadcasting (:mod:`.broadcast`) — and
each holds this one object rather than a copy of what is in it: every accepted action replaces
the state, closing the table replaces its settings, and each piece must see the table as it is
now, at the cost of nothing per action.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol

from thirteen.engine.actions import Action
from thirteen.engine.rules import Rules
from thirteen.engine.state import TableState


def now() -> float:
    return time.time()


@dataclass
class Seated:
    """Who sits in a seat, and where their chips are."""

    sitting_id: int
    user_id: int
    name: str
    escrow_id: int
    is_bot: bool
    bank: float = -1.0
    """Seconds in the time bank (``-1``: full, not touched yet)."""
    bank_at: float = 0.0
    hands_sat_out: int = 0
    unseating: tuple[str, str] | None = None
    """Why the room itself is making this seat leave, set just before its action — a code
    (``sat_out``, ``table_closed``) and the ledger's words ("unseated after sitting out
    10 min") — or ``None`` while the player is the one who asks."""

    def time_bank(self, full: float, at: float) -> float:
        """Seconds in the bank at ``at``: it refills at ``full`` seconds an hour, up to ``full``."""
        if self.bank < 0:
            return full
        return min(full, self.bank + (at - self.bank_at) * full / 3600.0)

    def spend_bank(self, full: float, at: float, seconds: float) -> tuple[float, float]:
        """Take ``seconds`` from the bank at ``at``; what it held before, to put back if the
        table refuses the time (``bank, bank_at = kept``)."""
        kept = (self.bank, self.bank_at)
        self.bank = self.time_bank(full, at) - seconds
        self.bank_at = at
        return kept


@dataclass(frozen=True)
class TableSettings:
    """A table's settings as the lobby and a snapshot show them."""

    id: int
    name: str
    preset: str
    unit: int
    min_buy_in: int
    max_buy_in: int
    seats: int
    bots: int
    bot_level: str
    practice: bool
    status: str
    time_bank_seconds: float = 30.0
    sit_out_hands: int = 3
    tournament_id: int | None = None
    """The sit & go this table plays: its stacks are tournament chips, never money."""
    event_id: int | None = None
    """The duplicate team event this table plays a round of: its stacks are points."""

    @property
    def is_tournament(self) -> bool:
        """A sit & go's or a duplicate event's table: the room seats the players, nobody
        leaves, and its stacks are not money (sitting, hands and leaving move no chips)."""
        return self.tournament_id is not None or self.event_id is not None

    def to_json(self, rules: Rules) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "preset": self.preset,
            "game": rules.game,
            "scoring": rules.scoring,
            "unit": self.unit,
            "min_buy_in": self.min_buy_in,
            "max_buy_in": self.max_buy_in,
            "seats": self.seats,
            "bots": self.bots,
            "bot_level": self.bot_level,
            "practice": self.practice,
            "time_bank_seconds": self.time_bank_seconds,
            "sit_out_hands": self.sit_out_hands,
            "status": self.status,
            "tournament": self.tournament_id,
            "event": self.event_id,
            "rules": rules.to_dict(),
        }


class Accept(Protocol):
    """The hand loop's way in (:meth:`.hands.HandLoop.accept`: apply, journal, tell everyone),
    handed to the pieces that take actions of a player's or of the room's own."""

    async def __call__(
        self, action: Action, *, user_id: int | None = None, client_id: str | None = None
    ) -> int:
        """Accept ``action``; the state id it made (the room may act on after it)."""
        ...


class LiveTable:
    """A table as its owner's pieces share it. The hand loop replaces ``state`` after each
    accepted action and ``settings`` when the table closes (a practice run's end may too, from
    the owner's task); ``seated`` is one dict, changed in place."""

    __slots__ = ("seated", "settings", "state")

    def __init__(self, settings: TableSettings, state: TableState, seated: dict[int, Seated]):
        self.settings = settings
        self.state = state
        self.seated = seated

    @property
    def id(self) -> int:
        return self.settings.id

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for seat, who in self.seated.items():
            if who.user_id == user_id:
                return seat
        return None


__all__ = ["Accept", "LiveTable", "Seated", "TableSettings", "now"]
