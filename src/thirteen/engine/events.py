"""Events: what happened, as frozen data in the past tense.

``apply`` returns the events an action caused. Some carry cards only one seat may see
(``private_to``); :func:`redact` gives the form another viewer may receive.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from thirteen.engine.cards import Card, card_name
from thirteen.engine.records import quick_init, renew

Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


@quick_init
@dataclass(frozen=True)
class PlayerSat:
    seat: int
    player: str
    stack: int


@quick_init
@dataclass(frozen=True)
class PlayerLeft:
    """A player left; ``stack`` goes back to their account."""

    seat: int
    player: str
    stack: int
    reason: str  # "asked", "sat out too long"


@quick_init
@dataclass(frozen=True)
class PlayerToppedUp:
    seat: int
    amount: int
    stack: int


@quick_init
@dataclass(frozen=True)
class TimeBankUsed:
    seat: int
    seconds: float
    deadline: float
    """The seat's new deadline."""


@quick_init
@dataclass(frozen=True)
class PointValueSet:
    """One point is worth ``value`` minor units from the next hand on (was ``previous``)."""

    value: int
    previous: int


@quick_init
@dataclass(frozen=True)
class PlayerSatOut:
    seat: int
    reason: str  # "asked", "timed out", "no chips"


@quick_init
@dataclass(frozen=True)
class PlayerSatIn:
    seat: int


@quick_init
@dataclass(frozen=True)
class HandStarted:
    number: int
    button: int
    seats: tuple[int, ...]
    """Seats dealt in, in dealing order (from the left of the button)."""
    commitment: str
    fantasyland: tuple[tuple[int, int], ...]
    """(seat, cards) of every player playing this hand in fantasyland, in dealing order."""


@quick_init
@dataclass(frozen=True)
class CardsDealt:
    seat: int
    street: int
    cards: tuple[Card, ...]
    private_to: int | None = None


@quick_init
@dataclass(frozen=True)
class TurnStarted:
    seats: tuple[int, ...]
    street: int
    deadline: float


@quick_init
@dataclass(frozen=True)
class CardsPlaced:
    seat: int
    street: int
    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]


@quick_init
@dataclass(frozen=True)
class CardsDiscarded:
    seat: int
    cards: tuple[Card, ...]
    private_to: int | None = None


@quick_init
@dataclass(frozen=True)
class HandSet:
    """A player finished setting face down (Chinese Poker, fantasyland)."""

    seat: int


@quick_init
@dataclass(frozen=True)
class NaturalDeclared:
    seat: int
    natural: str
    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]


@quick_init
@dataclass(frozen=True)
class HandSurrendered:
    seat: int


@quick_init
@dataclass(frozen=True)
class TimedOut:
    seat: int


@quick_init
@dataclass(frozen=True)
class HandRevealed:
    seat: int
    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]
    foul: bool


@quick_init
@dataclass(frozen=True)
class HandScored:
    """Points by seat (``totals``) and ``matrix[i][j]`` by dealing position."""

    seats: tuple[int, ...]
    totals: tuple[int, ...]
    matrix: tuple[tuple[int, ...], ...]


@quick_init
@dataclass(frozen=True)
class HandSettled:
    """Money moved by seat, capped by stacks (RULES §5), and the stacks after."""

    seats: tuple[int, ...]
    deltas: tuple[int, ...]
    stacks: tuple[int, ...]


@quick_init
@dataclass(frozen=True)
class FantasylandEarned:
    seat: int
    cards: int


Event = (
    PlayerSat
    | PlayerLeft
    | PlayerSatOut
    | PlayerSatIn
    | PlayerToppedUp
    | TimeBankUsed
    | PointValueSet
    | HandStarted
    | CardsDealt
    | TurnStarted
    | CardsPlaced
    | CardsDiscarded
    | HandSet
    | NaturalDeclared
    | HandSurrendered
    | TimedOut
    | HandRevealed
    | HandScored
    | HandSettled
    | FantasylandEarned
)


def redact(event: Event, viewer: int | None) -> Event | None:
    """The event as ``viewer`` (a seat, or ``None`` for a spectator) may see it.

    Private cards of other seats are removed: dealt cards keep only their count, discards
    disappear entirely. Every viewer but the event's own player sees the same (a table writes
    that copy once for all of them: ``Broadcaster``).
    """
    if isinstance(event, CardsDealt) and event.private_to is not None:
        if viewer == event.private_to:
            return event
        return renew(event, cards=(-1,) * len(event.cards))
    if isinstance(event, CardsDiscarded) and event.private_to is not None:
        return event if viewer == event.private_to else None
    return event


def event_to_json(event: Event) -> dict[str, Any]:
    """``{"event": "CardsPlaced", …}`` with cards as text (hidden cards as ``"??"``)."""
    kind = type(event)
    out: dict[str, Any] = {"event": kind.__name__}
    names = _EVENT_FIELDS.get(kind)
    if names is None:
        names = _EVENT_FIELDS[kind] = tuple(f.name for f in dataclasses.fields(event))
    for name in names:
        value = getattr(event, name)
        if name in ("cards", "front", "middle", "back") and isinstance(value, tuple):
            out[name] = " ".join(map(_CARD_TEXT.__getitem__, value))
        elif isinstance(value, tuple):
            out[name] = [list(v) if isinstance(v, tuple) else v for v in value]
        else:
            out[name] = value
    return out


_CARD_TEXT: dict[Card, str] = {-1: "??", **{c: card_name(c) for c in range(52)}}
"""Each card's name in an event, a hidden one (``-1``) as ``??``."""
_EVENT_FIELDS: dict[type, tuple[str, ...]] = {}
"""Each event type's field names, looked up once (events go out with every action)."""
