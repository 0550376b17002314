"""permessage-deflate is the operator's choice (``THIRTEEN_WS_COMPRESSION``), on by default: a
browser that offers it gets compressed frames unless the room is told not to."""

from __future__ import annotations

import gc
import json
import time
from pathlib import Path
from random import Random
from typing import Any

import pytest
from services import room_process, serve_in_thread, sqlite_settings
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.sync.client import connect

from thirteen.client import RoomClient
from thirteen.server.http.app import create_app


def live(kind: type) -> int:
    """Objects of exactly ``kind`` alive in this process (the room under test included)."""
    return sum(1 for o in gc.get_objects() if type(o) is kind)


@pytest.mark.parametrize("compression", [None, False, True])
def test_frames_are_compressed_unless_the_room_is_told_not_to(
    tmp_path: Path, compression: bool | None
) -> None:
    overrides = {} if compression is None else {"ws_compression": compression}
    settings = sqlite_settings(tmp_path, **overrides)
    assert settings.ws_compression is (compression is not False)  # unset: on
    with serve_in_thread(create_app(settings)) as url, RoomClient(url) as boss:
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table("chinese-1-6", bots=0)
        # the websockets client offers permessage-deflate, as browsers do
        with connect(boss.ws_url(f"/ws/tables/{table['id']}"), compression="deflate") as ws:
            negotiated = [type(e) for e in ws.protocol.extensions]
            snapshot = json.loads(ws.recv(timeout=30))
    assert negotiated == ([] if compression is False else [PerMessageDeflate])
    assert snapshot["type"] == "snapshot"
    assert snapshot["table"] == table["id"]


@pytest.mark.parametrize("variable", [None, "false"])
def test_thirteen_serve_reads_the_setting(tmp_path: Path, variable: str | None) -> None:
    """The same from ``THIRTEEN_WS_COMPRESSION`` in a real ``thirteen serve`` process."""
    given = {} if variable is None else {"ws_compression": variable}
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    with room_process(url, tmp_path, **given) as served, RoomClient(served.url) as boss:
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table("ofc", bots=0)
        with connect(boss.ws_url(f"/ws/tables/{table['id']}"), compression="deflate") as ws:
            negotiated = [type(e) for e in ws.protocol.extensions]
            assert json.loads(ws.recv(timeout=30))["type"] == "snapshot"
    assert negotiated == ([] if variable == "false" else [PerMessageDeflate])


def test_a_closed_socket_is_freed_without_waiting_for_a_full_collection(tmp_path: Path) -> None:
    """Each socket's protocol (and its compression state, ~45 KB) is freed when it closes, by
    reference counting: the room's scheduled collector never collects what lived a quarter of a
    second (``server/heap.py``), so a cycle left behind by a closed socket is never freed."""
    from websockets.server import ServerProtocol

    settings = sqlite_settings(tmp_path)
    with serve_in_thread(create_app(settings)) as url, RoomClient(url) as boss:
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table("chinese-1-6", bots=0)
        gc.collect()
        gc.disable()  # as under the scheduled collector: nothing collects these cycles
        try:
            for _ in range(20):
                with connect(boss.ws_url(f"/ws/tables/{table['id']}"), compression="deflate") as ws:
                    assert json.loads(ws.recv(timeout=30))["type"] == "snapshot"
            deadline = time.monotonic() + 10
            while live(ServerProtocol) and time.monotonic() < deadline:
                time.sleep(0.01)  # allowed: the room sees a close a moment later; nothing says
            assert live(ServerProtocol) == 0
        finally:
            gc.enable()


@pytest.mark.parametrize("takeover", [True, False])
def test_fast_deflate_writes_what_a_client_inflates(takeover: bool) -> None:
    """Frames compressed by ISA-L (:class:`FastDeflate`) are inflated by the ``websockets``
    client's own zlib side, whole or in fragments, with context takeover or a fresh compressor
    each message; and they are ISA-L's bytes, not zlib's."""
    import zlib

    from isal import isal_zlib
    from websockets.frames import Frame, Opcode

    from thirteen.server.serve import DEFLATE_LEVEL, WINDOW_BITS, FastDeflate

    server = FastDeflate(False, not takeover, WINDOW_BITS, WINDOW_BITS)
    client = PerMessageDeflate(not takeover, False, WINDOW_BITS, WINDOW_BITS)
    messages = [json.dumps({"n": i, "view": "As Kd Qh " * (i + 20)}).encode() for i in range(12)]
    isal = isal_zlib.compressobj(DEFLATE_LEVEL, isal_zlib.DEFLATED, -WINDOW_BITS)
    default = zlib.compressobj(wbits=-WINDOW_BITS, memLevel=5)
    differs = False
    for i, message in enumerate(messages):
        if i % 3 == 2:  # in two fragments
            parts = [
                Frame(Opcode.TEXT, message[:40], fin=False),
                Frame(Opcode.CONT, message[40:], fin=True),
            ]
        else:
            parts = [Frame(Opcode.TEXT, message)]
        sent = [server.encode(p) for p in parts]
        assert [f.rsv1 for f in sent] == [True] + [False] * (len(sent) - 1)
        assert b"".join(bytes(client.decode(f).data) for f in sent) == message
        if not takeover:
            isal = isal_zlib.compressobj(DEFLATE_LEVEL, isal_zlib.DEFLATED, -WINDOW_BITS)
            default = zlib.compressobj(wbits=-WINDOW_BITS, memLevel=5)
        expected = b"".join(
            isal.compress(p.data) + isal.flush(isal_zlib.Z_SYNC_FLUSH) for p in parts
        )
        assert b"".join(bytes(f.data) for f in sent) == expected[:-4]
        zlibs = b"".join(default.compress(p.data) + default.flush(zlib.Z_SYNC_FLUSH) for p in parts)
        differs = differs or zlibs[:-4] != expected[:-4]
    assert differs
    ping = Frame(Opcode.PING, b"x")
    assert server.encode(ping) is ping


def test_the_room_compresses_with_fast_deflate(tmp_path: Path) -> None:
    """A socket that offers permessage-deflate gets :class:`FastDeflate` on the room's side."""
    from thirteen.server.serve import FastDeflate

    settings = sqlite_settings(tmp_path)
    with serve_in_thread(create_app(settings)) as url, RoomClient(url) as boss:
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table("chinese-1-6", bots=0)
        before = live(FastDeflate)
        with connect(boss.ws_url(f"/ws/tables/{table['id']}"), compression="deflate") as ws:
            assert json.loads(ws.recv(timeout=30))["type"] == "snapshot"
            assert live(FastDeflate) == before + 1


@pytest.mark.parametrize("compression", ["none", "takeover", "no takeover", "other"])
def test_a_frame_written_at_once_is_the_frame_websockets_writes(compression: str) -> None:
    """:func:`text_frame` (the frames a room writes at once) gives, byte for byte, what the
    ``websockets`` library's own server side writes for the same messages — every length
    form (7, 16 and 64 bits, at their edges), plain or deflated, one message after another
    (a compressor that refers back); with an extension it does not know, ``None``."""
    from websockets.protocol import State
    from websockets.server import ServerProtocol

    from thirteen.server.serve import WINDOW_BITS, FastDeflate, text_frame

    def extensions() -> list[Any]:
        if compression == "none":
            return []
        if compression == "other":
            return [PerMessageDeflate(False, False, WINDOW_BITS, WINDOW_BITS)]
        return [FastDeflate(False, compression == "no takeover", WINDOW_BITS, WINDOW_BITS)]

    theirs = ServerProtocol()
    theirs.state = State.OPEN
    theirs.extensions = extensions()
    ours = extensions()
    random = Random(7)
    lengths = [0, 1, 125, 126, 127, 65535, 65536, 70_000, 300, 2_000]
    for length in lengths:
        # text that compresses by some but not all: deflated lengths cross the edges too
        text = "".join(random.choice("AKQJT98s hd") for _ in range(length)).encode()
        mine = text_frame(text, ours)
        theirs.send_text(text)
        written = b"".join(theirs.data_to_send())
        if compression == "other":
            assert mine is None
        else:
            assert mine == written
