"""Hand reviews in the room (issue 34): a review is queued, computed off the event loop by the
room's worker processes and stored once; it is of the account's own copy only; another
account's hand is not found; bad input gets a sentence; an account's queue is bounded; reviews
in flight survive a restart (and those of a process that died are taken again); exactly one
process claims a review; and a hand of every preset is reviewed through the API."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest
from services import Postgres, RedisServer, rooms_in_threads, run_with_db, serve_in_thread
from sqlalchemy import select, update

from reviewed_hands import answer, play, seed_hands, wait_done
from thirteen.client import RoomClient
from thirteen.engine.cards import Card, parse_cards
from thirteen.engine.history import redact_history
from thirteen.engine.rules import PRESETS, get_rules
from thirteen.review.hand import review_json
from thirteen.review.rebuild import known_cards, read_history
from thirteen.server.db.models import Hand, HandReviewRow, RoomProcess
from thirteen.server.db.session import Database
from thirteen.server.http.app import create_app
from thirteen.server.reviews import store
from thirteen.server.settings import Settings

BUDGET = 0.01
"""The tests' review budget: a few thousand samples a street."""


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"review_budget": BUDGET, "discover_seconds": 0.2})


def named_cards(review: dict[str, object]) -> set[Card]:
    """Every card a review's JSON names."""
    cards: set[Card] = set()
    for d in review["decisions"]:  # type: ignore[attr-defined]
        texts = [d["cards"], *d["board"].values()]
        for chosen in (d["choice"], d["best"]):
            texts += [v for k, v in chosen.items() if k in ("front", "middle", "back", "discard")]
        for text in texts:
            cards.update(parse_cards(text))
    return cards


def rows(database_url: str) -> list[HandReviewRow]:
    async def read(db: Database) -> list[HandReviewRow]:
        async with db.begin() as s:
            return list((await s.scalars(select(HandReviewRow).order_by(HandReviewRow.id))).all())

    return run_with_db(database_url, read)


def test_a_review_is_queued_computed_once_and_of_the_players_copy_only(
    room: str, settings: Settings
) -> None:
    history = play("ofc-pineapple", seed=4)
    with RoomClient(room) as ann, RoomClient(room) as bob, RoomClient(room) as nobody:
        ann.sign_up("ann", "password of A-N-N")
        bob.sign_up("bob", "password of B-O-B")
        [hand] = seed_hands(settings.database_url, "ann", [history])
        [bobs] = seed_hands(settings.database_url, "bob", [history], seat=1)

        assert ann.request("GET", f"/api/hands/{hand}/review")["status"] == "none"
        status, queued = answer(ann, "POST", f"/api/hands/{hand}/review")
        assert status == 202, queued
        assert queued["status"] in ("pending", "running")
        assert queued["settings"] == {"budget": BUDGET, "seed": settings.review_seed}
        done = wait_done(ann, hand)
        assert done["status"] == "done", done
        review = done["review"]
        assert done["done"] == done["total"] == len(review["decisions"]) > 1

        # the review of ann's own copy, as the engine makes it: no card her copy does not open
        copy = redact_history(history, 0)
        assert review == review_json(copy, budget=BUDGET, seed=settings.review_seed)
        assert named_cards(review) <= known_cards(read_history(copy))

        # asked again: the stored one, not computed again
        status, again = answer(ann, "POST", f"/api/hands/{hand}/review")
        assert status == 200
        assert again == done
        [row] = [r for r in rows(settings.database_url) if r.hand_id == hand]
        assert (row.attempts, row.status) == (1, "done")

        # another account's hand, and no account: as the histories answer
        for who, path in ((bob, f"/api/hands/{hand}/review"), (ann, f"/api/hands/{bobs}/review")):
            for method in ("GET", "POST"):
                status, refused = answer(who, method, path)
                assert status == 404, refused
                assert refused["error"]["code"] == "not_found"
                assert refused["error"]["message"].startswith("You did not play hand")
        status, refused = answer(ann, "GET", "/api/hands/999999/review")
        assert (status, refused["error"]["message"]) == (404, "There is no finished hand 999999.")
        assert answer(nobody, "GET", f"/api/hands/{hand}/review")[0] == 401
        csrf, ann.csrf = ann.csrf, ""
        assert answer(ann, "POST", f"/api/hands/{hand}/review")[1]["error"]["code"] == "bad_csrf"
        ann.csrf = csrf

        # bad ids and counts: a sentence, nothing changed
        for method, path, body in (
            ("GET", "/api/hands/0/review", None),
            ("POST", "/api/hands/abc/review", None),
            ("POST", "/api/hands/99999999999/review", None),
            ("POST", "/api/reviews/session", {"hands": 0}),
            ("POST", "/api/reviews/session", {"hands": 101}),
            ("POST", "/api/reviews/session", {"hands": "20"}),
            ("POST", "/api/reviews/session", {"hands": 2.5}),
            ("POST", "/api/reviews/session", {"hands": 5, "more": 1}),
            ("GET", "/api/reviews/session?hands=0", None),
            ("GET", "/api/reviews/session?hands=101", None),
            ("GET", "/api/reviews/session?hands=many", None),
        ):
            status, refused = answer(ann, method, path, body)
            assert status in (400, 422), (path, body, refused)
            message = refused["error"]["message"]
            assert message.endswith("."), (path, body, message)
            assert len(message.split()) >= 3, (path, body, message)
        assert len(rows(settings.database_url)) == 1


def test_the_session_summary_and_each_accounts_bound(room: str, settings: Settings) -> None:
    """Chinese Poker hands (exact, milliseconds each): "Review my session" queues the missing
    reviews, refuses past the account's bound with nothing queued, and sums up what is stored."""
    room_settings = settings
    histories = [play("chinese-1-6", seed=s) for s in range(3)]
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        hands = seed_hands(room_settings.database_url, "ann", histories)
        empty = ann.request("GET", "/api/reviews/session?hands=3")
        assert empty["hands"] == hands  # oldest first
        assert empty["pending"] == hands
        assert empty["reviewed"] == []
        assert empty["series"] == []
        assert empty["summary"]["hands"] == 0

        status, queued = answer(ann, "POST", "/api/reviews/session", {"hands": 2})
        assert status == 202, queued
        assert queued["hands"] == hands[1:]
        for hand in hands[1:]:
            assert wait_done(ann, hand)["status"] == "done"
        summary = ann.request("GET", "/api/reviews/session?hands=3")
        assert summary["reviewed"] == hands[1:]
        assert summary["pending"] == hands[:1]
        stored = [ann.request("GET", f"/api/hands/{h}/review")["review"] for h in hands[1:]]
        assert [(s["hand"], s["loss"]) for s in summary["series"]] == [
            (h, r["loss"]) for h, r in zip(hands[1:], stored, strict=True)
        ]
        assert summary["summary"]["hands"] == 2
        assert summary["summary"]["loss"] == pytest.approx(sum(r["loss"] for r in stored), abs=1e-3)
        for worst in summary["worst"]:
            assert worst["hand"] in hands[1:]
            assert worst["loss"] > 0


def test_an_account_may_queue_so_many_reviews(tmp_path: Path, settings: Settings) -> None:
    """With no worker in this process (``review_workers`` 0) what is queued stays queued: the
    bound counts it, and a request past it is refused whole."""
    bounded = settings.model_copy(update={"review_queue": 2, "review_workers": 0})
    with serve_in_thread(create_app(bounded)) as url, RoomClient(url) as ann:
        ann.sign_up("ann", "password of A-N-N")
        hands = seed_hands(bounded.database_url, "ann", [play("chinese-1-6", s) for s in range(3)])
        status, refused = answer(ann, "POST", "/api/reviews/session", {"hands": 3})
        assert (status, refused["error"]["code"]) == (429, "review_queue_full")
        assert "at most 2" in refused["error"]["message"]
        assert rows(bounded.database_url) == []
        assert answer(ann, "POST", f"/api/hands/{hands[0]}/review")[0] == 202
        assert answer(ann, "POST", f"/api/hands/{hands[1]}/review")[0] == 202
        assert answer(ann, "POST", f"/api/hands/{hands[1]}/review")[0] == 202  # the same one
        status, refused = answer(ann, "POST", f"/api/hands/{hands[2]}/review")
        assert (status, refused["error"]["code"]) == (429, "review_queue_full")
        assert [r.status for r in rows(bounded.database_url)] == ["pending", "pending"]


def test_reviews_in_flight_survive_a_restart(settings: Settings) -> None:
    """The room stops with reviews queued and running; they are back in the queue, and the room
    started again finishes them — and those a process left running when it died: one of another
    process (no longer alive) and one of this process's own name (it crashed: its life has not
    run out, but a process restarted under its name takes its reviews back)."""
    slow = settings.model_copy(update={"review_budget": 0.05, "process_name": "room-a"})
    histories = [play("ofc-pineapple", seed=s) for s in range(4)]
    with serve_in_thread(create_app(slow)) as url, RoomClient(url) as ann:
        ann.sign_up("ann", "password of A-N-N")
        hands = seed_hands(slow.database_url, "ann", histories)
        for hand in hands:
            assert answer(ann, "POST", f"/api/hands/{hand}/review")[0] == 202
    left = rows(slow.database_url)
    assert [r.status for r in left].count("done") < 2, "all done before the stop: slow it down"
    assert all(r.status in ("pending", "done") and r.worker is None for r in left)

    async def died(db: Database) -> None:
        async with db.begin() as s:
            s.add(RoomProcess(name="gone", started_at=0.0, alive_until=time.time() - 60))
            await s.execute(  # room-a crashed: alive for a while yet, by its last beat
                update(RoomProcess)
                .where(RoomProcess.name == "room-a")
                .values(alive_until=time.time() + 600)
            )
            for row, worker in ((left[-1], "gone"), (left[-2], "room-a")):
                await s.execute(
                    update(HandReviewRow)
                    .where(HandReviewRow.id == row.id)
                    .values(status="running", worker=worker, done=1, review=None)
                )

    run_with_db(slow.database_url, died)
    with serve_in_thread(create_app(slow)) as url, RoomClient(url) as ann:
        ann.log_in("ann", "password of A-N-N")
        for hand in hands:
            done = wait_done(ann, hand)
            assert done["status"] == "done", done
            assert done["done"] == done["total"] == len(done["review"]["decisions"])


def test_exactly_one_process_claims_a_review(settings: Settings) -> None:
    """Two processes claiming at once, over and over: each review is claimed once."""
    idle = settings.model_copy(update={"review_workers": 0})
    with serve_in_thread(create_app(idle)) as url, RoomClient(url) as ann:
        ann.sign_up("ann", "password of A-N-N")
        hands = seed_hands(settings.database_url, "ann", [play("chinese-1-6", 1)] * 12)
        answer(ann, "POST", "/api/reviews/session", {"hands": 12})

    async def claim_all(db: Database) -> dict[str, list[int]]:
        now = time.time()
        async with db.begin() as s:
            for name in ("a", "b"):
                s.add(RoomProcess(name=name, started_at=now, alive_until=now + 600))
        taken: dict[str, list[int]] = {"a": [], "b": []}

        async def claimer(name: str) -> None:
            while (job := await store.claim(db, name, set())) is not None:
                taken[name].append(job.hand)

        await asyncio.gather(claimer("a"), claimer("b"))
        return taken

    taken = run_with_db(settings.database_url, claim_all)
    assert sorted(taken["a"] + taken["b"]) == sorted(hands)
    assert {r.worker for r in rows(settings.database_url)} <= {"a", "b"}


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_hand_of_every_preset_is_reviewed_through_the_api(room: str, settings: Settings) -> None:
    histories = [play(preset, seed=7) for preset in PRESETS]
    histories += [play(p, seed=7, fantasyland=True) for p, r in PRESETS.items() if r.fantasyland]
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        hands = seed_hands(settings.database_url, "ann", histories)
        summary = ann.request("POST", "/api/reviews/session", {"hands": len(hands)})
        assert summary["hands"] == hands
        for hand, history in zip(hands, histories, strict=True):
            done = wait_done(ann, hand)
            assert done["status"] == "done", done
            review = done["review"]
            assert review["rules"] == history.start.rules.name
            methods = {d["method"] for d in review["decisions"]}
            rules = get_rules(review["rules"])
            if not rules.is_ofc:
                assert methods == {"setter"}
            elif history.start.seats[0] is not None and history.start.seats[0].fantasyland:
                assert review["decisions"][0]["method"] == "fantasyland solver"
            else:
                assert methods <= {"monte carlo", "forced"}
            assert review == review_json(redact_history(history, 0), budget=BUDGET, seed=1)
        final = ann.request("GET", f"/api/reviews/session?hands={len(hands)}")
        assert final["reviewed"] == hands
        assert final["pending"] == []
        assert len(final["series"]) == len(hands)
        assert json.dumps(final)  # plain JSON


def test_two_processes_of_a_room_compute_each_review_once(
    postgres: Postgres, redis_server: RedisServer, tmp_path: Path
) -> None:
    """A room of two processes on PostgreSQL and Redis, a worker each: every review is claimed
    once, by one of them, and done."""
    url = postgres.new_database()
    redis = redis_server.url.removesuffix("/0") + "/7"  # a room of its own
    histories = [play("chinese-1-6", s) for s in range(10)]
    quick = {"review_budget": BUDGET, "discover_seconds": 0.2, "rate_limits": False}
    with (
        rooms_in_threads(tmp_path, url, redis, ["a", "b"], **quick) as (a, b),
        RoomClient(a) as ann,
        RoomClient(b) as ann_on_b,
    ):
        ann.sign_up("ann", "password of A-N-N")
        ann_on_b.log_in("ann", "password of A-N-N")
        hands = seed_hands(url, "ann", histories)
        for i, hand in enumerate(hands):  # asked of both processes
            asked = answer(ann if i % 2 else ann_on_b, "POST", f"/api/hands/{hand}/review")
            assert asked[0] in (200, 202), asked  # 200 if the other process was that quick
        for hand in hands:
            assert wait_done(ann, hand)["status"] == "done"
    stored = rows(url)
    assert sorted(r.hand_id for r in stored) == sorted(hands)
    assert all(r.attempts == 1 for r in stored), [(r.hand_id, r.attempts) for r in stored]


def test_a_hand_that_cannot_be_reviewed_fails_once_with_a_sentence(
    room: str, boss: RoomClient, settings: Settings
) -> None:
    """A stored history the review cannot read (here: overwritten) fails with the review's own
    sentence, is stored failed, and is not tried again when asked again; the operator's
    metrics count it."""
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        [hand] = seed_hands(settings.database_url, "ann", [play("chinese-1-6", 3)])

        async def spoil(db: Database) -> None:
            async with db.begin() as s:
                await s.execute(update(Hand).where(Hand.id == hand).values(history='{"x": 1}'))

        run_with_db(settings.database_url, spoil)
        assert answer(ann, "POST", f"/api/hands/{hand}/review")[0] == 202
        failed = wait_done(ann, hand)
        assert failed["status"] == "failed"
        assert failed["review"] is None
        assert failed["error"] == (
            "This is not a Thirteen hand history (format 'thirteen-hand-history' expected)."
        )
        status, again = answer(ann, "POST", f"/api/hands/{hand}/review")
        assert (status, again) == (200, failed)
        [row] = rows(settings.database_url)
        assert (row.status, row.attempts) == ("failed", 1)
    metrics = boss.request("GET", "/metrics")
    assert 'thirteen_reviews_total{outcome="failed"} 1.0' in metrics
    assert "thirteen_reviews_running 0.0" in metrics
    assert "thirteen_review_seconds_count 1.0" in metrics


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_worker_that_dies_mid_review_sends_it_back_to_the_queue(settings: Settings) -> None:
    """The review's worker process is killed while it reviews: the review is claimed again by a
    new worker and finishes (its second attempt)."""
    slow = settings.model_copy(update={"review_budget": 0.3})  # seconds a street: time to kill
    with serve_in_thread(create_app(slow)) as url, RoomClient(url) as ann:
        ann.sign_up("ann", "password of A-N-N")
        [hand] = seed_hands(settings.database_url, "ann", [play("ofc-pineapple", 5)])
        assert answer(ann, "POST", f"/api/hands/{hand}/review")[0] == 202
        deadline = time.monotonic() + 60
        while ann.request("GET", f"/api/hands/{hand}/review")["total"] is None:  # it reviews
            assert time.monotonic() < deadline, "the worker never started the review"
            time.sleep(0.02)  # allowed: the room tells no one a review started; its API is polled
        workers = multiprocessing.active_children()  # the room runs in a thread of this process
        assert workers
        for worker in workers:
            os.kill(worker.pid or 0, signal.SIGKILL)
        done = wait_done(ann, hand)
        assert done["status"] == "done", done
        [row] = rows(settings.database_url)
        assert row.attempts == 2
