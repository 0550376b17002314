"""Hand histories: every hand is its table, its deal and its actions — and replays exactly.

A :class:`HandHistory` holds the table as it was just before the deal (``start``), the
:class:`~thirteen.engine.deck.Deal`, and every action from the deal to the showdown. Replaying
(:func:`replay`) rebuilds the exact final state.

Forms:

- JSON (:func:`history_to_json` / :func:`history_from_json`), full or redacted for one viewer
  (:func:`redact_history`): a redacted history (a player's copy) holds the deck's 52 leaves and
  the openings of just the cards that viewer saw, with other players' discards written ``??``.
- Text (:mod:`thirteen.engine.history_text`): readable, one action per line, and it
  round-trips; it rewrites the JSON form.

A history the room hands out carries its ``signature`` (Ed25519, over :func:`signed_bytes`: the
canonical JSON of the history without its signature; the text form ends with it). The engine
reads, writes and type-checks it but does no cryptography: ``thirteen verify --key`` checks it
and then calls :meth:`~thirteen.engine.history_verify.Verification.signature_checked`.

Everything a history states is checked by :mod:`thirteen.engine.history_verify`, starting from
what :func:`read_history` reads and type-checks here.
"""

from __future__ import annotations

import base64
import binascii
import copy
import hashlib
import string
from dataclasses import dataclass, field
from typing import Any

from thirteen.engine.actions import (
    AUTOPLAY,
    Action,
    Place,
    StartHand,
    action_from_json,
    action_to_json,
    is_autoplay_version,
)
from thirteen.engine.cards import Card, format_cards, parse_cards
from thirteen.engine.deck import SALT_BYTES, Deal, Opening
from thirteen.engine.errors import RuleError
from thirteen.engine.history_format import (
    FORMAT,
    SIGNATURE,
    SIGNATURE_KEYS,
    VERSION,
    bad_history,
    json_object,
)
from thirteen.engine.records import quick_init, renew
from thirteen.engine.snapshot import (
    canonical_json,
    header_commitment,
    seconds,
    snapshot_from_json,
    snapshot_to_json,
    whole,
)
from thirteen.engine.state import Phase, TableState, evolve
from thirteen.engine.table import apply

HIDDEN = "??"
"""How a redacted history writes each card it hides (other players' discards)."""
_KEYS = ("format", "version", "hand", "viewer", "start", "commitment", "deal", "actions", "result")
_RESULT_KEYS = ("seats", "totals", "money", "fouls")
SIGNATURE_ALGORITHM = "Ed25519"


# --------------------------------------------------------------------------------- histories
@quick_init
@dataclass(frozen=True)
class HandHistory:
    """A hand: the table before the deal, the deal, and every action (the deal first)."""

    start: TableState
    actions: tuple[Action, ...]
    result: dict[str, Any] | None = field(default=None, compare=False)

    @property
    def deal(self) -> Deal:
        first = self.actions[0]
        assert isinstance(first, StartHand)
        return first.deal


def begin_history(state: TableState, start: StartHand) -> HandHistory:
    """A new history for the hand ``start`` deals on ``state``."""
    base = evolve(state, hand=None)
    return HandHistory(start=base, actions=(start,))


def record(history: HandHistory, action: Action) -> HandHistory:
    """The history with one more accepted action."""
    return renew(history, actions=(*history.actions, action))


def replay(history: HandHistory) -> TableState:
    """The state after every action of the history (raises if any action is refused)."""
    state = history.start
    for action in history.actions:
        state, _ = apply(state, action)
    return state


def result_summary(state: TableState) -> dict[str, Any] | None:
    """Totals, money and fouls by seat once the hand is scored."""
    hand = state.hand
    if hand is None or hand.result is None or hand.settlement is None:
        return None
    return {
        "seats": [b.seat for b in hand.boards],
        "totals": list(hand.result.totals),
        "money": list(hand.settlement),
        "fouls": [p.foul for p in hand.result.players],
    }


def finish(history: HandHistory) -> HandHistory:
    """The history with its result recorded (replays it to be sure)."""
    return renew(history, result=result_summary(replay(history)))


def history_to_json(
    history: HandHistory,
    commitment: str | None = None,
    rules: dict[str, Any] | None = None,
    actions: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The full history as JSON (the deck and salts included: keep it private until the hand
    is over; give players :func:`redact_history` forms). ``commitment``: the one the table
    published when it dealt the hand, when the caller is that table (it is the same
    :func:`header_commitment`, made once); otherwise it is made here. ``rules``: the start's
    rules as :func:`snapshot_to_json` takes them. ``actions``: the actions' JSON, in order,
    when the caller made it already (a table journals each action it takes: issue 33) —
    :func:`action_json` of each; shared with the result, so read-only."""
    deal = history.deal
    hand = history.start.hands_played + 1
    if commitment is None:
        commitment = header_commitment(hand, history.start, history.actions[0].at, deal.root)
    return {
        "format": FORMAT,
        "version": VERSION,
        "hand": hand,
        "viewer": "all",
        "start": snapshot_to_json(history.start, rules),
        "commitment": commitment,
        "deal": {"deck": format_cards(deal.order), "salts": [s.hex() for s in deal.salts]},
        "actions": [action_json(a) for a in history.actions] if actions is None else actions,
        "result": copy.deepcopy(history.result),
    }


def deal_json(at: float, autoplay: int) -> dict[str, Any]:
    """A history's first action, the deal (its deck is the history's ``deal``): its time, and
    its version of the automatic moves unless it is the first (as histories wrote it before)."""
    return {"type": "start_hand", "at": at, **({"autoplay": autoplay} if autoplay != 1 else {})}


def action_json(action: Action) -> dict[str, Any]:
    """An action as a history writes it (a deal without its deck: that is the history's
    ``deal``)."""
    if isinstance(action, StartHand):  # its deck is the history's deal
        return deal_json(action.at, action.autoplay)
    return action_to_json(action)


# --------------------------------------------------------------------------------- signatures
def signed_bytes(data: dict[str, Any]) -> bytes:
    """What the room's signature covers: the canonical JSON of the history without its
    ``signature`` field (so a signature binds every other field, the viewer included)."""
    return canonical_json({k: v for k, v in data.items() if k != SIGNATURE})


def signing_key_id(public_key: bytes) -> str:
    """A public key's short name: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(public_key).hexdigest()[:16]


def decode_base64(value: str, size: int) -> bytes | None:
    """``value`` as standard base64 (padded, canonical) of exactly ``size`` bytes, or ``None``."""
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(raw) != size or base64.b64encode(raw).decode("ascii") != value:
        return None
    return raw


def _read_signature(raw: Any) -> dict[str, str]:
    s = json_object(raw, SIGNATURE_KEYS, "The signature")
    if not all(isinstance(s[k], str) for k in SIGNATURE_KEYS):
        raise bad_history("The signature's algorithm, key_id, public_key and value are strings.")
    if s["algorithm"] != SIGNATURE_ALGORITHM:
        raise bad_history(f"The signature's algorithm must be {SIGNATURE_ALGORITHM}.")
    return {k: s[k] for k in SIGNATURE_KEYS}


def signature_problem(signature: dict[str, str]) -> str | None:
    """What makes a signature's key or value malformed, or ``None`` (it is not checked here)."""
    public_key = decode_base64(signature["public_key"], 32)
    if public_key is None:
        return "the signature's public key is not the base64 of 32 bytes"
    if decode_base64(signature["value"], 64) is None:
        return "the signature's value is not the base64 of 64 bytes"
    if signature["key_id"] != signing_key_id(public_key):
        return "the signature's key_id is not the id of its public key"
    return None


# --------------------------------------------------------------------------------- reading
@dataclass(frozen=True)
class ReadHistory:
    """A history's JSON, read and type-checked (nothing verified yet)."""

    hand: int
    viewer: int | str
    start: TableState
    commitment: str
    start_at: float
    moves: tuple[Action, ...]
    """The actions after the deal; in a redacted copy, hidden discards are left out of them."""
    hidden: dict[int, int]
    """Redacted copies: the number of hidden discards of each move (by index in ``moves``)."""
    result: dict[str, Any] | None
    deal: Deal | None
    """The full deck and salts; ``None`` in a redacted copy."""
    leaves: tuple[bytes, ...]
    openings: tuple[Opening, ...]
    signature: dict[str, str] | None = None
    autoplay: int = 1
    """The version of the automatic moves the hand was dealt with (its ``start_hand``'s
    ``autoplay``; absent, as before versions: 1)."""

    @property
    def full(self) -> bool:
        return self.deal is not None

    @property
    def actions(self) -> tuple[Action, ...]:
        assert self.deal is not None
        return (StartHand(deal=self.deal, at=self.start_at, autoplay=self.autoplay), *self.moves)

    def written(self) -> dict[str, Any]:
        """The JSON a history writer gives for what was read."""
        if self.deal is not None:
            deal: dict[str, Any] = {
                "deck": format_cards(self.deal.order),
                "salts": [s.hex() for s in self.deal.salts],
            }
        else:
            deal = {
                "leaves": [leaf.hex() for leaf in self.leaves],
                "openings": [
                    [o.position, format_cards([o.card]), o.salt.hex()] for o in self.openings
                ],
            }
        moves = []
        for i, move in enumerate(self.moves):
            raw = action_json(move)
            if i in self.hidden:
                raw["discard"] = " ".join(HIDDEN for _ in range(self.hidden[i]))
            moves.append(raw)
        out = {
            "format": FORMAT,
            "version": VERSION,
            "hand": self.hand,
            "viewer": self.viewer,
            "start": snapshot_to_json(self.start),
            "commitment": self.commitment,
            "deal": deal,
            "actions": [deal_json(self.start_at, self.autoplay), *moves],
            "result": self.result,
        }
        if self.signature is not None:
            out[SIGNATURE] = dict(self.signature)
        return out


def _is_hex(value: Any, size: int) -> bool:
    return (
        isinstance(value, str)
        and len(value) == 2 * size
        and all(ch in string.hexdigits[:16] for ch in value)
    )


def _read_deal(raw: Any) -> tuple[Deal | None, tuple[bytes, ...], tuple[Opening, ...]]:
    if isinstance(raw, dict) and "deck" in raw:
        d = json_object(raw, ("deck", "salts"), "The deal")
        if not isinstance(d["deck"], str):
            raise bad_history("The deck must be text such as 'As Kd …'.")
        salts = d["salts"]
        if not isinstance(salts, list) or not all(_is_hex(s, SALT_BYTES) for s in salts):
            raise bad_history(f"The deal's salts must be a list of {SALT_BYTES}-byte hex strings.")
        deal = Deal.from_order(parse_cards(d["deck"]), [bytes.fromhex(s) for s in salts])
        return deal, deal.leaves(), ()
    d = json_object(raw, ("leaves", "openings"), "The deal")
    leaves = d["leaves"]
    if not isinstance(leaves, list) or len(leaves) != 52 or not all(_is_hex(x, 32) for x in leaves):
        raise bad_history("A player's copy lists the deck's 52 leaves, each a 32-byte hex digest.")
    if not isinstance(d["openings"], list):
        raise bad_history("The openings must be a list of [position, card, salt].")
    openings: list[Opening] = []
    for n, item in enumerate(d["openings"], 1):
        if not isinstance(item, list) or len(item) != 3:
            raise bad_history(f"Opening {n} must be [position, card, salt].")
        position, card, salt = item
        what = f"Opening {n}'s deck position"
        whole(position, what, 0, 51)
        if openings and position <= openings[-1].position:
            raise bad_history(
                f"Opening {n}: the openings must be in deck order, each position once."
            )
        if not isinstance(card, str) or len(parse_cards(card)) != 1:
            raise bad_history(f"Opening {n} must name one card.")
        if not _is_hex(salt, SALT_BYTES):
            raise bad_history(f"Opening {n}'s salt must be {SALT_BYTES} bytes in hex.")
        openings.append(Opening(position, parse_cards(card)[0], bytes.fromhex(salt)))
    return None, tuple(bytes.fromhex(x) for x in leaves), tuple(openings)


def _read_result(raw: Any) -> dict[str, Any] | None:
    if raw is None:
        return None
    r = json_object(raw, _RESULT_KEYS, "The result")
    if not all(isinstance(r[k], list) for k in _RESULT_KEYS):
        raise bad_history("The result lists seats, totals, money and fouls.")
    if len({len(r[k]) for k in _RESULT_KEYS}) != 1:
        raise bad_history(
            "The result's seats, totals, money and fouls must be as long as each other."
        )
    for k in ("seats", "totals", "money"):
        for value in r[k]:
            whole(value, f"The result's {k}")
    if not all(isinstance(f, bool) for f in r["fouls"]):
        raise bad_history("The result's fouls must be true or false.")
    return r


def read_history(data: Any) -> ReadHistory:
    """Read a history's JSON (full or redacted); :class:`RuleError` says what is malformed."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad_history(f"This is not a Thirteen hand history (format {FORMAT!r} expected).")
    if data.get("version") != VERSION:
        raise bad_history(
            f"Unsupported history version {data.get('version')!r}; expected {VERSION}."
        )
    json_object(data, _KEYS, "A hand history", optional=(SIGNATURE,))
    signature = _read_signature(data[SIGNATURE]) if SIGNATURE in data else None
    try:
        start = snapshot_from_json(data["start"])
        deal, leaves, openings = _read_deal(data["deal"])
    except (TypeError, ValueError, KeyError, OverflowError) as e:
        if isinstance(e, RuleError):
            raise bad_history(str(e)) from None
        raise bad_history(f"The history is malformed ({type(e).__name__}: {e}).") from None
    hand = whole(data["hand"], "The hand number", 1)
    viewer = data["viewer"]
    if viewer not in ("all", "spectator"):
        whole(viewer, 'The viewer ("all", "spectator" or a seat)', 0, len(start.seats) - 1)
    if not _is_hex(data["commitment"], 32) or data["commitment"] != data["commitment"].lower():
        raise bad_history("The commitment must be a SHA-256 digest in lowercase hex.")
    raw_actions = data["actions"]
    if not isinstance(raw_actions, list) or not raw_actions:
        raise bad_history("A history needs its actions, the deal first.")
    first = raw_actions[0]
    if not isinstance(first, dict) or first.get("type") != "start_hand":
        raise bad_history("The first action of a history is the deal (start_hand).")
    json_object(first, ("type", "at"), "The deal (action 1)", optional=("autoplay",))
    start_at = seconds(first["at"], "Action 1's at")
    autoplay = first.get("autoplay", 1)
    if not is_autoplay_version(autoplay):
        raise bad_history(
            f"The deal's autoplay is a version of the automatic moves, 1 to {AUTOPLAY}."
        )
    moves: list[Action] = []
    hidden: dict[int, int] = {}
    for i, raw in enumerate(raw_actions[1:]):
        if isinstance(raw, dict) and raw.get("type") == "start_hand":
            raise bad_history(f"Action {i + 2}: a history holds one deal, the first action.")
        discard = raw.get("discard") if isinstance(raw, dict) else None
        if (
            deal is None
            and isinstance(discard, str)
            and discard
            and set(discard.split()) == {HIDDEN}
        ):
            hidden[i] = len(discard.split())
            raw = {**raw, "discard": ""}
        try:
            moves.append(action_from_json(raw))
        except RuleError as e:
            raise bad_history(f"Action {i + 2}: {e}") from None
    return ReadHistory(
        hand=hand,
        viewer=viewer,
        start=start,
        commitment=data["commitment"],
        start_at=start_at,
        moves=tuple(moves),
        hidden=hidden,
        result=_read_result(data["result"]),
        deal=deal,
        leaves=leaves,
        openings=openings,
        signature=signature,
        autoplay=autoplay,
    )


def history_from_json(data: Any) -> HandHistory:
    """A full history from JSON; :class:`RuleError` for anything malformed or redacted."""
    read = read_history(data)
    if read.deal is None:
        raise bad_history(
            "This history is redacted (a player's copy): it has no full deck to replay."
        )
    return HandHistory(start=read.start, actions=read.actions, result=read.result)


# --------------------------------------------------------------------------------- redaction
def visible_cards(state: TableState, viewer: int | None) -> set[Card]:
    """Every card ``viewer`` may know once the hand is over (their own, and what was shown)."""
    hand = state.hand
    if hand is None:
        return set()
    seen: set[Card] = set()
    showdown = state.phase == Phase.SHOWDOWN
    for b in hand.boards:
        if b.seat == viewer:
            seen.update(b.dealt)
        elif b.outcome == "natural":
            seen.update(b.placed)
        elif b.outcome == "surrendered":
            continue
        elif (state.rules.is_ofc and not b.in_fantasyland) or showdown:
            seen.update(b.placed)
    return seen


def redact_history(history: HandHistory, viewer: int | None) -> dict[str, Any]:
    """The history as ``viewer`` may have it: openings of just the cards they saw.

    Other players' discards are written as ``"??"``; the deck is replaced by the commitment's
    52 leaves and the openings (position, card, salt) of the visible cards.
    """
    final = replay(history)
    deal = history.deal
    seen = visible_cards(final, viewer)
    positions = [i for i, c in enumerate(deal.order) if c in seen]
    full = history_to_json(history)
    actions = []
    for action, raw in zip(history.actions, full["actions"], strict=True):
        seat = getattr(action, "seat", None)
        if isinstance(action, Place) and seat != viewer and action.discard:
            raw = {**raw, "discard": " ".join(HIDDEN for _ in action.discard)}
        actions.append(raw)
    full.update(
        viewer="spectator" if viewer is None else viewer,
        deal={
            "leaves": [leaf.hex() for leaf in deal.leaves()],
            "openings": [
                [o.position, format_cards([o.card]), o.salt.hex()] for o in deal.openings(positions)
            ],
        },
        actions=actions,
    )
    return full


__all__ = [
    "HIDDEN",
    "SIGNATURE_ALGORITHM",
    "HandHistory",
    "ReadHistory",
    "action_json",
    "begin_history",
    "decode_base64",
    "finish",
    "history_from_json",
    "history_to_json",
    "read_history",
    "record",
    "redact_history",
    "replay",
    "result_summary",
    "signature_problem",
    "signed_bytes",
    "signing_key_id",
    "snapshot_from_json",
    "snapshot_to_json",
    "visible_cards",
]
