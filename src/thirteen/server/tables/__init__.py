"""Live tables: one owner task per table, the only writer of its state (``owner``), and what a
room of several processes needs to run each table in exactly one of them — leases with a
fencing token (``leases``), the Redis bus between processes (``bus``), and the relay that
serves a socket held by one process at a table another runs (``relay``) — plus the table
protocol's messages and close codes (``protocol``).

A table knows competitions only through the hooks its owner calls (``TableHook``,
``DealGate``); the room attaches them.

May import: settings, metrics, db, money.
"""
