"""JSON forms of hands and showdowns, shared by the CLI, hand histories and the server.

Input is validated here, at the edge, with sentences that name the player and the field.

>>> from thirteen.engine.rules import get_rules
>>> from thirteen.engine.scoring import score
>>> hands = [showing_from_json({"front": "Qs Qd 2c", "middle": "9c 9d 5h 5s 2d",
...                             "back": "Ah Kh 8h 6h 3h"}),
...          showing_from_json({"surrender": True,
...                             "cards": "2h 7s 4d 5c 5d 6s 7h 8c 8d 8s 9h Tc Jc"})]
>>> showdown_to_json(score(get_rules("chinese-1-6"), hands))["totals"]
[3, -3]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from thirteen.engine.cards import Card, format_cards, parse_cards
from thirteen.engine.errors import RuleError, quote
from thirteen.engine.evaluate import category_name, describe, evaluate
from thirteen.engine.naturals import Natural
from thirteen.engine.royalties import ROWS
from thirteen.engine.scoring import (
    DeclaredNatural,
    PairResult,
    PlayerResult,
    SetHand,
    Showdown,
    Showing,
    Surrender,
)

ROW_ALIASES = {
    "front": "front",
    "top": "front",
    "middle": "middle",
    "back": "back",
    "bottom": "back",
}
"""Names a row may go by in input (OFC players say top and bottom)."""
HAND_SIZE = 13
"""Cards in a whole hand: what a player sets, declares or gives up."""
QUOTE = "'"


def _bad(where: str, message: str) -> RuleError:
    return RuleError("bad_input", f"{where}: {message}")


def cards_from_json(value: Any, where: str) -> list[Card]:
    """Cards given as ``"As Kd"`` or ``["As", "Kd"]``; duplicates within the value refused."""
    if isinstance(value, str):
        text: str | list[str] = value
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        text = value
    else:
        raise _bad(where, 'cards must be text such as "As Kd 9c" or a list of card names.')
    try:
        return parse_cards(text)
    except RuleError as e:
        raise RuleError(e.code, f"{where}: {e}") from None


def showing_from_json(data: Any, where: str = "player") -> Showing:
    """A player's final hand from JSON: a setting, a natural, or a surrender.

    ``{"front": …, "middle": …, "back": …}`` (``top``/``bottom`` accepted), or
    ``{"natural": "six-pairs", "cards": …}``, or ``{"surrender": true, "cards": …}``; each may
    carry ``"in_fantasyland": true``.
    """
    if not isinstance(data, dict):
        raise _bad(where, "each player must be an object.")
    in_fl = data.get("in_fantasyland", False)
    if not isinstance(in_fl, bool):
        raise _bad(where, "in_fantasyland must be true or false.")
    keys = set(data) - {"in_fantasyland", "name"}
    if "natural" in keys:
        _only(keys, {"natural", "cards"}, where)
        name = data["natural"]
        if not isinstance(name, str):
            raise _bad(where, 'natural must be the natural\'s name, e.g. "six-pairs".')
        return DeclaredNatural(name, tuple(cards_from_json(data.get("cards"), where)), in_fl)
    if "surrender" in keys:
        _only(keys, {"surrender", "cards"}, where)
        if data["surrender"] is not True:
            raise _bad(where, "surrender must be true (leave it out to play the hand).")
        if "cards" not in data:
            raise _bad(where, 'a surrender shows the 13 cards given up ("cards").')
        cards = cards_from_json(data["cards"], where)
        if len(cards) != HAND_SIZE:
            raise _bad(where, f"a surrender gives up {HAND_SIZE} cards, not {len(cards)}.")
        return Surrender(tuple(cards), in_fl)
    rows: dict[str, tuple[Card, ...]] = {}
    for key in keys:
        row = ROW_ALIASES.get(key)
        if row is None:
            raise _bad(
                where,
                f"unknown field {quote(key, mark=QUOTE)}; a player has front, middle and back, "
                "or natural and cards, or surrender and cards.",
            )
        if row in rows:
            raise _bad(where, f"the {row} is given twice.")
        rows[row] = tuple(cards_from_json(data[key], f"{where}, {row}"))
    missing = [r for r in ROWS if r not in rows]
    if missing:
        raise _bad(
            where, f"the {' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing."
        )
    return SetHand(rows["front"], rows["middle"], rows["back"], in_fl)


def _only(keys: set[str], allowed: set[str], where: str) -> None:
    extra = keys - allowed
    if extra:
        first = quote(sorted(extra)[0], mark=QUOTE)
        raise _bad(where, f"unexpected field {first} next to {sorted(allowed)[0]!r}.")


def hand_json(cards: Sequence[Card]) -> dict[str, Any]:
    """A row or hand as ``{"cards", "category", "strength", "description"}``."""
    strength = evaluate(cards)
    return {
        "cards": format_cards(cards),
        "category": category_name(strength),
        "strength": strength,
        "description": describe(strength),
    }


def showing_to_json(hand: Showing) -> dict[str, Any]:
    """The input form of a hand (what :func:`showing_from_json` reads)."""
    out: dict[str, Any]
    if isinstance(hand, SetHand):
        out = {row: format_cards(getattr(hand, row)) for row in ROWS}
    elif isinstance(hand, DeclaredNatural):
        out = {"natural": hand.natural, "cards": format_cards(hand.cards)}
    else:
        out = {"surrender": True, "cards": format_cards(hand.cards)}
    if hand.in_fantasyland:
        out["in_fantasyland"] = True
    return out


def _natural_json(natural: Natural) -> dict[str, Any]:
    return {
        "name": natural.name,
        "title": natural.title,
        **{row: format_cards(getattr(natural, row)) for row in ROWS},
    }


def _player_json(hand: Showing, result: PlayerResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "kind": result.kind,
        "total": result.total,
        "foul": result.foul,
        "royalties": result.royalties,
        "royalty_rows": dict(zip(ROWS, result.royalty_rows, strict=True)),
        "fan": result.fan,
        "fantasyland": result.fantasyland,
        "fantasyland_cards": result.fantasyland_cards,
        "surrendered": result.surrendered,
        "natural": None if result.natural is None else _natural_json(result.natural),
    }
    if isinstance(hand, SetHand):
        out["rows"] = {row: hand_json(getattr(hand, row)) for row in ROWS}
    return out


def _pair_json(pair: PairResult) -> dict[str, Any]:
    return {
        "a": pair.a,
        "b": pair.b,
        "kind": pair.kind,
        "rows": list(pair.rows),
        "row_points": pair.row_points,
        "bonus": pair.bonus,
        "royalties": pair.royalties,
        "natural": pair.natural,
        "surrender": pair.surrender,
        "foul": pair.foul,
        "fan": pair.fan,
        "total": pair.total,
    }


def showdown_to_json(showdown: Showdown) -> dict[str, Any]:
    """A showdown as JSON: ``totals``, ``matrix``, ``players`` and ``pairs``."""
    return {
        "totals": list(showdown.totals),
        "matrix": [list(row) for row in showdown.matrix],
        "players": [
            _player_json(h, p) for h, p in zip(showdown.hands, showdown.players, strict=True)
        ],
        "pairs": [_pair_json(p) for p in showdown.pairs],
    }
