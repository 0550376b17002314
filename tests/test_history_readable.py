"""The text history for people (issue 32): times as ISO 8601 UTC and seats numbered from 1 as the
table shows them — read back exactly (every float time, every seat, the viewer), verified as
before — while texts written in the old form (seats from 0, Unix seconds) are still read and
verified in their own form."""

from __future__ import annotations

import random
import re

import pytest

from test_history import play_hand
from thirteen.engine import history_text
from thirteen.engine.history import HandHistory, history_to_json, redact_history
from thirteen.engine.history_text import history_from_text, history_to_text, readable_text
from thirteen.engine.history_verify import verify_text

ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z"


@pytest.fixture(scope="module", params=[("chinese-1-6", 2), ("ofc-pineapple", 3)])
def chinese(request: pytest.FixtureRequest) -> HandHistory:
    """A hand of each game (named for the Chinese Poker one the other history tests use)."""
    preset, players = request.param
    return play_hand(preset, players, seed=4)[0]


def test_times_are_iso_and_seats_count_from_one(chinese: HandHistory) -> None:
    data = history_to_json(chinese)
    text = history_to_text(data)
    assert readable_text(text)
    head, actions = text.split("\n\n")[:2]
    assert head.splitlines()[0].endswith(", seats from 1")
    for line in actions.splitlines():
        assert re.match(rf"{ISO} (start_hand|seat [1-4] )", line), line
    assert not re.search(r"(?m)^\d{9,}(\.\d+)? ", text)  # no Unix timestamp opens a line
    seats = [i for i, s in enumerate(data["start"]["seats"]) if s is not None]
    for i in seats:
        assert f"\nseat {i + 1}: " in text
    assert "\nseat 0" not in text
    assert "result seat 0" not in text
    assert history_from_text(text) == data
    assert verify_text(text).status == "verified"
    copy_ = redact_history(chinese, 1)
    mine = history_to_text(copy_)
    assert ", viewer 2, seats from 1" in mine.splitlines()[0]
    assert history_from_text(mine) == copy_
    assert verify_text(mine).status == "partial"


def test_the_old_form_is_still_read_and_verified(chinese: HandHistory) -> None:
    data = history_to_json(chinese)
    old = history_to_text(data, readable=False)
    assert not readable_text(old)
    assert re.search(r"(?m)^\d+\.\d+ seat 0 ", old)  # the old form: seconds, seats from 0
    assert history_from_text(old) == data
    assert verify_text(old).status == "verified"
    # the new form of the same history is another text, and each verifies only as itself
    new = history_to_text(data)
    assert new != old
    mixed = new.replace(", seats from 1", "", 1)
    assert verify_text(mixed).status in ("failed", "unreadable")


@pytest.mark.parametrize("seed", range(5))
def test_every_time_reads_back_as_the_very_float(seed: int) -> None:
    rng = random.Random(seed)
    times = [0.0, 0.5, 1.0, 1e-7, 1732712345.123456, 253402300799.99997, 253402300800.0]
    times += [rng.uniform(0, 2e9) for _ in range(2000)]
    times += [rng.uniform(0, 1e3) for _ in range(200)]
    times += [float(rng.randrange(0, 2**31)) for _ in range(200)]
    times += [-1.5, -0.0, 1e17, 5e-324]
    for at in times:
        for readable in (True, False):
            text = history_text._time_text(at, readable)
            back = history_text._parse_time(text)
            assert back == at, (at, text, back)
            assert repr(back) == repr(at), (at, text)
            if readable and 1.0 <= at < 253402300800.0:
                assert re.fullmatch(ISO, text), text


def test_a_seat_zero_or_a_bad_date_in_the_new_form_is_refused(chinese: HandHistory) -> None:
    text = history_to_text(history_to_json(chinese))
    zero = re.sub(r"(?m)^(\S+) seat 1 ", r"\1 seat 0 ", text, count=1)
    assert verify_text(zero).status == "unreadable"
    date = re.sub(r"(?m)^\d{4}-\d\d", "1970-13", text, count=1)
    assert verify_text(date).status == "unreadable"
    viewer = redact_history(chinese, 0)
    mine = history_to_text(viewer).replace(", viewer 1,", ", viewer 0,", 1)
    assert verify_text(mine).status == "unreadable"


def test_the_calendar_is_the_standard_one() -> None:
    """The engine's own date arithmetic (it may not import a clock) against ``datetime``."""
    from datetime import UTC, datetime

    rng = random.Random(7)
    moments = [0, 86399, 86400, 951782400, 4107542400, 253402300799]  # 2000-02-29, 2100-03-01
    moments += [rng.randrange(0, 253402300800) for _ in range(3000)]
    for t in moments:
        want = datetime.fromtimestamp(t, tz=UTC).strftime("%Y-%m-%dT%H:%M:%S")
        assert history_text._time_text(t + 0.5, True) == f"{want}.5Z"
        assert history_text._parse_time(f"{want}Z") == float(t)
    for bad in ("2026-02-29T00:00:00Z", "2025-13-01T00:00:00Z", "2025-01-01T24:00:00Z"):
        with pytest.raises(ValueError, match="no time"):
            history_text._parse_time(bad)
