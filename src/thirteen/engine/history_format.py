"""The hand-history format's name and version, its signature's fields, and the checks that both
of its forms read with.

A history has two forms: JSON (:mod:`thirteen.engine.history`) and text
(:mod:`thirteen.engine.history_text`). The text form only rewrites the JSON data, line for line,
and never needs a :class:`~thirteen.engine.history.HandHistory`: what the two share is here, a
piece of its own so that the text form rests on it without importing the JSON form.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from thirteen.engine.errors import RuleError

FORMAT = "thirteen-hand-history"
VERSION = 2
SIGNATURE = "signature"
"""The optional field of a history the room signed (not covered by its own signature)."""
SIGNATURE_KEYS = ("algorithm", "key_id", "public_key", "value")
"""The fields of a signature, in the order the text form's ``signature:`` line writes them."""


def bad_history(message: str) -> RuleError:
    """The error that says what is malformed in a history (``bad_history``)."""
    return RuleError("bad_history", message)


def json_object(
    data: Any, keys: Sequence[str], what: str, optional: Sequence[str] = ()
) -> dict[str, Any]:
    """``data`` as an object with exactly ``keys`` (and perhaps ``optional``): ``what`` names it
    in the error otherwise."""
    if not isinstance(data, dict):
        raise bad_history(f"{what} must be an object.")
    missing = [k for k in keys if k not in data]
    if missing:
        raise bad_history(f"{what} has no {missing[0]!r}.")
    unknown = sorted(set(data) - set(keys) - set(optional))
    if unknown:
        raise bad_history(f"{what} has an unknown field {unknown[0]!r}.")
    return data


__all__ = ["FORMAT", "SIGNATURE", "SIGNATURE_KEYS", "VERSION", "bad_history", "json_object"]
