"""Seating and money: who sits at a table, and the chips that move as they sit, top up, leave
and play.

Two halves. The postings (:func:`buy_in_sync`, :func:`top_up_sync`, :func:`cash_out_sync`,
:func:`pay_pot_sync`) are the ledger's side of an accepted action, run inside the group
writer's piece for it (:mod:`.journal`), so each is keyed by the table and the journal entry and
moves its chips in the transaction that journals the action. :class:`Seating` keeps the seats in
memory after each action — a bot for each bot's seat, how many hands a player has sat out — and
the room's own seat actions: unseating a player away too long, refilling bots' stacks, and
everyone leaving when the table closes.

A sit & go's or an event's table moves no money: its seats are empty escrows and its stacks are
tournament chips or points.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any, Protocol, cast

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.engine import Connection

from thirteen.bots.base import Bot
from thirteen.bots.registry import make_bot
from thirteen.engine.actions import Leave, SitIn, Timeout, TopUp, UseTimeBank
from thirteen.engine.errors import RuleError
from thirteen.engine.events import Event, HandSettled, PlayerLeft, PlayerSat, PlayerToppedUp
from thirteen.engine.state import TableState, played_at_once
from thirteen.server.db.models import Sitting, User
from thirteen.server.db.session import Database
from thirteen.server.db.writer import Prepared, inserted_id
from thirteen.server.money import ledger
from thirteen.server.tables.live import Accept, LiveTable, Seated, now

log = logging.getLogger("thirteen.server.tables")

_SITTINGS = cast(Table, Sitting.__table__)
_USERS = cast(Table, User.__table__)
# The postings' statements, built once (binding values is all each action pays for).
_OPEN_SITTING = Prepared(insert(_SITTINGS))
_CLOSE_SITTING = Prepared(
    update(_SITTINGS).where(_SITTINGS.c.id == bindparam("s_id")).values(closed_at=bindparam("s_at"))
)
_ROLE = Prepared(select(_USERS.c.role).where(_USERS.c.id == bindparam("u_id")))


class Booking(Protocol):
    """The accepted action whose chips a posting moves — the group writer's piece for it
    (``journal._Commit``): what its ledger keys and memos name."""

    @property
    def table_id(self) -> int: ...
    @property
    def table_name(self) -> str: ...
    @property
    def state_id(self) -> int: ...
    @property
    def at(self) -> float: ...
    @property
    def tournament(self) -> bool: ...


def buy_in_sync(conn: Connection, booking: Booking, event: PlayerSat, user_id: int) -> Seated:
    """A new seat: its escrow, the buy-in from the player's wallet, and its sitting."""
    escrow_id = ledger.account_id_sync(
        conn, f"escrow:t{booking.table_id}:s{event.seat}:j{booking.state_id}", "escrow", user_id
    )
    if not booking.tournament:  # a sit & go's seat stays an empty escrow: its buy-in is paid
        ledger.transfer_sync(
            conn,
            key=f"buy-in:t{booking.table_id}:j{booking.state_id}",
            debit_id=ledger.account_id_sync(conn, ledger.wallet_name(user_id), "wallet", user_id),
            credit_id=escrow_id,
            amount=event.stack,
            reason="buy-in",
            memo=f"{booking.table_name}, seat {event.seat}",
        )
    sitting = _OPEN_SITTING.run(
        conn,
        {
            "table_id": booking.table_id,
            "seat": event.seat,
            "user_id": user_id,
            "escrow_id": escrow_id,
            "opened_at": booking.at,
        },
    )
    role = _ROLE.run(conn, {"u_id": user_id}).scalar()
    sitting_id = inserted_id(sitting)
    return Seated(sitting_id, user_id, event.player, escrow_id, role == "bot")


def top_up_sync(conn: Connection, booking: Booking, who: Seated, event: PlayerToppedUp) -> None:
    ledger.transfer_sync(
        conn,
        key=f"top-up:t{booking.table_id}:j{booking.state_id}",
        debit_id=ledger.account_id_sync(
            conn, ledger.wallet_name(who.user_id), "wallet", who.user_id
        ),
        credit_id=who.escrow_id,
        amount=event.amount,
        reason="top-up",
        memo=f"{booking.table_name}, seat {event.seat}",
    )


SAT_OUT = "sat_out"
"""Unseated for sitting out longer than the table allows (its hands or its minutes)."""
TABLE_CLOSED = "table_closed"
"""Everyone leaves a table that closes."""


def leave_reason(who: Seated, event: PlayerLeft) -> str:
    """What a cash-out's ledger memo says of why the seat left: the room's own reason when it
    unseated the player (:attr:`Seated.unseating`), else the engine's ("asked")."""
    if who.unseating is not None:
        return who.unseating[1]
    if event.reason == "sat out too long":
        return "unseated after sitting out too long"
    return event.reason


def duration(seconds: float) -> str:
    """``600`` → ``"10 min"``, ``90`` → ``"90 s"``: a limit as the ledger and notices say it."""
    return f"{seconds / 60:g} min" if seconds >= 60 and seconds % 60 == 0 else f"{seconds:g} s"


def unseated_frame(table_id: int, seat: int, who: Seated, event: PlayerLeft) -> dict[str, Any]:
    """The ``unseated`` frame the room sends a player's sockets when it made them leave (before
    the update that shows the seat empty): why, and the chips that went back to the wallet."""
    assert who.unseating is not None
    code, words = who.unseating
    chips = event.stack
    money = f"your {chips:,} chips went back to your wallet" if chips else "you had no chips left"
    return {
        "type": "unseated",
        "table": table_id,
        "seat": seat,
        "reason": code,
        "chips": chips,
        "message": f"{words[0].upper()}{words[1:]}: {money}.",
    }


def cash_out_sync(conn: Connection, booking: Booking, who: Seated, reason: str) -> None:
    """A seat left: what its escrow holds back to the wallet, and its sitting closed."""
    held = ledger.cached_balance_sync(conn, who.escrow_id)
    if held > 0:
        ledger.transfer_sync(
            conn,
            key=f"cash-out:t{booking.table_id}:j{booking.state_id}:s{who.sitting_id}",
            debit_id=who.escrow_id,
            credit_id=ledger.account_id_sync(
                conn, ledger.wallet_name(who.user_id), "wallet", who.user_id
            ),
            amount=held,
            reason="cash-out",
            memo=f"{booking.table_name} ({reason})",
        )
    _CLOSE_SITTING.run(conn, {"s_id": who.sitting_id, "s_at": booking.at})


def pay_pot_sync(
    conn: Connection,
    booking: Booking,
    seated: dict[int, Seated],
    hand_id: int,
    number: int,
    event: HandSettled,
) -> None:
    """A settled hand's chips: losers pay into the pot, winners are paid from it, one transfer
    each, keyed by seat."""
    ledger.settle_pot_sync(
        conn,
        pot=f"pot:t{booking.table_id}:h{number}",
        moves=[
            (f"hand:{hand_id}:seat:{seat}", seated[seat].escrow_id, delta)
            for seat, delta in zip(event.seats, event.deltas, strict=True)
        ],
        reason="hand",
        memo=f"{booking.table_name}, hand {number}",
    )


class Seating:
    """A table's seats in memory, and the seat actions the room takes of its own."""

    def __init__(self, table: LiveTable, db: Database) -> None:
        self.table = table
        self.db = db
        self.bots: dict[int, Bot] = {}
        """The seats bots play, with the bot that plays each."""

    # ------------------------------------------------------------------ after each action
    def seat_bots(self) -> None:
        """A bot for every bot already seated (a table starting, or rebuilt)."""
        for seat in self.table.seated:
            self.sat(seat)

    def sat(self, seat: int) -> None:
        """Someone took ``seat``: a bot to play it when they are one."""
        table = self.table
        if table.seated[seat].is_bot:
            self.bots[seat] = make_bot(table.settings.bot_level, table.state.rules)

    def left(self, seat: int) -> None:
        self.table.seated.pop(seat, None)
        self.bots.pop(seat, None)

    def hand_started(self, new: TableState) -> None:
        """Count the hands each seat sits out (a seat dealt in starts again from none)."""
        for seat, who in self.table.seated.items():
            seat_state = new.seats[seat]
            sitting_out = seat_state is not None and seat_state.sitting_out
            who.hands_sat_out = who.hands_sat_out + 1 if sitting_out else 0

    # ------------------------------------------------------------------ the room's own
    async def spend_time_bank(self, accept: Accept, seat: int, deadline: float) -> bool:
        """A present player's time ran out (the caller knows they are connected): the room
        spends what their time bank holds (whole seconds, as the ``time_bank`` action does) at
        the deadline itself, before any automatic move — not for a seat leaving, sitting out, or
        already played for at once. Whether it did (``False``: the bank is empty, or the table
        moved on past the deadline)."""
        table = self.table
        who = table.seated.get(seat)
        occupant = table.state.seats[seat]
        if (
            who is None
            or occupant is None
            or occupant.leaving
            or occupant.sitting_out
            or played_at_once(table.state, seat)
        ):
            return False
        full = table.settings.time_bank_seconds
        seconds = float(int(who.time_bank(full, deadline)))
        if seconds < 1 or table.state.clock > deadline:
            return False
        kept = who.spend_bank(full, deadline, seconds)
        try:
            # journaled as the player's (no client id): a restart reads their bank back from it
            await accept(UseTimeBank(seat=seat, seconds=seconds, at=deadline), user_id=who.user_id)
        except RuleError as e:
            who.bank, who.bank_at = kept
            log.info("time bank refused", extra={"table": table.id, "code": e.code})
            return False
        except BaseException:  # not written (a lost lease, a failed commit): the bank is kept
            who.bank, who.bank_at = kept
            raise
        return True

    def notices(self, events: Sequence[Event]) -> list[tuple[int, dict[str, Any]]]:
        """The ``unseated`` frames for the seats the room made leave in ``events`` (read before
        the seats are forgotten): to whom, and what."""
        out = []
        for e in events:
            who = self.table.seated.get(e.seat) if isinstance(e, PlayerLeft) else None
            if who is not None and who.unseating is not None:
                assert isinstance(e, PlayerLeft)
                out.append((who.user_id, unseated_frame(self.table.id, e.seat, who, e)))
        return out

    async def unseat(self, accept: Accept, action: Leave | Timeout, code: str, words: str) -> bool:
        """The room makes a seat leave (``action``), saying why — in the ledger's memo and in
        the ``unseated`` frame its player gets — or logs why the table refused (``False``)."""
        who = self.table.seated.get(action.seat)
        if who is not None:
            who.unseating = (code, words)
        try:
            await accept(action)
        except RuleError as e:
            log.warning("unseat refused", extra={"table": self.table.id, "code": e.code})
            return False
        finally:
            if who is not None:
                who.unseating = None
        return True

    async def unseat_long_absent(self, accept: Accept) -> None:
        """A player who has sat out the table's number of hands leaves, with their chips."""
        table = self.table
        limit = table.settings.sit_out_hands
        for seat, who in sorted(table.seated.items()):
            if who.hands_sat_out >= limit and table.state.seats[seat] is not None:
                words = f"unseated after sitting out {limit} hand{'s' if limit != 1 else ''}"
                await self.unseat(accept, Leave(seat=seat, at=now()), SAT_OUT, words)

    async def sat_out_too_long(self, accept: Accept, seat: int, at: float) -> bool:
        """The engine's own limit (RULES §5): a seat sitting out ``sit_out_seconds`` between
        hands is unseated by a :class:`Timeout`."""
        limit = duration(self.table.state.rules.sit_out_seconds)
        words = f"unseated after sitting out {limit}"
        return await self.unseat(accept, Timeout(seat=seat, at=at), SAT_OUT, words)

    async def refill_bots(self, accept: Accept) -> None:
        """Bots top their stacks back up after a hand (from the house, through their wallets),
        so a table of bots keeps playing whatever they lose."""
        table = self.table
        for seat in sorted(self.bots):
            seat_state = table.state.seats[seat]
            who = table.seated.get(seat)
            if seat_state is None or who is None:
                continue
            max_buy_in = table.settings.max_buy_in
            amount = max_buy_in - seat_state.stack
            if amount >= max(1, max_buy_in // 2):
                async with self.db.begin() as s:
                    key = f"bot-refill:t{table.id}:j{table.state.state_id}:s{seat}"
                    await ledger.fill_wallet(s, who.user_id, amount, key=key, memo="bot refill")
                try:
                    await accept(TopUp(seat=seat, amount=amount, at=now()))
                except RuleError as e:
                    log.info("bot top-up refused", extra={"table": table.id, "code": e.code})
            seat_state = table.state.seats[seat]
            if seat_state is not None and seat_state.sitting_out and seat_state.stack > 0:
                with contextlib.suppress(RuleError):
                    await accept(SitIn(seat=seat, at=now()))

    async def leave_all(self, accept: Accept) -> None:
        """A closing table between hands: everyone leaves with their chips."""
        table = self.table
        for seat in sorted(table.seated):
            if table.state.seats[seat] is not None:
                await self.unseat(accept, Leave(seat=seat, at=now()), TABLE_CLOSED, "table closed")


__all__ = [
    "SAT_OUT",
    "TABLE_CLOSED",
    "Booking",
    "Seating",
    "buy_in_sync",
    "cash_out_sync",
    "duration",
    "leave_reason",
    "pay_pot_sync",
    "top_up_sync",
    "unseated_frame",
]
