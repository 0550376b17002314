"""Browser tests: Debian's Chromium driven by Playwright against a real room on a free port.

Chromium comes from the system (``/usr/bin/chromium``, Debian's ``chromium`` package, which
``.ci/run`` installs); Playwright never downloads a browser here. Without it the tests are
skipped, except in CI (``THIRTEEN_REQUIRE_SERVICES=1``), where a missing browser fails the run.

Every page a test opens is watched: a console error, an uncaught exception or a failed request
fails the test, unless the test says which ones it provokes (``page_errors.expect(...)``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Request

from thirteen.client import RoomClient
from thirteen.server.http.app import create_app
from thirteen.server.serve import serve_in_thread
from thirteen.server.settings import Settings, load_settings

CHROMIUM = Path(os.environ.get("THIRTEEN_CHROMIUM", "/usr/bin/chromium"))
REQUIRED = os.environ.get("THIRTEEN_REQUIRE_SERVICES") == "1"
PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not CHROMIUM.exists():
        if REQUIRED:
            pytest.fail(
                f"Chromium is required (THIRTEEN_REQUIRE_SERVICES=1) but {CHROMIUM} is missing"
            )
        pytest.skip(f"Chromium is not installed ({CHROMIUM})")
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'room.db'}",
        data_dir=tmp_path,
        argon2_memory_kib=8192,
        argon2_time_cost=1,
        default_tables=False,
        bot_delay=0,
        bot_budget=0.02,
        admins="boss,ref",  # ref: a second admin, who directs no event of boss's
    )


@pytest.fixture
def room(settings: Settings) -> Iterator[str]:
    """A real room (uvicorn, SQLite) on a free loopback port; its base URL."""
    with serve_in_thread(create_app(settings)) as url:
        yield url


@pytest.fixture
def boss(room: str) -> Iterator[RoomClient]:
    """An admin, over HTTP, to make tables."""
    with RoomClient(room) as client:
        client.sign_up("boss", "the chief's password")
        yield client


@dataclass
class PageErrors:
    """What went wrong on the pages of a test; checked when the test ends."""

    seen: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=list)

    def expect(self, pattern: str) -> None:
        """A console error or failed request matching ``pattern`` is part of the test."""
        self.allowed.append(re.compile(pattern))

    def note(self, text: str) -> None:
        if not any(p.search(text) for p in self.allowed):
            self.seen.append(text)

    def watch(self, page: Page) -> None:
        def console(message: ConsoleMessage) -> None:
            if message.type == "error":
                self.note(f"console: {message.text} ({message.location.get('url', '')})")

        def failed(request: Request) -> None:
            failure = request.failure or ""
            # a page torn down mid-request (navigation, test end) is not the page's failure
            if "ERR_ABORTED" not in failure:
                self.note(f"request failed: {request.method} {request.url} {failure}")

        page.on("console", console)
        page.on("pageerror", lambda error: self.note(f"uncaught: {error}"))
        page.on("requestfailed", failed)


@pytest.fixture
def page_errors() -> Iterator[PageErrors]:
    errors = PageErrors()
    yield errors
    assert errors.seen == [], "the pages reported errors:\n" + "\n".join(errors.seen)


@pytest.fixture
def new_context(browser: Browser, room: str, page_errors: PageErrors) -> Iterator[Any]:
    """Open a browser context on the room (``touch=True``, ``viewport=PHONE`` as needed); every
    page opened in it is watched for errors."""
    contexts: list[BrowserContext] = []

    def make(**options: Any) -> BrowserContext:
        touch = options.pop("touch", False)
        context = browser.new_context(
            base_url=room,
            viewport=options.pop("viewport", DESKTOP),
            has_touch=touch,
            is_mobile=touch,
            **options,
        )
        context.on("page", page_errors.watch)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def sign_up(page: Page, name: str, password: str = "a good password") -> None:
    """Open an account through the room's API in this page's context (its cookie is the page's)."""
    answer = page.request.post("/api/accounts", data={"name": name, "password": password})
    assert answer.ok, answer.text()
