"""``thirteen serve``: the card room over HTTP and WebSocket."""

from __future__ import annotations

from typing import Annotated

import typer

from thirteen.commands.common import fail


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
) -> None:
    """Serve the card room (settings from THIRTEEN_* variables; see the README).

    The database is migrated on start; tables that were open resume where they were. A new room
    opens a table of every preset with bots playing. SIGTERM stops taking actions, finishes
    writing, closes every socket with 1001 and exits.
    """
    from pydantic import ValidationError

    from thirteen.server.money.signing import SigningKeyError
    from thirteen.server.serve import serve
    from thirteen.server.settings import load_settings
    from thirteen.server.tables.bus import BusError

    try:
        settings = load_settings()
    except ValidationError as e:
        first = e.errors()[0]
        where = "THIRTEEN_" + "_".join(str(p) for p in first["loc"]).upper()
        fail(f"{where}: {first['msg']}.")
    print(
        f"Thirteen card room: http://{host}:{port}/  (database {settings.database_url.split('://')[0]})",
        flush=True,
    )
    try:
        serve(settings, host, port)
    except (SigningKeyError, BusError) as e:
        fail(str(e))
