"""``thirteen admin``: the operator's tools — migrate, audit, open and close tables, roles, the
room's public key, backups."""

from __future__ import annotations

import asyncio
import csv
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from thirteen.commands.common import emit, fail

admin_app = typer.Typer(
    name="admin",
    help="The operator's tools: migrate, audit, tables, roles, the signing key, backups.",
    no_args_is_help=True,
    add_completion=False,
)
table_app = typer.Typer(help="Open and close tables.", no_args_is_help=True)
admin_app.add_typer(table_app, name="table")
sng_app = typer.Typer(
    help="Sit & go tournaments: create, list, fill with bots, cancel.", no_args_is_help=True
)
admin_app.add_typer(sng_app, name="sng")

T = TypeVar("T")


def _with_db(
    body: Callable[[Any], Awaitable[T]], database_url: str | None = None, *, existing: bool = False
) -> T:
    """Run ``body(db)`` on the configured database (or ``database_url``), migrated first. With
    ``existing``, a SQLite file that is not there is refused rather than made (a mistyped path
    would otherwise be audited as an empty room that passes). A database that cannot be reached
    is a sentence, not a traceback."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import DBAPIError

    from thirteen.server.db.session import Database, migrate, sqlite_file
    from thirteen.server.settings import load_settings

    url = database_url or load_settings().database_url
    shown = make_url(url).render_as_string(hide_password=True)
    path = sqlite_file(url) if make_url(url).get_backend_name() == "sqlite" else None
    if existing and path is not None and not path.is_file():
        fail(f"There is no database at {path}: check THIRTEEN_DATABASE_URL ({shown}).")

    async def main() -> T:
        await migrate(url)
        db = Database(url)
        try:
            return await body(db)
        finally:
            await db.close()

    try:
        return asyncio.run(main())
    except (OSError, DBAPIError) as e:
        reason = " ".join(str(getattr(e, "orig", None) or e).split())
        fail(f"The database {shown} cannot be reached: {reason}.")


@admin_app.command("migrate")
def migrate_command() -> None:
    """Bring the database (THIRTEEN_DATABASE_URL) to the newest schema."""
    from thirteen.server.db.session import migrate_sync
    from thirteen.server.settings import load_settings

    migrate_sync(load_settings().database_url)
    print("The database is up to date.")


@admin_app.command("key")
def key_command(
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the algorithm, key id and public key as JSON.")
    ] = False,
) -> None:
    """Print the room's public key (base64), as GET /api/key serves it: players check a
    history's signature with thirteen verify FILE --key KEY. Reads THIRTEEN_SIGNING_KEY or
    THIRTEEN_DATA_DIR/signing.key, making that file (mode 0600) if there is none yet."""
    from thirteen.server.money.signing import SigningKeyError, load_signer
    from thirteen.server.settings import load_settings

    try:
        signer = load_signer(load_settings())
    except SigningKeyError as e:
        fail(str(e))
    if as_json:
        emit(signer.public())
    else:
        print(signer.public_key)


@admin_app.command("audit")
def audit_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Check every chip and every hand; exit 1 with a list of what is wrong."""
    from thirteen.server.money.audit import audit

    report = _with_db(audit, existing=True)
    totals = report.totals
    assert totals is not None
    if as_json:
        emit(
            {
                "ok": report.ok,
                "accounts": totals.accounts,
                "transfers": totals.transfers,
                "issued": totals.issued,
                "held": totals.held,
                "hands": report.hands,
                "problems": report.problems,
            }
        )
    else:
        print(
            f"{totals.accounts} accounts, {totals.transfers} transfers, {report.hands} hands; "
            f"{totals.issued:,} chips issued, {totals.held:,} held."
        )
        for problem in report.problems:
            print(f"problem: {problem}")
        print(
            "The audit passed."
            if report.ok
            else f"The audit found {len(report.problems)} problems."
        )
    if not report.ok:
        raise typer.Exit(1)


@table_app.command("create")
def table_create(
    rules: Annotated[str, typer.Option("--rules", help="A preset, e.g. chinese-2-4.")],
    unit: Annotated[int, typer.Option(min=1, help="Chips one point is worth.")] = 1,
    seats: Annotated[int | None, typer.Option(min=2, max=4, help="Seats (default: most).")] = None,
    bots: Annotated[int, typer.Option(min=0, max=4, help="Seats bots fill.")] = 0,
    bot_level: Annotated[
        str, typer.Option(help="beginner, club, expert (or random, heuristic, strong).")
    ] = "strong",
    min_buy_in: Annotated[int | None, typer.Option(min=1, help="Default: 50 units.")] = None,
    max_buy_in: Annotated[int | None, typer.Option(min=1, help="Default: 200 units.")] = None,
    name: Annotated[str, typer.Option(help="The table's name in the lobby.")] = "",
    practice: Annotated[bool, typer.Option(help="A practice table (hints offered).")] = False,
    time_bank: Annotated[
        float, typer.Option(min=0, max=600, help="Seconds in a seat's time bank (refilled hourly).")
    ] = 30.0,
    sit_out_hands: Annotated[
        int, typer.Option(min=1, max=100, help="Hands a player may sit out before leaving.")
    ] = 3,
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help="A rule over the preset: NAME=VALUE (JSON value), repeatable."),
    ] = None,
) -> None:
    """Open a table; a running room picks it up within seconds and seats its bots."""
    from thirteen.server.room import TableSpec, insert_table

    overrides: dict[str, Any] = {}
    for item in set_ or []:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            fail(f"--set takes NAME=VALUE, not {item[:40]!r}.")
        try:
            overrides[key.strip()] = json.loads(raw)
        except ValueError:
            overrides[key.strip()] = raw
    spec = TableSpec(
        preset=rules,
        name=name,
        overrides=overrides,
        unit=unit,
        seats=seats,
        min_buy_in=min_buy_in,
        max_buy_in=max_buy_in,
        bots=bots,
        bot_level=bot_level,
        practice=practice,
        time_bank_seconds=time_bank,
        sit_out_hands=sit_out_hands,
    )
    table_id = _with_db(lambda db: insert_table(db, spec))
    print(f"Opened table {table_id}.")


@table_app.command("close")
def table_close(table_id: Annotated[int, typer.Argument(help="The table's id.")]) -> None:
    """Close a table: the hand in play finishes, then everyone leaves with their chips. A
    broken table (set aside: its row could not be loaded) closes at once: every seat's chips
    back to its wallet, a hand in play voided, a sit & go it played cancelled (buy-ins back)."""
    from sqlalchemy import update

    from thirteen.engine.errors import RuleError
    from thirteen.server.db.models import GameTable
    from thirteen.server.room import close_broken_table

    async def close(db: Any) -> str | None:
        async with db.begin() as s:
            done = await s.execute(
                update(GameTable)
                .where(
                    GameTable.id == table_id,
                    GameTable.status == "open",
                    GameTable.tournament_id.is_(None),  # a sit & go's closes when it ends
                )
                .values(status="closing")
            )
        if done.rowcount:
            return f"Table {table_id} is closing."
        try:
            paid = await close_broken_table(db, table_id)
        except RuleError:
            return None
        return (
            f"Broken table {table_id} is closed: {sum(paid.values()):,} chips back to "
            f"{len(paid)} account{'s' if len(paid) != 1 else ''}."
        )

    said = _with_db(close)
    if said is None:
        fail(f"There is no open table {table_id} (a sit & go's table closes when it ends).")
    print(said)


@table_app.command("list")
def table_list(
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    closed: Annotated[bool, typer.Option("--closed", help="Closed tables too.")] = False,
) -> None:
    """The room's tables, and which of its processes runs each now (by its lease); a broken
    one (set aside: its row could not be loaded) with the reason."""
    from sqlalchemy import select

    from thirteen.server.db.models import GameTable, Sitting
    from thirteen.server.tables.leases import holders

    async def rows(db: Any) -> list[dict[str, Any]]:
        running = await holders(db)
        async with db.begin() as s:
            query = select(GameTable).order_by(GameTable.id)
            if not closed:
                query = query.where(GameTable.status != "closed")
            tables = (await s.scalars(query)).all()
            seated = (
                await s.execute(select(Sitting.table_id).where(Sitting.closed_at.is_(None)))
            ).all()
        taken: dict[int, int] = {}
        for (table_id,) in seated:
            taken[table_id] = taken.get(table_id, 0) + 1
        return [
            {
                "id": t.id,
                "name": t.name,
                "preset": t.preset,
                "status": t.status,
                "seats": t.seats,
                "taken": taken.get(t.id, 0),
                "process": running.get(t.id),
                "lease_token": t.lease_token,
                "broken_reason": t.broken_reason,
            }
            for t in tables
        ]

    found = _with_db(rows, existing=True)
    if json_out:
        print(json.dumps(found, indent=2))
        return
    if not found:
        print("No tables.")
    for t in found:
        print(
            f"{t['id']:>5}  {t['preset']:<24} {t['status']:<8} {t['taken']}/{t['seats']} seated  "
            f"{t['process'] or '(no process)'}  {t['name']}"
        )
        if t["status"] == "broken":
            print(f"       set aside: {t['broken_reason']} (thirteen admin table close {t['id']})")


def _overrides(items: list[str] | None) -> dict[str, Any]:
    overrides: dict[str, Any] = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            fail(f"--set takes NAME=VALUE, not {item[:40]!r}.")
        try:
            overrides[key.strip()] = json.loads(raw)
        except ValueError:
            overrides[key.strip()] = raw
    return overrides


@sng_app.command("create")
def sng_create(
    rules: Annotated[str, typer.Option("--rules", help="A preset, e.g. chinese-1-6.")],
    seats: Annotated[int, typer.Option(min=2, max=4, help="It starts when these fill.")] = 4,
    buy_in: Annotated[int, typer.Option(min=1, help="Chips from each wallet.")] = 100,
    stack: Annotated[int, typer.Option(min=1, help="Tournament chips each starts with.")] = 1000,
    unit: Annotated[int, typer.Option(min=1, help="Tournament chips a point is worth.")] = 10,
    rise_every: Annotated[int, typer.Option(min=1, help="The unit rises every N hands.")] = 5,
    rise_percent: Annotated[int, typer.Option(min=0, help="By this many percent.")] = 50,
    payouts: Annotated[
        str | None, typer.Option(help="Percent by place, e.g. 70,30 (default 100; 70,30 at 4).")
    ] = None,
    bot_level: Annotated[str, typer.Option(help="The level of bots added later.")] = "strong",
    name: Annotated[str, typer.Option(help="Its name in the lobby.")] = "",
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help="A rule over the preset: NAME=VALUE (JSON value), repeatable."),
    ] = None,
) -> None:
    """Create a sit & go; it starts when its seats fill (a running room then opens its table)."""
    from thirteen.server.competitions.tournaments import (
        TournamentSpec,
        create_tournament,
        default_payouts,
    )

    try:
        places = (
            [int(p) for p in payouts.split(",")] if payouts is not None else default_payouts(seats)
        )
    except ValueError:
        fail(f"--payouts takes whole percentages separated by commas, not {payouts!r}.")
    spec = TournamentSpec(
        preset=rules,
        name=name,
        overrides=_overrides(set_),
        seats=seats,
        buy_in=buy_in,
        starting_stack=stack,
        unit=unit,
        rise_every=rise_every,
        rise_percent=rise_percent,
        payouts=places,
        bot_level=bot_level,
    )
    tournament_id = _with_db(lambda db: create_tournament(db, spec))
    print(f"Created sit & go {tournament_id}.")


@sng_app.command("bots")
def sng_bots(
    tournament_id: Annotated[int, typer.Argument(help="The sit & go's id.")],
    count: Annotated[
        int | None, typer.Option(min=1, max=4, help="Default: every free seat.")
    ] = None,
) -> None:
    """Register bots for a sit & go's free seats (the house stakes their buy-ins)."""
    from thirteen.server.competitions.tournaments import add_bots
    from thirteen.server.money.accounts import Accounts
    from thirteen.server.settings import load_settings

    settings = load_settings()
    table_id = _with_db(lambda db: add_bots(db, Accounts(db, settings), tournament_id, count))
    if table_id is None:
        print(f"Bots registered for sit & go {tournament_id}.")
    else:
        print(f"Bots registered; sit & go {tournament_id} starts at table {table_id}.")


@sng_app.command("cancel")
def sng_cancel(tournament_id: Annotated[int, typer.Argument(help="The sit & go's id.")]) -> None:
    """Cancel a sit & go before it starts: every buy-in goes back."""
    from thirteen.server.competitions.tournaments import cancel

    _with_db(lambda db: cancel(db, tournament_id))
    print(f"Sit & go {tournament_id} is cancelled; every buy-in went back.")


@sng_app.command("list")
def sng_list(
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Sit & gos registering or running, and those that ended in the last day."""
    from thirteen.server.competitions.tournaments import listing

    found = _with_db(listing, existing=True)
    if json_out:
        print(json.dumps(found, indent=2))
        return
    if not found:
        print("No sit & gos.")
    for t in found:
        table = f"table {t['table_id']}" if t["table_id"] is not None else "no table yet"
        print(
            f"{t['id']:>5}  {t['preset']:<24} {t['status']:<11} {t['registered']}/{t['seats']} "
            f"buy-in {t['buy_in']:,}  pool {t['pool']:,}  {table}  {t['name']}"
        )


@admin_app.command("export")
def export(
    directory: Annotated[Path, typer.Argument(help="A folder to write into (made if missing).")],
) -> None:
    """Export everything: every finished hand's full history and each seat's copy (JSON and
    text, as thirteen verify reads them), and the whole ledger as ledger.csv."""
    from sqlalchemy import select

    from thirteen.commands.histories import HistoryWriter, history_name
    from thirteen.engine.history import history_from_json
    from thirteen.server.db.models import GameTable, Hand, LedgerAccount, Transfer

    writer = HistoryWriter(directory)

    async def body(db: Any) -> int:
        async with db.snapshot() as s:
            names = {a.id: a.name for a in (await s.scalars(select(LedgerAccount))).all()}
            transfers = (await s.scalars(select(Transfer).order_by(Transfer.id))).all()
            presets = {t.id: t.preset for t in (await s.scalars(select(GameTable))).all()}
            hands = (
                await s.scalars(select(Hand).where(Hand.history.is_not(None)).order_by(Hand.id))
            ).all()
        with (directory / "ledger.csv").open("w", newline="", encoding="utf-8") as out:
            rows = csv.writer(out)
            rows.writerow(["id", "at", "from", "to", "amount", "reason", "memo", "key"])
            for t in transfers:
                rows.writerow(
                    [
                        t.id,
                        f"{t.created_at:.3f}",
                        names[t.debit_id],
                        names[t.credit_id],
                        t.amount,
                        t.reason,
                        t.memo,
                        t.key,
                    ]
                )
        for hand in hands:
            history = history_from_json(json.loads(hand.history or "{}"))
            writer.write(history, history_name(presets[hand.table_id], history, hand.table_id))
        return len(transfers)

    transfers = _with_db(body, existing=True)
    print(f"{writer.summary()}; {transfers} transfers in {directory / 'ledger.csv'}.")


@admin_app.command("backup")
def backup_command(
    target: Annotated[Path, typer.Argument(help="The backup file to write (must not exist).")],
) -> None:
    """Back up the room's database while it runs (SQLite online backup, or pg_dump)."""
    from thirteen.server.db.backup import backup
    from thirteen.server.settings import load_settings

    print(f"Backed up to {backup(load_settings().database_url, target)}.")


@admin_app.command("restore")
def restore_command(
    source: Annotated[Path, typer.Argument(help="A file written by thirteen admin backup.")],
    into: Annotated[
        str | None,
        typer.Option(help="The empty database to restore into; default THIRTEEN_DATABASE_URL."),
    ] = None,
) -> None:
    """Restore a backup into an empty database, then audit it."""
    from thirteen.server.db.backup import restore
    from thirteen.server.money.audit import audit
    from thirteen.server.settings import load_settings

    database_url = into or load_settings().database_url
    restore(database_url, source)
    report = _with_db(audit, database_url)
    for problem in report.problems:
        print(f"problem: {problem}")
    if not report.ok:
        print(f"Restored, but the audit found {len(report.problems)} problems.")
        raise typer.Exit(1)
    print(f"Restored {source}; the audit passed ({report.hands} hands).")


@admin_app.command("promote")
def promote(
    name: Annotated[str, typer.Argument(help="The account's name.")],
    role: Annotated[str, typer.Option(help="admin or player.")] = "admin",
) -> None:
    """Make an account an administrator (or a player again)."""
    from thirteen.server.money.accounts import AccountError, Accounts
    from thirteen.server.settings import load_settings

    if role not in ("admin", "player"):
        fail(f"A role is admin or player, not {role[:20]!r}.")

    async def body(db: Any) -> None:
        await Accounts(db, load_settings()).set_role(name, role)

    try:
        _with_db(body)
    except AccountError as e:
        fail(e.message)
    print(f"{name} is now {'an admin' if role == 'admin' else 'a player'}.")
