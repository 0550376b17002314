"""Duplicate practice for one person: play a run of deals, and the strong bot plays the same
deals from your seat; the difference per hand and in total says how you did against it.

**The run.** A logged-in player starts a run (:mod:`thirteen.server.http.practice`): a private
practice table of any preset, the player in one seat and bots of the chosen level in the
others, and a number of deals. Its :class:`PracticeRun` row is written with the table, before
any process runs it (:func:`write_run`: in that transaction, with the player's account row
locked, the player's runs playing are counted — at most :data:`MAX_RUNS_PLAYING` — so that
starts at the same moment, on any process, wait for one another and each counts the others');
whatever process runs the table attaches :class:`DuplicateHook`
(``Room._attach_hooks``), which the table's owner calls from its own task when it starts and
after every hand:

- at the first call it seats the player and every bot at once (nothing is dealt between two of
  those seats: the owner's task deals only after the hook returns), then writes ``seated_at``;
- after each settled hand it starts the shadow of every hand of the player's not yet shadowed
  (:func:`catch_up`, in the background: a hand's replay runs on a worker thread, as bots think);
- when the player has played the run's deals — or has left the table, or was unseated for sitting
  out (the owner calls the hook after a seat is left, too) — it writes the run's end and closes
  the table: once the last showdown has been on show, everyone leaves with their chips, whether
  or not anyone is at the table to act.

The table is the player's alone: it is not in the lobby (:func:`listed`), and nobody else may
open its socket, to sit or to watch (:func:`may_enter`). Hints are off there (the run measures
the player's own play against the bot's).

**The shadow of a hand.** From the hand's full history (its ``hands`` row: the table before the
deal, the deck order, every action), :func:`shadow_hand` plays the deal again with the **strong**
bot in the player's seat:

- Chinese Poker (nobody sees anyone's setting before the showdown): the history's actions are
  replayed with the player's own decisions taken out and the bot's in their place, decided on
  the seat's view as soon as the seat must decide, and the hand is scored again — against the
  opponents' very settings;
- OFC (opponents react to what they see on the board): the whole hand is played again from the
  same deck (every seat gets the same cards street by street), the strong bot in the player's
  seat and fresh bots of the table's level in the others, from the table as it was before the
  deal (fantasyland included).

Each hand's result — the player's points, the bot's, the difference (points, never chips), both
final boards — is one :class:`PracticeHand` row keyed by the hand, written once (a second writer
finds it there and moves on). A hand that settled before a crash whose shadow was not written
yet is computed when its table's hook next starts, or when the run is asked for
(:func:`results`) once its table has closed.

**Chips.** The player buys in from their wallet like at any table (the chips are the room's
play money, as everywhere), points are worth one chip, and the table returns what is left to the
wallet when it closes — its own, the ordinary buy-in, hand and cash-out transfers, so the ledger
closes by the code every table uses and ``thirteen admin audit`` needs no special case. The
bots are staked by the house like every table's. A practice table never counts on the
leaderboards.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.bots.arena import play_hand
from thirteen.bots.base import Bot
from thirteen.bots.registry import make_bot
from thirteen.engine.actions import Action, Sit, StartHand
from thirteen.engine.cards import format_cards
from thirteen.engine.errors import RuleError
from thirteen.engine.history import HandHistory, history_from_json, replay
from thirteen.engine.legal import legal_actions
from thirteen.engine.state import Phase, TableState, deciders
from thirteen.engine.table import apply
from thirteen.engine.views import view
from thirteen.server.db.models import GameTable, Hand, HandSeat, PracticeHand, PracticeRun, User
from thirteen.server.db.session import Database, lock_row
from thirteen.server.money import ledger
from thirteen.server.money.accounts import Accounts
from thirteen.server.tables.leases import fence
from thirteen.server.tables.owner import TableOwner

log = logging.getLogger("thirteen.server.practice")

SHADOW_BOT = "strong"
"""The bot every hand of a run is measured against."""
MAX_DEALS = 100
MAX_RUNS_PLAYING = 3
"""Runs one player may have playing at once (each is a table the room runs)."""


# --------------------------------------------------------------------------------- starting
async def write_run(
    s: AsyncSession, table_id: int, user_id: int, *, deals: int, buy_in: int
) -> None:
    """Write the run of the new table ``table_id`` (in the transaction that writes the table),
    or refuse it — ``too_many_runs``, ``insufficient_chips`` — and with it the table.

    The player's account row is locked first (:func:`lock_row`): two starts of one player, on
    one process or two, queue up there, and the second counts the first's run once it is
    written — the limit is the database's, not a read before a write."""
    await lock_row(s, User, user_id)
    playing = await s.scalar(
        select(func.count(PracticeRun.table_id))
        .join(GameTable, GameTable.id == PracticeRun.table_id)
        .where(
            PracticeRun.user_id == user_id,
            PracticeRun.status == "playing",
            GameTable.status != "closed",
        )
    )
    if (playing or 0) >= MAX_RUNS_PLAYING:
        raise RuleError(
            "too_many_runs",
            f"You have {playing} duplicate practice runs playing; finish or leave one first.",
        )
    held = (await ledger.wallet(s, user_id)).balance
    if held < buy_in:
        raise RuleError(
            "insufficient_chips", f"Your wallet holds {held} chips; this run's buy-in is {buy_in}."
        )
    s.add(
        PracticeRun(
            table_id=table_id,
            user_id=user_id,
            seat=0,
            deals=deals,
            buy_in=buy_in,
            status="playing",
            created_at=time.time(),
        )
    )


# --------------------------------------------------------------------------------- shadows
@dataclass(frozen=True)
class Shadow:
    """One hand of a run: the player's points, the bot's with the same cards, both boards."""

    number: int
    player_points: int
    bot_points: int
    player_board: dict[str, Any]
    bot_board: dict[str, Any]

    @property
    def difference(self) -> int:
        return self.player_points - self.bot_points


def _board(state: TableState, seat: int) -> tuple[int, dict[str, Any]]:
    """The seat's points in a scored hand and its final board as the run's answer shows it."""
    hand = state.hand
    assert hand is not None
    assert hand.result is not None, "the hand is not over"
    index = hand.index_of(seat)
    board = hand.boards[index]
    player = hand.result.players[index]
    return player.total, {
        "cards": format_cards(board.dealt),
        "front": format_cards(board.front),
        "middle": format_cards(board.middle),
        "back": format_cards(board.back),
        "discards": format_cards(board.discards),
        "foul": player.foul,
        "royalties": player.royalties,
        "natural": board.natural,
        "surrendered": player.surrendered,
        "fantasyland_next": player.fantasyland_cards is not None,
    }


def _acting_seat(action: Action) -> int | None:
    seat = getattr(action, "seat", None)
    return seat if isinstance(seat, int) else None


def _bot_decides(state: TableState, seat: int, bot: Bot, budget: float) -> TableState:
    """Let ``bot`` make every decision ``seat`` has now (on its view alone), at the table's
    clock: the moment the decision opened."""
    for _ in range(64):  # a seat decides a few times a hand at most; never loop for ever
        if seat not in deciders(state):
            return state
        seen = view(state, seat)
        action = bot.choose(seen, legal_actions(seen), budget)
        state, _ = apply(state, replace(action, at=state.clock))
    raise RuntimeError("the shadow bot keeps deciding")


def _replayed_with_bot(history: HandHistory, seat: int, budget: float) -> TableState:
    """Chinese Poker: the hand again with the strong bot's decisions for ``seat`` instead of the
    player's, every other action as it was (nobody saw the player's setting before the end)."""
    bot = make_bot(SHADOW_BOT, history.start.rules)
    state = history.start
    for action in history.actions:
        if not isinstance(action, StartHand) and _acting_seat(action) == seat:
            continue  # the player's decision, time bank or timeout: the bot decides instead
        try:
            state, _ = apply(state, replace(action, at=max(action.at, state.clock)))
        except RuleError as e:  # not expected: another seat's action does not depend on ours
            log.warning("shadow skipped an action", extra={"code": e.code})
            continue
        if state.hand is not None and state.phase == Phase.PLAYING:
            state = _bot_decides(state, seat, bot, budget)
    return state


def _played_again(history: HandHistory, seat: int, opponents: str, budget: float) -> TableState:
    """OFC: the whole hand played again from the same deck, the strong bot in ``seat`` and fresh
    bots of the table's level in the others."""
    rules = history.start.rules
    bots = [
        make_bot(SHADOW_BOT if s == seat else opponents, rules)
        for s in range(len(history.start.seats))
    ]
    start = history.actions[0]
    return play_hand(history.start, bots, history.deal, start.at, budget=budget).state


def shadow_hand(history_json: dict[str, Any], seat: int, opponents: str, budget: float) -> Shadow:
    """The shadow of one settled hand (see the module's docstring): CPU work, for a thread."""
    history = history_from_json(history_json)
    real = replay(history)
    player_points, player_board = _board(real, seat)
    if history.start.rules.is_ofc:
        shadow = _played_again(history, seat, opponents, budget)
    else:
        shadow = _replayed_with_bot(history, seat, budget)
    bot_points, bot_board = _board(shadow, seat)
    assert real.hand is not None
    return Shadow(real.hand.number, player_points, bot_points, player_board, bot_board)


# --------------------------------------------------------------------------------- storing
_LOCKS: weakref.WeakKeyDictionary[Database, dict[int, asyncio.Lock]] = weakref.WeakKeyDictionary()


def _lock(db: Database, table_id: int) -> asyncio.Lock:
    """One shadow computation at a time per run in this process (its hook's, or a request's)."""
    return _LOCKS.setdefault(db, {}).setdefault(table_id, asyncio.Lock())


async def _unshadowed(db: Database, run: PracticeRun) -> list[tuple[int, str]]:
    """The player's settled hands of the run without a shadow yet: ``(hand id, history)``."""
    async with db.begin() as s:
        rows = (
            await s.execute(
                select(Hand.id, Hand.history)
                .join(HandSeat, HandSeat.hand_id == Hand.id)
                .outerjoin(PracticeHand, PracticeHand.hand_id == Hand.id)
                .where(
                    Hand.table_id == run.table_id,
                    Hand.status == "settled",
                    HandSeat.user_id == run.user_id,
                    PracticeHand.hand_id.is_(None),
                )
                .order_by(Hand.number)
            )
        ).all()
    return [(hand_id, history) for hand_id, history in rows if history is not None]


async def _write(db: Database, table_id: int, hand_id: int, shadow: Shadow) -> None:
    try:
        async with db.begin() as s:
            s.add(
                PracticeHand(
                    hand_id=hand_id,
                    table_id=table_id,
                    number=shadow.number,
                    player_points=shadow.player_points,
                    bot_points=shadow.bot_points,
                    difference=shadow.difference,
                    boards=json.dumps({"player": shadow.player_board, "bot": shadow.bot_board}),
                    computed_at=time.time(),
                )
            )
    except IntegrityError:  # another process (or request) wrote it first: the same hand's
        log.info("shadow written already", extra={"table": table_id, "hand": hand_id})


async def catch_up(db: Database, run: PracticeRun, opponents: str, budget: float) -> int:
    """Shadow every settled hand of the run that has none yet, each on a worker thread; how
    many were written."""
    written = 0
    async with _lock(db, run.table_id):
        for hand_id, history in await _unshadowed(db, run):
            shadow = await asyncio.to_thread(
                shadow_hand, json.loads(history), run.seat, opponents, budget
            )
            await _write(db, run.table_id, hand_id, shadow)
            written += 1
    return written


# --------------------------------------------------------------------------------- the hook
class DuplicateHook:
    """A run's director at its table (see the module's docstring)."""

    def __init__(self, db: Database, accounts: Accounts, run: PracticeRun) -> None:
        self.db = db
        self.accounts = accounts
        self.run = run
        self._shadows: asyncio.Task[None] | None = None
        self._again = False

    @property
    def user_id(self) -> int:
        return self.run.user_id

    async def after_hand(self, owner: TableOwner) -> None:
        if self.run.status != "playing":
            if owner.settings.status == "open":
                await owner.close_after_hand()
            return
        if self.run.seated_at is None and not await self._seat_everyone(owner):
            return
        self._shadow_in_background(owner)
        played = await self._played(owner)
        if played >= self.run.deals:
            await self._end(owner, "finished")
        elif owner.seat_of(self.user_id) is None and owner.state.phase != Phase.PLAYING:
            await self._end(owner, "ended")

    async def _played(self, owner: TableOwner) -> int:
        async with self.db.begin() as s:
            found = await s.scalar(
                select(func.count(Hand.id))
                .join(HandSeat, HandSeat.hand_id == Hand.id)
                .where(
                    Hand.table_id == owner.id,
                    Hand.status == "settled",
                    HandSeat.user_id == self.user_id,
                )
            )
        return int(found or 0)

    async def _end(self, owner: TableOwner, status: str) -> None:
        """Write the run's end and its table's closing in one transaction. The table closes
        when its next deal is due — after the last showdown has been on show, and after the
        action that ended the run has been answered — everyone leaving with their chips."""
        async with self.db.begin() as s:
            await fence(s, owner.id, owner.lease_token)
            await s.execute(
                update(PracticeRun)
                .where(PracticeRun.table_id == owner.id, PracticeRun.status == "playing")
                .values(status=status, finished_at=time.time())
            )
            await s.execute(
                update(GameTable)
                .where(GameTable.id == owner.id, GameTable.status == "open")
                .values(status="closing")
            )
        self.run.status = status
        if owner.settings.status == "open":
            owner.settings = replace(owner.settings, status="closing")
        log.info("practice run over", extra={"table": owner.id, "status": status})

    async def _seat_everyone(self, owner: TableOwner) -> bool:
        """The player, then a bot in every other seat, all before the first deal (the owner
        deals only once this returns); whether the run can go on."""
        run = self.run
        if owner.seat_of(run.user_id) is None and owner.state.seats[run.seat] is None:
            async with self.db.begin() as s:
                user = await s.get(User, run.user_id)
            assert user is not None
            try:
                await owner.accept_here(
                    Sit(seat=run.seat, player=user.name, stack=run.buy_in, at=time.time()),
                    user_id=run.user_id,
                )
            except RuleError as e:  # the wallet was spent since the run was asked for
                log.info("practice player could not sit", extra={"table": owner.id, "code": e.code})
                await self._end(owner, "ended")
                return False
        for seat in range(owner.settings.seats):
            if seat != run.seat and owner.state.seats[seat] is None:
                await self._seat_bot(owner, seat)
        at = time.time()
        async with self.db.begin() as s:
            await s.execute(
                update(PracticeRun).where(PracticeRun.table_id == owner.id).values(seated_at=at)
            )
        run.seated_at = at
        return True

    async def _seat_bot(self, owner: TableOwner, seat: int) -> None:
        """A bot account for the seat (as the room names them), its stake from the house."""
        name = f"bot-{owner.id}-{seat}"
        amount = owner.settings.max_buy_in
        user_id = await self.accounts.staked_bot(name, amount)
        await owner.accept_here(
            Sit(seat=seat, player=name, stack=amount, at=time.time()), user_id=user_id
        )

    def _shadow_in_background(self, owner: TableOwner) -> None:
        """Shadow the hands not shadowed yet, off the owner's task (one run at a time: a hand
        that settles meanwhile is taken by the next turn of the loop)."""
        if self._shadows is not None and not self._shadows.done():
            self._again = True
            return
        level, budget = owner.settings.bot_level, owner.bot_budget
        self._shadows = asyncio.create_task(
            self._shadow_all(level, budget), name=f"practice-shadows-{owner.id}"
        )

    async def _shadow_all(self, level: str, budget: float) -> None:
        while True:
            self._again = False
            try:
                await catch_up(self.db, self.run, level, budget)
            except Exception:
                log.exception(
                    "shadowing a practice hand failed", extra={"table": self.run.table_id}
                )
                return
            if not self._again:
                return


async def run_of(db: Database, table_id: int) -> PracticeRun | None:
    async with db.begin() as s:
        return await s.get(PracticeRun, table_id)


async def hook_for(db: Database, accounts: Accounts, table_id: int) -> DuplicateHook | None:
    """The run's hook for a practice table that is a duplicate practice run, else ``None``."""
    run = await run_of(db, table_id)
    return DuplicateHook(db, accounts, run) if run is not None else None


def private_to(owner: TableOwner) -> int | None:
    """The one account that may enter a table this process runs (``None``: anyone)."""
    hook = owner.hook
    return hook.user_id if isinstance(hook, DuplicateHook) else None


def listed(owner: TableOwner) -> bool:
    """Whether the lobby lists the table: a run's table is its player's alone."""
    return private_to(owner) is None


async def may_enter(
    db: Database, table_id: int, owner: TableOwner | None, user_id: int | None
) -> bool:
    """Whether the account (``None``: a spectator without a ticket) may open the table's
    socket: anyone at an ordinary table; at a run's table its player alone."""
    if owner is not None:
        allowed = private_to(owner)
    else:  # another process runs it: ask the database
        async with db.begin() as s:
            allowed = await s.scalar(
                select(PracticeRun.user_id).where(PracticeRun.table_id == table_id)
            )
    return allowed is None or allowed == user_id


__all__ = [
    "MAX_DEALS",
    "MAX_RUNS_PLAYING",
    "SHADOW_BOT",
    "DuplicateHook",
    "Shadow",
    "catch_up",
    "hook_for",
    "listed",
    "may_enter",
    "private_to",
    "run_of",
    "shadow_hand",
    "write_run",
]
