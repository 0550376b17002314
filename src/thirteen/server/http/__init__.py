"""The room over HTTP: the FastAPI application (``app``), what every route shares (``api``:
errors, security headers, origin and CSRF checks, who is asking), the JSON routes by concept
(``accounts``, ``lobby``, ``assist``, ``histories``, ``leaderboards``, ``tournaments``,
``events``, ``practice``, ``reviews``), the table and lobby WebSockets (``sockets``) and the
browser client's files (``static``).

Routes validate at the edge and call down; the rules of each concept live in its package.

May import: settings, metrics, db, money, tables, competitions, reviews, room.
"""
