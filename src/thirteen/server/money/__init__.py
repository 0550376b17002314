"""Money and trust: accounts, sessions and WebSocket tickets, the password policy and the
addresses each account logged in from (``accounts``), the double-entry chip ledger (``ledger``),
the audit that proves every chip and hand adds up (``audit``), the room's signature on the
histories it hands out (``signing``), and the rate limits on log-ins, password changes,
sign-ups, requests and sockets (``throttle``).

Nothing here knows a table or a competition: a seat's escrow, a hand's pot and a sit & go's
escrow are ledger accounts by name.

May import: settings, db.
"""
