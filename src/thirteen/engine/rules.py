"""Variants are data: one frozen :class:`Rules` value holds every table setting.

Presets are named (:data:`PRESETS`); any setting can be overridden, and an impossible combination
is refused with a reason. Every number a setting holds has its range as data, in the field's
metadata (:func:`bounds_of`): finite, within it, or refused with a sentence naming the setting
and its range — one schema for every place rules enter (the room's tables, practice runs, sit &
gos, events, a history read back).

>>> rules = get_rules("chinese-2-4")
>>> rules.scoring, rules.surrender_cost
('2-4', 3)
>>> try:
...     get_rules("ofc-pineapple").with_overrides({"max_players": 4})
... except RulesConfigError as e:
...     print(e)
4 players need 68 cards in this game (17 each), but a deck has 52.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from thirteen.engine.errors import RulesConfigError, quote
from thirteen.engine.evaluate import known_labels, label_floor
from thirteen.engine.royalties import (
    EASTERN,
    MODERN,
    NO_ROYALTIES,
    ROWS,
    ROYALTY_TABLES,
    SEED_001,
    Entries,
    RoyaltyTable,
)

Game = Literal["chinese", "ofc"]
Scoring = Literal["1-6", "2-4", "1-4", "1-3"]
RoyaltyMode = Literal["winner", "always", "off"]
TurnOrder = Literal["sequential", "simultaneous"]

NATURAL_NAMES = ("dragon", "three-flushes", "three-straights", "six-pairs", "no-face-cards")
DEFAULT_NATURAL_PAYOUTS: Entries = (
    ("dragon", 13),
    ("six-pairs", 3),
    ("three-flushes", 4),
    ("three-straights", 4),
)
NO_FACE_CARDS_PAYOUT = 3

# (scoop bonus, overall bonus) of each scoring method; one unit per row in all of them.
_SCORING_BONUSES: dict[str, tuple[int, int]] = {
    "1-6": (3, 0),
    "2-4": (0, 1),
    "1-4": (1, 0),
    "1-3": (0, 0),
}


@dataclass(frozen=True)
class Bounds:
    """The range of a setting's number (or of each number in it), ends included."""

    low: float
    high: float
    unit: str
    whole: bool = True
    """Whole numbers only (else any finite number)."""

    def text(self) -> str:
        """``'0.001 to 3,600 seconds'``."""
        return f"{_number(self.low)} to {_number(self.high)} {self.unit}"

    def check(self, key: str, value: Any, code: str = "bad_rules") -> Any:
        """``value`` if it is a finite number of the right kind within the range; else a
        :class:`RulesConfigError` (``code``) naming ``key`` and the range."""
        try:
            return self._check(key, value)
        except RulesConfigError as e:
            raise RulesConfigError(code, e.message) from None

    def _check(self, key: str, value: Any) -> Any:
        kind = "a whole number" if self.whole else "a number"
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _fail(f"{key} must be {kind} from {self.text()}, not {_shown(value)}.")
        if isinstance(value, float) and not math.isfinite(value):
            raise _fail(f"{key} must be a finite number from {self.text()}, not {_shown(value)}.")
        if self.whole and not isinstance(value, int):
            raise _fail(f"{key} must be a whole number from {self.text()}, not {_shown(value)}.")
        if not self.low <= value <= self.high:
            raise _fail(f"{key} must be from {self.text()}, not {_shown(value)}.")
        return value if self.whole else float(value)


def _number(x: float) -> str:
    """``3,600``, ``0.01``, ``1,000,000,000,000``: a bound as a person reads it."""
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,g}"


PLAYERS = Bounds(2, 4, "players")
UNITS = Bounds(0, 1000, "units")
"""What a player pays or earns for one thing (a royalty, a natural, a foul, a surrender): a
thousand units is far above any real game, and keeps every hand's points well inside a 64-bit
database column whatever a point is worth."""
STREET_CARDS = Bounds(1, 13, "cards")
DISCARDS = Bounds(0, 12, "cards")
FANTASYLAND_CARDS = Bounds(13, 17, "cards")
TIMER = Bounds(0.001, 3600, "seconds", whole=False)
SIT_OUT = Bounds(0.001, 86_400, "seconds", whole=False)
NAME_LENGTH = 64
"""The most characters in a rule set's name."""


def _doc(text: str, bounds: Bounds | None = None) -> dict[str, Any]:
    return {"doc": text} if bounds is None else {"doc": text, "bounds": bounds}


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Every setting of a table. Build one from a preset with :func:`get_rules`.

    All fields are keyword-only; :meth:`with_overrides` returns a validated copy.
    Raises :class:`RulesConfigError` when the settings cannot work together.
    """

    name: str = field(default="custom", metadata=_doc("Preset name (or 'custom')."))
    game: Game = field(default="chinese", metadata=_doc("chinese (13 at once) or ofc (streets)."))
    min_players: int = field(default=2, metadata=_doc("Fewest players for a deal.", PLAYERS))
    max_players: int = field(default=4, metadata=_doc("Most players at the table.", PLAYERS))
    scoring: Scoring = field(
        default="1-6",
        metadata=_doc("Row scoring: 1-6 (+3 scoop), 2-4 (+1 overall), 1-4 (+1 scoop), 1-3."),
    )
    royalties: RoyaltyTable = field(default=EASTERN, metadata=_doc("Royalty units per row.", UNITS))
    royalty_mode: RoyaltyMode = field(
        default="winner",
        metadata=_doc(
            "winner: paid only by an opponent who loses that row; "
            "always: paid whatever the rows did (OFC); off: none."
        ),
    )
    natural_payouts: Entries = field(
        default=DEFAULT_NATURAL_PAYOUTS,
        metadata=_doc("Naturals that may be declared and what each opponent pays for them.", UNITS),
    )
    surrender: bool = field(default=True, metadata=_doc("Whether a player may surrender."))
    surrender_cost: int = field(
        default=3,
        metadata=_doc("What a surrenderer pays each opponent still in the hand.", UNITS),
    )
    foul_penalty: int | None = field(
        default=None,
        metadata=_doc("What a fouled hand pays each clean opponent; none = a scoop.", UNITS),
    )
    lowball_middle: bool = field(
        default=False, metadata=_doc("Middle ranked 2-7 lowball; legal when back ≥ front.")
    )
    front_below_middle: bool = field(
        default=False,
        metadata=_doc("Front strictly below the middle: a tie on the front's ranks fouls."),
    )
    turn_order: TurnOrder = field(
        default="simultaneous",
        metadata=_doc("OFC: sequential (each sees earlier placements) or simultaneous."),
    )
    streets: tuple[int, ...] = field(
        default=(13,), metadata=_doc("Cards dealt to each player on each street.", STREET_CARDS)
    )
    discards_per_street: int = field(
        default=0,
        metadata=_doc("Cards discarded face down on every street after the first.", DISCARDS),
    )
    fantasyland: bool = field(default=False, metadata=_doc("Whether fantasyland is played."))
    fantasyland_entry: Entries = field(
        default=(),
        metadata=_doc(
            "Front needed to enter fantasyland, and how many cards it deals.", FANTASYLAND_CARDS
        ),
    )
    fantasyland_stay: tuple[tuple[str, str], ...] = field(
        default=(),
        metadata=_doc("Row and hand that keep a player in fantasyland (any one suffices)."),
    )
    fantasyland_repeat_cards: int | None = field(
        default=None,
        metadata=_doc(
            "Cards dealt on a repeat fantasyland; none = as on entry.", FANTASYLAND_CARDS
        ),
    )
    fantasyland_freezes_button: bool = field(
        default=True, metadata=_doc("The button does not move on a fantasyland hand.")
    )
    fan_bonuses: Entries = field(
        default=(),
        metadata=_doc(
            "Bonus each other player pays for a strong front (Open Face Cards' 'fan').", UNITS
        ),
    )
    set_hand_seconds: float = field(default=90, metadata=_doc("Time to set 13 cards.", TIMER))
    first_street_seconds: float = field(
        default=30, metadata=_doc("Time for an OFC first street.", TIMER)
    )
    street_seconds: float = field(
        default=15, metadata=_doc("Time for each later OFC street.", TIMER)
    )
    fantasyland_seconds: float = field(
        default=90, metadata=_doc("Time to set a fantasyland.", TIMER)
    )
    showdown_seconds: float = field(
        default=8, metadata=_doc("How long the showdown is shown.", TIMER)
    )
    sit_out_seconds: float = field(
        default=600, metadata=_doc("Sit-out time before a player is unseated.", SIT_OUT)
    )

    def __post_init__(self) -> None:
        _validate(self)

    # Derived values -----------------------------------------------------------------------
    @property
    def cards_per_player(self) -> int:
        """Cards dealt to a player who is not in fantasyland."""
        return sum(self.streets)

    @property
    def is_ofc(self) -> bool:
        return self.game == "ofc"

    @property
    def scoop_bonus(self) -> int:
        return _SCORING_BONUSES[self.scoring][0]

    @property
    def overall_bonus(self) -> int:
        return _SCORING_BONUSES[self.scoring][1]

    @property
    def scoop_value(self) -> int:
        """What winning all three rows is worth, bonuses included (royalties aside)."""
        return 3 + self.scoop_bonus + self.overall_bonus

    @property
    def foul_cost(self) -> int:
        """What a fouled hand pays each opponent who did not foul (before their royalties)."""
        return self.scoop_value if self.foul_penalty is None else self.foul_penalty

    @property
    def max_fantasyland_cards(self) -> int:
        if not self.fantasyland:
            return 0
        cards = [c for _, c in self.fantasyland_entry]
        if self.fantasyland_repeat_cards is not None:
            cards.append(self.fantasyland_repeat_cards)
        return max(cards)

    @property
    def streets_text(self) -> str:
        """The streets in words: ``'5, then 4 × 3 (discard 1)'``."""
        first, later = self.streets[0], self.streets[1:]
        if not later:
            return str(first)
        sizes = set(later)
        rest = f"{len(later)} × {later[0]}" if len(sizes) == 1 else ", ".join(map(str, later))
        discard = f" (discard {self.discards_per_street})" if self.discards_per_street else ""
        return f"{first}, then {rest}{discard}"

    def discards_on(self, street: int) -> int:
        """Cards discarded face down on OFC street ``street`` (0 is the first: none)."""
        return self.discards_per_street if street > 0 else 0

    def natural_payout(self, name: str) -> int | None:
        """What each opponent pays for a natural, or ``None`` if it cannot be declared here."""
        return dict(self.natural_payouts).get(name)

    # Conversions --------------------------------------------------------------------------
    def with_overrides(self, overrides: Mapping[str, Any]) -> Rules:
        """A validated copy with some settings changed; values may come straight from JSON."""
        if not isinstance(overrides, Mapping):
            raise RulesConfigError("bad_rules", "Rule overrides must be an object of settings.")
        changes: dict[str, Any] = {}
        for key, value in overrides.items():
            if key not in _FIELDS:
                raise RulesConfigError(
                    "bad_rules",
                    f"There is no setting {_shown(key)}. Settings: {', '.join(_FIELDS)}.",
                )
            changes[key] = _convert(key, value)
        if "name" not in changes and changes:
            custom = self.name.endswith("(custom)")
            changes["name"] = self.name if custom else f"{self.name} (custom)"
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Every setting as JSON-friendly data; :func:`rules_from_dict` reads it back."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, RoyaltyTable):
                value = value.as_dict()
            elif f.name in _PAIR_FIELDS:
                value = dict(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    def describe(self) -> list[tuple[str, str, str]]:
        """``(setting, value, meaning)`` rows for people."""
        rows = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, RoyaltyTable):
                shown = "; ".join(
                    f"{row}: " + (", ".join(f"{k} {v}" for k, v in entries.items()) or "none")
                    for row, entries in zip(ROWS, value.as_dict().values(), strict=True)
                )
            elif isinstance(value, tuple) and (not value or isinstance(value[0], tuple)):
                shown = ", ".join(f"{k} {v}" for k, v in value)
            elif f.name == "streets":
                shown = self.streets_text
            elif value is None:
                shown = "none"
            elif isinstance(value, bool):
                shown = "yes" if value else "no"
            else:
                shown = str(value)
            meaning = f.metadata.get("doc", "")
            bounds = bounds_of(f.name)
            if bounds is not None:
                meaning = f"{meaning} ({bounds.text()})"
            rows.append((f.name, shown or "none", meaning))
        return rows


_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}
_PAIR_FIELDS = ("natural_payouts", "fantasyland_entry", "fantasyland_stay", "fan_bonuses")
_MOST_ENTRIES = 64
"""The most entries a setting's map (or list) may hold: a royalty row names at most a few dozen
hands, the streets at most 13."""


def bounds_of(name: str) -> Bounds | None:
    """The range of setting ``name``'s number, or of each number in it (``None``: no number)."""
    bounds = _FIELDS[name].metadata.get("bounds")
    return bounds if isinstance(bounds, Bounds) else None


def _fail(message: str) -> RulesConfigError:
    return RulesConfigError("bad_rules", message)


def _shown(value: Any) -> str:
    """A value as a refusal shows it: short whatever it is (a huge number, a long text, a deep
    object are named, not printed)."""
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "none"}[value]
    if isinstance(value, int):
        return str(value) if abs(value) < 10**15 else "a number far too large"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return quote(value, mark="'")
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return "a value of another kind"


def _bounded(key: str, value: Any) -> Any:
    """``value`` checked against setting ``key``'s range (its name in the sentence)."""
    bounds = bounds_of(key.split("[")[0].split(".")[0])
    assert bounds is not None, key
    return bounds.check(key, value)


def _entries_value(key: str, value: Any) -> Entries:
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, list | tuple) and all(
        isinstance(v, list | tuple) and len(v) == 2 for v in value
    ):
        items = [tuple(v) for v in value]
    else:
        raise _fail(f"{key} must map names to whole numbers, e.g. {{'QQ': 1}}.")
    if len(items) > _MOST_ENTRIES:
        raise _fail(f"{key} holds at most {_MOST_ENTRIES} entries, not {len(items)}.")
    for name, _ in items:
        if not isinstance(name, str) or len(name) > 32:
            raise _fail(f"{key} names hands in short texts, not {_shown(name)}.")
    return tuple(sorted((k, _bounded(f"{key}[{k!r}]", v)) for k, v in items))


def _royalties_value(value: Any) -> RoyaltyTable:
    if isinstance(value, str):
        if value not in ROYALTY_TABLES:
            raise _fail(
                f"Unknown royalty table {_shown(value)}; known: {', '.join(ROYALTY_TABLES)}."
            )
        return ROYALTY_TABLES[value]
    if isinstance(value, RoyaltyTable):
        table = value
    elif isinstance(value, Mapping):
        rows = {}
        for row, entries in value.items():
            if row not in ("front", "middle", "back", "top", "bottom"):
                raise _fail(f"A royalty table has rows front, middle and back, not {_shown(row)}.")
            if not isinstance(entries, Mapping):
                raise _fail(f"The {_shown(row)} royalties must map hand names to units.")
            rows[row] = dict(_entries_value(f"royalties.{row}", entries))
        table = RoyaltyTable.from_dict(rows)
    else:
        raise _fail("royalties must be a table name or {front: {…}, middle: {…}, back: {…}}.")
    for row in ROWS:  # (a table built in Python gets the same range as one from JSON)
        for label, units in getattr(table, row):
            _bounded(f"royalties.{row}[{label!r}]", units)
    return table


def _convert(key: str, value: Any) -> Any:
    """Turn a JSON-shaped value into the field's type, or refuse it with a sentence that names
    the setting (and its range, for a number)."""
    kind = _FIELDS[key].type
    if key == "royalties":
        return _royalties_value(value)
    if key in ("natural_payouts", "fan_bonuses", "fantasyland_entry"):
        return _entries_value(key, value)
    if key == "fantasyland_stay":
        if not isinstance(value, Mapping) or len(value) > len(ROWS):
            raise _fail("fantasyland_stay must map rows to hands, e.g. {'front': 'trips'}.")
        for row, label in value.items():
            if not isinstance(label, str) or len(label) > 32:
                raise _fail(f"fantasyland_stay[{_shown(row)}] must name a hand, e.g. 'trips'.")
        return tuple(sorted((str(k), v) for k, v in value.items()))
    if key == "streets":
        if not isinstance(value, list | tuple) or not 1 <= len(value) <= 13:
            raise _fail("streets must be a list of 1 to 13 card counts, e.g. [5, 3, 3, 3, 3].")
        return tuple(_bounded("streets", v) for v in value)
    if kind in ("bool",):
        if not isinstance(value, bool):
            raise _fail(f"{key} must be true or false, not {_shown(value)}.")
        return value
    if kind in ("int", "float"):
        return _bounded(key, value)
    if kind == "int | None":
        return None if value is None else _bounded(key, value)
    if kind == "str":
        if not isinstance(value, str) or not 1 <= len(value.strip()) <= NAME_LENGTH:
            raise _fail(f"{key} must be a text of 1 to {NAME_LENGTH} characters.")
        return value
    # Literal-typed fields: the allowed words come from the annotation.
    options = {"Game": Game, "Scoring": Scoring, "RoyaltyMode": RoyaltyMode, "TurnOrder": TurnOrder}
    allowed = get_args(options[str(kind)])
    if value not in allowed:
        raise _fail(f"{key} must be one of {', '.join(allowed)}; {_shown(value)} is not.")
    return value


def _validate(r: Rules) -> None:
    """Refuse settings that cannot work together, with the reason."""
    for f in dataclasses.fields(r):
        # Values built in Python (not via with_overrides) get the same checks as JSON input.
        _convert(f.name, _jsonish(f.name, getattr(r, f.name)))
    r.royalties.validate()
    if not 2 <= r.min_players <= r.max_players <= 4:
        raise _fail(
            f"A table seats 2 to 4 players (min {r.min_players}, max {r.max_players} given)."
        )
    payouts = dict(r.natural_payouts)
    for name in payouts:
        if name not in NATURAL_NAMES:
            raise _fail(f"Unknown natural {name!r}; naturals: {', '.join(NATURAL_NAMES)}.")
    for label, _ in r.fan_bonuses:
        if label not in known_labels(3):
            raise _fail(f"No front hand is called {label!r} (fan_bonuses).")
    if r.lowball_middle and r.front_below_middle:
        raise _fail("A lowball middle cannot also be required to beat the front.")

    if r.game == "chinese":
        if r.streets != (13,) or r.discards_per_street:
            raise _fail("In Chinese Poker each player is dealt 13 cards at once (streets [13]).")
        if r.turn_order != "simultaneous":
            raise _fail("In Chinese Poker everyone sets at once (turn_order simultaneous).")
        if r.fantasyland:
            raise _fail("Fantasyland is an OFC rule; Chinese Poker has none.")
    else:
        if payouts:
            raise _fail("Naturals are a Chinese Poker rule; an OFC table has none.")
        if r.lowball_middle:
            raise _fail("The lowball middle is a Chinese Poker variant, not an OFC one.")
        later = r.streets[1:]
        if r.discards_per_street and any(s <= r.discards_per_street for s in later):
            raise _fail("Every street after the first must deal more cards than it discards.")
        placed = r.streets[0] + sum(s - r.discards_per_street for s in later)
        if placed != 13:
            raise _fail(f"The streets place {placed} cards per player; a finished board holds 13.")
        if r.streets[0] > 13:
            raise _fail("The first street cannot deal more than 13 cards.")
    if r.fantasyland:
        if not r.fantasyland_entry:
            raise _fail("fantasyland_entry must say which front enters fantasyland.")
        for label, cards in r.fantasyland_entry:
            if label not in known_labels(3):
                raise _fail(f"No front hand is called {label!r} (fantasyland_entry).")
            if not 13 <= cards <= 17:
                raise _fail(f"A fantasyland hand has 13 to 17 cards, not {cards}.")
        repeat = r.fantasyland_repeat_cards
        if repeat is not None and not 13 <= repeat <= 17:
            raise _fail(f"A fantasyland hand has 13 to 17 cards, not {repeat}.")
        for row, label in r.fantasyland_stay:
            if row not in ROWS:
                raise _fail(f"fantasyland_stay names rows front, middle, back; not {row!r}.")
            if label not in known_labels(3 if row == "front" else 5):
                raise _fail(f"No {row} hand is called {label!r} (fantasyland_stay).")
    need = max(r.cards_per_player, r.max_fantasyland_cards) * r.max_players
    if need > 52:
        each = max(r.cards_per_player, r.max_fantasyland_cards)
        raise _fail(
            f"{r.max_players} players need {need} cards in this game ({each} each), "
            "but a deck has 52."
        )


def _jsonish(name: str, value: Any) -> Any:
    """A field value in the shape :func:`_convert` reads (so both paths share one check)."""
    if name in _PAIR_FIELDS:
        if not isinstance(value, tuple):
            raise _fail(f"{name} must be a tuple of (name, value) pairs.")
        return dict(value)
    return value


def fantasyland_cards_for(rules: Rules, front_strength: int) -> int | None:
    """How many cards a clean front of this strength earns in fantasyland, or ``None``."""
    best: tuple[int, int] | None = None
    for label, cards in rules.fantasyland_entry:
        floor = label_floor(label, 3)
        if front_strength >= floor and (best is None or floor > best[0]):
            best = (floor, cards)
    return None if best is None else best[1]


def rules_from_dict(data: Mapping[str, Any]) -> Rules:
    """Rules from :meth:`Rules.to_dict` output (or any subset of settings over the defaults)."""
    return Rules().with_overrides(data) if data else Rules()


_CHINESE = Rules(name="chinese-1-6")
_OFC = Rules(
    name="ofc",
    game="ofc",
    scoring="1-6",
    royalties=SEED_001,
    royalty_mode="always",
    natural_payouts=(),
    surrender_cost=6,
    foul_penalty=6,
    turn_order="sequential",
    streets=(5, 1, 1, 1, 1, 1, 1, 1, 1),
    fantasyland=True,
    fantasyland_entry=(("QQ", 13),),
    fantasyland_stay=(("back", "quads"), ("front", "trips"), ("middle", "full house")),
)
_PINEAPPLE = dataclasses.replace(
    _OFC,
    name="ofc-pineapple",
    max_players=3,
    royalties=MODERN,
    streets=(5, 3, 3, 3, 3),
    discards_per_street=1,
    fantasyland_entry=(("QQ", 14),),
)

PRESETS: dict[str, Rules] = {
    "chinese-1-6": _CHINESE,
    "chinese-2-4": dataclasses.replace(_CHINESE, name="chinese-2-4", scoring="2-4"),
    "chinese-1-4": dataclasses.replace(_CHINESE, name="chinese-1-4", scoring="1-4"),
    "chinese-1-3": dataclasses.replace(_CHINESE, name="chinese-1-3", scoring="1-3"),
    "ofc": _OFC,
    "ofc-pineapple": _PINEAPPLE,
    "ofc-pineapple-progressive": dataclasses.replace(
        _PINEAPPLE,
        name="ofc-pineapple-progressive",
        fantasyland_entry=(("AA", 16), ("KK", 15), ("QQ", 14), ("trips", 17)),
        fantasyland_repeat_cards=14,
    ),
    "open-face-cards": dataclasses.replace(
        _PINEAPPLE,
        name="open-face-cards",
        scoring="1-3",
        royalties=NO_ROYALTIES,
        royalty_mode="off",
        surrender=False,
        foul_penalty=6,
        front_below_middle=True,
        fantasyland=False,
        fantasyland_entry=(),
        fantasyland_stay=(),
        fan_bonuses=(("AA", 3), ("KK", 2), ("QQ", 1), ("trips", 4)),
    ),
}

ALIASES = {
    "chinese": "chinese-1-6",
    "chinese-poker": "chinese-1-6",
    "ofc-classic": "ofc",
    "pineapple": "ofc-pineapple",
    "progressive": "ofc-pineapple-progressive",
    "ofc-progressive": "ofc-pineapple-progressive",
    "ofcards": "open-face-cards",
}
"""Other names a preset answers to (``thirteen rules`` lists them)."""


def aliases_of(preset: str) -> list[str]:
    """The other names of a preset, e.g. ``['chinese', 'chinese-poker']`` for ``chinese-1-6``."""
    return [alias for alias, name in ALIASES.items() if name == preset]


def get_rules(name: str, overrides: Mapping[str, Any] | None = None) -> Rules:
    """A preset by name or alias, in any case (``OFC``, ``Chinese``), with optional overrides.

    Raises :class:`RulesConfigError` for an unknown name or a bad override.
    """
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in PRESETS:
        shown = quote(name, mark="'")
        raise RulesConfigError(
            "unknown_rules", f"There is no preset {shown}. Presets: {', '.join(PRESETS)}."
        )
    rules = PRESETS[key]
    return rules.with_overrides(overrides) if overrides else rules
