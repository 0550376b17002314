"""``thirteen serve`` processes that start in a fraction of a second, for what starts the room
again and again: the chaos harness kills it dozens of times a run, and the server tests kill it
and start it again mid-hand.

A process of the room spends most of its start importing — FastAPI, SQLAlchemy and Alembic, the
bots and their compiled kernels — before it listens (1.5–2.5 s on the 2-core reference
machine; the room itself opens in a tenth of that). Here a *template* process does the importing
once: multiprocessing's fork server, with the room's modules preloaded. Each room process is
forked from it and runs the same command line as ``thirteen serve`` would, in an environment of
its own given whole (nothing is inherited from the template's but the imported modules): a real
process, listening on its own port, that SIGTERM stops and SIGKILL kills like any other.

:class:`RoomProcess` answers as much of :class:`subprocess.Popen`'s interface as its users need
(``pid``, ``poll``, ``wait``, ``send_signal``, ``kill``, ``returncode``). Its output goes to a log
file (stdout and stderr together), or its stderr — where the room logs, one JSON object a line —
is read line by line from :attr:`RoomProcess.output` (stdout, then, goes nowhere).
"""

from __future__ import annotations

import multiprocessing
import os
import runpy
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from multiprocessing import forkserver
from pathlib import Path
from typing import IO

from thirteen.bench.services import die_with_parent

PRELOAD = [
    "thirteen.commands.serve",
    "thirteen.commands.admin",
    "thirteen.server.serve",
    "thirteen.server.http.app",
    "thirteen.bots.registry",
    "thirteen.client",
    "thirteen.bench.frozen",
]
"""What the template imports before any room is forked from it (what ``thirteen serve``
imports as it starts, and what its bots use) — all but the command line's own small module,
which each room runs afresh as ``python -m thirteen.cli`` would — and, last, what freezes it
all out of the rooms' collections (:mod:`thirteen.bench.frozen`)."""


def _context() -> multiprocessing.context.ForkServerContext:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


def _run(argv: list[str], env: dict[str, str], output: socket.socket | str) -> None:
    """The forked process: the environment given, the output where asked, then ``thirteen``."""
    # The template ends when whoever started it does (multiprocessing's fork server waits for
    # EOF on a pipe), and so does each room. But the fork server hands its children the pipe's
    # writing end, to live while they live: a room keeping it would keep the template alive,
    # and the template the room. Rooms let go of it.
    alive = getattr(forkserver._forkserver, "_forkserver_alive_fd", None)
    if alive is not None:
        os.close(alive)
    die_with_parent()
    os.environ.clear()
    os.environ.update(env)
    if isinstance(output, str):  # a log file: stdout and stderr
        out = err = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    else:  # stderr to the parent, stdout nowhere
        out, err = os.open(os.devnull, os.O_WRONLY), os.dup(output.fileno())
        output.close()
    os.dup2(out, 1)
    os.dup2(err, 2)
    for fd in {out, err}:
        os.close(fd)
    # the command line as `python -m thirteen.cli ARGV…` runs it (a program started by name, as
    # a subprocess would be: the harness sits below the command line, which imports it)
    sys.argv = ["thirteen", *argv]
    runpy.run_module("thirteen.cli", run_name="__main__", alter_sys=True)


class RoomProcess:
    """``thirteen ARGV…`` in a process forked from the template, with exactly ``env`` as its
    environment; its output appended to the file ``log``, or (without one) its stderr readable
    line by line from :attr:`output`."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], log: Path | None = None):
        context = _context()
        self.output: IO[str] | None = None
        theirs: socket.socket | str
        if log is None:
            ours, theirs = socket.socketpair()
            self.output = ours.makefile("r", encoding="utf-8", errors="replace")
            ours.close()  # the file keeps its own reference to the socket
        else:
            theirs = str(log)
        self._process = context.Process(
            target=_run, args=(list(argv), dict(env), theirs), name="thirteen serve"
        )
        self._process.start()
        if isinstance(theirs, socket.socket):
            theirs.close()  # the child has its copy: the output ends when the child does
        pid = self._process.pid
        assert pid is not None
        self.pid: int = pid
        self.returncode: int | None = None
        """The exit status once it ended (``-N``: killed by signal N), else ``None``."""
        self._ended = threading.Event()
        # One thread waits for the end: the fork server tells a child's status once, and two
        # threads waiting on the process at once (a harness and its players do) would race
        # for it, the loser reading nothing.
        threading.Thread(target=self._reap, name=f"reap-{pid}", daemon=True).start()

    def _reap(self) -> None:
        self._process.join()
        self.returncode = self._process.exitcode
        self._ended.set()

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the process to end; its status (:class:`subprocess.TimeoutExpired` if it
        has not ended within ``timeout`` seconds)."""
        if not self._ended.wait(timeout) or self.returncode is None:
            raise subprocess.TimeoutExpired("thirteen serve", timeout or 0.0)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if not self._ended.is_set():
            os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def close(self) -> None:
        """Release what the parent holds of it (after it ended)."""
        if self.output is not None:
            self.output.close()
        self._ended.wait()
        self._process.close()


__all__ = ["PRELOAD", "RoomProcess"]
