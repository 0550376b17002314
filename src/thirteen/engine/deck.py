"""Decks and their commitments: a fair deal anyone can check without revealing hidden cards.

Each deal uses a fresh full-deck shuffle from the operating system's cryptographic source
(:func:`fresh_deal`; nothing seeds it), or an injected order for tests, replays and duplicate
deals. Every deck position ``i`` gets its own random salt and a leaf ``SHA-256(salt_i ‖ i ‖
card_i)``; the deck's **root** is ``SHA-256(leaf_0 ‖ … ‖ leaf_51)``. The commitment the table
publishes before the first card binds this root to the hand's header (the hand number and the
table before the deal: :mod:`thirteen.engine.snapshot`). After the hand, a viewer is given the
*openings* (position, card, salt) of exactly the cards they may see, plus every leaf digest: they
can check each opened card against the root, while discards and surrendered hands stay hidden
(RULES §4.1, §2.8). The full history opens all 52 positions.

>>> deal = Deal.from_order(list(range(52)), salts=[bytes(16)] * 52)
>>> verify_openings(deal.root, deal.leaves(), deal.openings(range(3)))
True
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from thirteen.engine.cards import DECK, Card, format_cards
from thirteen.engine.errors import CardError
from thirteen.engine.records import quick_init

SALT_BYTES = 16


def leaf_digest(position: int, card: Card, salt: bytes) -> bytes:
    """The commitment leaf of one deck position."""
    return hashlib.sha256(salt + bytes((position, card))).digest()


def root_digest(leaves: Sequence[bytes]) -> str:
    """The deck's root over all 52 leaves, as hex."""
    return hashlib.sha256(b"".join(leaves)).hexdigest()


@quick_init
@dataclass(frozen=True)
class Opening:
    """One revealed deck position: its card and the salt that proves it."""

    position: int
    card: Card
    salt: bytes


@quick_init
@dataclass(frozen=True)
class Deal:
    """A deck order with its salts; :attr:`root` is what the published commitment binds."""

    order: tuple[Card, ...]
    salts: tuple[bytes, ...]

    @classmethod
    def from_order(cls, order: Sequence[Card], salts: Sequence[bytes] | None = None) -> Deal:
        """A deal from an injected order (tests, replays, duplicate tables).

        Without ``salts``, fresh random salts are drawn (the order is fixed, the commitment is
        still unguessable). Raises :class:`CardError` unless ``order`` is a full deck.
        """
        order = tuple(order)
        if sorted(order) != list(DECK):
            has = f"has {len(order)} cards" if len(order) != 52 else "repeats a card"
            raise CardError("bad_deck", f"A deck holds each of the 52 cards once; this one {has}.")
        if salts is None:
            salts = [secrets.token_bytes(SALT_BYTES) for _ in range(52)]
        salts = tuple(salts)
        if len(salts) != 52 or any(len(s) != SALT_BYTES for s in salts):
            raise CardError("bad_deck", f"A deal needs 52 salts of {SALT_BYTES} bytes each.")
        return cls(order, salts)

    def leaves(self) -> tuple[bytes, ...]:
        return self._leaves

    @cached_property
    def _leaves(self) -> tuple[bytes, ...]:
        pairs = zip(self.order, self.salts, strict=True)  # (a list first: quicker, issue 33)
        return tuple([leaf_digest(i, c, s) for i, (c, s) in enumerate(pairs)])

    @cached_property
    def root(self) -> str:
        return root_digest(self._leaves)

    def openings(self, positions: Iterable[int]) -> tuple[Opening, ...]:
        """Openings of some positions, in position order."""
        return tuple(Opening(p, self.order[p], self.salts[p]) for p in sorted(set(positions)))

    def __repr__(self) -> str:  # never print a live deck by accident in full
        return f"Deal(root={self.root[:16]}…)"

    def describe(self) -> str:
        return format_cards(self.order)


_WORDS = struct.Struct("<64I")
"""A read of the OS's cryptographic source as 64 little-endian 32-bit numbers."""


def _draws() -> Iterator[int]:
    """Uniform 32-bit numbers from the OS's cryptographic source, a few hundred bytes a read
    (one system call a deal where ``SystemRandom`` made one for every swap), unpacked in one
    call."""
    while True:
        yield from _WORDS.unpack(secrets.token_bytes(_WORDS.size))


def _below(n: int, draws: Iterator[int]) -> int:
    """A uniform whole number in ``[0, n)``: draws past the last whole multiple of ``n`` under
    2³² are thrown away, so no number is likelier than another."""
    limit = (1 << 32) - (1 << 32) % n
    while (r := next(draws)) >= limit:
        pass
    return r % n


def fresh_deal() -> Deal:
    """A fresh shuffle from the OS's cryptographic source, with fresh salts (nothing seeds it):
    Fisher–Yates over uniform draws, and 52 salts cut from one read."""
    draws = _draws()
    order = list(DECK)
    for i in range(len(order) - 1, 0, -1):
        j = _below(i + 1, draws)
        order[i], order[j] = order[j], order[i]
    block = secrets.token_bytes(52 * SALT_BYTES)
    salts = [block[k : k + SALT_BYTES] for k in range(0, len(block), SALT_BYTES)]
    return Deal.from_order(order, salts)


def verify_openings(root: str, leaves: Sequence[bytes], openings: Iterable[Opening]) -> bool:
    """Whether the leaves make the deck's root and every opening matches its leaf."""
    if len(leaves) != 52 or root_digest(leaves) != root:
        return False
    return all(
        0 <= o.position < 52 and leaf_digest(o.position, o.card, o.salt) == leaves[o.position]
        for o in openings
    )
