"""Live tables: one owner task per table, the only writer of its state (``owner``), and what a
room of several processes needs to run each table in exactly one of them — leases with a
fencing token (``leases``), the Redis bus between processes (``bus``), and the relay that
serves a socket held by one process at a table another runs (``relay``) — plus the table
protocol's messages and close codes (``protocol``).

The owner is the face of pieces it composes, each holding the table's shared memory (``live``:
its settings, state and seats): the hand loop that takes requests and due actions one at a time
and accepts each action (``hands``), with its bots thinking (``thinking``) and a player's
requests made engine actions and answered once (``requests``); seating and money — the seats,
the room's own seat actions and the ledger's postings (``seating``); persistence — the group
writer's piece that journals an action and moves its chips, the hand's history, snapshots
(``journal``), and rebuilding an owner from the database (``resume``); and broadcasting —
watchers, their frames, presence and the lobby's entry (``broadcast``).

The room composes three pieces from here: where tables run (``placement``: which tables this
process takes, its leases' renewal, handing tables over, finding a table's process), the
lobby's feed (``lobby``: the lobby's watchers and the entries of every process's tables), and the
table sockets by the session that opened them (``sessions``: closed on every process when the
session ends).

A table knows competitions only through the hooks its owner calls (``TableHook``,
``DealGate``); the room attaches them (through ``placement``'s ``attach``), and tells the
lobby which tables it lists.

May import: settings, metrics, db, money.
"""
