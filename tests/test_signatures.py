"""The room's signature on hand histories: ``thirteen verify --key``, its text line, the key's
file and ``thirteen admin key`` (without a room; over the wire in tests/server)."""

from __future__ import annotations

import base64
import json
import os
import random
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import CLI
from thirteen.bots.arena import play
from thirteen.bots.base import RandomBot
from thirteen.engine import history_text
from thirteen.engine.history import HandHistory, history_to_json, redact_history, signed_bytes
from thirteen.engine.history_text import history_from_text, history_to_text
from thirteen.engine.history_verify import verify_history, verify_text
from thirteen.engine.rules import get_rules
from thirteen.server.money.signing import Signer, SigningKeyError, load_signer
from thirteen.server.settings import load_settings

ROOM_KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))


@pytest.fixture(scope="module")
def history() -> HandHistory:
    hands: list[HandHistory] = []
    bots = [RandomBot(random.Random(i)) for i in range(3)]
    play(get_rules("ofc-pineapple"), bots, 1, seed=7, on_hand=lambda _, h: hands.append(h))
    return hands[0]


@pytest.fixture(scope="module")
def room() -> Signer:
    return Signer.from_private_bytes(ROOM_KEY)


def write(tmp_path: Path, name: str, content: str | dict[str, Any]) -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def forms(tmp_path: Path, data: dict[str, Any], name: str) -> list[str]:
    return [
        write(tmp_path, f"{name}.json", data),
        write(tmp_path, f"{name}.txt", history_to_text(data)),
    ]


# --- the engine carries the signature ------------------------------------------------------------
def test_the_signature_covers_everything_but_itself_and_round_trips_in_text(
    history: HandHistory, room: Signer
) -> None:
    copy_ = room.sign(redact_history(history, 1))
    assert set(copy_["signature"]) == {"algorithm", "key_id", "public_key", "value"}
    assert copy_["signature"]["public_key"] == room.public_key
    assert signed_bytes(copy_) == signed_bytes(redact_history(history, 1))
    text = history_to_text(copy_)
    last = text.rstrip("\n").split("\n")[-1]
    sig = copy_["signature"]
    assert last == f"signature: Ed25519 {sig['key_id']} {sig['public_key']} {sig['value']}"
    assert history_from_text(text) == copy_
    assert verify_text(text).signature == sig
    assert verify_history(copy_).signed == signed_bytes(copy_)
    assert room.sign(copy_) == copy_  # signing again replaces the signature with the same one


def test_a_malformed_signature_field_is_refused(history: HandHistory, room: Signer) -> None:
    signed = room.sign(history_to_json(history))
    for field, junk, status in [
        ("algorithm", "RSA", "unreadable"),
        ("value", 5, "unreadable"),
        ("value", "not base64!", "failed"),
        ("public_key", base64.b64encode(b"short").decode(), "failed"),
        ("key_id", "0" * 16, "failed"),
    ]:
        bad = {**signed, "signature": {**signed["signature"], field: junk}}
        assert verify_history(bad).status == status, (field, junk)
    assert verify_history({**signed, "signature": "yes"}).status == "unreadable"
    text = history_to_text(signed)
    assert verify_text(text.rstrip("\n") + " extra\n").status == "unreadable"
    assert verify_text(text.replace("signature: Ed25519", "signature: RSA")).status == "unreadable"


# --- thirteen verify --key -----------------------------------------------------------------------
def test_a_signed_copy_verifies_with_the_key(
    cli: CLI, tmp_path: Path, history: HandHistory, room: Signer
) -> None:
    copy_ = room.sign(redact_history(history, 1))
    for source in forms(tmp_path, copy_, "copy"):
        r = cli(["verify", source, "--key", room.public_key])
        assert r.code == 0, r.err
        assert f"ok  the room's Ed25519 signature (key {room.key_id}) holds" in r.out
        assert "actions and the result: proven by the room's signature" in r.out
        assert "opened cards match" in r.out
        assert "not checked" not in r.out
        assert "verified: this player's copy holds" in r.out
        # without --key: what a copy proves by itself, and a pointer to --key
        r = cli(["verify", source])
        assert r.code == 3, r.err
        assert "signature present (Ed25519, key" in r.out
        assert "give --key to check it" in r.out


def test_a_signed_full_history_verifies_with_and_without_the_key(
    cli: CLI, tmp_path: Path, history: HandHistory, room: Signer
) -> None:
    full = room.sign(history_to_json(history))
    for source in forms(tmp_path, full, "full"):
        r = cli(["verify", source, "--key", room.public_key])
        assert r.code == 0, r.err
        assert "replay in time order" in r.out
        assert "and the room signed it" in r.out
        r = cli(["verify", source])
        assert r.code == 0, r.err
        assert "give --key to check it" in r.out


def test_the_key_can_be_a_file(
    cli: CLI, tmp_path: Path, history: HandHistory, room: Signer
) -> None:
    (source, _) = forms(tmp_path, room.sign(redact_history(history, 0)), "copy")
    plain = write(tmp_path, "room.pub", room.public_key + "\n")
    served = write(tmp_path, "key.json", room.public())
    for key in (plain, served):
        assert cli(["verify", source, "--key", key]).code == 0
    for key in ("nonsense", write(tmp_path, "empty.pub", ""), str(tmp_path)):
        r = cli(["verify", source, "--key", key])
        assert r.code == 2, r
        assert "--key" in r.err
        assert len(r.err.strip().splitlines()) == 1


def edits(data: dict[str, Any], seat: int) -> dict[str, Callable[[dict[str, Any]], None]]:
    """Ways to change a signed player's copy that its own checks cannot see (or can)."""
    mine = next(i for i, a in enumerate(data["actions"]) if a.get("seat") == seat and "back" in a)

    def result(d: dict[str, Any]) -> None:
        for key in ("money", "totals"):
            d["result"][key][0] += 6
            d["result"][key][1] -= 6

    def action_time(d: dict[str, Any]) -> None:
        d["actions"][mine]["at"] += 0.001

    def action_cards(d: dict[str, Any]) -> None:
        a = d["actions"][mine]
        rows = [r for r in ("front", "middle", "back") if a[r]]
        a[rows[0]], a[rows[-1]] = a[rows[-1]], a[rows[0]]

    def opened_card(d: dict[str, Any]) -> None:
        first, second = d["deal"]["openings"][:2]
        first[1], second[1] = second[1], first[1]

    def viewer(d: dict[str, Any]) -> None:
        d["viewer"] = 1 - seat

    return {
        "result": result,
        "action_time": action_time,
        "action_cards": action_cards,
        "opened_card": opened_card,
        "viewer": viewer,
    }


@pytest.mark.parametrize("how", ["result", "action_time", "action_cards", "opened_card", "viewer"])
def test_any_edit_of_a_signed_copy_fails_with_the_key(
    cli: CLI, tmp_path: Path, history: HandHistory, room: Signer, how: str
) -> None:
    signed = room.sign(redact_history(history, 0))
    changed = json.loads(json.dumps(signed))
    edits(changed, 0)[how](changed)
    for source in forms(tmp_path, changed, how):
        r = cli(["verify", source, "--key", room.public_key])
        assert r.code == 1, (how, source, r)
        assert r.err.startswith("thirteen: the history does not verify: ")
        assert len(r.err.strip().splitlines()) == 1


def test_an_edited_text_line_fails_with_the_key(
    cli: CLI, tmp_path: Path, history: HandHistory, room: Signer
) -> None:
    text = history_to_text(room.sign(redact_history(history, 0)))
    lines = text.split("\n")
    n = next(i for i, line in enumerate(lines) if " seat 1 place " in line)  # seats from 1
    at, rest = lines[n].split(" ", 1)
    later = history_text._parse_time(at) + 0.5
    lines[n] = f"{history_text._time_text(later, True)} {rest}"
    r = cli(["verify", write(tmp_path, "edited.txt", "\n".join(lines)), "--key", room.public_key])
    assert r.code == 1, r
    assert "changed after the room signed it" in r.err


def test_another_key_or_no_signature_fails_with_the_key(
    cli: CLI, tmp_path: Path, history: HandHistory, room: Signer
) -> None:
    other = Signer.from_private_bytes(OTHER_KEY)
    copy_ = room.sign(redact_history(history, 2))
    for source in forms(tmp_path, copy_, "copy"):
        r = cli(["verify", source, "--key", other.public_key])
        assert r.code == 1
        assert f"signed with key {room.key_id}, not with the key you gave ({other.key_id})" in r.err
    # re-signed by someone else after an edit: their key is not the room's
    forged = json.loads(json.dumps(copy_))
    forged["result"]["money"][0] += 6
    forged["result"]["money"][1] -= 6
    for source in forms(tmp_path, other.sign(forged), "forged"):
        r = cli(["verify", source, "--key", room.public_key])
        assert r.code == 1
        assert "not with the key you gave" in r.err
    # the room's public key on another key's signature
    spliced = other.sign(forged)
    spliced["signature"].update(public_key=room.public_key, key_id=room.key_id)
    for source in forms(tmp_path, spliced, "spliced"):
        r = cli(["verify", source, "--key", room.public_key])
        assert r.code == 1
        assert "does not match the file" in r.err
    for source in forms(tmp_path, redact_history(history, 2), "unsigned"):
        r = cli(["verify", source, "--key", room.public_key])
        assert r.code == 1
        assert "carries no signature" in r.err


# --- the room's key ------------------------------------------------------------------------------
def test_the_key_file_is_made_0600_and_reused(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path / "var")
    first = load_signer(settings)
    path = tmp_path / "var" / "signing.key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_signer(settings).public() == first.public()
    assert [p.name for p in path.parent.iterdir()] == ["signing.key"]
    assert first.public_key not in path.read_text()
    assert repr(first).count(path.read_text().strip()) == 0
    path.chmod(0o644)
    with pytest.raises(SigningKeyError, match="chmod 600"):
        load_signer(settings)
    path.chmod(0o600)
    secret = path.read_text().strip()
    path.write_text("junk\n")
    with pytest.raises(SigningKeyError) as refused:
        load_signer(settings)
    assert "base64 of a 32-byte" in str(refused.value)
    assert secret not in str(refused.value)


def test_the_key_can_come_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = base64.b64encode(ROOM_KEY).decode()
    monkeypatch.setenv("THIRTEEN_SIGNING_KEY", secret)
    settings = load_settings(data_dir=tmp_path)
    assert load_signer(settings).public_key == Signer.from_private_bytes(ROOM_KEY).public_key
    assert not list(tmp_path.iterdir())
    assert secret not in repr(settings)
    assert secret not in str(settings.model_dump())
    monkeypatch.setenv("THIRTEEN_SIGNING_KEY", secret[:-4])
    with pytest.raises(SigningKeyError) as refused:
        load_signer(load_settings(data_dir=tmp_path))
    assert "THIRTEEN_SIGNING_KEY" in str(refused.value)
    assert secret[:-4] not in str(refused.value)


def test_admin_key_prints_the_rooms_public_key(
    cli: CLI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("THIRTEEN_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("THIRTEEN_SIGNING_KEY", raising=False)
    r = cli(["admin", "key"])
    assert r.code == 0, r.err
    signer = load_signer(load_settings(data_dir=tmp_path))
    assert r.out == signer.public_key + "\n"
    assert (tmp_path / "signing.key").read_text().strip() not in r.out + r.err
    r = cli(["admin", "key", "--json"])
    assert json.loads(r.out) == signer.public()
    os.chmod(tmp_path / "signing.key", 0o640)
    r = cli(["admin", "key"])
    assert r.code == 2
    assert "chmod 600" in r.err
