"""The card room (``thirteen serve``): accounts and chips, live tables over WebSocket, the
competitions, and the HTTP API and browser client in front of them.

The room is built by concept; each package's docstring says what it holds and what it may
import (a test keeps it so), and imports point down this list only:

- ``settings``, ``logs``, ``metrics``: what every part reads (settings from the environment,
  one JSON object a log line, the Prometheus registry).
- ``db/``: the models, migrations, the group writer, backups.
- ``money/``: accounts and sessions, the double-entry ledger, the audit, signing, rate limits.
- ``tables/``: one owner task per table and its pieces; leases, the bus and the relay for a
  room of several processes; the table protocol's messages.
- ``competitions/``: duplicate team events, sit & go, duplicate practice, leaderboards.
- ``reviews/``: hand reviews, queued in the database and computed by worker processes off the
  event loop.
- ``room``: every live table of this process, the lobby feed, and where each table runs
  (composing the pieces of ``tables/`` and the event clock).
- ``http/``: the FastAPI app, its JSON routes by concept, sockets, static files.
- ``serve``: running it all under uvicorn.

Imports the engine (and the bots to fill seats, the hand review to review hands); nothing
below imports it.

May import: nothing of the room.
"""
