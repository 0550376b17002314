"""Shared test setup: Hypothesis never times a test (time is not an assertion here)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from cli_helpers import CLI, run_cli
from thirteen.bench.services import die_with_parent

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


def pytest_configure(config: pytest.Config) -> None:
    """A worker of pytest-xdist's dies with the run that started it (and its services with it:
    :mod:`thirteen.bench.services`), so a run killed with SIGKILL leaves nothing behind.

    With pytest-xdist's workers (``-n``), browser tests and the others need separate runs, as
    ``make test`` makes them: a worker takes tests in any order, and after a browser test its
    main thread has Playwright's event loop running, where ``asyncio.run`` cannot run."""
    if hasattr(config, "workerinput"):
        die_with_parent()
        return
    if not getattr(config.option, "numprocesses", None):
        return
    web = (config.rootpath / "tests" / "web").resolve()
    ignored = {Path(p).resolve() for p in config.getoption("ignore") or []}
    paths = [Path(str(a).split("::")[0]).resolve() for a in config.args]
    with_web = web not in ignored and any(
        p.is_relative_to(web) or web.is_relative_to(p) for p in paths
    )
    with_others = any(not p.is_relative_to(web) for p in paths)
    if with_web and with_others:
        raise pytest.UsageError(
            "with -n, run the browser tests (tests/web) apart from the others, as `make test`"
            " does: pytest -n 2 --ignore=tests/web, then pytest -n 2 tests/web"
        )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests run last: Playwright's sync API leaves an event loop running in the main
    thread, and tests that call ``asyncio.run`` cannot run after it."""
    items.sort(key=lambda item: "tests/web/" in item.nodeid)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> CLI:
    """``thirteen`` run in this process: ``cli(args, stdin="")`` is what a shell would see."""
    return lambda args, stdin="": run_cli(args, capsys, monkeypatch, stdin)
