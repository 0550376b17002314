"""Rate limits: failed log-ins, sign-ups per address, HTTP requests per session (per address
without one), wrong current passwords on a password change, and open sockets per account and per
address.

Failed log-ins are counted three ways (OWASP ASVS 2.2.1: a guesser backs off, the owner is never
locked out): per account *and* address (a guesser at one address waits a minute, then an hour),
per address (one guesser trying many accounts), and per account from everywhere — which holds
back only addresses the account never logged in from (``Accounts.known_address``), so guesses
from many addresses cannot keep the owner out where she logs in. Wrong current passwords on
``POST /api/password`` are counted per session: a stolen session cannot guess on, and the
owner's own sessions keep their tries.

Windows are moving windows from the ``limits`` library, kept in this process's memory — or, in
a room of several processes (``THIRTEEN_REDIS_URL``), in Redis, so a guesser counts the same
whichever process answers. Open sockets are counted by each process. A refusal
is :class:`RateLimitError` (``429 rate_limited`` with a ``Retry-After`` header, or a socket's error
frame and close) and a sentence that says how long to wait.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from redis.asyncio import ConnectionPool

from thirteen.engine.errors import RuleError
from thirteen.server.settings import Settings, parse_limits

SENTENCES = {
    "login_account_address": "Too many failed log-ins for this account from your address",
    "login_account": "Too many failed log-ins for this account from addresses it never logged "
    "in from",
    "login_address": "Too many failed log-ins from your address",
    "password": "Too many wrong current passwords",
    "signup_address": "Too many new accounts from your address",
    "http": "Too many requests",
}


class RateLimitError(RuleError):
    """Refused for going over a limit; ``retry_after`` is in whole seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__("rate_limited", message)
        self.retry_after = retry_after


class Throttle:
    """Every limit of one room (see the ``limit_*`` settings)."""

    def __init__(self, settings: Settings) -> None:
        self.enabled = settings.rate_limits
        self.rules = {
            "login_account_address": parse_limits(settings.limit_login_account_address),
            "login_account": parse_limits(settings.limit_login_account),
            "login_address": parse_limits(settings.limit_login_address),
            "password": parse_limits(settings.limit_password),
            "signup_address": parse_limits(settings.limit_signup_address),
            "http": parse_limits(settings.limit_http),
        }
        self.max_sockets_account = settings.limit_sockets_account
        self.max_sockets_address = settings.limit_sockets_address
        storage: Storage = MemoryStorage()
        self.pool: ConnectionPool | None = None
        if settings.redis_url is not None:
            url = settings.redis_url.get_secret_value()
            self.pool = ConnectionPool.from_url(url)
            storage = RedisStorage(
                f"async+{url}",
                implementation="redispy",
                key_prefix="thirteen",
                connection_pool=self.pool,  # type: ignore[arg-type]  # options are typed narrowly
            )
        self.limiter = MovingWindowRateLimiter(storage)
        self.sockets: Counter[str] = Counter()

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.aclose()

    async def _refusal(self, rule: str, key: str) -> RateLimitError | None:
        for item in self.rules[rule]:
            if not await self.limiter.test(item, rule, key):
                stats = await self.limiter.get_window_stats(item, rule, key)
                wait = max(1, math.ceil(stats.reset_time - time.time()))
                return RateLimitError(f"{SENTENCES[rule]}; try again in {_duration(wait)}.", wait)
        return None

    async def check(self, rule: str, key: str) -> None:
        """Refuse if ``key`` is already over ``rule``'s limit (counts nothing)."""
        if self.enabled and (refusal := await self._refusal(rule, key)):
            raise refusal

    async def hit(self, rule: str, key: str) -> None:
        """Count one for ``key``; refuse if it was already over (the refused one is not counted,
        so a client that waits as told gets through)."""
        if not self.enabled:
            return
        await self.check(rule, key)
        await self.count(rule, key)

    async def count(self, rule: str, key: str) -> None:
        """Count one for ``key`` (a failure, after :meth:`check` let the attempt through)."""
        if self.enabled:
            for item in self.rules[rule]:
                await self.limiter.hit(item, rule, key)

    async def before_login(self, account: str, address: str, known: bool) -> None:
        """Refuse a log-in over a limit before its password is checked (``known``: the account
        logged in from ``address`` before, so guesses from elsewhere do not hold it back)."""
        await self.check("login_account_address", _pair(account, address))
        await self.check("login_address", address)
        if not known:
            await self.check("login_account", account)

    async def login_failed(self, account: str, address: str) -> None:
        """Count a failed log-in against every log-in limit."""
        await self.count("login_account_address", _pair(account, address))
        await self.count("login_address", address)
        await self.count("login_account", account)

    @contextmanager
    def socket(self, account: str | None, address: str) -> Iterator[None]:
        """Hold one socket for ``account`` (``None``: a spectator) from ``address``."""
        keys = [f"address:{address}"] + ([f"account:{account}"] if account else [])
        if self.enabled:
            if self.sockets[keys[0]] >= self.max_sockets_address:
                raise RateLimitError(
                    f"Too many connections from your address (at most "
                    f"{self.max_sockets_address}); close some and try again.",
                    10,
                )
            if account and self.sockets[keys[1]] >= self.max_sockets_account:
                raise RateLimitError(
                    f"Too many connections for this account (at most "
                    f"{self.max_sockets_account}); close some tabs and try again.",
                    10,
                )
        for key in keys:
            self.sockets[key] += 1
        try:
            yield
        finally:
            for key in keys:
                self.sockets[key] -= 1
                if self.sockets[key] <= 0:
                    del self.sockets[key]


def _pair(account: str, address: str) -> str:
    return f"{account}@{address}"


def _duration(seconds: int) -> str:
    if seconds < 120:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minutes"


__all__ = ["RateLimitError", "Throttle"]
