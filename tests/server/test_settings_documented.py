"""Every setting the room reads is documented in the README, with its default."""

from __future__ import annotations

from pathlib import Path

from thirteen.server.settings import Settings

README = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")


def test_every_setting_is_in_the_readme() -> None:
    for name, field in Settings.model_fields.items():
        row = next(
            (line for line in README.splitlines() if f"`THIRTEEN_{name.upper()}`" in line), None
        )
        assert row is not None, f"THIRTEEN_{name.upper()} is not documented"
        default = field.default
        if isinstance(default, bool):
            assert f"`{str(default).lower()}`" in row, row
        elif isinstance(default, int | float) and not isinstance(default, bool):
            assert f"`{default:g}`" in row or f"`{default}`" in row, row
