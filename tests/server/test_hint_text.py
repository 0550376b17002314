"""Hints from a seat's own view, as sentences: the fantasyland solver's setting (its royalties;
it has no expected value), the setter's and a street's (with the bot's expected value)."""

from __future__ import annotations

from dataclasses import replace

from table_helpers import deal, run, stacked, table_with
from thirteen.bots.advice import gamble_text, percent
from thirteen.bots.ofc_mc import MonteCarloOFCBot
from thirteen.bots.registry import make_bot
from thirteen.bots.setter import best_setting
from thirteen.engine.actions import Place, SetHand, action_from_json
from thirteen.engine.autoplay import auto_action
from thirteen.engine.cards import parse_cards
from thirteen.engine.legal import legal_actions
from thirteen.engine.rules import Rules, get_rules
from thirteen.engine.state import TableState
from thirteen.engine.table import apply
from thirteen.engine.views import view
from thirteen.server.http.assist import Hint, explain

ENTRY = "Qs Qd As Ad Ac 2h 9s 9h 5c 5d 7s Kd Kh"
"""Seat 1 (first to be dealt) plays this to QQ2 / 99 55 7 / AAA KK: fantasyland next hand."""
STREETS = [("front", "2h"), *(("middle", c) for c in ["9s", "9h", "5c", "5d", "7s"])]
STREETS += [("back", "Kd"), ("back", "Kh")]
STAY = "7s 7d 7h 8s 8d 8h 2s 2d As Ad Ac Kd Kh"


def _c(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def _hint(state: TableState, seat: int) -> Hint:
    seen = view(state, seat)
    bot = make_bot("strong", state.rules, seed=1)
    action = bot.choose(seen, legal_actions(seen), 0.05)
    found = explain(state.rules, seen, action, bot)
    taken, _ = apply(state, action_from_json({**found.action, "seat": seat, "at": state.clock}))
    assert taken.state_id == state.state_id + 1  # the table takes the hinted action as sent
    return found


def _entry_hand(rules: Rules) -> TableState:
    t = deal(table_with(rules, ["ann", "bob"]), stacked(rules, [ENTRY]))
    t, _ = run(t, Place(seat=1, front=_c("Qs Qd"), back=_c("As Ad Ac")))
    t, _ = run(t, auto_action(t, 0))
    for row, card in STREETS:
        t, _ = run(t, Place(seat=1, **{row: _c(card)}))  # type: ignore[arg-type]
        t, _ = run(t, auto_action(t, 0))
    return t


def test_a_fantasyland_hint_names_the_rows_and_the_royalties() -> None:
    rules = get_rules("ofc")
    t = _entry_hand(rules)
    assert t.seats[1] is not None
    assert t.seats[1].fantasyland == 13
    t = deal(t, stacked(rules, [STAY]), at=t.next_deal_at or 0)
    found = _hint(t, 1)
    assert found.action["type"] == "set_hand"
    assert found.ev is None
    assert found.text.startswith("Back: ")
    assert ", Middle: " in found.text
    assert ", Front: Three " in found.text  # trips in front: the stay rule
    assert found.text.endswith(" in royalties, and you stay in fantasyland.")
    rows = [found.action[r] for r in ("front", "middle", "back")]
    assert sorted(c for r in rows for c in parse_cards(r)) == sorted(parse_cards(STAY))


def test_a_street_hint_and_a_setting_hint_carry_the_bots_expected_value() -> None:
    rules = get_rules("ofc")
    t = deal(table_with(rules, ["ann", "bob"]), stacked(rules, [ENTRY]))
    found = _hint(t, 1)
    assert found.action["type"] == "place"
    assert "discard" not in found.action
    assert found.ev is not None
    assert f" — expected {found.ev:+.1f} points a hand (fouls " in found.text
    assert found.text.endswith("%).")
    assert ", fantasyland " in found.text
    # the same risks as separate figures, with the other sampled plays beside the hint
    assert isinstance(found.foul_rate, float)
    assert isinstance(found.fantasyland_rate, float)
    assert (
        f"(fouls {percent(found.foul_rate)}, fantasyland {percent(found.fantasyland_rate)})"
        in found.text
    )
    assert found.gamble is None
    assert 2 <= len(found.options) <= 5
    first = found.options[0]
    assert first.placement == {
        "front": found.action.get("front", ""),
        "middle": found.action.get("middle", ""),
        "back": found.action.get("back", ""),
        "discard": "",
    }
    assert (first.ev, first.foul_rate, first.fantasyland_rate) == (
        found.ev,
        found.foul_rate,
        found.fantasyland_rate,
    )
    assert all(o.deals > 0 and 0 <= o.foul_rate <= 1 for o in found.options)
    assert len({tuple(o.placement.values()) for o in found.options}) == len(found.options)
    chinese = get_rules("chinese-1-6")
    t = deal(table_with(chinese, ["ann", "bob", "cat"]), stacked(chinese, [ENTRY]))
    setting = _hint(t, 1)
    assert setting.action["type"] == "set_hand"
    assert setting.ev is not None
    assert setting.text.startswith("Back: Aces full of Fives, Middle: Two pair, Queens and Nines")
    choice = best_setting(parse_cards(ENTRY), chinese)  # per opponent; two opponents here
    assert setting.ev == choice.play_ev * 2
    assert (setting.foul_rate, setting.fantasyland_rate, setting.gamble) == (None, None, None)
    assert setting.options == ()
    assert isinstance(action_from_json({**setting.action, "seat": 1}), SetHand)


def test_a_street_hint_warns_of_a_gamble_in_the_words_of_solve_ofc() -> None:
    rules = get_rules("ofc-pineapple")
    t = deal(table_with(rules, ["ann", "bob"]), stacked(rules, [ENTRY]))
    seen = view(t, 1)
    bot = make_bot("strong", rules, seed=1)
    assert isinstance(bot, MonteCarloOFCBot)
    action = bot.choose(seen, legal_actions(seen), 0.05)
    assert bot.last_analysis is not None
    assert explain(rules, seen, action, bot).text.count("A gamble") == 0  # a first street
    best = replace(bot.last_analysis.best, foul_rate=0.6, fantasyland_rate=0.4)
    safer = replace(bot.last_analysis.best, foul_rate=0.1, fantasyland_rate=0.0, ev=best.ev - 3)
    bot.last_analysis = replace(bot.last_analysis, options=(best, safer))
    found = explain(rules, seen, action, bot)
    text = found.text
    assert "(fouls 60%, fantasyland 40%). " in text
    assert text.endswith(f". {gamble_text(bot.last_analysis)}")
    assert (found.foul_rate, found.fantasyland_rate) == (0.6, 0.4)
    assert found.gamble == gamble_text(bot.last_analysis)
    assert found.gamble is not None
    assert found.gamble.startswith("A gamble: this play fouls 60% of the time; it is first ")
    assert "because it reaches fantasyland 40%" in found.gamble
    assert [(o.foul_rate, o.fantasyland_rate) for o in found.options] == [(0.6, 0.4), (0.1, 0.0)]
