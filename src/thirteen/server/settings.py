"""The room's settings, from ``THIRTEEN_*`` environment variables (pydantic-settings).

Secrets come from the environment only, never from the repository; a missing signing key is
generated into the data folder on first start so ``make run`` works on a fresh machine.

May import: nothing of the room.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from limits import RateLimitItem, parse_many
from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything an operator sets. Each field is the variable ``THIRTEEN_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix="THIRTEEN_", extra="ignore", frozen=True)

    database_url: str = Field(
        default="sqlite+aiosqlite:///var/thirteen.db",
        description="SQLAlchemy URL: sqlite+aiosqlite:///PATH or postgresql+asyncpg://USER@HOST/DB.",
    )
    data_dir: Path = Field(
        default=Path("var"), description="Where the room keeps files (SQLite, its signing key)."
    )
    signing_key: SecretStr | None = Field(
        default=None,
        description="The room's Ed25519 key that signs every hand history it hands out: the base64 "
        "of the 32-byte raw private key. Unset: <data_dir>/signing.key, made (mode 0600) on "
        "first start.",
    )
    public_origin: str = Field(
        default="",
        description="The origin browsers use, e.g. https://cards.example.com; empty accepts the "
        "request's own host (fine on loopback).",
    )
    secure_cookies: bool = Field(
        default=False, description="Mark cookies Secure (set this when served over TLS)."
    )
    session_days: int = Field(default=30, ge=1, le=365, description="How long a login lasts.")
    signup_grant: int = Field(
        default=10_000, ge=0, description="Play-money chips the house gives each new account."
    )
    argon2_time_cost: int = Field(default=3, ge=1, le=10, description="argon2id passes.")
    argon2_memory_kib: int = Field(
        default=65_536, ge=8, le=1_048_576, description="argon2id memory per hash, KiB."
    )
    admins: str = Field(
        default="",
        description="Comma-separated account names that are administrators (from sign-up on).",
    )
    default_tables: bool = Field(
        default=True,
        description="Open a table of every preset, with bots playing, in a room that has none.",
    )
    bot_budget: float = Field(
        default=0.5, gt=0, le=30, description="Seconds a bot may think about one decision."
    )
    bot_delay: float = Field(
        default=1.0,
        ge=0,
        le=30,
        description="Seconds a bot waits before it acts, so people can follow its play.",
    )
    discover_seconds: float = Field(
        default=2.0,
        gt=0,
        le=60,
        description="How often the room looks for tables opened or closed by thirteen admin.",
    )
    redis_url: SecretStr | None = Field(
        default=None,
        description="redis://HOST:PORT/DB of the Redis that joins several room processes on one "
        "PostgreSQL: frames for sockets held by another process and lobby updates travel over "
        "its pub/sub, and the rate limits are counted there. Unset: one process.",
    )
    process_name: str = Field(
        default="",
        max_length=128,
        description="This process's name among the room's processes; each running process "
        "needs its own, and a process restarted under its name takes its tables back at once. "
        "Unset: HOST:PORT under thirteen serve.",
    )
    lease_seconds: float = Field(
        default=5.0,
        ge=1,
        le=60,
        description="How long a process's hold on its tables lasts unless renewed (it renews "
        "every third of it): another process takes over a dead one's tables after this.",
    )
    metrics_address: str = Field(
        default="",
        pattern=r"^(|[A-Za-z0-9.:\[\]-]+:[0-9]{1,5})$",
        description="HOST:PORT where /metrics is served to anyone who reaches it, for a "
        "Prometheus on a private network (e.g. 127.0.0.1:9100). On the room's own address "
        "/metrics answers administrators only. Unset: no such address.",
    )
    ws_compression: bool = Field(
        default=True,
        description="Compress WebSocket frames (permessage-deflate, by Intel's ISA-L) for clients "
        "that offer it, as browsers do: a hand's frames take about a quarter of the bytes, for "
        "about 7 % more CPU a hand. Turn off where bandwidth is free and CPU is not.",
    )
    ws_ping_seconds: float = Field(
        default=5.0,
        ge=0.1,
        le=600.0,
        description="Seconds between two WebSocket protocol pings the room sends each socket "
        "(browsers and WebSocket libraries answer them by themselves).",
    )
    ws_ping_timeout_seconds: float = Field(
        default=10.0,
        ge=0.1,
        le=600.0,
        description="A socket that leaves a ping unanswered this long is closed: a connection "
        "that died silently is gone within ws_ping_seconds plus this, and its seat shows as "
        "disconnected to the table.",
    )
    gc: Literal["automatic", "scheduled"] = Field(
        default="scheduled",
        description="scheduled: Python's garbage collector runs only at times the room picks, "
        "between actions: every gc_seconds it collects what was made since and still lives, "
        "then freezes what survived out of later collections, so a pause is one tick's "
        "objects (at 1,000 tables 9 ms every quarter second, against 30-90 ms ones and "
        "seconds-long full collections left to Python). automatic: Python's own collection "
        "(server/heap.py; measured in benchmarks/README.md).",
    )
    gc_seconds: float = Field(
        default=0.25,
        ge=0.05,
        le=3600.0,
        description="With gc=scheduled: seconds between two collections of what was made "
        "since the last one (a pause grows with it).",
    )
    gc_full_seconds: float = Field(
        default=0.0,
        ge=0.0,
        le=604_800.0,
        description="With gc=scheduled: seconds between collections of every live object, "
        "frozen or not (0: never). Such a collection stops the room for as long as it walks "
        "them (about 2 s at 1,000 tables); it frees cycles of objects that became garbage "
        "after their first collection, which a room makes next to none of.",
    )
    malloc_trim_seconds: float = Field(
        default=60.0,
        ge=0.0,
        le=86_400.0,
        description="Seconds between two returns of the C allocator's free memory to the "
        "system (glibc's malloc_trim, a few milliseconds in a worker thread; 0: never), so "
        "that the process's RSS says what the room uses after a burst of sockets or requests.",
    )
    review_workers: int = Field(
        default=1,
        ge=0,
        le=64,
        description="Worker processes this room process runs for hand reviews (issue 34), off "
        "its event loop; each takes one core while it reviews. 0: this process computes none "
        "(another process of the room does).",
    )
    review_budget: float = Field(
        default=0.25,
        gt=0,
        le=10,
        description="Seconds of the Monte Carlo player's work (at its fixed rate, never the "
        "clock) for each stage of an OFC street's review: the error bars fall as its square "
        "root, a review's time grows with it.",
    )
    review_seed: int = Field(
        default=1, ge=0, le=2**31 - 1, description="The seed of the OFC streets' sampling."
    )
    review_queue: int = Field(
        default=200,
        ge=1,
        le=10_000,
        description="Reviews an account may have waiting or running at once; more is refused.",
    )
    log_level: Literal["debug", "info", "warning", "error"] = Field(
        default="info", description="Least important log line written."
    )
    chaos_kill_after: int = Field(
        default=0,
        ge=0,
        description="For the chaos harness only: SIGKILL the room at its Nth write point once "
        "it is open (0: never).",
    )
    trusted_proxies: str = Field(
        default="",
        description="Comma-separated addresses of reverse proxies whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed (empty: none; the socket's peer is the client).",
    )
    rate_limits: bool = Field(
        default=True,
        description="Refuse what goes over the limit_* settings (turn off only for load tests).",
    )
    limit_login_account_address: str = Field(
        default="5/minute;20/hour",
        description="Failed log-ins per account from one client address, in growing windows "
        "('N/minute;M/hour').",
    )
    limit_login_account: str = Field(
        default="20/hour;100/day",
        description="Failed log-ins per account from all addresses together; over it, only "
        "addresses the account logged in from before may still try (so guessers cannot lock "
        "its owner out).",
    )
    limit_password: str = Field(
        default="5/minute;20/hour",
        description="Wrong current passwords per session when changing the password.",
    )
    limit_login_address: str = Field(
        default="20/minute;100/hour", description="Failed log-ins per client address."
    )
    limit_signup_address: str = Field(
        default="5/minute;30/hour", description="New accounts per client address."
    )
    limit_http: str = Field(
        default="600/minute",
        description="HTTP API requests per session (per address without a session the room "
        "knows: a cookie it never issued counts as none).",
    )
    limit_sockets_account: int = Field(
        default=16, ge=1, le=10_000, description="Open WebSockets per account."
    )
    limit_sockets_address: int = Field(
        default=256, ge=1, le=1_000_000, description="Open WebSockets per client address."
    )

    @field_validator(
        "limit_login_account_address",
        "limit_login_account",
        "limit_login_address",
        "limit_password",
        "limit_signup_address",
        "limit_http",
    )
    @classmethod
    def _limits(cls, value: str) -> str:
        parse_limits(value)
        return value


def parse_limits(text: str) -> list[RateLimitItem]:
    """``"5/minute;20/hour"`` as limit items (``""``: no limit); :class:`ValueError` if bad."""
    if not text.strip():
        return []
    try:
        return list(parse_many(text))
    except ValueError as e:
        raise ValueError(f"{text!r} is not a limit like '5/minute;20/hour'") from e


def admin_names(settings: Settings) -> set[str]:
    return {n.strip().lower() for n in settings.admins.split(",") if n.strip()}


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment, with ``overrides`` (tests, the CLI's own options) on top."""
    return Settings(**overrides)  # type: ignore[arg-type]


__all__ = ["Settings", "admin_names", "load_settings", "parse_limits"]
