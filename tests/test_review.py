"""Honest numbers from a hand's review (issue 34): the strong bot's own play loses nothing
within the review's error bar, a fouled setting costs what the scorer charges a foul, a review
never opens a card the player's copy does not, and every preset is reviewed."""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import replace
from typing import Any

import pytest

from review_helpers import decisions_of, play_recorded
from thirteen.bots.arena import seated_table
from thirteen.bots.base import RandomBot
from thirteen.bots.fantasyland import solve_fantasyland
from thirteen.bots.registry import make_bot
from thirteen.bots.setter import best_setting, natural_ev, setting_ev, surrender_ev
from thirteen.engine.actions import Place, SetHand, StartHand
from thirteen.engine.actions import Surrender as SurrenderAction
from thirteen.engine.cards import DECK, Card, parse_cards
from thirteen.engine.deck import Deal
from thirteen.engine.history import HandHistory, finish, redact_history, replay
from thirteen.engine.rules import PRESETS, Rules, get_rules
from thirteen.engine.scoring import DeclaredNatural, Surrender, score
from thirteen.engine.scoring import SetHand as Showing
from thirteen.engine.table import apply
from thirteen.review.figures import HandReview, ReviewSettings
from thirteen.review.hand import review_hand, review_json
from thirteen.review.rebuild import known_cards, read_history
from thirteen.review.summary import summarize, t_quantile

QUICK = ReviewSettings(budget=0.1, seed=3)


def strong_hands(
    rules: Rules, players: int, hands: int, seed: int, **options: Any
) -> list[HandHistory]:
    rng = random.Random(seed)
    out = []
    for number in range(hands):
        bots = [
            make_bot("strong", rules, seed=seed * 100 + number * 10 + s) for s in range(players)
        ]
        history, _ = play_recorded(rules, bots, rng, **options)
        out.append(history)
    return out


# --- the strong bot's own play -----------------------------------------------------------------
@pytest.mark.parametrize("preset", ["chinese-1-6", "chinese-2-4", "chinese-1-4", "chinese-1-3"])
def test_the_setters_own_play_loses_nothing(preset: str) -> None:
    """The strong Chinese Poker bot plays the setter's first choice (naturals and surrenders
    included): its review finds that play the best, exactly, at every seat."""
    rules = get_rules(preset)
    for history in strong_hands(rules, 4, 4, seed=1):
        for seat in range(4):
            review = review_hand(redact_history(history, seat))
            (decision,) = review.decisions
            assert decision.method == "setter"
            assert decision.is_best
            assert decision.loss == 0.0
            assert decision.kind is None
            assert decision.ev_choice == decision.ev_best
            assert decision.opponents == 3


@pytest.mark.parametrize("preset", ["ofc", "ofc-pineapple", "ofc-pineapple-progressive"])
def test_the_solvers_own_fantasyland_setting_loses_nothing(preset: str) -> None:
    rules = get_rules(preset)
    cards = max(c for _, c in rules.fantasyland_entry)
    for history in strong_hands(rules, 2, 2, seed=2, fantasyland={0: cards}, budget=0.02):
        review = review_hand(redact_history(history, 0), settings=QUICK)
        first = review.decisions[0]
        assert (first.decision, first.method) == ("fantasyland", "fantasyland solver")
        assert len(first.cards) == cards
        assert first.is_best
        assert first.loss == 0.0
        solved = solve_fantasyland(first.cards, rules)
        assert first.ev_best == pytest.approx(solved.value)  # one opponent
        assert len(review.decisions) == 1  # the rest of its hand is the table's, not its own


def test_the_strong_players_streets_lose_nothing_within_the_error_bar() -> None:
    """The strong OFC player's streets, played at the room's budget (0.5 s) and reviewed by the
    same player's sampling on other deals, lose no more than three standard errors of the
    review's own sampling — while the heuristic player's streets in the same hands lose far more
    than that (the review sees mistakes). At smaller budgets the strong player's first streets
    are decided on a dozen deals a candidate, and the review finds what that costs."""
    rules = get_rules("ofc-pineapple")
    rng = random.Random(1)
    hands = [
        play_recorded(
            rules,
            [make_bot("strong", rules, seed=n), make_bot("heuristic", rules)],
            rng,
            budget=0.5,
        )[0]
        for n in range(2)
    ]
    figures = []
    for seat in (0, 1):
        streets = [
            d for h in hands for d in review_hand(redact_history(h, seat), settings=QUICK).decisions
        ]
        assert len(streets) == 10
        assert all(d.method in ("monte carlo", "forced") for d in streets)
        loss = sum(d.loss for d in streets)
        error = math.sqrt(sum(d.loss_se**2 for d in streets))
        figures.append((loss, error, sum(d.is_best for d in streets)))
    (strong, strong_error, strong_best), (weak, weak_error, _) = figures
    assert strong <= 3 * strong_error, figures
    assert strong_best >= 5, figures
    assert weak > strong + 3 * math.hypot(strong_error, weak_error), figures


# --- a fouled setting ---------------------------------------------------------------------------
def deal_with(rules: Rules, first: list[Card], players: int, seed: int) -> Deal:
    """A deck whose first dealing position gets ``first``."""
    rest = [c for c in DECK if c not in first]
    random.Random(seed).shuffle(rest)
    return Deal.from_order(first + rest, [bytes(16)] * 52)


def one_setting(rules: Rules, cards: list[Card], rows: tuple[Any, Any, Any]) -> HandHistory:
    """A two-player hand where the first player to act (seat 1) sets ``rows``, and the other
    sets as the setter does."""
    table = seated_table(rules, 2)
    start = replace(table, hand=None)
    deal = StartHand(deal=deal_with(rules, cards, 2, seed=9), at=0.0)
    state, _ = apply(table, deal)
    assert state.hand.boards[0].seat == 1
    other = state.hand.boards[1]
    top = best_setting(other.pending, rules).setting
    actions = (
        deal,
        SetHand(seat=1, front=rows[0], middle=rows[1], back=rows[2], at=1.0),
        SetHand(seat=0, front=top.front, middle=top.middle, back=top.back, at=2.0),
    )
    return HandHistory(start, actions)


@pytest.mark.parametrize("preset", ["chinese-1-6", "chinese-2-4"])
def test_a_fouled_setting_costs_what_the_scorer_charges_a_foul(preset: str) -> None:
    """What a foul costs, precisely: against each opponent the scorer charges a fouled hand
    ``rules.foul_cost`` plus that opponent's royalties when they set (a natural is paid as
    ever; nothing passes with a surrenderer), whatever the fouled hand holds. Against the
    field — the setter's own play of the 39 cards the player does not hold — the review's value
    of the fouled setting is the mean of what the scorer charges, and its loss the mean of what
    the scorer gives the best setting less that charge, each within three standard errors of
    2,000 sampled opponents plus the setter's largest measured EV error (0.12 a hand:
    docs/setter.md, "EV calibration")."""
    rules = get_rules(preset)
    cards = parse_cards("Jd 7h Js 7d 6c As 9c Ah Qh Qs 3s 5d Jc")
    best = best_setting(cards, rules).setting
    fouled = (best.back[:3], best.back[3:] + best.middle[:3], best.middle[3:] + best.front)
    review = review_hand(redact_history(one_setting(rules, cards, fouled), 1))
    (decision,) = review.decisions
    assert decision.kind == "foul"
    assert decision.ev_choice == pytest.approx(setting_ev(rules, *fouled))
    assert decision.loss == pytest.approx(best.ev - setting_ev(rules, *fouled))
    rng = random.Random(preset)
    rest = [c for c in DECK if c not in cards]
    charged, gained = [], []
    for _ in range(2000):
        opponent = rng.sample(rest, 13)
        top = best_setting(opponent, rules)
        if top.surrender:
            shown: Any = Surrender(tuple(opponent))
        elif top.natural is not None:
            shown = DeclaredNatural(top.natural, tuple(opponent))
        else:
            shown = Showing(top.front, top.middle, top.back)
        foul = score(rules, [Showing(*fouled), shown])
        played = score(rules, [Showing(best.front, best.middle, best.back), shown])
        price = (
            0
            if top.surrender
            else -(rules.natural_payout(top.natural) or 0)
            if top.natural is not None
            else -(rules.foul_cost + foul.players[1].royalties)
        )
        assert foul.players[0].foul
        assert foul.totals[0] == price
        charged.append(foul.totals[0])
        gained.append(played.totals[0] - foul.totals[0])
    for value, sample in ((decision.ev_choice, charged), (decision.loss, gained)):
        se = statistics.stdev(sample) / math.sqrt(len(sample))
        assert abs(value - statistics.mean(sample)) <= 3 * se + 0.12, (value, sample[:5])


def test_naturals_and_surrenders_are_valued_as_the_setter_decides() -> None:
    rules = get_rules("chinese-1-6")
    dragon = parse_cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")
    top = best_setting(dragon, rules)
    assert top.natural == "dragon"
    assert top.ev == pytest.approx(natural_ev(rules, "dragon"))
    rng = random.Random(5)
    surrenders = 0
    while not surrenders:
        hand = rng.sample(list(DECK), 13)
        choice = best_setting(hand, rules)
        if choice.surrender:
            surrenders += 1
            assert choice.ev == pytest.approx(surrender_ev(rules))
    s = top.setting
    review = review_hand(redact_history(one_setting(rules, dragon, (s.front, s.middle, s.back)), 1))
    (decision,) = review.decisions
    assert decision.best.action == "natural"
    assert decision.kind == "natural"
    assert decision.loss == pytest.approx(natural_ev(rules, "dragon") - s.ev)


def test_a_surrender_already_shown_is_scored_exactly() -> None:
    """In Chinese Poker a surrender shows at once: an opponent who surrendered before the player
    set is worth the surrender's cost to any setting that does not foul, and nothing to one that
    does (nothing passes between a surrenderer and a fouled hand) — not the setter's average."""
    rules = get_rules("chinese-1-6")
    cards = parse_cards("Jd 7h Js 7d 6c As 9c Ah Qh Qs 3s 5d Jc")
    best = best_setting(cards, rules).setting
    fouled = (best.back[:3], best.back[3:] + best.middle[:3], best.middle[3:] + best.front)
    table = seated_table(rules, 3)
    deal = StartHand(deal=deal_with(rules, cards, 3, seed=2), at=0.0)
    state, _ = apply(table, deal)
    assert [b.seat for b in state.hand.boards] == [1, 2, 0]
    third = best_setting(state.hand.board_of(0).pending, rules).setting
    for rows, charged in (((best.front, best.middle, best.back), 0), (fouled, 1)):
        actions = (
            deal,
            SurrenderAction(seat=2, at=1.0),
            SetHand(seat=1, front=rows[0], middle=rows[1], back=rows[2], at=2.0),
            SetHand(seat=0, front=third.front, middle=third.middle, back=third.back, at=3.0),
        )
        history = HandHistory(replace(table, hand=None), actions)
        (decision,) = review_hand(redact_history(history, 1)).decisions
        assert decision.ev_best == pytest.approx(best.ev + rules.surrender_cost)
        worth = setting_ev(rules, *rows) + (0 if charged else rules.surrender_cost)
        assert decision.ev_choice == pytest.approx(worth)
        assert decision.opponents == 2


# --- what the review may see --------------------------------------------------------------------
def swap_hidden(history: HandHistory, seat: int, rng: random.Random) -> HandHistory:
    """The same hand with two cards the seat's copy does not show swapped in the deck (a
    discard that names one of them follows it): another hand, the same for that seat."""
    shown = known_cards(read_history(redact_history(history, seat)))
    order = list(history.deal.order)
    hidden = [p for p in range(52) if order[p] not in shown]
    a, b = rng.sample(hidden, 2)
    swap = {order[a]: order[b], order[b]: order[a]}
    order[a], order[b] = order[b], order[a]
    deal = Deal.from_order(order, history.deal.salts)
    actions: list[Any] = [StartHand(deal=deal, at=history.actions[0].at)]
    for action in history.actions[1:]:
        if isinstance(action, Place) and action.discard:
            action = replace(action, discard=tuple(swap.get(c, c) for c in action.discard))
        actions.append(action)
    return finish(HandHistory(history.start, tuple(actions)))  # the other hand replays too


@pytest.mark.parametrize(
    ("preset", "players", "surrenders"), [("ofc-pineapple", 3, 0.1), ("chinese-1-6", 3, 0.4)]
)
def test_a_review_never_opens_a_card_the_copy_does_not(
    preset: str, players: int, surrenders: float
) -> None:
    """Cards the player never saw, swapped in the full history, change nothing in the review of
    the player's copy but the commitment; and every card a review names is one the copy
    shows."""
    rules = get_rules(preset)
    rng = random.Random(6)
    bots = [RandomBot(random.Random(i), surrenders) for i in range(players)]
    history, _ = play_recorded(rules, bots, rng)
    for seat in range(players):
        before = review_json(redact_history(history, seat), budget=0.05)
        other = swap_hidden(history, seat, rng)
        after = review_json(redact_history(other, seat), budget=0.05)
        assert before.pop("commitment") != after.pop("commitment")
        assert before == after
        shown = known_cards(read_history(redact_history(history, seat)))
        assert named_cards(before) <= shown


def named_cards(review: dict[str, Any]) -> set[Card]:
    cards: set[Card] = set()
    for d in review["decisions"]:
        texts = [d["cards"], *d["board"].values()]
        for play in (d["choice"], d["best"]):
            texts += [v for k, v in play.items() if k in ("front", "middle", "back", "discard")]
        for text in texts:
            cards.update(parse_cards(text))
    return cards


# --- every preset -------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_is_reviewed(preset: str) -> None:
    """A hand of heuristic players, and in fantasyland presets one from fantasyland: each
    decision of the copy is reviewed once, by its solver, and its loss is never negative; the
    review's JSON reads back as it was written."""
    rules = get_rules(preset)
    rng = random.Random(preset)
    options: list[dict[str, Any]] = [{}]
    if rules.fantasyland:
        options.append({"fantasyland": {1: max(c for _, c in rules.fantasyland_entry)}})
    for option in options:
        bots = [make_bot("heuristic", rules), make_bot("beginner", rules, seed=1)]
        history, _ = play_recorded(rules, bots, rng, **option)
        for seat in (0, 1):
            review = review_hand(redact_history(history, seat), settings=QUICK)
            assert [d.index for d in review.decisions] == decisions_of(history, seat)
            methods = {d.method for d in review.decisions}
            if not rules.is_ofc:
                assert methods == {"setter"}
            elif option and seat == 1:
                assert review.decisions[0].method == "fantasyland solver"
            else:
                assert methods <= {"monte carlo", "forced"}
            assert all(d.loss >= 0 and d.loss_se >= 0 for d in review.decisions)
            data = review.to_json()
            assert HandReview.from_json(data).to_json() == data
            assert review.points == history_points(history, seat)


def history_points(history: HandHistory, seat: int) -> int:
    final = replay(history)
    assert final.hand is not None
    assert final.hand.result is not None
    return final.hand.result.totals[final.hand.index_of(seat)]


def test_a_review_is_the_same_every_time() -> None:
    rules = get_rules("ofc-pineapple")
    rng = random.Random(8)
    history, _ = play_recorded(
        rules, [RandomBot(random.Random(1)), RandomBot(random.Random(2))], rng
    )
    copy = redact_history(history, 0)
    assert review_json(copy, budget=0.05, seed=4) == review_json(copy, budget=0.05, seed=4)
    assert review_json(copy, budget=0.05, seed=4) != review_json(copy, budget=0.05, seed=5)


# --- the summary --------------------------------------------------------------------------------
def test_the_summary_adds_up() -> None:
    rules = get_rules("chinese-1-6")
    rng = random.Random(9)
    reviews = []
    for _ in range(5):
        history, _ = play_recorded(
            rules, [RandomBot(random.Random(rng.random())) for _ in range(2)], rng
        )
        reviews.append(review_hand(redact_history(history, 0)))
    summary = summarize(reviews, worst=3)
    losses = [r.loss for r in reviews]
    assert summary.hands == 5
    assert summary.decisions == 5
    assert summary.loss == pytest.approx(sum(losses))
    half = t_quantile(4) * statistics.stdev(losses) / math.sqrt(5)
    assert summary.interval == pytest.approx(
        (max(0.0, statistics.mean(losses) - half), statistics.mean(losses) + half)
    )
    assert [w.decision.loss for w in summary.worst] == sorted(losses, reverse=True)[:3]
    assert sum(f.loss for f in summary.kinds.values()) == pytest.approx(summary.loss)
    assert sum(f.decisions for f in summary.kinds.values()) == sum(
        not d.is_best for r in reviews for d in r.decisions
    )
    assert t_quantile(1) == 12.706
    assert t_quantile(200) == 1.96
