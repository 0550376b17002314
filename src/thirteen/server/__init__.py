"""The card room: accounts, the chip ledger, tables over WebSocket (``thirteen serve``).

Imports the engine (and the bots to fill seats); nothing below imports it.
"""
