"""Actions: everything anyone can ask of a table, as frozen data.

Time is an input: every action carries ``at``, the server's clock in seconds when it was
submitted. The engine never reads a clock; deadlines in the state are compared with ``at``.

Actions have a JSON form (:func:`action_to_json` / :func:`action_from_json`) used by hand
histories and by the server's protocol.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from thirteen.engine.cards import Card, format_cards
from thirteen.engine.deck import Deal
from thirteen.engine.errors import RuleError
from thirteen.engine.notation import cards_from_json
from thirteen.engine.records import quick_init, renew


@quick_init
@dataclass(frozen=True, kw_only=True)
class Sit:
    """Take a free seat with a buy-in (whole minor units of money)."""

    seat: int
    player: str
    stack: int
    at: float = 0.0


@quick_init
@dataclass(frozen=True, kw_only=True)
class Leave:
    """Leave the table: at once between hands, after the hand when dealt in."""

    seat: int
    at: float = 0.0


@quick_init
@dataclass(frozen=True, kw_only=True)
class Stay:
    """Take back a :class:`Leave` made during a hand, before the hand ends: the seat stays and
    plays its own decisions again."""

    seat: int
    at: float = 0.0


@quick_init
@dataclass(frozen=True, kw_only=True)
class SitOut:
    """Stop being dealt in (from the next hand on)."""

    seat: int
    at: float = 0.0


@quick_init
@dataclass(frozen=True, kw_only=True)
class SitIn:
    """Come back from sit-out; dealt in from the next hand."""

    seat: int
    at: float = 0.0


@quick_init
@dataclass(frozen=True, kw_only=True)
class TopUp:
    """Add ``amount`` to the stack between hands, up to the table's maximum buy-in."""

    seat: int
    amount: int
    at: float = 0.0


@quick_init
@dataclass(frozen=True, kw_only=True)
class UseTimeBank:
    """Add ``seconds`` from the player's time bank to the decision now pending (the room keeps
    the bank; the table only moves the deadline)."""

    seat: int
    seconds: float
    at: float = 0.0


@quick_init
@dataclass(frozen=True, kw_only=True)
class SetPointValue:
    """Make one point worth ``value`` minor units from the next hand on (between hands only):
    a tournament's rising unit."""

    value: int
    at: float = 0.0


AUTOPLAY = 2
"""The version of the table's automatic moves (:mod:`thirteen.engine.autoplay`) a hand dealt
now plays by. A hand keeps the version it was dealt with, so every history replays to what its
table did: 1 is the move before issue 32 (a history or journal whose ``start_hand`` names no
version), 2 keeps a board alive where it can and goes for fantasyland."""


def is_autoplay_version(value: Any) -> bool:
    """Whether ``value`` (read from JSON) names a version of the automatic moves."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= AUTOPLAY


@quick_init
@dataclass(frozen=True, kw_only=True)
class StartHand:
    """The dealer's chance step: a new deal with this deck (see :mod:`thirteen.engine.deck`),
    played with version ``autoplay`` of the table's automatic moves (:data:`AUTOPLAY`)."""

    deal: Deal
    at: float = 0.0
    autoplay: int = AUTOPLAY


@quick_init
@dataclass(frozen=True, kw_only=True)
class SetHand:
    """Set all 13 cards at once: Chinese Poker, or a fantasyland hand (the rest is discarded)."""

    seat: int
    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]
    at: float = 0.0


@quick_init
@dataclass(frozen=True, kw_only=True)
class Place:
    """Play an OFC street: the cards added to each row, and the discards (pineapple)."""

    seat: int
    front: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    back: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    at: float = 0.0


@quick_init
@dataclass(frozen=True, kw_only=True)
class DeclareNatural:
    """Declare a natural instead of setting (Chinese Poker, before anything is set)."""

    seat: int
    natural: str
    at: float = 0.0


@quick_init
@dataclass(frozen=True, kw_only=True)
class Surrender:
    """Give up the hand: it is shown face down and pays each opponent still in the hand."""

    seat: int
    at: float = 0.0


@quick_init
@dataclass(frozen=True, kw_only=True)
class Timeout:
    """A deadline passed: the table moves for the seat (and sits it out after the hand), or,
    for a seat sitting out too long, unseats it. A seat the table plays for at once
    (:func:`~thirteen.engine.state.played_at_once`: leaving, or timed out earlier in the hand)
    takes it as soon as its decision opens."""

    seat: int
    at: float = 0.0


Action = (
    Sit
    | Leave
    | Stay
    | SitOut
    | SitIn
    | TopUp
    | UseTimeBank
    | SetPointValue
    | StartHand
    | SetHand
    | Place
    | DeclareNatural
    | Surrender
    | Timeout
)

AnAction = TypeVar("AnAction", bound=Action)


def stamped(action: AnAction, at: float) -> AnAction:
    """``dataclasses.replace(action, at=at)``, several times quicker (a self-play arena stamps
    every move): :func:`.records.renew`."""
    return renew(action, at=at)


ACTION_TYPES: dict[str, type[Action]] = {
    "sit": Sit,
    "leave": Leave,
    "stay": Stay,
    "sit_out": SitOut,
    "sit_in": SitIn,
    "top_up": TopUp,
    "use_time_bank": UseTimeBank,
    "set_point_value": SetPointValue,
    "start_hand": StartHand,
    "set_hand": SetHand,
    "place": Place,
    "declare_natural": DeclareNatural,
    "surrender": Surrender,
    "time_out": Timeout,
}
ACTION_NAMES: dict[type[Action], str] = {v: k for k, v in ACTION_TYPES.items()}
_CARD_FIELDS = ("front", "middle", "back", "discard")


def action_name(action: Action) -> str:
    return ACTION_NAMES[type(action)]


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON form: ``{"type": "place", "seat": 1, "back": "As Kd", …}``."""
    out: dict[str, Any] = {"type": action_name(action)}
    for f in fields(action):
        value = getattr(action, f.name)
        if f.name in _CARD_FIELDS:
            out[f.name] = format_cards(value)
        elif isinstance(value, Deal):
            out["deck"] = format_cards(value.order)
            out["salts"] = [s.hex() for s in value.salts]
        elif f.name == "autoplay" and value == 1:
            continue  # written as it was before versions: an older history reads back the same
        else:
            out[f.name] = value
    return out


def _shape(cls: type[Action]) -> tuple[frozenset[str], frozenset[str]]:
    """The fields an action's JSON form may have (a deal's as ``deck`` and ``salts``), and the
    ones its action needs (all but its time and a placement's rows)."""
    names = {f.name for f in fields(cls)}
    optional = {"at"} | (set(_CARD_FIELDS) if cls is Place else set())
    required = frozenset(names - optional)
    if cls is StartHand:
        names = (names - {"deal"}) | {"deck", "salts"}
    return frozenset(names), required


_SHAPES = {cls: _shape(cls) for cls in ACTION_TYPES.values()}
"""Each action type's :func:`_shape`, made once (a client's action is read every decision)."""


def _bad(message: str) -> RuleError:
    return RuleError("bad_action", message)


def action_from_json(data: Any) -> Action:
    """An action from its JSON form; a :class:`RuleError` says what is wrong with it."""
    if not isinstance(data, dict):
        raise _bad("An action must be an object with a type.")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise _bad(f"Unknown action type {kind!r}; types: {', '.join(ACTION_TYPES)}.")
    names, required = _SHAPES[cls]
    given = set(data) - {"type"}
    unknown = given - names
    if unknown:
        raise _bad(f"A {kind} action has no field {sorted(unknown)[0]!r}.")
    values: dict[str, Any] = {}
    for name in given:
        value = data[name]
        if name in _CARD_FIELDS:
            values[name] = tuple(cards_from_json(value, f"{kind} {name}"))
        elif name == "autoplay":
            if not is_autoplay_version(value):
                raise _bad(f"autoplay must be a version of the automatic moves, 1 to {AUTOPLAY}.")
            values[name] = value
        elif name in ("seat", "stack", "amount", "value"):
            if isinstance(value, bool) or not isinstance(value, int):
                raise _bad(f"{name} must be a whole number.")
            values[name] = value
        elif name == "seconds":
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise _bad("seconds must be a number.")
            values[name] = float(value)
        elif name == "at":
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise _bad("at must be a number of seconds.")
            at = float(value) if -1e300 < value < 1e300 else math.inf
            if not math.isfinite(at):
                raise _bad("at must be a finite number of seconds.")
            values[name] = at
        elif name in ("player", "natural"):
            if not isinstance(value, str) or not value:
                raise _bad(f"{name} must be a non-empty text.")
            values[name] = value
    if cls is StartHand:
        deck = cards_from_json(data.get("deck"), "start_hand deck")
        salts_raw = data.get("salts")
        if not isinstance(salts_raw, list) or not all(isinstance(s, str) for s in salts_raw):
            raise _bad("salts must be a list of hex strings.")
        try:
            salts = [bytes.fromhex(s) for s in salts_raw]
        except ValueError:
            raise _bad("salts must be hex strings.") from None
        values.pop("deck", None)
        values.pop("salts", None)
        values["deal"] = Deal.from_order(deck, salts)
        values.setdefault("autoplay", 1)  # a start_hand of before the versions: the first move
    missing = required - values.keys()
    if missing:
        raise _bad(f"A {kind} action needs {', '.join(sorted(missing))}.")
    return cls(**values)
