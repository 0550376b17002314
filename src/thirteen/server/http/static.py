"""The browser client: ``/`` serves the single page, ``/static/…`` its modules, styles and
icon, straight from ``thirteen/web`` (plain ES modules: nothing is built, nothing fetched from
elsewhere), gzipped when the browser asks. The page is never cached without asking
(``no-cache``); static files carry ETags.

``/api/docs`` is the HTTP API's page: Swagger UI from the ``fastapi-offline`` package (made to
serve FastAPI's docs without a CDN), served by the room like its own files — FastAPI's own page
fetches it from a CDN, which the room's policy forbids — and started by ``web/js/apidocs.js``
(the policy allows no inline script either)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import fastapi_offline
from fastapi import APIRouter, FastAPI
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.staticfiles import StaticFiles

WEB = Path(__file__).resolve().parents[2] / "web"
"""Where the browser client's files are (package data)."""

router = APIRouter(include_in_schema=False)


SWAGGER_UI = Path(fastapi_offline.__file__).parent / "static"
"""Swagger UI's script and styles, as the package ships them."""
DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Thirteen card room: the HTTP API</title>
<link rel="icon" href="/static/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/api/docs/ui/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/ui/swagger-ui-bundle.js"></script>
<script src="/static/js/apidocs.js"></script>
</body>
</html>
"""


@router.get("/")
async def index() -> FileResponse:
    return FileResponse(WEB / "index.html", headers={"cache-control": "no-cache"})


@router.get("/api/docs")
async def api_docs() -> HTMLResponse:
    return HTMLResponse(DOCS_PAGE, headers={"cache-control": "no-cache"})


class _Static(StaticFiles):
    """Static files revalidated on every load (ETag), so a new release is picked up at once."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["cache-control"] = "no-cache"
        return response


def install(app: FastAPI) -> None:
    app.include_router(router)
    # compressed for phones; only the static files (no secret is ever in them, so compression
    # cannot leak one the way it can in a page that also reflects what a visitor sent)
    app.mount("/static", GZipMiddleware(_Static(directory=WEB), minimum_size=512), name="static")
    ui = _Static(directory=SWAGGER_UI)
    app.mount("/api/docs/ui", GZipMiddleware(ui, minimum_size=512), name="api-docs")


__all__ = ["WEB", "install"]
