"""The room's tables. Money is integer chips; a transfer is immutable once written.

Times are seconds since the epoch (the server's clock, the same scale the engine's actions use).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class User(Base):
    """An account: a person, an admin, or a bot (bots are accounts too, so the ledger closes)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    """The name folded to lower case: names are unique whatever their case."""
    password_hash: Mapped[str | None] = mapped_column(String(256))
    """argon2id; ``None`` for a bot, which never logs in."""
    role: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (CheckConstraint("role IN ('player', 'admin', 'bot')", name="user_role"),)


class Session(Base):
    """A login. Only the SHA-256 of the cookie's token is stored."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)


class LedgerAccount(Base):
    """Somewhere chips can be: the house, a wallet, a seat's escrow, a hand's pot.

    ``balance`` is a cache of what the transfers say, kept in the same transaction as each
    transfer so a conditional update can refuse an overdraft; the audit proves it equal.
    """

    __tablename__ = "ledger_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(96), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        CheckConstraint("kind IN ('house', 'wallet', 'escrow', 'pot')", name="ledger_kind"),
        CheckConstraint("kind = 'house' OR balance >= 0", name="ledger_no_overdraft"),
    )


class Transfer(Base):
    """One movement of chips from one account to another. ``key`` makes a retry harmless."""

    __tablename__ = "transfers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(128), unique=True)
    debit_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"))
    credit_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"))
    amount: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(32))
    memo: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        CheckConstraint("amount > 0", name="transfer_positive"),
        CheckConstraint("debit_id <> credit_id", name="transfer_two_accounts"),
        Index("transfers_debit", "debit_id"),
        Index("transfers_credit", "credit_id"),
    )


class Ticket(Base):
    """A one-time WebSocket ticket (its SHA-256), valid for a few seconds, issued to a session:
    the socket it opens belongs to that session, and it opens nothing once the session ended."""

    __tablename__ = "tickets"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    expires_at: Mapped[float] = mapped_column(Float)
    session_hash: Mapped[str] = mapped_column(String(64))
    """The session's ``token_hash`` (no foreign key: a ticket is written by the group writer,
    which must not fail on a session ended meanwhile; redeeming it joins the session)."""


class KnownAddress(Base):
    """A client address an account logged in from: failed log-ins from elsewhere do not hold a
    log-in from here back (``money/throttle.py``). Kept a while after the last log-in."""

    __tablename__ = "known_addresses"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    last_at: Mapped[float] = mapped_column(Float)


LIVE = ("open", "closing")
"""The statuses of a table a room runs (a ``closed`` table is over, a ``broken`` one set aside)."""


class GameTable(Base):
    """A table an admin opened: its rules (the engine's full settings), stakes and seats.

    ``snapshot`` is the engine's table between hands (written when a hand settles); with the
    journal entries after ``snapshot_state_id`` it rebuilds the live table after a restart.
    """

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    preset: Mapped[str] = mapped_column(String(48))
    rules: Mapped[str] = mapped_column(Text)
    """The engine's ``Rules.to_dict()`` as JSON."""
    seats: Mapped[int] = mapped_column(Integer)
    unit: Mapped[int] = mapped_column(BigInteger)
    """Chips one point is worth."""
    min_buy_in: Mapped[int] = mapped_column(BigInteger)
    max_buy_in: Mapped[int] = mapped_column(BigInteger)
    bots: Mapped[int] = mapped_column(Integer, default=0)
    bot_level: Mapped[str] = mapped_column(String(16), default="strong")
    practice: Mapped[bool] = mapped_column(default=False)
    time_bank_seconds: Mapped[float] = mapped_column(Float, default=30.0)
    """A seat's time bank: this many seconds, refilled at this many an hour."""
    sit_out_hands: Mapped[int] = mapped_column(Integer, default=3)
    """Hands a player may sit out before their seat is given up and their chips returned."""
    status: Mapped[str] = mapped_column(String(16), default="open")
    """``open``, ``closing`` (after the hand in play), ``closed``; or ``broken``: set aside
    because its row could not be loaded (:data:`LIVE` are the statuses a room runs)."""
    broken_reason: Mapped[str | None] = mapped_column(Text, default=None)
    """Why a ``broken`` table could not be loaded (else ``None``)."""
    created_at: Mapped[float] = mapped_column(Float)
    snapshot: Mapped[str] = mapped_column(Text)
    snapshot_state_id: Mapped[int] = mapped_column(Integer, default=0)
    lease_owner: Mapped[str | None] = mapped_column(String(128), default=None)
    """The room process that runs the table now (``None``: nobody; see
    :mod:`thirteen.server.tables.leases`)."""
    lease_token: Mapped[int] = mapped_column(BigInteger, default=0)
    """The fencing token: one more at every change of owner. A write checks it is still the
    writer's, so a process that lost the table can no longer write to it."""
    tournament_id: Mapped[int | None] = mapped_column(Integer, default=None)
    """The sit & go this table plays (its stacks are tournament chips, not money)."""
    event_id: Mapped[int | None] = mapped_column(Integer, default=None)
    """The duplicate team event this table plays a round of (points, not money)."""

    __table_args__ = (
        CheckConstraint("status IN ('open', 'closing', 'closed', 'broken')", name="table_status"),
    )


class Sitting(Base):
    """A seat taken by an account, from buy-in to leaving; its chips sit in its own escrow."""

    __tablename__ = "sittings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    escrow_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"), unique=True)
    opened_at: Mapped[float] = mapped_column(Float)
    closed_at: Mapped[float | None] = mapped_column(Float)

    __table_args__ = (
        Index(
            "sittings_one_per_seat",
            "table_id",
            "seat",
            unique=True,
            sqlite_where=text("closed_at IS NULL"),
            postgresql_where=text("closed_at IS NULL"),
        ),
        Index(
            "sittings_one_seat_per_account",
            "table_id",
            "user_id",
            unique=True,
            sqlite_where=text("closed_at IS NULL"),
            postgresql_where=text("closed_at IS NULL"),
        ),
    )


class JournalEntry(Base):
    """One accepted action at a table, written before anyone hears of it.

    ``state_id`` is the table's state id after the action; ``client_id`` the id the client gave
    the action (a resend finds the first answer).
    """

    __tablename__ = "journal"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    state_id: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    client_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        UniqueConstraint("table_id", "state_id", name="journal_state"),
        Index(
            "journal_client_id",
            "table_id",
            "user_id",
            "client_id",
            unique=True,
            sqlite_where=text("client_id IS NOT NULL"),
            postgresql_where=text("client_id IS NOT NULL"),
        ),
    )


class Hand(Base):
    """A hand dealt at a table: playing, then settled once (or voided, nothing having moved)."""

    __tablename__ = "hands"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    commitment: Mapped[str] = mapped_column(String(128))
    start_state_id: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float)
    history: Mapped[str | None] = mapped_column(Text)
    """The full history (deck opened) as JSON, once the hand is over."""

    __table_args__ = (
        UniqueConstraint("table_id", "number", name="hand_number"),
        CheckConstraint("status IN ('playing', 'settled', 'voided')", name="hand_status"),
        # the leaderboards' day and week: a period's hands without reading the others
        Index("hands_finished", "finished_at", "table_id"),
    )


class HandSeat(Base):
    """An account's part in a hand: its seat and what it won or lost (for its hand list)."""

    __tablename__ = "hand_seats"

    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    delta: Mapped[int | None] = mapped_column(BigInteger)


class HandReviewRow(Base):
    """A player's review of their own seat's copy of a hand (issue 34), computed once by the
    room's review workers (:mod:`thirteen.server.reviews`) and stored here: queued
    (``pending``), claimed by a process (``running``, ``worker`` naming it, ``done`` of
    ``total`` decisions reviewed), then ``done`` (``review`` holds its JSON) or ``failed``
    (``error`` says why, in a sentence)."""

    __tablename__ = "hand_reviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"))
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    status: Mapped[str] = mapped_column(String(16))
    worker: Mapped[str | None] = mapped_column(String(128))
    """The process computing it (``room_processes.name``) while ``running``."""
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    """How many times a worker took it (a worker that died mid-review counts)."""
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int | None] = mapped_column(Integer)
    budget: Mapped[float] = mapped_column(Float)
    seed: Mapped[int] = mapped_column(Integer)
    review: Mapped[str | None] = mapped_column(Text)
    """The review's JSON (``HandReview.to_json``) once ``done``."""
    review_version: Mapped[int | None] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(Text)
    queued_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float)

    __table_args__ = (
        UniqueConstraint("hand_id", "seat", name="hand_review_seat"),
        CheckConstraint(
            "status IN ('pending', 'running', 'done', 'failed')", name="hand_review_status"
        ),
        # the queue's claim, and an account's bound on what it has queued
        Index("hand_reviews_queue", "status", "id"),
        Index("hand_reviews_account", "user_id", "status"),
    )


class Tournament(Base):
    """A sit & go: it starts when its seats fill; the buy-ins wait in its escrow account
    (``sng:{id}``) until the last player standing is known, then go out by ``payouts``.

    The unit starts at ``unit`` and rises every ``rise_every`` hands by ``rise_percent``
    (at least by one); stacks are ``starting_stack`` tournament chips each."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    preset: Mapped[str] = mapped_column(String(48))
    rules: Mapped[str] = mapped_column(Text)
    """The engine's ``Rules.to_dict()`` as JSON (the preset with the overrides)."""
    seats: Mapped[int] = mapped_column(Integer)
    buy_in: Mapped[int] = mapped_column(BigInteger)
    starting_stack: Mapped[int] = mapped_column(BigInteger)
    unit: Mapped[int] = mapped_column(BigInteger)
    rise_every: Mapped[int] = mapped_column(Integer)
    rise_percent: Mapped[int] = mapped_column(Integer)
    payouts: Mapped[str] = mapped_column(Text)
    """JSON list: the percentage of the pool paid to 1st, 2nd, … place (sums to 100)."""
    bot_level: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))

    __table_args__ = (
        CheckConstraint(
            "status IN ('registering', 'running', 'finished', 'cancelled')",
            name="tournament_status",
        ),
        CheckConstraint("seats BETWEEN 2 AND 4", name="tournament_seats"),
        CheckConstraint("buy_in >= 0 AND starting_stack > 0", name="tournament_money"),
    )


class TournamentEntry(Base):
    """A player registered for a sit & go; ``place`` and ``payout`` once they are out or won."""

    __tablename__ = "tournament_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    registered_at: Mapped[float] = mapped_column(Float)
    place: Mapped[int | None] = mapped_column(Integer)
    payout: Mapped[int | None] = mapped_column(BigInteger)
    out_at_hand: Mapped[int | None] = mapped_column(Integer)
    """The hand that took the last of their chips (``None`` for the winner)."""
    withdrawn_at: Mapped[float | None] = mapped_column(Float)
    """When they unregistered (buy-in refunded); the row stays, so its transfers' keys
    (``sng-buy-in:{tournament}:{entry}``) are never used by another registration."""

    __table_args__ = (
        UniqueConstraint("tournament_id", "place", name="tournament_place_once"),
        Index("tournament_entries_user", "user_id"),
        Index(
            "tournament_entry_once",
            "tournament_id",
            "user_id",
            unique=True,
            sqlite_where=text("withdrawn_at IS NULL"),
            postgresql_where=text("withdrawn_at IS NULL"),
        ),
    )


class DuplicateEvent(Base):
    """A duplicate team event (seed 004): teams of three meet in groups of three, each group
    on three tables dealt the same cards (:mod:`thirteen.server.competitions.events`). ``round`` is
    the round in play (0 before the start); ``schedule`` the groups of every round (JSON, set at the
    start)."""

    __tablename__ = "duplicate_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    preset: Mapped[str] = mapped_column(String(48))
    rules: Mapped[str] = mapped_column(Text)
    rounds: Mapped[int] = mapped_column(Integer)
    hands_per_round: Mapped[int] = mapped_column(Integer)
    confirm_seconds: Mapped[float] = mapped_column(Float)
    bot_level: Mapped[str] = mapped_column(String(16))
    seed: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    round: Mapped[int] = mapped_column(Integer, default=0)
    schedule: Mapped[str | None] = mapped_column(Text, default=None)
    starts_at: Mapped[float | None] = mapped_column(Float, default=None)
    director_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float, default=None)
    finished_at: Mapped[float | None] = mapped_column(Float, default=None)

    __table_args__ = (
        CheckConstraint(
            "status IN ('registering', 'running', 'finished', 'cancelled')",
            name="duplicate_event_status",
        ),
    )


class DuplicateTeam(Base):
    """A team of an event; a disqualified team is listed apart and its seats are played by
    the room's bot for the rest of the event (the other teams' comparisons stay whole)."""

    __tablename__ = "duplicate_teams"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("duplicate_events.id"))
    name: Mapped[str] = mapped_column(String(40))
    bot: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[float] = mapped_column(Float)
    disqualified_at: Mapped[float | None] = mapped_column(Float, default=None)

    __table_args__ = (UniqueConstraint("event_id", "name", name="duplicate_team_name"),)


class DuplicateMember(Base):
    """A team's player ``number`` (1-3: who plays at which of the group's tables)."""

    __tablename__ = "duplicate_members"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("duplicate_events.id"))
    team_id: Mapped[int] = mapped_column(ForeignKey("duplicate_teams.id"))
    number: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))

    __table_args__ = (
        UniqueConstraint("event_id", "user_id", name="duplicate_member_once"),
        UniqueConstraint("team_id", "number", name="duplicate_member_number"),
        CheckConstraint("number BETWEEN 1 AND 3", name="duplicate_member_numbers"),
    )


class DuplicateTable(Base):
    """One of a group's three tables in a round (``position`` 0-2: ``A1 B1 C1``,
    ``B2 C2 A2``, ``C3 A3 B3``); ``teams`` the group's team ids A, B, C as JSON."""

    __tablename__ = "duplicate_tables"

    event_id: Mapped[int] = mapped_column(ForeignKey("duplicate_events.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    grp: Mapped[int] = mapped_column(Integer, primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    teams: Mapped[str] = mapped_column(Text)

    __table_args__ = (UniqueConstraint("table_id", name="duplicate_table_once"),)


class DuplicateDeal(Base):
    """The deck order (with its salts) all three tables of a group are dealt for a hand;
    ``root`` is the deck's commitment root every one of their histories shows."""

    __tablename__ = "duplicate_deals"

    event_id: Mapped[int] = mapped_column(ForeignKey("duplicate_events.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    grp: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand: Mapped[int] = mapped_column(Integer, primary_key=True)
    deck: Mapped[str] = mapped_column(Text)
    salts: Mapped[str] = mapped_column(Text)
    root: Mapped[str] = mapped_column(String(64))


class DuplicateConfirmation(Base):
    """A player confirmed a hand's result (``hand`` 0: the round's team totals)."""

    __tablename__ = "duplicate_confirmations"

    event_id: Mapped[int] = mapped_column(ForeignKey("duplicate_events.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class DuplicateRuling(Base):
    """A director's ruling: ``foul`` (a hand not set according to the rules: seed 004 §V.2),
    ``warning`` or ``disqualify``; ``adjustments`` the points it moves, by user id (JSON);
    ``by_id`` the event's director who ruled; ``after_finish`` whether the event had finished
    (the standings say they were changed after the finish)."""

    __tablename__ = "duplicate_rulings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("duplicate_events.id"))
    kind: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    round: Mapped[int | None] = mapped_column(Integer, default=None)
    hand: Mapped[int | None] = mapped_column(Integer, default=None)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"), default=None)
    adjustments: Mapped[str] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(String(500))
    by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    at: Mapped[float] = mapped_column(Float)
    after_finish: Mapped[bool] = mapped_column(default=False)

    __table_args__ = (
        CheckConstraint("kind IN ('foul', 'warning', 'disqualify')", name="duplicate_ruling_kind"),
        Index(
            "duplicate_foul_once",
            "event_id",
            "round",
            "hand",
            "user_id",
            unique=True,
            sqlite_where=text("kind = 'foul'"),
            postgresql_where=text("kind = 'foul'"),
        ),
    )


class PracticeRun(Base):
    """A duplicate practice run (:mod:`thirteen.server.competitions.practice`): its player's private
    practice table, the seat they play from and how many deals they asked for; ``finished`` once
    they were all played, ``ended`` when the player left before."""

    __tablename__ = "practice_runs"

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    seat: Mapped[int] = mapped_column(Integer)
    deals: Mapped[int] = mapped_column(Integer)
    buy_in: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float)
    seated_at: Mapped[float | None] = mapped_column(Float)
    """When the room seated the player and the bots (``None``: not yet)."""
    finished_at: Mapped[float | None] = mapped_column(Float)

    __table_args__ = (
        CheckConstraint("status IN ('playing', 'finished', 'ended')", name="practice_status"),
        CheckConstraint("deals BETWEEN 1 AND 100", name="practice_deals"),
        Index("practice_runs_user", "user_id"),
    )


class PracticeHand(Base):
    """One hand of a duplicate practice run: the player's points, the strong bot's with the
    same cards from the same seat, and both boards to compare."""

    __tablename__ = "practice_hands"

    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("practice_runs.table_id"))
    number: Mapped[int] = mapped_column(Integer)
    player_points: Mapped[int] = mapped_column(Integer)
    bot_points: Mapped[int] = mapped_column(Integer)
    difference: Mapped[int] = mapped_column(Integer)
    """``player_points - bot_points``: above zero, the player did better than the bot."""
    boards: Mapped[str] = mapped_column(Text)
    """JSON: ``{"player": …, "bot": …}``, each seat's final board (rows, discards, foul)."""
    computed_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("practice_hands_table", "table_id", "number"),)


class RoomProcess(Base):
    """A process of the room and until when it is alive unless it beats again: the tables it
    holds (``tables.lease_owner``) are its while it is alive
    (:mod:`thirteen.server.tables.leases`)."""

    __tablename__ = "room_processes"

    name: Mapped[str] = mapped_column(String(128), primary_key=True)
    started_at: Mapped[float] = mapped_column(Float)
    alive_until: Mapped[float] = mapped_column(Float)


class Meta(Base):
    """Small facts about this database (its signing key's id, when it was created)."""

    __tablename__ = "meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


__all__ = [
    "Base",
    "DuplicateConfirmation",
    "DuplicateDeal",
    "DuplicateEvent",
    "DuplicateMember",
    "DuplicateRuling",
    "DuplicateTable",
    "DuplicateTeam",
    "GameTable",
    "Hand",
    "HandReviewRow",
    "HandSeat",
    "JournalEntry",
    "LedgerAccount",
    "Meta",
    "PracticeHand",
    "PracticeRun",
    "RoomProcess",
    "Session",
    "Sitting",
    "Ticket",
    "Tournament",
    "TournamentEntry",
    "Transfer",
    "User",
]
