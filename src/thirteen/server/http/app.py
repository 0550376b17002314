"""The room's FastAPI application: ``create_app(settings)``; the lifespan opens the database
(applying migrations) and closes it."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated

from fastapi import Depends, FastAPI
from fastapi.routing import iter_route_contexts
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.responses import Response

import thirteen
from thirteen.server.competitions.leaderboards import BoardCache
from thirteen.server.db import failpoints
from thirteen.server.db.session import Database, migrate
from thirteen.server.http import (
    accounts,
    api,
    assist,
    events,
    histories,
    leaderboards,
    lobby,
    practice,
    reviews,
    sockets,
    static,
    tournaments,
)
from thirteen.server.metrics import Metrics
from thirteen.server.money.accounts import Accounts, Me
from thirteen.server.money.signing import load_signer
from thirteen.server.money.throttle import Throttle
from thirteen.server.reviews.workers import ReviewWorkers
from thirteen.server.room import Room
from thirteen.server.settings import Settings, load_settings

log = logging.getLogger("thirteen.server")


def create_app(settings: Settings | None = None) -> FastAPI:
    """A room serving ``settings`` (from the environment when not given); its signing key is
    read (or made) here, so a bad key stops the room before it serves
    (:class:`~thirteen.server.money.signing.SigningKeyError`)."""
    settings = settings or load_settings()
    signer = load_signer(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await migrate(settings.database_url)
        db = Database(settings.database_url)
        app.state.db = db
        app.state.accounts = Accounts(db, settings)
        app.state.room = Room(db, settings, app.state.accounts, app.state.metrics)
        app.state.room.calls["hint"] = assist.hint_call(app.state)
        await app.state.room.open()
        app.state.reviews = ReviewWorkers(db, settings, app.state.room.me, app.state.metrics)
        await app.state.reviews.start()
        failpoints.arm(db, settings.chaos_kill_after)
        log.info("room open; histories signed with Ed25519 key %s", signer.key_id)
        try:
            yield
        finally:
            await app.state.reviews.close()
            await app.state.room.close()
            await app.state.throttle.close()
            await db.close()
            log.info("room closed")

    app = FastAPI(
        title="Thirteen card room",
        version=thirteen.__version__,
        lifespan=lifespan,
        docs_url=None,  # served from the packaged Swagger UI (http/static.py)
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.signer = signer
    app.state.metrics = Metrics()
    app.state.throttle = Throttle(settings)
    app.state.leaderboards = BoardCache()
    api.install(app)
    for module in (
        accounts,
        lobby,
        assist,
        histories,
        leaderboards,
        tournaments,
        events,
        practice,
        reviews,
        sockets,
    ):
        app.include_router(module.router)

    @app.get("/metrics", include_in_schema=False)
    async def metrics(_admin: Annotated[Me, Depends(api.current_admin)]) -> Response:
        """For administrators (what tables run, how busy the room is, is the operator's); a
        Prometheus scrapes ``THIRTEEN_METRICS_ADDRESS`` instead (``serve.py``)."""
        registry = app.state.metrics.registry
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)

    static.install(app)
    build_routes(app)
    return app


def build_routes(app: FastAPI) -> None:
    """Build now what FastAPI would build on a route's first request: the routes of an included
    router are made per application, lazily, with their fields (pydantic adapters, each made
    under a ``warnings.catch_warnings``, which swaps the process's one list of warning
    filters). Built here, before the room serves, a first request is no slower than the next,
    and two rooms in one process (tests, scripts) never build at once from their serving
    threads — where one's restored filters dropped the other's, and a warning became a 500."""
    for _ in iter_route_contexts(app.routes):
        pass


__all__ = ["create_app"]
