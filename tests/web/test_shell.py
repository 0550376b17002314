"""The page shell: served by the room, strict CSP, no console errors, nothing fetched elsewhere."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Page, expect

from thirteen.server.http.static import WEB


def test_the_room_serves_its_page_with_a_strict_policy(room: str, new_context: Any) -> None:
    context = new_context()
    page: Page = context.new_page()
    origins: set[str] = set()
    page.on("request", lambda request: origins.add(request.url.split("/")[2]))
    response = page.goto("/")
    assert response is not None
    assert response.ok
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    expect(page.get_by_role("navigation", name="Room")).to_be_visible()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    # every request the page made went to the room itself
    assert origins == {room.split("/")[2]}


def test_the_page_is_small() -> None:
    """Every file of the client is ours and the whole page stays small (no bundled libraries)."""
    total = sum(p.stat().st_size for p in WEB.rglob("*") if p.is_file())
    assert 0 < total < 400_000


def test_static_files_are_compressed_for_the_browser(room: str) -> None:
    with httpx.Client(base_url=room) as http:
        plain = http.get("/static/js/table/table.js", headers={"accept-encoding": "identity"})
        packed = http.get("/static/js/table/table.js", headers={"accept-encoding": "gzip"})
    assert plain.status_code == packed.status_code == 200
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.text == plain.text  # httpx unpacks it: the same file
    assert int(packed.headers["content-length"]) < len(plain.content) / 2


def test_the_api_docs_come_from_the_room_and_work_under_its_policy(
    room: str, new_context: Any
) -> None:
    """``/api/docs`` is Swagger UI packaged with the room (not fetched from a CDN, which the
    room's own policy forbids): it lists the room's operations, with no console error."""
    page: Page = new_context().new_page()
    origins: set[str] = set()
    page.on("request", lambda request: origins.add(request.url.split("/")[2]))
    response = page.goto("/api/docs")
    assert response is not None
    assert response.ok
    assert "unsafe-inline" not in response.headers["content-security-policy"]
    expect(page.get_by_text("Thirteen card room").first).to_be_visible()
    expect(page.get_by_text("/api/tables", exact=True).first).to_be_visible()
    assert origins == {room.split("/")[2]}
