"""Fixtures for the room: every server test runs on SQLite and on a real PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from services import Postgres, RedisServer, serve_in_thread

from thirteen.client import RoomClient
from thirteen.server.http.app import create_app
from thirteen.server.settings import Settings, load_settings


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    cluster = Postgres()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    cluster: Postgres = request.getfixturevalue("postgres")
    return cluster.new_database()


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    # argon2id at a test-sized cost: the same algorithm, less memory per hash.
    return load_settings(
        database_url=database_url,
        data_dir=tmp_path,
        argon2_memory_kib=8192,
        argon2_time_cost=1,
        default_tables=False,
        bot_delay=0,
        bot_budget=0.02,
        admins="boss",
        rate_limits=False,  # tests/server/test_limits.py turns them on
    )


@pytest.fixture
def room(settings: Settings) -> Iterator[str]:
    with serve_in_thread(create_app(settings)) as url:
        yield url


@pytest.fixture
def boss(room: str) -> Iterator[RoomClient]:
    """The room's administrator (``boss`` is an admin by the settings), signed up."""
    with RoomClient(room) as client:
        client.sign_up("boss", "the chief's password")
        yield client


@pytest.fixture
def client(room: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=room, timeout=30) as c:
        yield c
