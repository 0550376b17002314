"""``thirteen bench room``: the card room under load, over real WebSockets on loopback.

A real ``thirteen serve`` process (journaling on, SQLite in a temporary folder unless told
otherwise; or several, below) serves bot clients run here, in another process, on one asyncio
loop: accounts sign up over HTTP, an admin opens tables, the accounts sit and play legal moves
from their own views (:func:`thirteen.client.legal_move`).

What is measured:

* **idle sockets** — the server's RSS before and after opening spectator sockets on tables with
  nobody playing, divided by their number (with and without permessage-deflate offered);
* **full speed** — every seat acts as soon as its frame says so, showdowns last a moment:
  hands and actions a second, and latencies;
* **human pace** — each seat waits a random few seconds before acting; the number of tables
  steps up (the tables of earlier steps go on playing) and each step reports its latencies; the
  *knee* is the first step whose p99 is at least twice the lowest p99 before it.

Latency is from an action's send to the last of its table's sockets receiving the frame with
the ``state_id`` the action's ack names (every socket is in this process: one clock). The
server's own histogram (``thirteen_action_seconds``, arrival to the last frame queued) is read
from ``/metrics`` and reported beside it.

With ``--processes N`` the room is N ``thirteen serve`` processes on one PostgreSQL and one
Redis (throwaway ones started here, :mod:`thirteen.bench.services`, unless their URLs are
given): tables are opened through each process in turn, so each runs about 1/N of them, and the
players' requests and sockets go to every process in turn as behind a round-robin proxy, so
(N-1)/N of the sockets are relayed to their table's process over Redis. Hands, CPU and RSS are
reported per process and summed; the throwaway PostgreSQL's and Redis's CPU beside them.

Options come from :class:`~thirteen.bench.room.options.RoomOptions`: ``thirteen bench room
--quick --tables 50,100 …`` or ``THIRTEEN_BENCH_*`` variables
(:func:`~thirteen.bench.room.options.options_from_env`, for ``benchmarks/run.py``).

Its modules, from the bottom up: :mod:`~thirteen.bench.room.options` (how big and how long),
:mod:`~thirteen.bench.room.machine` (``/proc``), :mod:`~thirteen.bench.room.figures` (the
arithmetic, and what a window holds), :mod:`~thirteen.bench.room.servers` (the rooms it starts),
:mod:`~thirteen.bench.room.client` (the room as the players reach it),
:mod:`~thirteen.bench.room.players` (the seats that play), :mod:`~thirteen.bench.room.meter`
(a measurement window), :mod:`~thirteen.bench.room.report` (the report) and
:mod:`~thirteen.bench.room.load` (the load generator, the run and
:func:`~thirteen.bench.room.load.bench_room`).
"""
