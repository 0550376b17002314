"""Throwaway services on loopback: a PostgreSQL cluster (``initdb`` in a temporary folder) and
a ``redis-server`` keeping nothing on disk, each on a free port.

``thirteen bench room --processes N`` starts them for a room of several processes, and the
server tests (``tests/server/services.py``) start theirs from here. A missing binary raises
:class:`ServiceMissingError` (the tests turn it into a skip, or a failure in CI).

Each service is a child of the thread that starts it and dies with it (Linux's parent-death
signal, set by util-linux's ``setpriv``; :func:`die_with_parent` for our own processes): a run
killed with SIGKILL leaves no server behind.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path


class ServiceMissingError(RuntimeError):
    """A service's binaries are not installed."""

    def __init__(self, what: str) -> None:
        super().__init__(f"{what} is not installed")
        self.what = what


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


PR_SET_PDEATHSIG = 1
"""prctl(2)'s option: the signal a process gets when the thread that started it ends."""


def die_with_parent() -> None:
    """Have this process killed (SIGKILL) when its parent ends, however it ends (Linux; a no-op
    elsewhere)."""
    libc = ctypes.util.find_library("c")
    if libc is None or not sys.platform.startswith("linux"):
        return
    ctypes.CDLL(libc, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def dying_with_us(command: list[str], user: str | None = None) -> list[str]:
    """``command`` run (as ``user``, when given: we are root) so that it dies with the thread
    that starts it; as it is where ``setpriv`` is missing (not Linux)."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return ["runuser", "-u", user, "--", *command] if user else command
    who = [f"--reuid={user}", f"--regid={user}", "--init-groups"] if user else []
    return [setpriv, *who, "--pdeathsig", "KILL", "--", *command]


def pg_bin() -> Path | None:
    """The folder of PostgreSQL's ``initdb`` and ``postgres`` (Debian's newest first), if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class Postgres:
    """A PostgreSQL cluster in a temporary folder, owned by a non-root user when we are root;
    durability off (``fsync``, ``synchronous_commit``): it is thrown away afterwards."""

    def __init__(self, max_connections: int = 200) -> None:
        bindir = pg_bin()
        if bindir is None:
            raise ServiceMissingError("PostgreSQL (initdb, postgres)")
        self.bindir = bindir
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="thirteen-pg-"))
        self.data = self.root / "data"
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres"
            try:
                entry = pwd.getpwnam(self.user)
            except KeyError:
                subprocess.run(["useradd", "--system", self.user], check=True)
                entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "thirteen", "--auth=trust", "-E", "UTF8")
        options = [
            *("-D", str(self.data), "-p", str(self.port), "-k", str(self.root)),
            *("-c", "listen_addresses=127.0.0.1", "-c", f"max_connections={max_connections}"),
            *("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"),
        ]
        # the postmaster itself is our child (not pg_ctl's), so it can die with us
        self.process = subprocess.Popen(
            dying_with_us([str(self.bindir / "postgres"), *options], self.user),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self._drain = _wait_for(
            self.process, "database system is ready to accept connections", "postgres"
        )
        self.counter = 0

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bindir / tool), *args]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+asyncpg://thirteen@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        self.counter += 1
        name = f"t{self.counter}"
        psql = [str(self.bindir / "psql"), "-h", "127.0.0.1", "-p", str(self.port)]
        subprocess.run(
            [*psql, "-U", "thirteen", "-d", "postgres", "-q", "-c", f"CREATE DATABASE {name}"],
            check=True,
            capture_output=True,
        )
        return self.url(name)

    def pids(self) -> list[int]:
        """The postmaster's process id (its backends are its children), if it runs."""
        return [self.process.pid] if self.process.poll() is None else []

    def stop(self) -> None:
        try:
            self.process.send_signal(signal.SIGQUIT)  # an immediate shutdown
            self.process.wait(30)
        finally:
            _close(self.process, self._drain)
            shutil.rmtree(self.root, ignore_errors=True)


def _wait_for(process: subprocess.Popen[str], ready: str, name: str) -> threading.Thread:
    """Read ``process``'s output until it says ``ready`` (:class:`RuntimeError` if it ends
    first); then a thread goes on reading it, so the process never blocks on a full pipe."""
    assert process.stdout is not None
    seen: list[str] = []
    for line in process.stdout:
        seen.append(line)
        if ready in line:
            break
    else:
        process.wait(30)
        raise RuntimeError(f"{name} did not start:\n" + "".join(seen[-20:]))
    drain = threading.Thread(target=process.stdout.read, daemon=True)
    drain.start()
    return drain


def _close(process: subprocess.Popen[str], drain: threading.Thread) -> None:
    drain.join(10)
    if process.stdout is not None:
        process.stdout.close()


class RedisServer:
    """``redis-server`` on a free loopback port, keeping nothing on disk."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise ServiceMissingError("Redis (redis-server)")
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="thirteen-redis-"))
        self.process = subprocess.Popen(
            dying_with_us(
                [
                    binary,
                    *("--port", str(self.port), "--bind", "127.0.0.1"),
                    *("--save", "", "--appendonly", "no", "--dir", str(self.root)),
                ]
            ),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self._drain = _wait_for(self.process, "Ready to accept connections", "redis-server")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def pids(self) -> list[int]:
        return [self.process.pid] if self.process.poll() is None else []

    def stop(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        _close(self.process, self._drain)
        shutil.rmtree(self.root, ignore_errors=True)


__all__ = [
    "Postgres",
    "RedisServer",
    "ServiceMissingError",
    "die_with_parent",
    "dying_with_us",
    "free_port",
    "pg_bin",
]
