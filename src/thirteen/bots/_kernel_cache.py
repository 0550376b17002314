"""Keeping the bots' compiled kernels true to their sources.

numba caches each compiled kernel beside its source (``__pycache__/*.nbi``, ``*.nbc``) and
compiles it again when *that* file changes — but a kernel compiled with calls into kernels of
other files (the OFC rollouts call the board value, the setter's search calls the engine's
evaluator) keeps their old code until its own file changes. So the bots' caches go together:
a digest of every kernel's source is kept beside them, and when it no longer matches (someone
edited a kernel), every cached bot kernel is dropped before any is loaded; the next use compiles
them again. An install that never changes its sources never pays for this but a digest.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

BOTS = Path(__file__).parent
STAMP = BOTS / "__pycache__" / "kernels.sha256"


def digest() -> str:
    """A digest of every file whose compiled code a cached bot kernel may hold: the bots' own
    modules that cache kernels, and the engine's kernels."""
    sha = hashlib.sha256()
    for path in [*sorted(BOTS.glob("_*.py")), BOTS.parent / "engine" / "kernels.py"]:
        source = path.read_bytes()
        if b"cache=True" in source:
            sha.update(path.name.encode())
            sha.update(source)
    return sha.hexdigest()


def drop_stale_kernels() -> bool:
    """Drop the bots' cached kernels if any kernel's source changed since they were compiled;
    whether it did. Where the cache is not writable (numba then keeps it elsewhere), nothing."""
    now = digest()
    try:
        if STAMP.read_text(encoding="ascii") == now:
            return False
    except OSError:
        pass
    try:
        for cached in [*STAMP.parent.glob("*.nbi"), *STAMP.parent.glob("*.nbc")]:
            cached.unlink(missing_ok=True)
        STAMP.parent.mkdir(exist_ok=True)
        STAMP.write_text(now, encoding="ascii")
    except OSError:
        return False
    return True


__all__ = ["STAMP", "digest", "drop_stale_kernels"]
