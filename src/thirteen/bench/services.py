"""Throwaway services on loopback: a PostgreSQL cluster (``initdb``/``pg_ctl`` in a temporary
folder) and a ``redis-server`` keeping nothing on disk, each on a free port.

``thirteen bench room --processes N`` starts them for a room of several processes, and the
server tests (``tests/server/services.py``) start theirs from here. A missing binary raises
:class:`ServiceMissingError` (the tests turn it into a skip, or a failure in CI).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
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


def pg_bin() -> Path | None:
    """The folder of PostgreSQL's ``initdb`` and ``pg_ctl`` (Debian's newest first), if any."""
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
            raise ServiceMissingError("PostgreSQL (initdb, pg_ctl)")
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
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off "
            f"-c max_connections={max_connections}"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "start",
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
        try:
            return [int((self.data / "postmaster.pid").read_text().split()[0])]
        except (OSError, ValueError, IndexError):
            return []

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


class RedisServer:
    """``redis-server`` on a free loopback port, keeping nothing on disk."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise ServiceMissingError("Redis (redis-server)")
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="thirteen-redis-"))
        self.process = subprocess.Popen(
            [
                binary,
                *("--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(self.root)),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.process.stdout is not None
        for line in self.process.stdout:  # it says when it listens
            if "Ready to accept connections" in line:
                break
        else:
            raise RuntimeError("redis-server did not start")
        self._drain = threading.Thread(target=self.process.stdout.read, daemon=True)
        self._drain.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def pids(self) -> list[int]:
        return [self.process.pid] if self.process.poll() is None else []

    def stop(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        self._drain.join(10)
        if self.process.stdout is not None:
            self.process.stdout.close()
        shutil.rmtree(self.root, ignore_errors=True)


__all__ = ["Postgres", "RedisServer", "ServiceMissingError", "free_port", "pg_bin"]
