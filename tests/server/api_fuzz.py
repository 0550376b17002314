"""Schemathesis against a live room's ``/openapi.json``: every operation, with requests that
follow the schema and requests that break it, as a visitor, a player and an admin.

Checks: no 5xx, every status documented, every body and content type as documented, a request
the schema allows never refused for its shape (422), one it forbids never accepted. A request
the schema allows may still be refused for what it asks (400, 401, 403, 404, 409): a name taken,
a table with more bots than seats.

Used by tests/server/test_openapi.py (a few examples) and scripts/fuzz_room.py (many).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import hypothesis.strategies as st
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode

from thirteen.client import RoomClient

CHECKS = {
    # "positive" data the room may still refuse for what it asks, never for its shape (422)
    "positive_data_acceptance": {"expected-statuses": ["2xx", "400", "401", "403", "404", "409"]},
}
FRESH_SESSION = {("DELETE", "/api/session"), ("POST", "/api/session"), ("POST", "/api/password")}
"""Operations that end or replace the session they are sent with: each gets a session of its own."""
WHO = ("visitor", "player", "admin")


@dataclass
class ApiReport:
    examples: Counter[str] = field(default_factory=Counter)
    statuses: Counter[int] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.examples.values())


@dataclass
class Identity:
    """An account the fuzzer sends requests as (its name and password, for fresh sessions)."""

    client: RoomClient
    password: str

    def credentials(self, fresh: bool) -> tuple[dict[str, str], dict[str, str]]:
        """Cookies and headers for one request; ``fresh`` logs in anew for it."""
        client = self.client
        if fresh:
            client = RoomClient(client.base_url)
            client.log_in(self.client.name, self.password)
        cookies = dict(client.http.cookies)
        if fresh:
            client.close()
        return cookies, {"x-csrf-token": client.csrf}


def has_inputs(operation: Any) -> bool:
    parts = (operation.path_parameters, operation.query, operation.headers, operation.body)
    return any(len(part) for part in parts)


def fuzz_api(
    url: str,
    identities: dict[str, Identity],
    *,
    examples: int,
    pinned: dict[str, dict[str, Any]] | None = None,
    report: ApiReport | None = None,
    stop_on_failure: bool = True,
    progress: Callable[[str], None] | None = None,
) -> ApiReport:
    """Run ``examples`` examples per operation and mode; ``pinned`` path parameters (by name)
    give extra runs against things that exist (a real hand, a real table)."""
    report = report or ApiReport()
    config = schemathesis.Config.from_dict({"checks": CHECKS})
    schema = schemathesis.openapi.from_url(f"{url}/openapi.json", config=config)
    for result in schema.get_all_operations():
        operation = result.ok()
        runs: list[tuple[str, Any]] = [("positive", operation.as_strategy(GenerationMode.POSITIVE))]
        if has_inputs(operation):
            runs.append(("negative", operation.as_strategy(GenerationMode.NEGATIVE)))
        names = {p.name for p in operation.path_parameters}
        for name, value in (pinned or {}).items():
            if name in names and set(value) >= names:
                fixed = {k: v for k, v in value.items() if k in names}
                runs.append((f"{name}", operation.as_strategy(path_parameters=fixed)))
        for mode, strategy in runs:
            label = f"{operation.label} [{mode}]"
            if progress is not None:
                progress(label)
            _run(url, identities, operation, strategy, label, examples, report, stop_on_failure)
    return report


def _run(
    url: str,
    identities: dict[str, Identity],
    operation: Any,
    strategy: Any,
    label: str,
    examples: int,
    report: ApiReport,
    stop_on_failure: bool,
) -> None:
    fresh = (operation.method.upper(), operation.path) in FRESH_SESSION

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(case=strategy, who=st.sampled_from(WHO))
    def check(case: Any, who: str) -> None:
        cookies: dict[str, str] = {}
        headers: dict[str, str] = {}
        if who in identities:
            cookies, headers = identities[who].credentials(fresh)
        report.examples[label] += 1
        try:
            response = case.call(base_url=url, cookies=cookies, headers=headers)
            report.statuses[response.status_code] += 1
            case.validate_response(response, headers=headers)
        except (AssertionError, BaseExceptionGroup) as e:
            if stop_on_failure:
                raise
            report.failures.append(f"{label} as {who}: {str(e)[:2000]}")

    check()


__all__ = ["ApiReport", "Identity", "fuzz_api"]
