"""What the room benchmark reads of the machine (from ``/proc``): the CPU and resident memory
of a process and its descendants, the bytes sent over loopback; the open-file limit it raises
so that thousands of sockets fit; and the cores it pins the room and the load generator to
(``--pin``), so that the room's latency is the room's and not the generator's queue; and how
fast this machine plays a hand with no room at all (:func:`engine_hand_ms`), the yardstick the
room's CPU a hand is divided by, since these machines' speed varies 2–3× from hour to hour."""

from __future__ import annotations

import contextlib
import os
import random
import resource
import time
from dataclasses import dataclass
from pathlib import Path

from thirteen.bots.arena import play
from thirteen.bots.base import RandomBot
from thirteen.engine.rules import get_rules


@dataclass(frozen=True)
class Pinning:
    """Which cores the room (its processes and its database) and the load generator run on."""

    room: frozenset[int]
    generator: frozenset[int]

    def describe(self) -> str:
        def cores(which: frozenset[int]) -> str:
            return ("core " if len(which) == 1 else "cores ") + ", ".join(map(str, sorted(which)))

        return (
            f"pinned: the room (its processes, PostgreSQL and Redis) on {cores(self.room)}, "
            f"the load generator on {cores(self.generator)}"
        )


def pinning() -> Pinning:
    """The room on the first core this process may use, the generator on the others;
    ``ValueError`` with one core."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        raise ValueError(f"--pin needs two cores; this run may use {len(cores)}")
    return Pinning(frozenset(cores[:1]), frozenset(cores[1:]))


def pin(pid: int, cores: frozenset[int]) -> None:
    """Keep process ``pid`` (0: this thread) on ``cores``; threads and children it starts
    afterwards inherit it."""
    os.sched_setaffinity(pid, cores)


def raise_fd_limit() -> int:
    """Raise this process's open-file limit to the hard limit (a server started from here
    inherits it); the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process descended from it (from ``/proc``)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(children.get(p, []))
    return found


def rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and its descendants, KiB (``VmRSS``)."""
    total = 0
    for p in process_tree(pid):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of ``pid`` and its descendants, seconds."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for p in process_tree(pid):
        with contextlib.suppress(OSError):
            parts = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(parts[11]) + int(parts[12])
    return total / ticks


def loopback_bytes() -> int | None:
    """Bytes sent over the loopback interface since boot (``/proc/net/dev``); ``None`` where
    that cannot be read."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/net/dev").read_text().splitlines():
            name, _, counters = line.partition(":")
            if name.strip() == "lo":
                return int(counters.split()[8])
    return None


BASELINE_RULES = "chinese-1-6"
BASELINE_PLAYERS = 3
"""The yardstick: ``thirteen simulate --rules chinese-1-6 --players 3`` (random players)."""


def engine_hand_ms(hands: int = 300, seed: int = 1) -> float:
    """This thread's CPU milliseconds a hand of ``thirteen simulate --rules chinese-1-6
    --players 3`` takes now: the engine alone, for the same deals every time."""
    rules = get_rules(BASELINE_RULES)
    rng = random.Random(seed)
    bots = [
        RandomBot(random.Random(rng.random()), surrender_rate=0.01) for _ in range(BASELINE_PLAYERS)
    ]
    play(rules, bots, 20, seed=seed)  # warm: the first hands load tables and caches
    started = time.thread_time()
    play(rules, bots, hands, seed=seed)
    return 1000 * (time.thread_time() - started) / hands


__all__ = [
    "Pinning",
    "cpu_seconds",
    "engine_hand_ms",
    "loopback_bytes",
    "pin",
    "pinning",
    "process_tree",
    "raise_fd_limit",
    "rss_kib",
]
