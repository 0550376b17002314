"""The browser client: ``/`` serves the single page, ``/static/…`` its modules, styles and
icon, straight from ``thirteen/web`` (plain ES modules: nothing is built, nothing fetched from
elsewhere), gzipped when the browser asks. The page is never cached without asking
(``no-cache``); static files carry ETags."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import FileResponse, Response
from starlette.staticfiles import StaticFiles

WEB = Path(__file__).resolve().parents[2] / "web"
"""Where the browser client's files are (package data)."""

router = APIRouter(include_in_schema=False)


@router.get("/")
async def index() -> FileResponse:
    return FileResponse(WEB / "index.html", headers={"cache-control": "no-cache"})


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


__all__ = ["WEB", "install"]
