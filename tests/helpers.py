"""Small helpers for readable tests."""

from __future__ import annotations

from thirteen.engine.cards import parse_cards
from thirteen.engine.scoring import SetHand


def hand(front: str, middle: str, back: str, *, fl: bool = False) -> SetHand:
    """A setting from text rows."""
    return SetHand.of(parse_cards(front), parse_cards(middle), parse_cards(back), in_fantasyland=fl)
