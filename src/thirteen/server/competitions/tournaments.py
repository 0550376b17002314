"""Sit & go tournaments: registering, the prize pool, and directing the tournament's table.

A sit & go starts when its seats fill. Each player's buy-in moves from their wallet to the
tournament's escrow account (``sng:{id}``) when they register, and back if they unregister
before the start. When the last seat is taken the tournament's table is written in the same
transaction; a room process runs it like any table (one owner task, the journal, a restart
rebuilds it), with one difference: its stacks are **tournament chips**, so sitting down, hands
and leaving move no money (:class:`~thirteen.server.tables.owner.TableOwner` asks
``settings.is_tournament``). What makes it a tournament is :class:`TournamentHook`, which the
owner calls from its own task when it starts and after every hand:

- it seats every registered player (each with ``starting_stack`` chips);
- a player left with no chips is out: their place is written, then they leave the table
  (several out in one hand: the one who had more chips when it was dealt finishes higher;
  equal stacks, the one dealt earlier);
- a player who sat out or timed out is sat in again: nobody is unseated at a sit & go; an
  absent player is dealt in and the table plays for them at every deadline until they are out;
- the unit rises on schedule (``set_point_value`` between hands, journaled like any action);
- when one player is left, the pool is paid out by the table of places in one transaction
  keyed by the tournament (the status flips from running to finished in it, so never twice;
  what whole chips cannot split goes to first place) and the table closes.

Every step reads what is already written first, so calling it again — after a crash between
two steps — finishes the job instead of doing it twice.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.bots.registry import NAMES
from thirteen.engine.actions import Leave, SetPointValue, Sit, SitIn
from thirteen.engine.errors import RuleError
from thirteen.engine.history import snapshot_from_json, snapshot_to_json
from thirteen.engine.rules import get_rules
from thirteen.engine.state import Phase, TableState, new_table
from thirteen.engine.table import MAX_POINT_VALUE
from thirteen.server.db.models import GameTable, Tournament, TournamentEntry, User
from thirteen.server.db.session import Database, lock_row
from thirteen.server.money import ledger
from thirteen.server.money.accounts import Accounts, user_by_name
from thirteen.server.money.ledger import escrow_name
from thirteen.server.tables.owner import TableOwner

log = logging.getLogger("thirteen.server.tournaments")

MAX_BUY_IN = 10**12
MAX_STACK = 10**9


ACTIVE = TournamentEntry.withdrawn_at.is_(None)
"""An entry still registered (not withdrawn before the start)."""


class TournamentError(RuleError):
    """A tournament request that cannot be done (full, not registering, not registered, …)."""


@dataclass(frozen=True)
class TournamentSpec:
    """What an admin asks for when creating a sit & go."""

    preset: str
    name: str = ""
    overrides: dict[str, Any] | None = None
    seats: int = 4
    buy_in: int = 100
    starting_stack: int = 1000
    unit: int = 10
    rise_every: int = 5
    rise_percent: int = 50
    payouts: Sequence[int] = (100,)
    bot_level: str = "strong"


def default_payouts(seats: int) -> list[int]:
    """The table of places when the admin gives none: winner takes all at 2 or 3 seats;
    70/30 at 4."""
    return [70, 30] if seats >= 4 else [100]


def unit_at(start: int, every: int, percent: int, hands_played: int) -> int:
    """The unit for the hand after ``hands_played`` hands: ``start``, then ``percent`` more
    (rounded up, at least one more) after every ``every`` hands."""
    unit = start
    for _ in range(hands_played // every):
        unit = min(MAX_POINT_VALUE, max(unit + 1, math.ceil(unit * (100 + percent) / 100)))
        if unit == MAX_POINT_VALUE:
            break
    return unit


def prizes(pool: int, payouts: Sequence[int]) -> list[int]:
    """The pool split by the table of places (percentages); the remainder to first place."""
    amounts = [pool * p // 100 for p in payouts]
    if amounts:
        amounts[0] += pool - sum(amounts)
    return amounts


def _bad(message: str) -> TournamentError:
    return TournamentError("bad_tournament", message)


def _validate(spec: TournamentSpec) -> tuple[str, Any]:
    rules = get_rules(spec.preset, spec.overrides or {})  # RuleError: unknown preset, bad rule
    if not 2 <= spec.seats <= rules.max_players:
        raise _bad(f"A {rules.name} sit & go has 2 to {rules.max_players} seats, not {spec.seats}.")
    if not 1 <= spec.buy_in <= MAX_BUY_IN:
        raise _bad(f"A buy-in is 1 to {MAX_BUY_IN:,} chips, not {spec.buy_in}.")
    if not 1 <= spec.starting_stack <= MAX_STACK:
        raise _bad(f"A starting stack is 1 to {MAX_STACK:,} tournament chips.")
    if not 1 <= spec.unit <= spec.starting_stack:
        raise _bad("The starting unit is at least 1 and at most the starting stack.")
    if not 1 <= spec.rise_every <= 1000 or not 0 <= spec.rise_percent <= 1000:
        raise _bad("The unit rises every 1 to 1000 hands, by 0 to 1000 percent.")
    payouts = list(spec.payouts)
    if not payouts or len(payouts) > spec.seats:
        raise _bad(f"The table of places pays 1 to {spec.seats} places.")
    if any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in payouts):
        raise _bad("Each place is paid a whole percentage of the pool, 0 or more.")
    if sum(payouts) != 100:
        raise _bad(f"The places' percentages must add up to 100, not {sum(payouts)}.")
    if payouts != sorted(payouts, reverse=True):
        raise _bad("A place is never paid more than a better one.")
    if spec.bot_level not in NAMES:
        raise _bad(f"Bots are {', '.join(NAMES)}, not {spec.bot_level!r}.")
    name = (spec.name or f"{rules.name} sit & go").strip()[:64]
    return name, rules


async def create_tournament(db: Database, spec: TournamentSpec) -> int:
    """Write a new sit & go, open for registration; its id."""
    name, rules = _validate(spec)
    async with db.begin() as s:
        row = Tournament(
            name=name,
            preset=get_rules(spec.preset).name,
            rules=json.dumps(rules.to_dict()),
            seats=spec.seats,
            buy_in=spec.buy_in,
            starting_stack=spec.starting_stack,
            unit=spec.unit,
            rise_every=spec.rise_every,
            rise_percent=spec.rise_percent,
            payouts=json.dumps(list(spec.payouts)),
            bot_level=spec.bot_level,
            status="registering",
            created_at=time.time(),
        )
        s.add(row)
        await s.flush()
        await ledger.account(s, escrow_name(row.id), "escrow")
        return row.id


async def _locked(s: AsyncSession, tournament_id: int) -> Tournament:
    """The tournament's row, locked for the rest of this transaction (:func:`lock_row`): the
    registrations for the last seat queue up instead of both taking it."""
    row = await lock_row(s, Tournament, tournament_id)
    if row is None:
        raise TournamentError("no_tournament", f"There is no sit & go {tournament_id}.")
    return row


def _not_registering(row: Tournament) -> TournamentError:
    return TournamentError(
        "not_registering",
        f"Sit & go {row.id} is {row.status}; registration is only before it starts.",
    )


async def register(db: Database, tournament_id: int, user_id: int) -> int | None:
    """Register ``user_id`` (their buy-in moves to the tournament's escrow). The id of the
    tournament's table when this took the last seat (it starts now), else ``None``."""
    async with db.begin() as s:
        return await _register(s, tournament_id, user_id)


async def _register(s: AsyncSession, tournament_id: int, user_id: int) -> int | None:
    row = await _locked(s, tournament_id)
    if row.status != "registering":
        raise _not_registering(row)
    entries = (
        await s.scalars(
            select(TournamentEntry).where(TournamentEntry.tournament_id == tournament_id, ACTIVE)
        )
    ).all()
    if any(e.user_id == user_id for e in entries):
        raise TournamentError("already_registered", "You are already registered for it.")
    if len(entries) >= row.seats:
        raise TournamentError("tournament_full", "Every seat of this sit & go is taken.")
    entry = TournamentEntry(tournament_id=tournament_id, user_id=user_id, registered_at=time.time())
    s.add(entry)
    await s.flush()
    await ledger.transfer(
        s,
        key=f"sng-buy-in:{tournament_id}:{entry.id}",
        debit=await ledger.wallet(s, user_id),
        credit=await ledger.account(s, escrow_name(tournament_id), "escrow"),
        amount=row.buy_in,
        reason="sng-buy-in",
        memo=f"{row.name} (sit & go {tournament_id})",
    )
    if len(entries) + 1 < row.seats:
        return None
    return await _start(s, row)


async def _start(s: AsyncSession, row: Tournament) -> int:
    """The seats are full: write the tournament's table and mark it running (refused — and
    with it the registration that filled the seats, buy-in and all — when its stored rules
    cannot be played, as a row written before today's schema may hold)."""
    try:
        rules = get_rules(row.preset, _overrides(row))
    except RuleError as e:
        raise _bad(
            f"Sit & go {row.id} cannot start: its rules are refused ({e.message}) An "
            "administrator can cancel it; every buy-in goes back."
        ) from None
    state = new_table(
        rules,
        seats=row.seats,
        min_buy_in=row.starting_stack,
        max_buy_in=row.starting_stack,
        point_value=row.unit,
    )
    now = time.time()
    table = GameTable(
        name=f"{row.name} (sit & go {row.id})"[:64],
        preset=row.preset,
        rules=row.rules,
        seats=row.seats,
        unit=row.unit,
        min_buy_in=row.starting_stack,
        max_buy_in=row.starting_stack,
        bots=0,
        bot_level=row.bot_level,
        practice=False,
        time_bank_seconds=30.0,
        sit_out_hands=100,
        status="open",
        created_at=now,
        snapshot=json.dumps(snapshot_to_json(state)),
        snapshot_state_id=0,
        tournament_id=row.id,
    )
    s.add(table)
    await s.flush()
    row.status = "running"
    row.started_at = now
    row.table_id = table.id
    log.info("sit & go started", extra={"tournament": row.id, "table": table.id})
    return table.id


def _overrides(row: Tournament) -> dict[str, Any]:
    """The stored rules as overrides over the preset (they were validated when written)."""
    data: dict[str, Any] = json.loads(row.rules)
    base = get_rules(row.preset).to_dict()
    return {k: v for k, v in data.items() if base.get(k) != v}


async def unregister(db: Database, tournament_id: int, user_id: int) -> None:
    """Take back a registration before the start: the buy-in goes back to the wallet."""
    async with db.begin() as s:
        row = await _locked(s, tournament_id)
        if row.status != "registering":
            raise _not_registering(row)
        entry = await s.scalar(
            select(TournamentEntry).where(
                TournamentEntry.tournament_id == tournament_id,
                ACTIVE,
                TournamentEntry.user_id == user_id,
            )
        )
        if entry is None:
            raise TournamentError("not_registered", "You are not registered for this sit & go.")
        await _refund(s, row, entry)


async def _refund(s: AsyncSession, row: Tournament, entry: TournamentEntry) -> None:
    await ledger.transfer(
        s,
        key=f"sng-refund:{row.id}:{entry.id}",
        debit=await ledger.account(s, escrow_name(row.id), "escrow"),
        credit=await ledger.wallet(s, entry.user_id),
        amount=row.buy_in,
        reason="sng-refund",
        memo=f"{row.name} (sit & go {row.id})",
    )
    entry.withdrawn_at = time.time()


async def cancel(db: Database, tournament_id: int) -> None:
    """Cancel a sit & go that has not started: every buy-in goes back."""
    async with db.begin() as s:
        row = await _locked(s, tournament_id)
        if row.status != "registering":
            raise _not_registering(row)
        entries = (
            await s.scalars(
                select(TournamentEntry).where(
                    TournamentEntry.tournament_id == tournament_id, ACTIVE
                )
            )
        ).all()
        for entry in entries:
            await _refund(s, row, entry)
        row.status = "cancelled"
        row.finished_at = time.time()


async def cancel_in(s: AsyncSession, tournament_id: int) -> None:
    """Cancel a running sit & go whose table could not go on (its row was set aside as broken
    and an operator closed it), in the caller's transaction: every entrant's buy-in back, as
    if it had never started — nobody won it."""
    row = await _locked(s, tournament_id)
    if row.status != "running":
        return
    entries = (
        await s.scalars(
            select(TournamentEntry).where(TournamentEntry.tournament_id == tournament_id, ACTIVE)
        )
    ).all()
    for entry in entries:
        await _refund(s, row, entry)
    row.status = "cancelled"
    row.finished_at = time.time()
    log.info("sit & go cancelled: its table was broken", extra={"tournament": row.id})


async def add_bots(
    db: Database, accounts: Accounts, tournament_id: int, count: int | None = None
) -> int | None:
    """Register bots for free seats (all of them, or ``count``); the house stakes their
    buy-ins, as it does the room's bot seats. The table's id when that filled the seats."""
    async with db.begin() as s:
        row = await s.get(Tournament, tournament_id)
        if row is None:
            raise TournamentError("no_tournament", f"There is no sit & go {tournament_id}.")
        if row.status != "registering":
            raise _not_registering(row)
        taken = await s.scalar(
            select(func.count(TournamentEntry.id)).where(
                TournamentEntry.tournament_id == tournament_id, ACTIVE
            )
        )
        free = row.seats - int(taken or 0)
        buy_in = row.buy_in
    wanted = free if count is None else count
    if not 1 <= wanted <= free:
        raise TournamentError(
            "tournament_full" if free == 0 else "bad_tournament",
            f"This sit & go has {free} free seat{'s' if free != 1 else ''}; "
            f"{wanted} bots cannot register.",
        )
    table_id = None
    for n in range(1, wanted + 1):
        user_id = await _bot_account(db, accounts, tournament_id, n)
        async with db.begin() as s:
            await ledger.fill_wallet(
                s,
                user_id,
                buy_in,
                key=f"sng-bot-stake:{tournament_id}:{user_id}",
                memo=f"bot stake for sit & go {tournament_id}",
            )
            table_id = await _register(s, tournament_id, user_id)
    return table_id


async def _bot_account(db: Database, accounts: Accounts, tournament_id: int, n: int) -> int:
    """A bot account not yet registered for the tournament: ``sng{id}-bot{k}``."""
    k = n
    while True:
        name = f"sng{tournament_id}-bot{k}"
        async with db.begin() as s:
            user = await user_by_name(s, name)
            if user is not None:
                registered = await s.scalar(
                    select(TournamentEntry.id).where(
                        TournamentEntry.tournament_id == tournament_id,
                        ACTIVE,
                        TournamentEntry.user_id == user.id,
                    )
                )
                if registered is None:
                    return user.id
        if user is None:
            return await accounts.create_user(name, None, "bot")
        k += 1


# ---------------------------------------------------------------------------- standings
async def standings(db: Database, tournament_id: int, live: TableState | None) -> dict[str, Any]:
    """A tournament as the lobby and its page show it: places, chips, the unit and the next
    rise, the prizes. ``live``: its table's state when this process runs it (else the state
    written when its last hand settled)."""
    async with db.begin() as s:
        row = await s.get(Tournament, tournament_id)
        if row is None:
            raise TournamentError("no_tournament", f"There is no sit & go {tournament_id}.")
        entries = (
            await s.execute(
                select(TournamentEntry, User.name, User.role)
                .join(User, User.id == TournamentEntry.user_id)
                .where(TournamentEntry.tournament_id == tournament_id, ACTIVE)
                .order_by(TournamentEntry.registered_at, TournamentEntry.id)
            )
        ).all()
        state = live
        if state is None and row.table_id is not None:
            table = await s.get(GameTable, row.table_id)
            if table is not None and table.broken_reason is None:  # (once set aside: unread)
                state = snapshot_from_json(json.loads(table.snapshot))
    return _standings_json(row, [(e, name, role) for e, name, role in entries], state)


async def listing(db: Database) -> list[dict[str, Any]]:
    """Every sit & go not finished or cancelled, and those that ended in the last day."""
    since = time.time() - 86400
    async with db.begin() as s:
        rows = (
            await s.scalars(
                select(Tournament)
                .where(
                    Tournament.status.in_(("registering", "running"))
                    | (Tournament.finished_at >= since)
                )
                .order_by(Tournament.id)
            )
        ).all()
        names: dict[int, list[str]] = {r.id: [] for r in rows}
        for tournament_id, name in (
            await s.execute(
                select(TournamentEntry.tournament_id, User.name)
                .join(User, User.id == TournamentEntry.user_id)
                .where(TournamentEntry.tournament_id.in_(names), ACTIVE)
                .order_by(TournamentEntry.id)
            )
        ).all():
            names[tournament_id].append(name)
    return [_summary(r, len(names[r.id]), names[r.id]) for r in rows]


def _summary(row: Tournament, registered: int, entrants: list[str]) -> dict[str, Any]:
    rules = get_rules(row.preset)
    payouts: list[int] = json.loads(row.payouts)
    pool = row.buy_in * registered
    return {
        "id": row.id,
        "name": row.name,
        "preset": row.preset,
        "game": rules.game,
        "seats": row.seats,
        "registered": registered,
        "entrants": entrants,
        "free": row.seats - registered if row.status == "registering" else 0,
        "buy_in": row.buy_in,
        "pool": pool,
        "starting_stack": row.starting_stack,
        "unit": row.unit,
        "rise_every": row.rise_every,
        "rise_percent": row.rise_percent,
        "payouts": payouts,
        "prizes": prizes(row.buy_in * row.seats, payouts),
        "status": row.status,
        "table_id": row.table_id,
        "created_at": row.created_at,
        "started_at": row.started_at,
        "finished_at": row.finished_at,
    }


def _standings_json(
    row: Tournament, entries: list[tuple[TournamentEntry, str, str]], state: TableState | None
) -> dict[str, Any]:
    out = _summary(row, len(entries), [name for _, name, _ in entries])
    chips = {}
    if state is not None:
        chips = {s.player: s.stack for s in state.seats if s is not None}
    players: list[dict[str, Any]] = []
    for entry, name, role in entries:
        players.append(
            {
                "name": name,
                "bot": role == "bot",
                "place": entry.place,
                "payout": entry.payout,
                "chips": chips.get(name, 0 if entry.place is not None else None),
                "out_at_hand": entry.out_at_hand,
            }
        )
    players.sort(key=lambda p: (p["place"] is not None, p["place"] or 0, -int(p["chips"] or 0)))
    out["players"] = players
    hands = state.hands_played if state is not None else 0
    out["hands_played"] = hands
    out["current_unit"] = state.config.point_value if state is not None else row.unit
    if row.status == "running":
        out["next_unit"] = unit_at(
            row.unit, row.rise_every, row.rise_percent, hands + row.rise_every
        )
        out["next_rise_after_hand"] = (hands // row.rise_every + 1) * row.rise_every
    else:
        out["next_unit"] = None
        out["next_rise_after_hand"] = None
    return out


# ---------------------------------------------------------------------------- the director
class TournamentHook:
    """The tournament's director at its table (see the module's docstring); the table's
    owner calls :meth:`after_hand` from its own task, so what it does is never concurrent
    with the table's other actions."""

    def __init__(self, db: Database, tournament_id: int) -> None:
        self.db = db
        self.tournament_id = tournament_id

    async def after_hand(self, owner: TableOwner) -> None:
        async with self.db.begin() as s:
            row = await s.get(Tournament, self.tournament_id)
            assert row is not None
            entries = (
                await s.execute(
                    select(TournamentEntry, User.name)
                    .join(User, User.id == TournamentEntry.user_id)
                    .where(TournamentEntry.tournament_id == self.tournament_id, ACTIVE)
                )
            ).all()
        if row.status != "running":
            if owner.settings.status == "open":
                await owner.close_after_hand()
            return
        await self._seat_everyone(owner, row, [(e, n) for e, n in entries])
        alive = await self._eliminate(owner, row)
        if alive <= 1:
            await self._finish(owner, row)
            return
        state = owner.state
        if state.phase == Phase.PLAYING:
            return
        target = unit_at(row.unit, row.rise_every, row.rise_percent, state.hands_played)
        if target != state.config.point_value:
            await owner.accept_here(SetPointValue(value=target, at=time.time()))
            log.info(
                "unit rises",
                extra={"tournament": row.id, "hands": state.hands_played, "unit": target},
            )
        for seat, who in enumerate(owner.state.seats):
            if who is not None and who.sitting_out and who.stack > 0:
                await owner.accept_here(SitIn(seat=seat, at=time.time()))

    async def _seat_everyone(
        self, owner: TableOwner, row: Tournament, entries: list[tuple[TournamentEntry, str]]
    ) -> None:
        """Seat every registered player still in who has no seat (at the start; after a
        crash in the middle of seating, the rest)."""
        seated = {who.user_id for who in owner.seated.values()}
        for entry, name in sorted(entries, key=lambda e: e[0].id):
            if entry.place is not None or entry.user_id in seated:
                continue
            free = [i for i, s in enumerate(owner.state.seats) if s is None]
            if not free:
                log.error("no seat for an entrant", extra={"tournament": row.id})
                return
            sit = Sit(seat=free[0], player=name, stack=row.starting_stack, at=time.time())
            await owner.accept_here(sit, user_id=entry.user_id)

    async def _eliminate(self, owner: TableOwner, row: Tournament) -> int:
        """Write the places of the players the last hand left without chips, then unseat
        them; how many players are still in."""
        state = owner.state
        busted = [
            (seat, who)
            for seat, who in sorted(owner.seated.items())
            if (taken := state.seats[seat]) is not None and taken.stack <= 0
        ]
        hand = state.hand

        def had(seat: int) -> tuple[int, int]:
            """(chips when the last hand was dealt, minus its dealing position): more is
            better; a player not in it was out before it (-1)."""
            if hand is None or hand.settlement is None or hand.board_of(seat) is None:
                return (-1, 0)
            index = hand.index_of(seat)
            return (-hand.settlement[index], -index)

        async with self.db.begin() as s:
            entries = (
                await s.scalars(
                    select(TournamentEntry).where(TournamentEntry.tournament_id == row.id, ACTIVE)
                )
            ).all()
            by_user = {e.user_id: e for e in entries}
            alive = sum(1 for e in entries if e.place is None)
            for seat, who in sorted(busted, key=lambda b: had(b[0])):
                entry = by_user.get(who.user_id)
                if entry is None or entry.place is not None:
                    continue
                entry.place = alive
                entry.payout = 0
                entry.out_at_hand = state.hands_played
                alive -= 1
                log.info("player out", extra={"tournament": row.id, "seat": seat})
        for seat, _who in busted:
            await owner.accept_here(Leave(seat=seat, at=time.time()))
        return alive

    async def _finish(self, owner: TableOwner, row: Tournament) -> None:
        """One player left: pay the places, once (the status flips in the same transaction)."""
        async with self.db.begin() as s:
            flipped = await s.execute(
                update(Tournament)
                .where(Tournament.id == row.id, Tournament.status == "running")
                .values(status="finished", finished_at=time.time())
            )
            if flipped.rowcount == 1:  # type: ignore[attr-defined]
                entries = (
                    await s.scalars(
                        select(TournamentEntry).where(
                            TournamentEntry.tournament_id == row.id, ACTIVE
                        )
                    )
                ).all()
                for entry in entries:
                    if entry.place is None:
                        entry.place = 1
                amounts = prizes(row.buy_in * len(entries), json.loads(row.payouts))
                escrow = await ledger.account(s, escrow_name(row.id), "escrow")
                for entry in sorted(entries, key=lambda e: e.place or 0):
                    assert entry.place is not None
                    amount = amounts[entry.place - 1] if entry.place <= len(amounts) else 0
                    entry.payout = amount
                    if amount > 0:
                        await ledger.transfer(
                            s,
                            key=f"sng-payout:{row.id}:{entry.place}",
                            debit=escrow,
                            credit=await ledger.wallet(s, entry.user_id),
                            amount=amount,
                            reason="sng-payout",
                            memo=f"{row.name}: place {entry.place}",
                        )
                log.info("sit & go finished", extra={"tournament": row.id})
        if owner.settings.status == "open":
            await owner.close_after_hand()


__all__ = [
    "TournamentError",
    "TournamentHook",
    "TournamentSpec",
    "add_bots",
    "cancel",
    "cancel_in",
    "create_tournament",
    "default_payouts",
    "listing",
    "prizes",
    "register",
    "standings",
    "unit_at",
    "unregister",
]
