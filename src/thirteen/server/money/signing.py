"""The room's Ed25519 signing key, and the signature on every history the room hands out.

The key is ``THIRTEEN_SIGNING_KEY`` (the base64 of the 32-byte raw private key) when set; else
the file ``<data_dir>/signing.key`` (the same form), created with mode 0600 on first start and
reused afterwards. The private key is never logged or written anywhere else; players get the
public key (``GET /api/key``, ``thirteen admin key``) and check a history with
``thirteen verify FILE --key KEY``.

A signature covers :func:`~thirteen.engine.history.signed_bytes`: the canonical JSON of the
history without its ``signature`` field (which holds the algorithm, the key's id, the public key
and the signature, each in base64).
"""

from __future__ import annotations

import base64
import contextlib
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from thirteen.engine.history import (
    SIGNATURE_ALGORITHM,
    decode_base64,
    signed_bytes,
    signing_key_id,
)
from thirteen.engine.history_format import SIGNATURE
from thirteen.server.settings import Settings

KEY_FILE = "signing.key"


class SigningKeyError(Exception):
    """The room's signing key cannot be read or made (the sentence never holds the key)."""


@dataclass(frozen=True)
class Signer:
    """The room's key: signs histories; ``public()`` is what ``GET /api/key`` serves."""

    private_key: Ed25519PrivateKey = field(repr=False)
    public_key: str
    """The raw 32-byte public key in base64."""
    key_id: str

    @classmethod
    def from_private_bytes(cls, raw: bytes) -> Signer:
        private_key = Ed25519PrivateKey.from_private_bytes(raw)
        public = private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return cls(private_key, base64.b64encode(public).decode("ascii"), signing_key_id(public))

    def public(self) -> dict[str, str]:
        return {
            "algorithm": SIGNATURE_ALGORITHM,
            "key_id": self.key_id,
            "public_key": self.public_key,
        }

    def sign(self, history: dict[str, Any]) -> dict[str, Any]:
        """The history (JSON, full or a player's copy) with the room's signature over the rest
        of it (any signature it had is replaced)."""
        unsigned = {k: v for k, v in history.items() if k != SIGNATURE}
        value = self.private_key.sign(signed_bytes(unsigned))
        return {
            **unsigned,
            SIGNATURE: {**self.public(), "value": base64.b64encode(value).decode("ascii")},
        }


def load_signer(settings: Settings) -> Signer:
    """The room's key, from ``THIRTEEN_SIGNING_KEY`` or ``<data_dir>/signing.key`` (made, mode
    0600, if missing); :class:`SigningKeyError` says what is wrong, never what the key is."""
    if settings.signing_key is not None:
        raw = decode_base64(settings.signing_key.get_secret_value().strip(), 32)
        if raw is None:
            raise SigningKeyError(
                "THIRTEEN_SIGNING_KEY must be the base64 of a 32-byte Ed25519 private key."
            )
        return Signer.from_private_bytes(raw)
    return Signer.from_private_bytes(_key_file(Path(settings.data_dir) / KEY_FILE))


def _key_file(path: Path) -> bytes:
    """The private key kept in ``path``, made first if there is none."""
    try:
        if not path.exists():
            _create(path)
        mode = path.stat().st_mode & 0o777
        if os.name == "posix" and mode & 0o077:
            raise SigningKeyError(
                f"{path} can be read by others (mode {mode:04o}); make it 0600 (chmod 600)."
            )
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else type(e).__name__
        raise SigningKeyError(f"Cannot read or make the signing key {path} ({reason}).") from None
    raw = decode_base64(text, 32)
    if raw is None:
        raise SigningKeyError(
            f"{path} must hold the base64 of a 32-byte Ed25519 private key, and nothing else."
        )
    return raw


def _create(path: Path) -> None:
    """Write a new key to ``path`` (mode 0600), atomically: if another process made one first,
    theirs is kept."""
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = Ed25519PrivateKey.generate().private_bytes(
        Encoding.Raw, PrivateFormat.Raw, NoEncryption()
    )
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            os.fchmod(f.fileno(), 0o600)
            f.write(base64.b64encode(raw).decode("ascii") + "\n")
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(FileExistsError):  # another process made it first: keep theirs
            os.link(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


__all__ = ["KEY_FILE", "Signer", "SigningKeyError", "load_signer"]
