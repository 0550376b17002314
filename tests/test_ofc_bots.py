"""The OFC players and the bot registry: legal play on every preset, views only, exact scoring."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import cast

import numpy as np
import pytest

from table_helpers import SALTS
from thirteen.bots import _ofc_rollouts as ofc_rollouts
from thirteen.bots import _ofc_streets as ofc_streets
from thirteen.bots import _ofc_values as ofc_values
from thirteen.bots._ofc_model import (
    Model,
    Opponent,
    Situation,
    board_arrays,
    fantasyland_worth,
    later_streets,
    live_counts,
    model_for,
    situation_from_view,
)
from thirteen.bots.arena import play, play_hand, seated_table, seeded_deal
from thirteen.bots.base import RandomBot, observer_of
from thirteen.bots.fantasyland import solve_fantasyland
from thirteen.bots.ofc_heuristic import HeuristicOFCBot
from thirteen.bots.ofc_mc import (
    CAREFUL_BELOW,
    DEADLINE_PIECES,
    MEMORY_BOARDS,
    PRIOR_BOARDS,
    PRIOR_FOUL_RATE,
    SEPARATION_Z,
    MonteCarloOFCBot,
    OpponentRead,
    Option,
    _completing,
    _opponent_arrays,
    analyze,
    careful_settings,
    reference_field,
    rollout_steps,
)
from thirteen.bots.registry import LEVELS, Capped, SafeSetterBot, make_bot
from thirteen.engine.actions import Action, DeclareNatural, Place, SetHand, StartHand
from thirteen.engine.cards import DECK, Card, parse_cards
from thirteen.engine.deck import Deal
from thirteen.engine.errors import RuleError
from thirteen.engine.legal import Legal, Placement, legal_actions
from thirteen.engine.rules import PRESETS, Rules, get_rules
from thirteen.engine.scoring import SetHand as Showing
from thirteen.engine.scoring import evaluate_player, is_foul, row_strengths, score
from thirteen.engine.state import Phase, TableState, deciders
from thirteen.engine.table import apply
from thirteen.engine.views import TableView, view

OFC = [name for name, r in PRESETS.items() if r.is_ofc]
CHINESE = [name for name, r in PRESETS.items() if not r.is_ofc]


# ----------------------------------------------------------------------------- helpers
def seated(rules: Rules, players: int, fantasyland: dict[int, int] | None = None) -> TableState:
    return seated_table(rules, players, fantasyland=fantasyland)


def next_seat(state: TableState) -> int:
    due = deciders(state)
    return min(due, key=lambda s: (due[s] or 0.0, s))


def play_until(
    state: TableState, bots: Sequence[HeuristicOFCBot], stop: int, decisions: int
) -> tuple[TableState, list[Action]]:
    """Play ``decisions`` decisions (or until ``stop`` must act after that many), recording them."""
    actions: list[Action] = []
    clock = 0.0
    while state.phase == Phase.PLAYING:
        seat = next_seat(state)
        if seat == stop and len(actions) >= decisions:
            break
        seat_view = view(state, seat)
        action = bots[seat].choose(seat_view, legal_actions(seat_view), 0.0)
        clock += 1.0
        action = dataclasses.replace(action, at=clock)
        actions.append(action)
        state, _ = apply(state, action)
    return state, actions


def without_commitment(table_view: TableView) -> TableView:
    """A view with the deck commitment blanked: the one field that names the hidden deck."""
    assert table_view.hand is not None
    return dataclasses.replace(table_view, hand=dataclasses.replace(table_view.hand, commitment=""))


def visible_cards(table_view: TableView) -> set[Card]:
    hand = table_view.hand
    assert hand is not None
    assert hand.me is not None
    me = hand.me
    seen = set(me.cards) | set(me.discards) | set(me.front + me.middle + me.back)
    for b in hand.boards:
        seen |= set(b.front + b.middle + b.back)
    return seen


# ----------------------------------------------------------------------------- scoring kernels
@pytest.mark.parametrize("name", OFC)
def test_kernel_scoring_matches_the_engine(name: str) -> None:
    rules = get_rules(name)
    model = model_for(rules)
    rng = random.Random(7)
    me = np.zeros(ofc_rollouts.RES_SIZE)
    other = np.zeros(ofc_rollouts.RES_SIZE)
    for _ in range(300):
        deck = list(DECK)
        rng.shuffle(deck)
        boards = [deck[:13], deck[13:26]]
        hands = [Showing.of(b[:3], b[3:8], b[8:]) for b in boards]
        for board, out in zip(boards, (me, other), strict=True):
            slots, _ = board_arrays((tuple(board[:3]), tuple(board[3:8]), tuple(board[8:])))
            ofc_rollouts.board_result(slots, model.it, model.rt, model.p, out)
        result = score(rules, hands)
        for i, out in enumerate((me, other)):
            player = evaluate_player(rules, hands[i])
            assert bool(out[ofc_rollouts.RES_FOUL]) == player.foul
            assert player.strengths is not None
            assert (
                tuple(int(x) for x in out[ofc_rollouts.RES_F : ofc_rollouts.RES_B + 1])
                == player.strengths
            )
            assert out[ofc_rollouts.RES_RF : ofc_rollouts.RES_RB + 1].tolist() == list(
                player.royalty_rows
            )
            assert out[ofc_rollouts.RES_FAN] == player.fan
            worth = (
                0.0
                if player.fantasyland_cards is None
                else fantasyland_worth(rules, player.fantasyland_cards)
            )
            assert out[ofc_rollouts.RES_FL] == pytest.approx(worth)
        assert ofc_rollouts.pair_points(me, other, model.p) == result.matrix[0][1]
        assert ofc_rollouts.pair_points(other, me, model.p) == result.matrix[1][0]


def test_made_strength_is_a_lower_bound_of_the_finished_row() -> None:
    model = model_for(get_rules("ofc-pineapple"))
    rng = random.Random(3)
    for _ in range(400):
        deck = list(DECK)
        rng.shuffle(deck)
        full = (tuple(deck[:3]), tuple(deck[3:8]), tuple(deck[8:13]))
        kept = tuple(row[: rng.randint(0, len(row))] for row in full)
        part, counts = board_arrays(kept)
        done, _ = board_arrays(full)
        for row in range(3):
            made = ofc_values.made_strength(part, counts, row, model.it)
            assert made <= ofc_values.row_strength(done, row, model.it)


# ----------------------------------------------------------------------------- views only
def hidden_swap(state: TableState, actions: list[Action], viewer: int) -> Deal:
    """A deal that differs from ``state``'s only in cards ``viewer`` cannot see (reversed)."""
    hand = state.hand
    assert hand is not None
    shown = set(visible_cards(view(state, viewer)))
    order = list(hand.deal.order)
    hidden = [i for i, card in enumerate(order) if card not in shown]
    cards = [order[i] for i in hidden]
    for i, card in zip(hidden, reversed(cards), strict=True):
        order[i] = card
    return Deal.from_order(order, SALTS)


def replay(
    rules: Rules, players: int, deal: Deal, actions: list[Action], mapping: dict[int, int]
) -> TableState:
    state = seated(rules, players)
    state, _ = apply(state, StartHand(deal=deal, at=0.0))
    for action in actions:
        if isinstance(action, Place):
            action = dataclasses.replace(action, discard=tuple(mapping[c] for c in action.discard))
        state, _ = apply(state, action)
    return state


@pytest.mark.parametrize(
    ("name", "decisions"), [("ofc-pineapple", 4), ("ofc", 7), ("open-face-cards", 5)]
)
def test_states_differing_in_hidden_cards_give_equal_views_and_equal_choices(
    name: str, decisions: int
) -> None:
    rules = get_rules(name)
    players = 3
    rng = random.Random(11)
    first = Deal.from_order(seeded_deal(rng).order, SALTS)
    table = seated(rules, players)
    table, _ = apply(table, StartHand(deal=first, at=0.0))
    heuristics = [HeuristicOFCBot(rules) for _ in range(players)]
    # Play past the first street so opponents hold hidden pending cards and discards.
    a, actions = play_until(table, heuristics, stop=1, decisions=decisions)
    viewer = next_seat(a)
    other = hidden_swap(a, actions, viewer)
    mapping = dict(zip(first.order, other.order, strict=True))
    b = replay(rules, players, other, actions, mapping)
    assert a.hand is not None
    assert b.hand is not None
    assert a.hand.deal.order != b.hand.deal.order
    assert (
        any(x.discards != y.discards for x, y in zip(a.hand.boards, b.hand.boards, strict=True))
        or not rules.discards_per_street
    )
    view_a, view_b = view(a, viewer), view(b, viewer)
    assert without_commitment(view_a) == without_commitment(view_b)
    legal = legal_actions(view_a)
    for make in (
        lambda: HeuristicOFCBot(rules),
        lambda: MonteCarloOFCBot(rules, seed=5),
        lambda: RandomBot(random.Random(5)),
    ):
        assert make().choose(view_a, legal, 0.003) == make().choose(view_b, legal, 0.003)


def test_monte_carlo_samples_only_unseen_cards() -> None:
    rules = get_rules("ofc-pineapple")
    table = seated(rules, 3, fantasyland={2: 14})
    table, _ = apply(table, StartHand(deal=seeded_deal(random.Random(4)), at=0.0))
    heuristics = [HeuristicOFCBot(rules) for _ in range(3)]
    state, _ = play_until(table, heuristics, stop=0, decisions=4)
    seat = next_seat(state)
    seat_view = view(state, seat)
    situation = situation_from_view(seat_view, rules)
    shown = visible_cards(seat_view)
    assert set(situation.unseen) == set(DECK) - shown
    kinds = sorted(o.kind for o in situation.opponents)
    assert kinds == [ofc_rollouts.OPP_STREETS, ofc_rollouts.OPP_FANTASYLAND]
    bot = MonteCarloOFCBot(rules, seed=2)
    bot.choose(seat_view, legal_actions(seat_view), 0.01)
    analysis = bot.last_analysis
    assert analysis is not None
    assert analysis.drawn.size
    assert analysis.drawn.shape[1] == situation.need
    for row in analysis.drawn:
        assert len(set(row.tolist())) == len(row)  # without replacement
        assert not set(row.tolist()) & shown
        assert set(row.tolist()) <= set(situation.unseen)


# ----------------------------------------------------------------------------- legal play
@pytest.mark.parametrize("name", OFC)
def test_every_ofc_bot_plays_legal_hands(name: str) -> None:
    rules = get_rules(name)
    players = min(3, rules.max_players)
    bots = [make_bot(level, rules, seed=i) for i, level in enumerate(LEVELS)][:players]
    result = play(rules, bots, 3, seed=9, budget=0.002, duplicate=True)
    assert sum(b.points for b in result.bots) == 0
    assert all(b.hands == 3 * players for b in result.bots)


@pytest.mark.parametrize("name", [n for n in OFC if get_rules(n).fantasyland])
def test_bots_set_fantasyland_hands(name: str) -> None:
    rules = get_rules(name)
    sizes = sorted({c for _, c in rules.fantasyland_entry})
    for level in LEVELS:
        table = seated(rules, 2, fantasyland={0: sizes[-1]})
        table, _ = apply(table, StartHand(deal=seeded_deal(random.Random(3)), at=0.0))
        bot = make_bot(level, rules, seed=1)
        seat_view = view(table, 0)
        legal = legal_actions(seat_view)
        assert legal.mode == "set"
        assert len(legal.cards) == sizes[-1]
        action = bot.choose(seat_view, legal, 0.002)
        assert isinstance(action, SetHand)
        table, _ = apply(table, action)  # accepted: a legal setting
        if level != "random":
            best = solve_fantasyland(legal.cards, rules)
            assert (action.front, action.middle, action.back) == (
                best.front,
                best.middle,
                best.back,
            )


@pytest.mark.parametrize("name", CHINESE)
def test_chinese_poker_bots_play_legal_hands(name: str) -> None:
    rules = get_rules(name)
    bots = [make_bot("random", rules, seed=1), make_bot("heuristic", rules)]
    result = play(rules, bots, 5, seed=2, duplicate=True)
    assert result.bots[1].fouls == 0  # the safe setting never fouls
    assert isinstance(bots[1], SafeSetterBot)


def test_chinese_poker_strong_bot_plays_the_setter() -> None:
    rules = get_rules("chinese-1-6")
    result = play(rules, [make_bot("strong", rules), make_bot("heuristic", rules)], 4, seed=3)
    assert result.bots[0].fouls == 0


def test_strong_setter_plays_its_best_setting_when_a_natural_cannot_be_declared() -> None:
    from thirteen.bots.setter import best_setting

    rules = get_rules("chinese-1-6")
    cards = parse_cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")  # a dragon
    choice = best_setting(cards, rules)
    assert choice.natural == "dragon"
    bot = make_bot("strong", rules)
    rows: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())
    base = Legal(0, "set", tuple(cards), rows, (3, 5, 5), 0, ("dragon",), False)
    table_view = cast(TableView, None)  # the setter needs only ``legal``
    assert bot.choose(table_view, base, 0.01) == DeclareNatural(seat=0, natural="dragon")
    refused = replace(base, naturals=())
    action = bot.choose(table_view, refused, 0.01)
    assert isinstance(action, SetHand)
    best = choice.setting
    assert (action.front, action.middle, action.back) == (best.front, best.middle, best.back)
    assert not is_foul(rules, *row_strengths(rules, action.front, action.middle, action.back))


def test_unknown_bot_names_the_levels() -> None:
    with pytest.raises(RuleError) as info:
        make_bot("genius", get_rules("ofc"))
    assert info.value.code == "unknown_bot"
    for level in LEVELS:
        assert level in str(info.value)


def test_ofc_players_refuse_chinese_rules() -> None:
    with pytest.raises(RuleError):
        HeuristicOFCBot(get_rules("chinese-1-6"))
    with pytest.raises(RuleError):
        MonteCarloOFCBot(get_rules("chinese-1-6"))


# ----------------------------------------------------------------------------- duels
def test_seeded_duels_repeat_exactly() -> None:
    rules = get_rules("ofc-pineapple")

    def once() -> list[list[int]]:
        bots = [make_bot("strong", rules, seed=1), make_bot("random", rules, seed=2)]
        result = play(rules, bots, 3, seed=5, budget=0.003, duplicate=True)
        return [b.per_hand for b in result.bots]

    assert once() == once()


def test_heuristic_beats_random_in_a_duplicate_duel() -> None:
    rules = get_rules("ofc-pineapple")
    bots = [make_bot("heuristic", rules), make_bot("random", rules, seed=1)]
    deals = 60
    result = play(rules, bots, deals, seed=21, duplicate=True)
    per_deal = result.bots[0].per_hand
    mean = statistics.mean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / deals**0.5
    assert mean - half > 0, (mean, half)
    assert result.bots[0].foul_rate < result.bots[1].foul_rate


class _Watching(HeuristicOFCBot):
    """The heuristic player, keeping every showdown it is shown."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.seen: list[TableView] = []

    def observe(self, view: TableView) -> None:
        self.seen.append(view)


def test_the_arena_shows_each_learning_bot_every_showdown_from_its_seat() -> None:
    rules = get_rules("ofc-pineapple")
    watching = _Watching(rules)
    capped = Capped(_Watching(rules), "capped", 1.0)
    assert observer_of(capped) is capped.bot
    assert observer_of(HeuristicOFCBot(rules)) is None
    result = play(rules, [watching, capped, make_bot("random", rules, seed=3)], 4, seed=9)
    inner = capped.bot
    assert isinstance(inner, _Watching)
    for bot, seat in ((watching, 0), (inner, 1)):
        assert len(bot.seen) == result.deals == 4
        for seen in bot.seen:
            assert seen.viewer == seat
            assert seen.phase == Phase.SHOWDOWN.value
            assert seen.hand is not None
            assert seen.hand.results is not None


def _showdowns(
    rules: Rules, hands: int, bots: Sequence[HeuristicOFCBot | RandomBot]
) -> list[TableView]:
    """Seat 0's views of the showdowns of ``hands`` seeded hands (fantasyland hands included)."""
    state, clock, rng, out = seated_table(rules, len(bots)), 0.0, random.Random(4), []
    for _ in range(hands):
        played = play_hand(state, bots, seeded_deal(rng), clock)
        state, clock = played.state, played.clock
        out.append(view(state, 0))
    return out


def test_the_opponent_read_counts_the_other_boards_that_fouled_outside_fantasyland() -> None:
    rules = get_rules("ofc-pineapple")
    showdowns = _showdowns(rules, 60, [RandomBot(random.Random(1)), HeuristicOFCBot(rules)])
    read = OpponentRead()
    boards = fouls = 0
    for seen in showdowns:
        read.observe(seen)
        hand = seen.hand
        assert hand is not None
        assert hand.results is not None
        (board,) = (b for b in hand.boards if b.seat == 1)
        (result,) = (r for r in hand.results if r.seat == 1)
        if board.fantasyland is None:
            boards += 1
            fouls += result.foul
    assert 0 < boards < len(showdowns)  # the heuristic reached fantasyland: those not counted
    assert read.boards == boards
    assert read.fouls == fouls > 0
    read.observe(_view_after(rules, 3))  # not a showdown: nothing to count
    read.observe(replace(showdowns[0], viewer=None))  # a watcher's showdown: nothing either
    assert read.boards == boards
    expected = (fouls + PRIOR_FOUL_RATE * PRIOR_BOARDS) / (boards + PRIOR_BOARDS)
    assert read.foul_rate == pytest.approx(expected)
    assert read.careful == (expected < CAREFUL_BELOW)


def test_the_opponent_read_forgets_old_boards_once_it_holds_its_memory() -> None:
    rules = get_rules("ofc-pineapple")
    showdown = next(
        v
        for v in _showdowns(rules, 20, [RandomBot(random.Random(1)), HeuristicOFCBot(rules)])
        if v.hand is not None and all(b.fantasyland is None for b in v.hand.boards)
    )

    def with_foul(foul: bool) -> TableView:
        assert showdown.hand is not None
        assert showdown.hand.results is not None
        results = tuple(
            replace(r, foul=foul if r.seat == 1 else r.foul) for r in showdown.hand.results
        )
        return replace(showdown, hand=replace(showdown.hand, results=results))

    clean, fouled = with_foul(False), with_foul(True)
    read = OpponentRead()
    for _ in range(5 * int(MEMORY_BOARDS)):
        read.observe(clean)
    assert read.boards == pytest.approx(MEMORY_BOARDS)
    assert read.careful
    turned = next(n for n in itertools.count(1) if (read.observe(fouled), not read.careful)[1])
    # the fouls the faded memory holds after n fouled boards: MEMORY (1 - (1 - 1/MEMORY)^n);
    # careful while those, with the prior's, stay under CAREFUL_BELOW of all it holds
    holds = MEMORY_BOARDS + PRIOR_BOARDS
    need = CAREFUL_BELOW * holds - PRIOR_FOUL_RATE * PRIOR_BOARDS
    expected = math.ceil(math.log(1 - need / MEMORY_BOARDS) / math.log(1 - 1 / MEMORY_BOARDS))
    assert turned == expected < MEMORY_BOARDS / 4  # without fading: 351 boards


@pytest.mark.parametrize("name", ["ofc-pineapple", "ofc-pineapple-progressive", "ofc"])
def test_the_player_plays_careful_settings_only_against_careful_opponents(name: str) -> None:
    rules = get_rules(name)
    bot = MonteCarloOFCBot(rules, seed=1)
    assert bot.playing_model() is bot.model  # before any showdown: the heuristic's foul rate
    bot.read.boards = 3 * int(PRIOR_BOARDS)  # clean boards only
    assert bot.read.careful
    changes = careful_settings(rules)
    assert bool(changes) == (name == "ofc-pineapple")  # measured there, nowhere else
    played = bot.playing_model()
    for setting, value in changes.items():
        assert (
            played.p[ofc_values.P_NAMES.index(setting)]
            == value
            != bot.model.p[ofc_values.P_NAMES.index(setting)]
        )
    assert (played is bot.model) == (not changes)
    assert bot.playing_model() is played  # made once
    bot.adapt = False
    assert bot.playing_model() is bot.model
    bot.adapt = True
    bot.read.fouls = bot.read.boards  # every board fouled: not careful any more
    assert bot.playing_model() is bot.model


# ----------------------------------------------------------------------------- analysis
def _view_after(rules: Rules, decisions: int) -> TableView:
    """The view of the seat to act after the heuristic's first ``decisions`` decisions of a
    seeded heads-up hand."""
    table = seated(rules, 2)
    table, _ = apply(table, StartHand(deal=seeded_deal(random.Random(8)), at=0.0))
    state, _ = play_until(table, [HeuristicOFCBot(rules)] * 2, stop=0, decisions=decisions)
    return view(state, next_seat(state))


def test_analysis_lists_every_legal_placement_once() -> None:
    rules = get_rules("ofc-pineapple")
    seat_view = _view_after(rules, 2)
    legal = legal_actions(seat_view)
    situation = situation_from_view(seat_view, rules)
    result = analyze(model_for(rules), situation, steps=20_000, seed=3)
    placements = [o.placement for o in result.options]
    assert len(set(placements)) == len(placements)
    assert set(placements) == set(legal.placements())
    sampled = [o for o in result.options if o.deals]
    assert sampled[0] == result.best
    survivors = [o for o in sampled if o.deals == result.best.deals]
    aversion = model_for(rules).p[ofc_values.P_AVERSION] * len(situation.opponents)

    def objective(o: Option) -> float:
        return float(o.ev - aversion * o.foul_rate)

    assert objective(result.best) == pytest.approx(max(objective(o) for o in survivors))


def test_reported_evs_are_the_rules_points_whatever_the_foul_aversion() -> None:
    """Foul aversion steers the choice; the EVs shown are points as the rules score them."""
    rules = get_rules("ofc")
    situation = situation_from_view(_view_after(rules, 10), rules)
    model = model_for(rules)
    averse = analyze(model, situation, steps=20_000, seed=3, sample_single=True)
    plain = analyze(
        model.with_params(foul_aversion=0.0), situation, steps=20_000, seed=3, sample_single=True
    )
    assert any(o.foul_rate > 0 for o in averse.options if o.deals)  # fouls are in play here
    by_placement = {o.placement: o for o in plain.options}
    compared = 0
    for option in averse.options:
        if option.deals and by_placement[option.placement].deals == option.deals:
            assert option.ev == pytest.approx(by_placement[option.placement].ev)
            assert option.foul_rate == by_placement[option.placement].foul_rate
            compared += 1
    assert compared >= 2


def test_the_opponents_completing_penalty_changes_only_their_boards() -> None:
    """``rollout_opponent_penalty`` at the heuristic's own penalty is no change; another value
    changes the opponents' completions (the EVs) and not this player's (its fouls, deal by
    deal the same)."""
    rules = get_rules("ofc-pineapple")
    situation = situation_from_view(_view_after(rules, 2), rules)
    assert situation.opponents[0].kind == ofc_rollouts.OPP_STREETS
    model = model_for(rules)
    own = float(model.p[ofc_values.P_FOUL_PEN])

    def options(penalty: float) -> dict[Placement, Option]:
        changed = model.with_params(rollout_opponent_penalty=penalty)
        result = analyze(changed, situation, steps=20_000, seed=3)
        return {o.placement: o for o in result.options if o.deals}

    plain = options(0.0)
    assert options(own) == plain
    careful = options(own * 10)
    same_deals = [p for p, o in careful.items() if p in plain and plain[p].deals == o.deals]
    assert len(same_deals) >= 2
    assert all(careful[p].foul_rate == plain[p].foul_rate for p in same_deals)
    assert any(careful[p].ev != pytest.approx(plain[p].ev) for p in same_deals)


def test_fantasyland_scale_scales_its_worth_and_not_its_chance() -> None:
    rules = get_rules("ofc-pineapple")
    situation = _first_street(rules, "Qs Qd 7c 8h 9h")
    model = model_for(rules)
    field = reference_field(rules)

    def options(scale: float) -> dict[Placement, Option]:
        changed = model.with_params(fantasyland_scale=scale)
        # two candidates: one halving round, so every option is sampled on the same deals
        result = analyze(changed, situation, steps=50_000, seed=3, field=field, keep=2)
        return {o.placement: o for o in result.options if o.deals}

    plain, half = options(1.0), options(0.5)
    assert plain.keys() == half.keys()
    assert any(o.fantasyland_rate > 0 for o in plain.values())
    for placement, a in plain.items():
        b = half[placement]
        assert b.deals == a.deals
        assert b.fantasyland_rate == a.fantasyland_rate
        assert b.fantasyland_ev == pytest.approx(a.fantasyland_ev / 2)
        assert b.ev == pytest.approx(a.ev - a.fantasyland_ev / 2)


def test_late_aversion_charges_the_fouls_of_the_last_street_but_one() -> None:
    """``late_aversion`` replaces the foul aversion when at most one street is left to come,
    and only then (docs/duels.md, "Late gambles")."""
    rules = get_rules("ofc-pineapple")
    model = model_for(rules).with_params(late_aversion=25.0)
    assert model_for(rules).p[ofc_values.P_LATE_AV] == 30.0  # today's
    field = reference_field(rules)
    early = _first_street(rules, "Qs Qd 7c 8h 9h")
    assert analyze(model, early, steps=20_000, seed=3, field=field).aversion == pytest.approx(
        float(model.p[ofc_values.P_AVERSION])
    )
    late = _field_street("3s Kd 5h", ("Ah 2d", "7s 7d 9c Jh", "Ks Qs 4s"), 1, (3,), (1,))
    result = analyze(model, late, steps=20_000, seed=3, field=field)
    assert result.aversion == pytest.approx(25.0)
    throughout = model.with_params(late_aversion=0.0)
    plain = analyze(throughout, late, steps=20_000, seed=3, field=field)
    assert plain.aversion == pytest.approx(float(model.p[ofc_values.P_AVERSION]))


def test_lookahead_aversion_charges_the_fouls_of_the_decisions_that_look_ahead() -> None:
    """``lookahead_aversion`` replaces the foul aversion when this player's rollouts place
    their last two streets together, and only then; at 0 the foul aversion stays."""
    rules = get_rules("ofc-pineapple")
    model = model_for(rules).with_params(rollout_lookahead=4.0, lookahead_aversion=22.0)
    assert model_for(rules).p[ofc_values.P_LOOK_AV] == 0.0  # today's
    field = reference_field(rules)
    first = _first_street(rules, "Qs Qd 7c 8h 9h")
    assert analyze(model, first, steps=20_000, seed=3, field=field).aversion == 22.0
    unlooking = model.with_params(rollout_lookahead=0.0)
    assert analyze(unlooking, first, steps=20_000, seed=3, field=field).aversion == float(
        model.p[ofc_values.P_AVERSION]
    )
    sizes, discards = later_streets(rules, 2)
    second = _field_street("3s Kd 5h", ("Ah", "7s 7d", "Ks Qs"), 1, sizes, discards)
    assert analyze(model, second, steps=20_000, seed=3, field=field).aversion == float(
        model.p[ofc_values.P_AVERSION]
    )
    plain = model.with_params(lookahead_aversion=0.0)
    assert analyze(plain, first, steps=20_000, seed=3, field=field).aversion == float(
        model.p[ofc_values.P_AVERSION]
    )


def _random_board(
    rng: random.Random, placed: tuple[int, int, int]
) -> tuple[list[Card], ofc_values.I64, ofc_values.I64]:
    """A shuffled deck and a board holding its first cards, ``placed`` of them in each row."""
    deck = list(DECK)
    rng.shuffle(deck)
    at = 0
    rows: list[tuple[Card, ...]] = []
    for count in placed:
        rows.append(tuple(deck[at : at + count]))
        at += count
    slots, counts = board_arrays((rows[0], rows[1], rows[2]))
    return deck[at:], slots, counts


def test_the_last_two_streets_placed_together_make_the_best_finished_board() -> None:
    """``play_last_two`` keeps two cards of each street and leaves the finished board that
    ``final_value`` likes best, checked against every way to play both streets."""
    rules = get_rules("ofc-pineapple")
    model = model_for(rules)
    rng = random.Random(5)
    shapes = [(2, 3, 4), (3, 2, 4), (1, 4, 4), (3, 4, 2), (2, 4, 3)]
    for trial in range(40):
        rest, slots, counts = _random_board(rng, shapes[trial % len(shapes)])
        first, second = np.array(rest[:3], dtype=np.int64), np.array(rest[3:6], dtype=np.int64)
        best = -math.inf
        free = [3 - int(counts[0]), 5 - int(counts[1]), 5 - int(counts[2])]
        for placed in itertools.permutations(range(6), 4):
            kept = [int(rest[i]) for i in placed]
            if sum(1 for i in placed if i < 3) != 2:
                continue  # two of each street
            rows = slots.copy()
            cnt = counts.copy()
            targets = [r for r in range(3) for _ in range(free[r])]
            for card, row in zip(kept, targets, strict=True):
                rows[(0, 3, 8)[row] + cnt[row]] = card
                cnt[row] += 1
            best = max(best, ofc_values.final_value(rows, model.it, model.rt, model.p))
        rows, cnt = slots.copy(), counts.copy()
        ofc_streets.play_last_two(rows, cnt, first, 1, second, 1, model.it, model.rt, model.p)
        assert cnt.tolist() == [3, 5, 5]
        new = set(rows.tolist()) - set(slots.tolist())
        assert len(new & set(first.tolist())) == 2
        assert len(new & set(second.tolist())) == 2
        assert ofc_values.final_value(rows, model.it, model.rt, model.p) == best


@pytest.mark.parametrize("name", ["ofc-pineapple", "ofc", "open-face-cards"])
def test_a_rollout_with_lookahead_finishes_no_worse_and_only_when_streets_are_left(
    name: str,
) -> None:
    """With ``rollout_lookahead`` the rollout plays the same streets until the last two and then
    the best pair: never a finished board the heuristic likes less, often a better one; with
    fewer streets left than the setting, it plays street by street."""
    rules = get_rules(name)
    model = model_for(rules).with_params(rollout_lookahead=0.0)
    looking = model.with_params(rollout_lookahead=3.0).p
    rng = random.Random(11)
    sizes_all, discards_all = later_streets(rules, 1)
    better = 0
    for trial in range(60):
        short = trial % 3 == 0
        sizes = np.array(sizes_all[-2:] if short else sizes_all, dtype=np.int64)
        discards = np.array(discards_all[-2:] if short else discards_all, dtype=np.int64)
        placed = 13 - int(sum(sizes) - sum(discards))
        front, middle = placed * 3 // 13, placed * 5 // 13
        deck, slots, counts = _random_board(rng, (front, middle, placed - front - middle))
        deal = np.array(deck, dtype=np.int64)
        live_rank, live_suit = live_counts(deck)
        finished = []
        for p in (model.p, looking):
            rows, cnt = slots.copy(), counts.copy()
            ofc_rollouts.complete(
                rows,
                cnt,
                deal,
                0,
                sizes,
                discards,
                live_rank,
                live_suit,
                float(len(deck)),
                model.it,
                model.rt,
                p,
            )
            assert cnt.tolist() == [3, 5, 5]
            finished.append(ofc_values.final_value(rows, model.it, model.rt, model.p))
        if short and len(sizes_all) > 2:
            assert finished[1] == finished[0]
        else:
            assert finished[1] >= finished[0]
            better += finished[1] > finished[0]
    assert better > 0


def test_only_the_players_own_rollouts_look_ahead() -> None:
    """The opponents' boards and the reference field stay the heuristic's: their completing
    settings never look ahead, and the player's rollouts cost more steps when they do."""
    rules = get_rules("ofc-pineapple")
    model = model_for(rules).with_params(rollout_lookahead=3.0)
    own = _completing(model.p, foul_penalty=16.0, lookahead=float(model.p[ofc_values.P_LOOKAHEAD]))
    theirs = _completing(model.p, foul_penalty=0.0, lookahead=0.0)
    assert own[ofc_values.P_LOOKAHEAD] == 3.0
    assert own[ofc_values.P_FOUL_PEN] == 16.0
    assert theirs[ofc_values.P_LOOKAHEAD] == 0.0
    assert theirs[ofc_values.P_FOUL_PEN] == model.p[ofc_values.P_FOUL_PEN]
    plain = model_for(rules)
    assert _completing(plain.p, foul_penalty=0.0, lookahead=0.0) is plain.p
    # today's: on where fantasyland grows with the front, off elsewhere
    assert plain.p[ofc_values.P_LOOKAHEAD] == 0.0
    assert model_for(get_rules("ofc-pineapple-progressive")).p[ofc_values.P_LOOKAHEAD] == 4.0
    assert model_for(get_rules("open-face-cards")).p[ofc_values.P_LOOKAHEAD] == 0.0
    sizes, discards = later_streets(rules, 1)
    assert rollout_steps(8, sizes, discards, 3.0) > rollout_steps(8, sizes, discards)
    assert rollout_steps(4, sizes[-2:], discards[-2:], 3.0) == rollout_steps(
        4, sizes[-2:], discards[-2:]
    )


def test_the_opponents_boards_never_look_ahead() -> None:
    """With a lookahead only the opponent's rollouts are long enough for (its street still to
    play leaves it one more than this player), the analysis is the one without; given the
    lookahead, the same opponent would have finished other boards on the same deals."""
    rules = get_rules("ofc-pineapple")
    table = seated(rules, 2)
    table, _ = apply(table, StartHand(deal=seeded_deal(random.Random(8)), at=0.0))
    situation = situation_from_view(view(table, next_seat(table)), rules)  # the first to act
    (opponent,) = situation.opponents
    assert opponent.kind == ofc_rollouts.OPP_STREETS
    assert len(opponent.streets) == len(situation.streets) + 1
    model = model_for(rules)
    looking = model.with_params(rollout_lookahead=float(len(opponent.streets)))

    def options(m: Model) -> dict[Placement, Option]:
        return {o.placement: o for o in analyze(m, situation, steps=20_000, seed=3).options}

    assert options(looking) == options(model)
    # the opponent's boards, completed with and without the lookahead on the same deals
    kind, rows, cnt, fl, sizes, discards, streets, offset = _opponent_arrays(situation)
    ranks, suits = live_counts(situation.unseen)
    unseen = np.array(situation.unseen, dtype=np.int64)
    deals = ofc_rollouts.draw_deals(unseen, 400, situation.need)

    def boards(p: ofc_values.F64) -> ofc_values.F64:
        return ofc_rollouts.opponent_results(
            deals, kind, rows, cnt, fl, sizes, discards, streets, offset,
            np.zeros((1, ofc_rollouts.RES_SIZE)), ranks, suits,
            float(len(unseen)), model.it, model.rt, p, 0,
        )  # fmt: skip

    assert not np.array_equal(boards(looking.p), boards(model.p))


def test_reference_field_is_fixed_and_plausible() -> None:
    rules = get_rules("ofc-pineapple")
    field = reference_field(rules, 256, seed=4)
    reference_field.cache_clear()
    again = reference_field(rules, 256, seed=4)
    assert again is not field
    assert np.array_equal(field, again)
    fouls = field[:, ofc_rollouts.RES_FOUL].mean()
    assert 0.0 < fouls < 0.5  # the heuristic player fouls sometimes, not mostly


def test_live_counts_count_ranks_and_suits() -> None:
    ranks, suits = live_counts([0, 1, 2, 51])
    assert ranks[0] == 3
    assert ranks[12] == 1
    assert ranks.sum() == 4
    assert suits.tolist() == [1, 1, 1, 1]


# ----------------------------------------------------------------------------- separation
def _first_street(rules: Rules, text: str) -> Situation:
    """A first street against one opponent of the reference field."""
    sizes, discards = later_streets(rules, 1)
    return _field_street(text, ("", "", ""), 0, sizes, discards)


def _field_street(
    text: str,
    rows: tuple[str, str, str],
    discard: int,
    streets: tuple[int, ...],
    discards: tuple[int, ...],
) -> Situation:
    """A street (its cards, the rows so far) against one opponent of the reference field."""
    cards = tuple(parse_cards(text))
    board = tuple(tuple(parse_cards(row)) for row in rows)
    seen = {c for row in board for c in row} | set(cards)
    return Situation(
        rows=(board[0], board[1], board[2]),
        cards=cards,
        discard=discard,
        unseen=tuple(c for c in DECK if c not in seen),
        streets=streets,
        discards=discards,
        opponents=(Opponent(ofc_rollouts.OPP_FIELD),),
    )


def test_separation_ranks_by_ev_and_samples_the_leader_until_clear_or_capped() -> None:
    rules = get_rules("ofc-pineapple")
    situation = _first_street(rules, "Qs Qd 7c 8h 9h")
    model = model_for(rules).with_params(foul_aversion=0.0)
    field = reference_field(rules)
    steps = 300_000.0
    plain = analyze(model, situation, steps=steps, seed=3, field=field)
    result = analyze(model, situation, steps=steps, seed=3, field=field, separate=4 * steps)
    assert result.aversion == 0.0
    sampled = [o for o in result.options if o.deals]
    evs = [o.ev for o in sampled]
    assert evs == sorted(evs, reverse=True)  # ranked by the EV shown
    assert result.best.behind == 0.0
    for option in sampled[1:]:
        assert option.within_noise == (not option.behind > SEPARATION_Z * option.behind_se)
    assert result.clear == (not result.close)
    if not result.clear:
        assert result.steps >= plain.steps + 4 * steps - 1e-6 * steps  # it used the cap
    assert result.deals > plain.deals
    assert result.best.deals > plain.best.deals


def test_a_passed_deadline_stops_after_the_first_piece() -> None:
    rules = get_rules("ofc-pineapple")
    situation = _first_street(rules, "Ks Kd 7c 8h 2h")
    model = model_for(rules)
    field = reference_field(rules)
    plain = analyze(model, situation, steps=200_000, seed=5, field=field)
    first_round = min(o.deals for o in plain.options if o.deals)
    late = analyze(
        model, situation, steps=200_000, seed=5, field=field, deadline=time.perf_counter() - 1.0
    )
    assert late.deals == -(-first_round // DEADLINE_PIECES)
    assert {o.deals for o in late.options if o.deals} == {late.deals}
