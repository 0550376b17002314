"""Running the room under uvicorn (``thirteen serve``), and SIGTERM's orderly stop."""

from __future__ import annotations

import logging
import socket
from typing import Any

import uvicorn

from thirteen.server.app import create_app
from thirteen.server.settings import Settings
from thirteen.server.ws import MAX_SOCKET_BYTES, PING_INTERVAL, PING_TIMEOUT

SHUTDOWN_SECONDS = 8
"""SIGTERM: sockets closed and writing finished within this (the issue's limit is 10 s)."""


def uvicorn_config(
    app: Any, *, host: str = "127.0.0.1", port: int = 8000, **extra: Any
) -> uvicorn.Config:
    """uvicorn settings the room relies on: protocol pings, frame size, a bounded shutdown."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_ping_interval=PING_INTERVAL,
        ws_ping_timeout=PING_TIMEOUT,
        ws_max_size=MAX_SOCKET_BYTES,
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
        lifespan="on",
        proxy_headers=False,
        server_header=False,
        **extra,
    )


def serve(settings: Settings, host: str, port: int) -> None:
    """Serve the room until SIGINT/SIGTERM."""
    logging.basicConfig(level=settings.log_level.upper(), format="%(message)s")
    config = uvicorn_config(
        create_app(settings), host=host, port=port, log_level=settings.log_level
    )
    uvicorn.Server(config).run()


def bound_socket(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    return sock


__all__ = ["SHUTDOWN_SECONDS", "bound_socket", "serve", "uvicorn_config"]
