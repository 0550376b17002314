"""Warming the bots: one hand of every kind of game, so no table waits on a compilation; and
the compiled kernels cached on disk follow their sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from thirteen.bots import _kernel_cache
from thirteen.bots.warm import HANDS, warm_bots


def test_warming_plays_one_hand_of_every_kind_of_game() -> None:
    played = warm_bots()
    assert [preset for preset, _ in played] == [preset for preset, _ in HANDS]
    assert all(hands == 1 for _, hands in played)


def test_cached_kernels_are_dropped_when_a_kernels_source_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    compiled = [cache / "_ofc_streets.play_best-40.py311.nbi", cache / "_ofc_streets.nbc"]
    for path in compiled:
        path.write_bytes(b"old code")
    stamp = cache / "kernels.sha256"
    monkeypatch.setattr(_kernel_cache, "STAMP", stamp)
    stamp.write_text("the digest of sources edited since", encoding="ascii")
    assert _kernel_cache.drop_stale_kernels()
    assert not any(path.exists() for path in compiled)
    assert stamp.read_text(encoding="ascii") == _kernel_cache.digest()
    for path in compiled:  # compiled again from the sources as they are
        path.write_bytes(b"new code")
    assert not _kernel_cache.drop_stale_kernels()
    assert all(path.exists() for path in compiled)
