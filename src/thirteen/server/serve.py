"""Running the room under uvicorn (``thirteen serve``), and SIGTERM's orderly stop (status 0).

May import: settings, logs, metrics, heap, db, money, tables, competitions, room, http.
"""

from __future__ import annotations

import signal
import socket
import struct
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import uvicorn
from isal import isal_zlib
from prometheus_client import start_http_server
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.extensions.base import Extension, ServerExtensionFactory
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import CTRL_OPCODES, Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.typing import BytesLike, ExtensionParameter

from thirteen.server.heap import (
    LAG_PROBE_SECONDS,
    HeapTrimmer,
    LagProbe,
    PauseMeter,
    ScheduledCollector,
    collector_for,
    settle_heap,
    trimmer_for,
)
from thirteen.server.http.app import create_app
from thirteen.server.http.sockets import (
    MAX_SOCKET_BYTES,
    SEND_NOW,
    TAKE_NOW,
)
from thirteen.server.logs import configure_logging
from thirteen.server.settings import Settings
from thirteen.server.tables.bus import preflight
from thirteen.server.tables.leases import default_process_name

SHUTDOWN_SECONDS = 8
"""SIGTERM: sockets closed and writing finished within this (the issue's limit is 10 s)."""
STOP_SECONDS = 30
""":func:`serve_in_thread`: the room's thread has ended within this once asked to stop."""
KEEP_ALIVE_SECONDS = 5
"""An idle HTTP connection is closed after this (uvicorn's default, said here: clients keep
theirs for reuse for less — ``thirteen.client.KEEPALIVE_EXPIRY`` — or a request can meet the
close)."""


DEFLATE_LEVEL = 0
"""ISA-L's level for the frames a room compresses (0-3; :class:`FastDeflate`): 0, its fastest,
whose fixed code tables are not built again for every frame (2.0 µs a frame against 5.8 at
level 1, for a third more bytes: a hand 7.4 KB on the wire against 5.6; issue 33)."""
WINDOW_BITS = 12
"""The compression window both ways (4 KiB, as uvicorn's own choice): a frame refers back to
what the socket was last sent, and a socket's compressor stays small."""


class FastDeflate(PerMessageDeflate):
    """permessage-deflate (RFC 7692) whose frames are compressed by Intel's ISA-L at level
    :data:`DEFLATE_LEVEL` instead of by zlib at its default level: the same deflate stream any
    client inflates, in a sixth of the time, for three times the deflated bytes (480 real
    frames of Chinese Poker hands, each compressed after the last as on a socket: 12.0 µs and
    15.6× smaller with zlib, 2.0 µs and 5.1× with ISA-L at level 0 — 5.8 µs and 7.4× at level
    1; a hand on the wire, both ways, 7.4 KB against 4.2; its compressor is also smaller, about
    23 KiB against 34; ``benchmarks/README.md``, "the frame path"). The window stays the one
    negotiated; messages in are inflated by zlib as before."""

    def __init__(
        self,
        remote_no_context_takeover: bool,
        local_no_context_takeover: bool,
        remote_max_window_bits: int,
        local_max_window_bits: int,
        compress_settings: dict[Any, Any] | None = None,
    ) -> None:
        # told "no context takeover", the parent makes no compressor of its own (zlib's)
        super().__init__(
            remote_no_context_takeover,
            True,
            remote_max_window_bits,
            local_max_window_bits,
            compress_settings,
        )
        self.local_no_context_takeover = local_no_context_takeover
        self.encoder = self._compressor()

    def _compressor(self) -> Any:
        return isal_zlib.compressobj(DEFLATE_LEVEL, isal_zlib.DEFLATED, -self.local_max_window_bits)

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode in CTRL_OPCODES:
            return frame
        first = frame.opcode is not Opcode.CONT
        data = self._deflate(frame.data, first, frame.fin)
        return Frame(frame.opcode, data, frame.fin, first, frame.rsv2, frame.rsv3)

    def message(self, data: bytes) -> bytes:
        """A whole message (one frame) deflated: :meth:`encode`'s payload for it."""
        return self._deflate(data, True, True)

    def _deflate(self, data: BytesLike, first: bool, fin: bool) -> bytes:
        if first and self.local_no_context_takeover:
            self.encoder = self._compressor()
        out: bytes = self.encoder.compress(data) + self.encoder.flush(isal_zlib.Z_SYNC_FLUSH)
        return out[:-4] if fin else out  # the sync flush's empty block (00 00 ff ff) ends it


class FastDeflateFactory(ServerPerMessageDeflateFactory):
    """The server's side of the negotiation, as the ``websockets`` library makes it, with
    :class:`FastDeflate` as the extension agreed on."""

    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, agreed = super().process_request_params(params, accepted_extensions)
        return response, FastDeflate(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
        )


def deflate_offer() -> list[ServerExtensionFactory]:
    """What the room agrees to when a client offers permessage-deflate."""
    return [
        FastDeflateFactory(
            server_max_window_bits=WINDOW_BITS,
            client_max_window_bits=WINDOW_BITS,
            compress_settings={"memLevel": 5},
        )
    ]


def text_frame(text: bytes, extensions: Sequence[Extension]) -> bytes | None:
    """A whole text message as one frame from the server, as ``websockets`` writes it (RFC 6455
    §5.2: FIN and the opcode, the payload's length in 7, 16 or 64 bits, no mask; RSV1 and the
    payload deflated with :class:`FastDeflate`, RFC 7692), without its frame objects and
    layers, which were a third of writing a frame (issue 33). ``None`` with any other
    extension: ``websockets`` writes that one."""
    if not extensions:
        first = 0x81  # FIN, text
    elif len(extensions) == 1 and type(extensions[0]) is FastDeflate:
        text = extensions[0].message(text)
        first = 0xC1  # FIN, RSV1 (compressed), text
    else:
        return None
    length = len(text)
    if length < 126:
        return bytes((first, length)) + text
    if length < 65536:
        return struct.pack("!BBH", first, 126, length) + text
    return struct.pack("!BBQ", first, 127, length) + text


class SocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (on the ``websockets`` library's sans-I/O core), freeing a
    closed socket at once.

    The core parses frames in a generator that refers back to it — a cycle — and finishes it
    only when told the stream ended, which uvicorn never tells it. So every closed socket, its
    compression state with it (about 45 KB), waited for a full collection of the garbage
    collector: never, under the room's scheduled collector (``server/heap.py``), and rarely
    under Python's own. 200 sockets opened and closed grew a room by ~9 MB, forty times in a
    row (issue 33; ``benchmarks/README.md``). Closing the parser when the connection is lost
    breaks the cycle: nothing reads from the connection after that.

    Frames out are compressed by :class:`FastDeflate` (when ``THIRTEEN_WS_COMPRESSION`` is on
    and the client offers permessage-deflate), and written at once where they can be
    (:meth:`send_now`); text messages in are handed to the socket's reader as they arrive
    (:meth:`take_now`), past the app's receive queue."""

    def __init__(self, config: uvicorn.Config, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        if config.ws_per_message_deflate:
            self.conn.available_extensions = deflate_offer()
        self.take: Callable[[str], object] | None = None

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if not self.close_sent:  # accepted: the app's task starts after this
            self.scope["extensions"][SEND_NOW] = {"send_text": self.send_now}
            self.scope["extensions"][TAKE_NOW] = {"take": self.take_now}

    def take_now(self, take: Callable[[str], object] | None) -> None:
        """From now on hand each whole text message to ``take`` as it arrives, instead of
        queueing it for the app's ``receive`` and waking the socket's task for it (two task
        steps and the ASGI layers a message, issue 33); ``None``: back to the queue. A message
        still goes to the queue while one waits there (so none overtakes another), and so do
        binary messages, text that is not UTF-8 (uvicorn closes the socket for it) and what
        comes after the close was sent (uvicorn drops it)."""
        self.take = take

    def send_receive_event_to_app(self) -> None:
        take = self.take
        if (
            take is None
            or self.close_sent
            or self.curr_msg_data_type != "text"
            or not self.queue.empty()
        ):
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        try:
            text = bytes(data).decode()
        except UnicodeDecodeError:
            super().send_receive_event_to_app()
            return
        self.frames = []
        take(text)

    def send_now(self, *texts: bytes) -> bool:
        """Write text frames at once, in one write (``False``, writing nothing, while the socket
        is not open for frames or its transport holds back for a slow reader): what uvicorn's
        own ASGI ``websocket.send`` does, without the layers of a message through the app's
        stack."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        conn = self.conn
        try:
            frames = []
            for text in texts:
                frame = None
                if (
                    conn.state is State.OPEN
                    and not conn.expect_continuation_frame
                    and not conn.writes
                ):
                    frame = text_frame(text, conn.extensions)
                if frame is None:  # websockets writes it (and what it holds to write, first)
                    conn.send_text(text)
                    frame = b"".join(conn.data_to_send())
                frames.append(frame)
            self.transport.write(frames[0] if len(frames) == 1 else b"".join(frames))
        except (InvalidState, RuntimeError, OSError):  # closing meanwhile: the writer finds out
            return False
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.conn.parser.close()
        scope = getattr(self, "scope", None)
        if scope is not None:  # its send_now refers back to the protocol: another cycle
            scope["extensions"].pop(SEND_NOW, None)
            scope["extensions"].pop(TAKE_NOW, None)
        self.take = None  # (the socket's reader, which refers to its watcher and table)


def uvicorn_config(
    app: Any,
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    **extra: Any,
) -> uvicorn.Config:
    """uvicorn settings the room relies on: frame size, a bounded shutdown; and those an
    operator sets: protocol pings (``THIRTEEN_WS_PING_SECONDS``,
    ``THIRTEEN_WS_PING_TIMEOUT_SECONDS``), permessage-deflate (``THIRTEEN_WS_COMPRESSION``), a
    client's address behind a proxy (:func:`proxy_options`)."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        ws=SocketProtocol,
        ws_per_message_deflate=settings.ws_compression,
        ws_ping_interval=settings.ws_ping_seconds,
        ws_ping_timeout=settings.ws_ping_timeout_seconds,
        ws_max_size=MAX_SOCKET_BYTES,
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        lifespan="on",
        server_header=False,
        **proxy_options(settings),
        **extra,
    )


class RoomServer(uvicorn.Server):
    """uvicorn that closes the room first on SIGTERM, and says when it has started.

    On shutdown the room stops taking actions, lets every table finish writing what it
    accepted, and closes each socket with 1001 and a sentence — before uvicorn would close the
    connections itself (with a bare 1012).
    """

    def __init__(self, config: uvicorn.Config, *, whole_process: bool = False) -> None:
        super().__init__(config)
        self.ready = threading.Event()
        self.whole_process = whole_process
        """The room is the process (``thirteen serve``): its heap is settled once it is up,
        its collector's pauses measured and, with ``THIRTEEN_GC=scheduled``, collection kept
        between actions (:mod:`thirteen.server.heap`; not in a test's process, which serves
        many rooms in turn)."""
        self.collector: ScheduledCollector | None = None
        self.trimmer: HeapTrimmer | None = None
        self.pauses: PauseMeter | None = None
        self.lag: LagProbe | None = None
        """The loop's lag in the room's metrics (every room: it is its loop's)."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        state = getattr(self.config.app, "state", None)
        if state is not None and not self.should_exit:  # (a failed start is not served)
            self.lag = LagProbe(LAG_PROBE_SECONDS, state.metrics)
            self.lag.start()
        if self.whole_process and state is not None:
            self.pauses = PauseMeter(state.metrics)
            self.pauses.install()
            settle_heap()
            self.collector = collector_for(state.settings)
            if self.collector is not None:
                self.collector.start()
            self.trimmer = trimmer_for(state.settings)
            if self.trimmer is not None:
                self.trimmer.start()
        self.ready.set()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        room = getattr(getattr(self.config.app, "state", None), "room", None)
        if room is not None:
            await room.close()
        await super().shutdown(sockets)
        if self.collector is not None:
            await self.collector.stop()
        if self.trimmer is not None:
            await self.trimmer.stop()
        if self.pauses is not None:
            self.pauses.remove()
        if self.lag is not None:
            await self.lag.stop()


def proxy_options(settings: Settings) -> dict[str, Any]:
    """Behind a reverse proxy (``THIRTEEN_TRUSTED_PROXIES``): the client's address (rate limits,
    logs) from its X-Forwarded-For, believed only from these addresses."""
    proxies = settings.trusted_proxies.strip()
    return {"proxy_headers": bool(proxies), "forwarded_allow_ips": proxies or None}


@contextmanager
def serve_in_thread(app: Any) -> Iterator[str]:
    """Serve ``app`` as ``thirteen serve`` does, on a free loopback port in a thread (tests and
    scripts); yields the base URL once it listens, and stops it afterwards."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    settings: Settings = app.state.settings
    server = RoomServer(uvicorn_config(app, settings, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.ready.wait(0.05):
        if not thread.is_alive():
            raise RuntimeError("the room did not start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(STOP_SECONDS)
        sock.close()
    if thread.is_alive():  # said here, not by the thread's end in whatever runs by then
        raise RuntimeError(f"the room did not stop within {STOP_SECONDS} s")


def serve(settings: Settings, host: str, port: int) -> None:
    """Serve the room until SIGINT/SIGTERM, logging JSON lines."""
    configure_logging(settings.log_level)
    if not settings.process_name:  # the same name after a restart: it takes its tables back
        settings = settings.model_copy(update={"process_name": default_process_name(port)})
    if settings.redis_url is not None:  # a sentence, not a traceback, when Redis is wrong
        preflight(settings.redis_url.get_secret_value(), settings.process_name)
    app = create_app(settings)
    config = uvicorn_config(
        app, settings, host=host, port=port, log_level=settings.log_level, log_config=None
    )
    if settings.metrics_address:  # for a Prometheus on a private network, without a login
        host, _, metrics_port = settings.metrics_address.rpartition(":")
        start_http_server(int(metrics_port), host.strip("[]"), registry=app.state.metrics.registry)
    # uvicorn stops cleanly on SIGTERM, then raises the signal again with the handler it found
    # in place: this one, so a clean stop ends with status 0 rather than killed by SIGTERM
    signal.signal(signal.SIGTERM, _stopped)
    RoomServer(config, whole_process=True).run()


def _stopped(_signum: int, _frame: object) -> None:
    raise SystemExit(0)


__all__ = ["SHUTDOWN_SECONDS", "RoomServer", "serve", "serve_in_thread", "uvicorn_config"]
