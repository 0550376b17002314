"""Signed hand histories over the wire: a player's own copy (JSON and text) and an admin's full
history verify with the room's key; edits and other keys are refused; the key at ``/api/key`` is
the one ``thirteen admin key`` prints, kept in a 0600 file across restarts and never logged."""

from __future__ import annotations

import json
import logging
import stat
from pathlib import Path
from typing import Any

import httpx
import pytest
from play import play
from services import serve_in_thread

from cli_helpers import CLI
from thirteen.client import RoomClient
from thirteen.engine.history_text import history_to_text
from thirteen.engine.rules import get_rules
from thirteen.server.http.app import create_app
from thirteen.server.settings import Settings


@pytest.fixture
def logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """Every log line, from before the room starts (list this fixture before ``room``)."""
    caplog.set_level(logging.DEBUG)
    return caplog


def played_hand(room: str, boss: RoomClient) -> tuple[RoomClient, int]:
    """Ann plays one hand of chinese-1-6 against a bot; her client (logged in) and the hand."""
    table = boss.create_table(
        "chinese-1-6", bots=1, bot_level="heuristic", rules={"showdown_seconds": 0.1}
    )
    ann = RoomClient(room)
    ann.sign_up("ann", "password of A-N-N")
    conn = ann.open_table(table["id"])
    seat = next(i for i, s in enumerate(conn.view["seats"]) if s is None)
    conn.do({"type": "sit", "seat": seat, "buy_in": table["max_buy_in"]})
    play(conn, get_rules("chinese-1-6"), hands=1)
    conn.close()
    settled = [h for h in ann.request("GET", "/api/hands") if h["status"] == "settled"]
    assert settled  # one hand, or two when the next was dealt before she left
    return ann, min(h["id"] for h in settled)


def write(folder: Path, name: str, content: str | dict[str, Any]) -> str:
    path = folder / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def test_a_players_signed_copy_verifies_and_edits_are_refused(
    logs: pytest.LogCaptureFixture,
    room: str,
    boss: RoomClient,
    client: httpx.Client,
    settings: Settings,
    cli: CLI,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ann, hand_id = played_hand(room, boss)
    with ann:
        mine = ann.request("GET", f"/api/hands/{hand_id}")
        mine_text = ann.request("GET", f"/api/hands/{hand_id}?format=text")
    full = boss.request("GET", f"/api/admin/hands/{hand_id}")
    full_text = boss.request("GET", f"/api/admin/hands/{hand_id}?format=text")
    key = client.get("/api/key").json()
    assert set(key) == {"algorithm", "key_id", "public_key"}
    assert key["algorithm"] == "Ed25519"
    assert mine["signature"]["public_key"] == full["signature"]["public_key"] == key["public_key"]
    assert mine["viewer"] != "all"
    assert isinstance(mine_text, str)
    assert mine_text.rstrip("\n").split("\n")[-1].startswith(f"signature: Ed25519 {key['key_id']} ")

    # thirteen admin key prints the key the room serves (the same settings, the same file)
    monkeypatch.setenv("THIRTEEN_DATA_DIR", str(settings.data_dir))
    monkeypatch.delenv("THIRTEEN_SIGNING_KEY", raising=False)
    printed = cli(["admin", "key"])
    assert printed.code == 0, printed.err
    assert printed.out.strip() == key["public_key"]
    room_key = write(tmp_path, "room.pub", printed.out)

    copies = [write(tmp_path, "mine.json", mine), write(tmp_path, "mine.txt", mine_text)]
    for source in copies:
        r = cli(["verify", source, "--key", room_key])
        assert r.code == 0, r.err
        assert "actions and the result: proven by the room's signature" in r.out
        r = cli(["verify", source])
        assert r.code == 3, r.err
        assert "signature present" in r.out
        assert "give --key to check it" in r.out
        other = "A" * 43 + "="  # a well-formed key, not the room's
        r = cli(["verify", source, "--key", other])
        assert r.code == 1
        assert "not with the key you gave" in r.err
    for source in (write(tmp_path, "full.json", full), write(tmp_path, "full.txt", full_text)):
        r = cli(["verify", source, "--key", key["public_key"]])
        assert r.code == 0, r.err
        assert "replay in time order" in r.out
        assert "and the room signed it" in r.out

    # any edit of the player's copy, in either form, is refused with the key
    def result(d: dict[str, Any]) -> None:
        d["result"]["money"][0] += 1
        d["result"]["money"][1] -= 1

    def action(d: dict[str, Any]) -> None:
        move = next(a for a in d["actions"] if a["type"] == "set_hand" and a["seat"] == d["viewer"])
        move["front"], move["back"] = move["back"], move["front"]

    def opened(d: dict[str, Any]) -> None:
        first, second = d["deal"]["openings"][:2]
        first[1], second[1] = second[1], first[1]

    for name, edit in (("result", result), ("action", action), ("opened", opened)):
        changed = json.loads(json.dumps(mine))
        edit(changed)
        for source in (
            write(tmp_path, f"{name}.json", changed),
            write(tmp_path, f"{name}.txt", history_to_text(changed)),
        ):
            r = cli(["verify", source, "--key", room_key])
            assert r.code == 1, (name, source, r.out)
            assert r.err.startswith("thirteen: the history does not verify: ")

    # the private key is in its file (0600) and nowhere in what the room or the CLI said
    secret = (Path(settings.data_dir) / "signing.key").read_text().strip()
    assert stat.S_IMODE((Path(settings.data_dir) / "signing.key").stat().st_mode) == 0o600
    said = "\n".join(r.getMessage() for when in ("setup", "call") for r in logs.get_records(when))
    assert key["key_id"] in said  # the room's start was logged: the key's id is public
    assert secret not in said
    assert secret not in json.dumps([mine, mine_text, full, full_text, key])


def test_the_key_is_made_once_and_kept_across_restarts(settings: Settings) -> None:
    path = Path(settings.data_dir) / "signing.key"
    assert not path.exists()
    keys = []
    for _ in range(2):
        with serve_in_thread(create_app(settings)) as url:
            keys.append(httpx.get(f"{url}/api/key", timeout=30).json())
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert keys[0] == keys[1]
