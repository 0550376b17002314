"""Schemathesis against a live room's ``/openapi.json``: every operation, with requests that
follow the schema and requests that break it, as a visitor, a player and an admin.

Checks: no 5xx, every status documented, every body and content type as documented, a request
the schema allows never refused for its shape (422), one it forbids never accepted. A request
the schema allows may still be refused for what it asks (400, 401, 403, 404, 409): a name taken,
a table with more bots than seats.

A pass of its own (:func:`poison_bodies`) sends every JSON body the schema describes with each
of its fields poisoned in turn — non-finite numbers, huge integers, deep nesting (as raw JSON:
what no encoder writes, so Schemathesis never does) — with an unknown key, and with every rule
setting poisoned in every object field (``rules``): refused with the room's error body, never a
5xx.

Used by tests/server/test_openapi.py (a few examples) and scripts/fuzz_room.py (many).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import hypothesis.strategies as st
import schemathesis
from hypothesis import HealthCheck, given, settings
from poison import NUMBERS, POISONS, RULE_NUMBERS, UNKNOWN_KEY
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


def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    options = [s for s in schema.get("anyOf", []) if s.get("type") != "null"]
    return _resolve(spec, options[0]) if options else schema


def _sample(name: str, schema: dict[str, Any]) -> Any:
    """A value the schema allows for a required field (one that reaches the room's checks)."""
    if "default" in schema:
        return schema["default"]
    kind = schema.get("type")
    if name == "preset":
        return "chinese-1-6"
    return {"integer": 1, "number": 1, "boolean": False, "array": [], "object": {}}.get(
        str(kind), "fuzzing-value"
    )


def _body(base: dict[str, Any], key: str, raw: str) -> str:
    """``base`` as JSON with ``key`` set to ``raw`` JSON text (written as is)."""
    fields = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in base.items() if k != key]
    return "{" + ", ".join([*fields, f"{json.dumps(key)}: {raw}"]) + "}"


def poison_bodies(
    url: str,
    identity: Identity,
    *,
    path_values: dict[str, Any],
    report: ApiReport | None = None,
) -> ApiReport:
    """Every operation with a JSON body, sent as ``identity`` (an admin reaches every check)
    with each field poisoned by each of :data:`poison.POISONS`, with an unknown key, and with
    each rule setting poisoned in each object field: the room answers with its error body and
    a 4xx — never a 5xx, never a poisoned rule accepted."""
    report = report or ApiReport()
    spec = httpx.get(f"{url}/openapi.json", timeout=30).json()
    with httpx.Client(base_url=url, timeout=30) as http:
        for path, item in spec["paths"].items():
            for method, operation in item.items():
                content = operation.get("requestBody", {}).get("content", {})
                if "application/json" not in content:
                    continue
                schema = _resolve(spec, content["application/json"]["schema"])
                fields = {k: _resolve(spec, v) for k, v in schema.get("properties", {}).items()}
                base = {k: _sample(k, fields[k]) for k in schema.get("required", [])}
                bodies = [_body(base, key, raw) for key in fields for raw in POISONS]
                bodies.append(_body(base, UNKNOWN_KEY, "1"))
                rules = [k for k, v in fields.items() if v.get("type") == "object"]
                poisoned_rules = [
                    _body(base, key, f'{{"{setting}": {NUMBERS[n % len(NUMBERS)]}}}')
                    for key in rules
                    for n, setting in enumerate(RULE_NUMBERS)
                ]
                fresh = (method.upper(), path) in FRESH_SESSION
                address = path.format(**{k: path_values.get(k, 1) for k in _names(path)})
                label = f"{method.upper()} {path} [poison]"
                for body in bodies + poisoned_rules:
                    cookies, headers = identity.credentials(fresh)
                    http.cookies.clear()
                    http.cookies.update(cookies)
                    answer = http.request(
                        method.upper(),
                        address,
                        content=body,
                        headers={**headers, "content-type": "application/json"},
                    )
                    report.examples[label] += 1
                    report.statuses[answer.status_code] += 1
                    problem = _refused_properly(answer, body in poisoned_rules)
                    if problem:
                        report.failures.append(f"{label}: {problem}; body {body[:120]}")
    return report


def _names(path: str) -> list[str]:
    return [part[1:-1] for part in path.split("/") if part.startswith("{")]


def _refused_properly(answer: httpx.Response, must_refuse: bool) -> str:
    if answer.status_code >= 500:
        return f"{answer.status_code} {answer.text[:200]}"
    if answer.status_code < 400:
        return f"accepted ({answer.status_code})" if must_refuse else ""
    try:
        error = answer.json()["error"]
    except (ValueError, KeyError, TypeError):
        return f"{answer.status_code} without the room's error body: {answer.text[:200]}"
    if not (isinstance(error.get("code"), str) and str(error.get("message", "")).endswith(".")):
        return f"{answer.status_code} with an error that is not a code and a sentence: {error}"
    return ""


__all__ = ["ApiReport", "Identity", "fuzz_api", "poison_bodies"]
