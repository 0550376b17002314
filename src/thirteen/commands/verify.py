"""``thirteen verify``: check everything a hand history states, and say exactly what was checked;
with ``--key``, the room's Ed25519 signature on it too."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from thirteen.commands.common import console, fail, name_of, parse_json, read_text
from thirteen.engine.history import decode_base64, signing_key_id
from thirteen.engine.history_verify import Verification, verify_history, verify_text

VERIFIED, FAILED, UNREADABLE, PARTIAL = 0, 1, 2, 3
"""Exit codes: everything verified; something is false; not a readable history; only part of it
could be verified (a player's copy)."""

TEXT_START = "# Thirteen hand history"


def load_history(source: str) -> str | Any:
    """A text history (as text) or a JSON history (parsed) from a file or ``-``."""
    text = read_text(source)
    if text.removeprefix("\ufeff").startswith(TEXT_START):
        return text
    return parse_json(text, "standard input" if source == "-" else source)


KEY_FILE_LIMIT = 64 * 1024


def read_key(key: str) -> bytes:
    """The raw 32-byte public key ``--key`` gives: base64 itself, or a file holding it (as
    ``thirteen admin key`` prints it, or the JSON ``GET /api/key`` answers)."""
    raw = decode_base64(key.strip(), 32)
    if raw is not None:
        return raw
    if not Path(key).is_file():
        fail(
            f"--key {name_of(key)} is neither a public key (the base64 of 32 bytes, as "
            "thirteen admin key prints it) nor a file holding one."
        )
    text = read_text(key, KEY_FILE_LIMIT).strip()
    raw = decode_base64(text, 32)
    if raw is None:
        try:
            served = json.loads(text)
        except (ValueError, RecursionError):
            served = None
        if isinstance(served, dict) and isinstance(served.get("public_key"), str):
            raw = decode_base64(served["public_key"], 32)
    if raw is None:
        fail(
            f"--key {name_of(key)}: the file holds no public key (the base64 of 32 bytes, as "
            "thirteen admin key prints it, or the JSON of GET /api/key)."
        )
    return raw


def check_signature(report: Verification, public_key: bytes) -> Verification:
    """The report with the file's signature checked against ``public_key`` (the room's)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    given = signing_key_id(public_key)
    signature = report.signature
    if signature is None:
        problem = f"the file carries no signature, so it cannot be checked against key {given}"
    elif decode_base64(signature["public_key"], 32) != public_key:
        problem = (
            f"the file is signed with key {signature['key_id']}, not with the key you gave "
            f"({given})"
        )
    else:
        value = decode_base64(signature["value"], 64)
        assert value is not None  # the engine checked its form
        try:
            Ed25519PublicKey.from_public_bytes(public_key).verify(value, report.signed)
        except InvalidSignature:
            problem = (
                f"the room's signature (key {given}) does not match the file: it was changed "
                "after the room signed it"
            )
        else:
            return report.signature_checked()
    return replace(report, status="failed", problems=(*report.problems, problem))


def verify(
    source: Annotated[
        str, typer.Argument(metavar="FILE", help="A hand history (JSON or text), or - for stdin.")
    ],
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            metavar="KEY",
            help="The room's public key (base64, as thirteen admin key prints it and GET "
            "/api/key serves it), or a file holding it: check the room's signature too.",
        ),
    ] = None,
) -> None:
    """Check everything a hand history states: its header (hand number, rules, seats, stacks)
    and its deck against the commitment published before the deal, and — for a full history —
    that every action replays in time order, each decision within its deadline, to the recorded
    result. In the text form, every line must be what the history gives.

    With --key, also check the room's Ed25519 signature, which covers every field of the file:
    it proves a player's copy's actions and result, which cannot be replayed.

    Exit 0: everything in the file is verified (with --key: and the room signed it). Exit 3: a
    player's copy without --key — its opened cards match the commitment, but its actions and
    result cannot be replayed (the room's signature proves them: give --key). Exit 1: something
    the file states is false, or with --key: the signature is missing, does not match, or is by
    another key. Exit 2: not a readable history, or KEY is not a public key.
    """
    public_key = read_key(key) if key is not None else None
    loaded = load_history(source)
    report = verify_text(loaded) if isinstance(loaded, str) else verify_history(loaded)
    if public_key is not None and report.status in ("verified", "partial"):
        report = check_signature(report, public_key)
    finish(report)


def finish(report: Verification) -> None:
    """Print what was checked and exit with the code of the report's status."""
    if report.status == "unreadable":
        fail(f"not a readable hand history: {report.problems[0]}")
    for check in report.checks:
        console.print(f"[green]ok[/]  {check}", highlight=False, soft_wrap=True)
    if report.status == "failed":
        sys.stderr.write(
            "thirteen: the history does not verify: " + "; ".join(report.problems) + ".\n"
        )
        raise typer.Exit(FAILED)
    for item in report.unchecked:
        console.print(f"[yellow]not checked[/]  {item}", highlight=False, soft_wrap=True)
    if report.signature is not None and not report.signature_ok:
        console.print(
            f"[yellow]signature present[/] (Ed25519, key {report.signature['key_id']}); give "
            "--key to check it",
            highlight=False,
            soft_wrap=True,
        )
    if report.status == "partial":
        console.print(
            f"partly verified: only what is marked ok is proven. Compare the commitment "
            f"{report.commitment} with the one the table published before the deal.",
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(PARTIAL)
    if report.signed_only and report.signature_ok:
        said = (
            f"verified: this player's copy holds — its opened cards and header match the "
            f"commitment, and {report.signed_only} are proven by the room's signature (not by "
            "a replay)."
        )
    elif report.signature_ok:
        said = "verified: everything in this history holds, and the room signed it."
    else:
        said = "verified: everything in this history holds."
    console.print(
        f"{said} Compare the commitment {report.commitment} with the one the table published "
        "before the deal.",
        highlight=False,
        soft_wrap=True,
    )
