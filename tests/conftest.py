"""Shared test setup: Hypothesis never times a test (time is not an assertion here)."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("THIRTEEN_REQUIRE_SERVICES") else "default")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests run last: Playwright's sync API leaves an event loop running in the main
    thread, and tests that call ``asyncio.run`` cannot run after it."""
    items.sort(key=lambda item: "tests/web/" in item.nodeid)
