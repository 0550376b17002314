"""The chaos harness (``thirteen bench chaos``): players over real WebSockets while the room is
killed with SIGKILL between two of its writes, again and again, and restarted.

Each life of the server is started with ``THIRTEEN_CHAOS_KILL_AFTER=N`` (N drawn at random), so it
kills itself at its Nth write point — right after a write, just before a commit, or just after one
(mid-deal, mid-street, mid-settlement, mid-buy-in, mid-leave: wherever the Nth falls). The harness
restarts it on the same port — forked from a template that has the room imported
(:mod:`thirteen.bench.processes`), so a life starts in a fraction of a second; the players (one
thread each, :mod:`thirteen.client`) reconnect, resend the action they got no answer to (same id:
the room answers a repeated id without acting twice) and play on. A player that runs out of chips
leaves and sits again. After the last kill a life without the switch lets every player leave, then
the harness checks:

- ``thirteen admin audit``: no chip created or lost, every hand settled once or voided and
  refunded, every seat and escrow consistent;
- every action a player saw acknowledged is in the journal (by table, account and action id);
- how the hands ended: settled (each hand in the air at a kill is resumed from the snapshot and
  the journal and settled by the next life) or voided.

Options come from ``THIRTEEN_BENCH_KILLS`` (default 50), ``THIRTEEN_BENCH_DATABASE_URL`` (a
database of its own; default a fresh SQLite file), ``THIRTEEN_BENCH_SEED`` and
``THIRTEEN_BENCH_MAX_POINTS`` (a life's write points are drawn from 20 to it; default 400 —
more makes longer lives and more hands per kill).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from thirteen.bench.processes import RoomProcess
from thirteen.bench.report import Report

PRESETS = (("chinese-1-6", 2), ("ofc-pineapple", 2), ("ofc", 2))
"""The tables: (preset, human players); each table also seats one bot."""
PASSWORD = "chaos password"
Progress = Callable[[str], None]


@dataclass
class ChaosOptions:
    kills: int = 50
    database_url: str = ""
    seed: int = 13
    min_points: int = 20
    max_points: int = 400
    """Write points a life lives through before its kill switch fires (drawn uniformly): a
    life spends some on the players' log-ins and tickets, the rest on play."""
    life_seconds: float = 60.0
    """A life that has not killed itself by then is killed by the harness (counted apart)."""


@dataclass
class ChaosResult:
    kills: int = 0
    outside_kills: int = 0
    lives: int = 0
    acked: int = 0
    resent: int = 0
    reconnects: int = 0
    hands_settled: int = 0
    hands_voided: int = 0
    audit_problems: list[str] = field(default_factory=list)
    missing_from_journal: list[str] = field(default_factory=list)
    player_errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not (self.audit_problems or self.missing_from_journal or self.player_errors)


def _free_port() -> int:
    """A free port **below the ephemeral range**: the room's port is free for a moment at each
    kill, and a port the system hands out (to a test server, a client's connection) could be
    taken in that moment; one below the range is never handed out."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    for port in random.Random().sample(range(max(1024, low - 8000), low), 200):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below the ephemeral range")


class Lives:
    """The server's successive processes on one port; ``up`` is set while one serves."""

    def __init__(self, database_url: str, folder: Path) -> None:
        self.database_url = database_url
        self.folder = folder
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.up = threading.Event()
        self.changed = threading.Condition()
        self.generation = 0
        """How many lives have started serving; players wait for the next one after a death."""
        self.process: RoomProcess | None = None
        self.log = folder / "server.log"

    def start(self, kill_after: int) -> RoomProcess:
        env = {
            **os.environ,
            "THIRTEEN_DATABASE_URL": self.database_url,
            "THIRTEEN_DATA_DIR": str(self.folder),
            "THIRTEEN_DEFAULT_TABLES": "false",
            "THIRTEEN_BOT_DELAY": "0",
            "THIRTEEN_BOT_BUDGET": "0.01",
            "THIRTEEN_ADMINS": "boss",
            "THIRTEEN_RATE_LIMITS": "false",
            "THIRTEEN_ARGON2_MEMORY_KIB": "64",
            "THIRTEEN_ARGON2_TIME_COST": "1",
            "THIRTEEN_LOG_LEVEL": "warning",
            "THIRTEEN_CHAOS_KILL_AFTER": str(kill_after),
        }
        argv = ["serve", "--host", "127.0.0.1", "--port", str(self.port)]
        process = RoomProcess(argv, env, log=self.log)
        self.process = process
        with httpx.Client(base_url=self.url, timeout=5) as http:
            deadline = time.monotonic() + 120
            while process.poll() is None and time.monotonic() < deadline:
                try:
                    if http.get("/readyz").status_code == 200:
                        with self.changed:
                            self.generation += 1
                            self.up.set()
                            self.changed.notify_all()
                        return process
                except httpx.HTTPError:
                    # not listening yet: wait for the process a moment (it may also exit)
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        process.wait(0.05)
        if process.poll() is None:
            process.kill()
            raise RuntimeError(f"the room did not start; see {self.log}")
        return process  # it died while starting (the switch can fire as it opens): a kill

    def next_life(self, after: int) -> bool:
        """Wait until a life later than ``after`` serves (``False`` past five minutes)."""
        with self.changed:
            return self.changed.wait_for(
                lambda: self.up.is_set() and self.generation > after, timeout=300
            )

    def stop(self) -> None:
        self.up.clear()
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(60)


class Player(threading.Thread):
    """One account at one table: sits, plays legal moves, survives the room's deaths."""

    def __init__(self, lives: Lives, name: str, table_id: int, preset: str, seed: int) -> None:
        super().__init__(name=f"player-{name}", daemon=True)
        self.lives = lives
        self.account = name
        self.table_id = table_id
        self.preset = preset
        self.rng = random.Random(seed)
        self.finish = threading.Event()
        self.left = threading.Event()
        self.acked: list[str] = []
        self.resent = 0
        self.reconnects = 0
        self.error: str | None = None
        self.pending: tuple[str, int | None, dict[str, Any]] | None = None
        self.serial = 0

    def run(self) -> None:
        try:
            self._run()
        except Exception as e:  # reported by the harness, never swallowed
            self.error = f"{self.account}: {type(e).__name__}: {e}"
            self.left.set()

    def _run(self) -> None:
        from websockets.exceptions import WebSocketException

        from thirteen.client import RoomClient, RoomError

        failures = 0
        while not self.left.is_set():
            generation, process = self.lives.generation, self.lives.process
            try:
                with RoomClient(self.lives.url) as client:
                    client.log_in(self.account, PASSWORD)
                    conn = client.open_table(self.table_id)
                    try:
                        self._play(conn)
                    finally:
                        conn.close()
            except (RoomError, OSError, httpx.HTTPError, TimeoutError, WebSocketException) as e:
                self.reconnects += 1
                if process is not None and _died(process):
                    failures = 0
                    if not self.lives.next_life(generation):
                        raise RuntimeError("the room did not come back") from e
                    continue
                failures += 1  # the room lives: a real failure, unless it passes on a retry
                if failures > 5:
                    raise

    def _send(self, conn: Any, action: dict[str, Any], decision: bool) -> None:
        self.serial += 1
        ident = f"{self.account}-{self.serial}"
        state_id = conn.state_id if decision else None
        self.pending = (ident, state_id, action)
        conn.act(action, state_id=state_id, ident=ident)

    def _play(self, conn: Any) -> None:
        from thirteen.client import legal_move
        from thirteen.engine import get_rules

        rules = get_rules(self.preset)
        if self.pending is not None:  # the answer was lost with the room: ask again, same id
            ident, state_id, action = self.pending
            self.resent += 1
            conn.act(action, state_id=state_id, ident=ident)
        acted_on = -1
        while True:
            if self.pending is not None:
                answer = conn.answer(self.pending[0], timeout=60)
                if answer["type"] == "ack":
                    self.acked.append(self.pending[0])
                self.pending = None
                continue
            seats = conn.view.get("seats") or []
            mine = next((s for s in seats if s and s["player"] == self.account), None)
            if conn.my_turn() and conn.state_id != acted_on:  # leaving or not: play the hand
                acted_on = conn.state_id
                self._send(conn, legal_move(conn.me, rules, self.rng), decision=True)
                continue
            if self.finish.is_set():
                if mine is None:
                    self.left.set()
                    return
                if not mine["leaving"]:
                    self._send(conn, {"type": "leave"}, decision=False)
                    continue
            elif mine is None:
                free = [i for i, s in enumerate(seats) if s is None]
                if free:
                    buy_in = conn.settings["min_buy_in"]
                    self._send(conn, {"type": "sit", "seat": free[0], "buy_in": buy_in}, False)
                    continue
            elif mine["sitting_out"] and not mine["leaving"] and conn.view.get("hand") is None:
                self._send(conn, {"type": "leave"}, decision=False)  # broke: leave, sit again
                continue
            if conn.receive(timeout=30) is None:
                raise OSError(f"the socket closed: {conn.closed}")


def _died(process: RoomProcess) -> bool:
    """Whether the room's process is dead (or dies within a few seconds: a socket can close
    an instant before the process is reaped)."""
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        return False
    return True


def _check(database_url: str, acked: dict[str, tuple[int, list[str]]]) -> tuple[Any, list[str]]:
    """The audit, and the acknowledged actions missing from the journal."""
    from sqlalchemy import select

    from thirteen.server.db.models import Hand, JournalEntry, User
    from thirteen.server.db.session import Database
    from thirteen.server.money.audit import audit

    async def main() -> tuple[Any, list[str], dict[str, int]]:
        db = Database(database_url)
        try:
            report = await audit(db)
            async with db.begin() as s:
                rows = (
                    await s.execute(
                        select(JournalEntry.table_id, User.name, JournalEntry.client_id).join(
                            User, User.id == JournalEntry.user_id
                        )
                    )
                ).all()
                statuses = (await s.execute(select(Hand.status))).scalars().all()
        finally:
            await db.close()
        journal = {(t, n, c) for t, n, c in rows}
        missing = [
            f"{name} at table {table}: {ident}"
            for name, (table, idents) in acked.items()
            for ident in idents
            if (table, name, ident) not in journal
        ]
        counts: dict[str, int] = {}
        for status in statuses:
            counts[status] = counts.get(status, 0) + 1
        return report, missing, counts

    report, missing, counts = asyncio.run(main())
    return (report, counts), missing


def run_chaos(options: ChaosOptions, progress: Progress | None = None) -> ChaosResult:
    """Run the harness; the result says what it saw (``ok`` when nothing was wrong)."""
    from thirteen.client import RoomClient

    say = progress or (lambda _: None)
    rng = random.Random(options.seed)
    result = ChaosResult()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="thirteen-chaos-") as tmp:
        folder = Path(tmp)
        database_url = options.database_url or f"sqlite+aiosqlite:///{folder / 'room.db'}"
        lives = Lives(database_url, folder)
        lives.start(0)
        players: list[Player] = []
        with RoomClient(lives.url) as boss:
            boss.sign_up("boss", "the chief's password")
            for t, (preset, humans) in enumerate(PRESETS):
                table = boss.create_table(
                    preset, bots=1, bot_level="heuristic", rules={"showdown_seconds": 0.05}
                )
                for h in range(humans):
                    name = f"p{t}{h}"
                    with RoomClient(lives.url) as client:
                        client.sign_up(name, PASSWORD)
                    players.append(
                        Player(lives, name, table["id"], preset, options.seed * 100 + t * 10 + h)
                    )
        lives.stop()  # the set-up life ends cleanly; every later one is killed
        lives.start(rng.randint(options.min_points, options.max_points))
        for player in players:
            player.start()
        while result.kills + result.outside_kills < options.kills:
            process = lives.process
            assert process is not None
            try:
                process.wait(options.life_seconds)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                result.outside_kills += 1
            else:
                if process.returncode != -signal.SIGKILL:
                    tail = lives.log.read_text(errors="replace").splitlines()[-20:]
                    raise RuntimeError(  # the folder goes with the run: its log's end here
                        f"the room exited with {process.returncode}; the end of its log:\n"
                        + "\n".join(tail)
                    )
                result.kills += 1
            lives.up.clear()
            result.lives += 1
            say(f"kill {result.kills + result.outside_kills}/{options.kills}")
            if result.kills + result.outside_kills < options.kills:
                lives.start(rng.randint(options.min_points, options.max_points))
        # the last life: no switch; everyone leaves
        lives.start(0)
        for player in players:
            player.finish.set()
        for player in players:
            player.left.wait(300)
        lives.stop()
        for player in players:
            if player.error:
                result.player_errors.append(player.error)
            elif not player.left.is_set():
                result.player_errors.append(f"{player.account} did not manage to leave")
            result.acked += len(player.acked)
            result.resent += player.resent
            result.reconnects += player.reconnects
        (report, counts), missing = _check(
            database_url, {p.account: (p.table_id, p.acked) for p in players}
        )
        result.audit_problems = list(report.problems)
        result.missing_from_journal = missing
        result.hands_settled = counts.get("settled", 0)
        result.hands_voided = counts.get("voided", 0)
    result.seconds = time.monotonic() - started
    return result


def options_from_env(environ: dict[str, str] | None = None) -> ChaosOptions:
    env = os.environ if environ is None else environ
    return ChaosOptions(
        kills=int(env.get("THIRTEEN_BENCH_KILLS", "50")),
        database_url=env.get("THIRTEEN_BENCH_DATABASE_URL", ""),
        seed=int(env.get("THIRTEEN_BENCH_SEED", "13")),
        max_points=int(env.get("THIRTEEN_BENCH_MAX_POINTS", "400")),
    )


def bench_chaos(options: ChaosOptions | None = None, progress: Progress | None = None) -> Report:
    """``thirteen bench chaos``: the harness as a report."""
    result = run_chaos(options or options_from_env(), progress)
    report = Report("chaos")
    report.rows += [
        ("kills between two writes (SIGKILL)", result.kills, "kills"),
        ("kills by the harness (a life that lasted too long)", result.outside_kills, "kills"),
        ("hands settled", result.hands_settled, "hands"),
        ("hands voided and refunded", result.hands_voided, "hands"),
        ("actions acknowledged (all found in the journal)", result.acked, "actions"),
        ("actions resent after a kill", result.resent, "actions"),
        ("reconnections", result.reconnects, "sockets"),
        ("run time", result.seconds, "s"),
    ]
    report.notes += [f"audit: {p}" for p in result.audit_problems]
    report.notes += [f"acknowledged but not journaled: {m}" for m in result.missing_from_journal]
    report.notes += [f"player: {e}" for e in result.player_errors]
    report.notes.append("clean: the audit passed" if result.ok else "NOT CLEAN")
    return report


__all__ = ["ChaosOptions", "ChaosResult", "bench_chaos", "options_from_env", "run_chaos"]
