"""The gamble warning (``thirteen.bots.advice``): when the top option of a street is one, which
play is the safer one, and what the sentence says."""

from __future__ import annotations

import math

import numpy as np

from thirteen.bots.advice import (
    GAMBLE_FOUL,
    GAMBLE_MARGIN,
    MIN_DEALS,
    find_gamble,
    gamble_text,
    placement_text,
    safer_play,
)
from thirteen.bots.ofc_mc import Analysis, Option
from thirteen.engine.cards import parse_cards

Q, SEVEN, TWO, KING = parse_cards("Qd 7c 2s Kh")


def option(
    card: int,
    ev: float,
    foul: float,
    fantasyland: float = 0.0,
    *,
    deals: int = 1000,
    behind: float = math.nan,
) -> Option:
    """An option placing ``card`` in front with the given sampled figures."""
    return Option(
        ((card,), (), (), ()),
        ev,
        0.1,
        deals,
        0.0,
        foul,
        behind,
        0.2,
        fantasyland,
        fantasyland * 16.1,
    )


def analysis(*options: Option, aversion: float = 0.0) -> Analysis:
    return Analysis(options, 1000, 1.0, np.zeros((0, 1), dtype=np.int64), aversion=aversion)


def test_the_readme_kind_of_play_is_a_gamble_for_its_fantasyland() -> None:
    best = option(Q, 8.1, 0.60, 0.40, behind=0.0)
    close = option(SEVEN, 4.9, 0.67, 0.33, behind=3.3)
    safe = option(TWO, 3.9, 0.19, 0.10, behind=4.83)
    junk = option(KING, 0.1, 0.10, 0.0, behind=9.2)
    result = analysis(best, close, safe, junk)
    assert safer_play(result.options) is safe  # within 10 points of the least, ranked higher
    found = find_gamble(result)
    assert found is not None
    assert (found.best, found.safer, found.gap) == (best, safe, 4.83)  # paired: ranked by EV
    assert found.text == (
        "A gamble: this play fouls 60% of the time; it is first because it reaches fantasyland "
        "40% of the time (worth about +6.4 points of its EV). The safer play, front 2s, fouls "
        "19% and reaches fantasyland 10%; its EV is 4.8 points lower."
    )
    assert gamble_text(result) == found.text


def test_a_play_that_fouls_less_than_the_thresholds_is_no_gamble() -> None:
    safe = option(TWO, 3.0, 0.05)
    just_under = option(Q, 5.0, GAMBLE_FOUL - 0.01, 0.3)
    assert gamble_text(analysis(just_under, safe)) is None
    close_to_safe = option(Q, 5.0, 0.30, 0.3)
    near = option(TWO, 3.0, 0.30 - GAMBLE_MARGIN + 0.01)
    assert gamble_text(analysis(close_to_safe, near)) is None
    assert gamble_text(analysis(close_to_safe, option(TWO, 3.0, 0.30 - GAMBLE_MARGIN))) is not None


def test_the_safer_play_needs_enough_deals_and_otherwise_there_is_no_verdict() -> None:
    best = option(Q, 8.0, 0.6, 0.4)
    rough = option(TWO, 2.0, 0.0, deals=MIN_DEALS - 1)  # too few deals to trust its 0 %
    steady = option(SEVEN, 3.0, 0.2)
    assert safer_play(analysis(best, rough, steady).options) is steady
    assert gamble_text(analysis(best, rough)) is None
    assert gamble_text(analysis(best)) is None


def test_a_gamble_for_points_says_so_and_an_averse_ranking_compares_evs() -> None:
    best = option(Q, 6.0, 0.5, 0.1)  # no more fantasyland than the safer play: royalties
    safe = option(TWO, 4.5, 0.1, 0.1, behind=9.9)
    text = gamble_text(analysis(best, safe, aversion=10.0))
    assert text is not None
    assert "it is first on its points (what it scores when it holds outweighs the fouls)" in text
    assert text.endswith("its EV is 1.5 points lower.")  # EV difference, not the ranking's gap


def test_placements_are_written_row_by_row() -> None:
    assert placement_text(((Q,), (), (SEVEN,), (TWO,))) == "front Qd, back 7c, discard 2s"
