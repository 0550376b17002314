"""The browser's evaluator (``js/table/rank.js``) against the engine: tens of thousands of random
arrangements — complete and partial rows, every preset's rules and a 2-7 lowball middle — get
the same row names, royalties, foul and foul warning in Chromium as from
``thirteen.engine.arrangement.assess`` (what ``GET /api/tables/{id}/evaluate`` answers)."""

from __future__ import annotations

import json
import random
from typing import Any

from thirteen.engine import PRESETS, get_rules
from thirteen.engine.arrangement import assess
from thirteen.engine.cards import RANKS, SUITS, parse_cards
from thirteen.engine.evaluate import evaluate
from thirteen.engine.rules import Rules

PER_RULES = 2_600
"""Arrangements per rule set: nine rule sets make 23,400."""

COMPARE = """async (text) => {
  const { assess } = await import("/static/js/table/rank.js");
  const [rules, cases] = JSON.parse(text);
  return JSON.stringify(cases.map(([front, middle, back]) => assess(rules, { front, middle, back })));
}"""
"""The cases go in and the answers come back as JSON text: Playwright's own serialization of
2,600 nested arrays each way took 2.5 s a rule set, the evaluator itself 10–35 ms."""


def _deck(rng: random.Random) -> list[str]:
    """A deck to deal one arrangement from: the whole deck, or one made rich in the hands that
    matter here (two suits: flushes; a few ranks: pairs, trips, full houses and quads; a run of
    ranks: straights)."""
    kind = rng.randrange(4)
    ranks, suits = RANKS, SUITS
    if kind == 1:
        suits = "".join(rng.sample(SUITS, 2))
    elif kind == 2:
        ranks = "".join(rng.sample(RANKS, 5))
    elif kind == 3:
        start = rng.randrange(-1, 9)  # -1: the wheel (A 2 3 4 5 6)
        ranks = "".join(RANKS[i % 13] for i in range(start, start + 6))
    return [r + s for r in ranks for s in suits]


def _arrangement(rng: random.Random) -> list[list[str]]:
    """Three rows of distinct cards, each full most of the time, else partial (even empty)."""
    deck = _deck(rng)
    if len(deck) < 13:
        deck += rng.sample([c for c in (r + s for r in RANKS for s in SUITS) if c not in deck], 13)
    cards = rng.sample(deck, 13)
    rows = [cards[:3], cards[3:8], cards[8:13]]
    if rng.random() < 0.5:  # the stronger five at the back: fewer fouls, more royalties
        middle, back = (evaluate(parse_cards(" ".join(r))) for r in rows[1:])
        if middle > back:
            rows[1], rows[2] = rows[2], rows[1]
    return [row if rng.random() < 0.7 else row[: rng.randrange(len(row))] for row in rows]


def _rule_sets() -> dict[str, Rules]:
    every: dict[str, Rules] = dict(PRESETS)
    every["lowball middle"] = get_rules("chinese-1-6", {"lowball_middle": True})
    return every


def _engine(rules: Rules, rows: list[list[str]]) -> dict[str, Any]:
    found = assess(rules, *(" ".join(r) for r in rows))
    return {
        "rows": [
            {"row": r.row, "cards": r.cards, "name": r.name, "royalty": r.royalty}
            for r in found.rows
        ],
        "foul": found.foul,
        "warning": found.warning,
        "royalties": found.royalties,
    }


def test_browser_evaluator_matches_the_engine(new_context: Any) -> None:
    page = new_context().new_page()
    page.goto("/")
    rng = random.Random(32)
    compared = fouls = royalties = partial = 0
    for name, rules in _rule_sets().items():
        cases = [_arrangement(rng) for _ in range(PER_RULES)]
        got = json.loads(page.evaluate(COMPARE, json.dumps([rules.to_dict(), cases])))
        for rows, answer in zip(cases, got, strict=True):
            expected = _engine(rules, rows)
            assert answer == expected, (name, rows)
            fouls += expected["foul"]
            royalties += expected["royalties"] > 0
            partial += any(len(r) not in (3, 5) or not r for r in rows)
            compared += 1
    assert compared >= 20_000
    # the sample reaches what it is meant to check, not only plain hands
    assert fouls > 1_000, fouls
    assert royalties > 500, royalties
    assert partial > 1_000, partial
