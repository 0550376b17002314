"""Cards are small ints; text only at the edges.

A card is an ``int`` from 0 to 51: ``rank * 4 + suit``, with ranks ``2..A`` as 0..12 and suits
``c d h s`` as 0..3. A set of cards is a 52-bit ``int`` mask (:data:`CardSet`).

>>> parse_cards("As Td 10c")
[51, 33, 32]
>>> format_cards(parse_cards("as td 10c"))
'As Td Tc'
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from typing import SupportsIndex

from thirteen.engine.errors import CardError, quote

Card = int
CardSet = int

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
DECK: tuple[Card, ...] = tuple(range(52))
FULL_DECK_MASK: CardSet = (1 << 52) - 1

_SUIT_SYMBOLS = {"♣": 0, "♦": 1, "♥": 2, "♠": 3}
_CARD_NAMES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)


def _token_table() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for rank_index, rank in enumerate(RANKS):
        rank_spellings = {rank, rank.lower()}
        if rank == "T":
            rank_spellings |= {"10"}
        for suit_index, suit in enumerate(SUITS):
            suit_spellings = {suit, suit.upper()}
            suit_spellings |= {sym for sym, i in _SUIT_SYMBOLS.items() if i == suit_index}
            for r in rank_spellings:
                for s in suit_spellings:
                    table[r + s] = rank_index * 4 + suit_index
    return table


_TOKENS = _token_table()


def rank_of(card: Card) -> int:
    """The rank index of a card: 0 for a deuce up to 12 for an ace."""
    return card >> 2


def suit_of(card: Card) -> int:
    """The suit index of a card: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card & 3


def make_card(rank: int, suit: int) -> Card:
    """The card of a rank index (0..12) and a suit index (0..3)."""
    return rank * 4 + suit


def card_name(card: Card) -> str:
    """The two-character name of a card, e.g. ``'As'``."""
    return _CARD_NAMES[card]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as space-separated names, in the order given."""
    return " ".join(map(_CARD_NAMES.__getitem__, cards))


def parse_card(token: str) -> Card:
    """One card from its name (``As``, ``td``, ``10c``, ``A♠``).

    Raises :class:`CardError` naming the token when it is not a card.
    """
    card = _TOKENS.get(token)
    if card is None:
        raise CardError("unknown_card", _unknown_card_message(token))
    return card


def _unknown_card_message(token: str) -> str:
    return (
        f"{quote(token, limit=24)} is not a card: write a rank (2-9, T or 10, J, Q, K, A) "
        "followed by a suit (c, d, h, s), for example As or 10d."
    )


def parse_cards(text: str | Iterable[str], *, allow_duplicates: bool = False) -> list[Card]:
    """Cards from text such as ``"As Td 9c"`` (spaces or commas between cards).

    A list of tokens is accepted too. Raises :class:`CardError` naming the first token that is not
    a card, or the first card given twice (unless ``allow_duplicates``).
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards: list[Card] = []
    seen = 0
    for token in tokens:
        card = _TOKENS.get(token)
        if card is None:
            raise CardError("unknown_card", _unknown_card_message(token))
        bit = 1 << card
        if seen & bit and not allow_duplicates:
            raise CardError("duplicate_card", f"{_CARD_NAMES[card]} is given twice.")
        seen |= bit
        cards.append(card)
    return cards


def to_mask(cards: Iterable[Card]) -> CardSet:
    """The 52-bit set of some cards."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def from_mask(mask: CardSet) -> list[Card]:
    """The cards of a set, lowest first."""
    cards: list[Card] = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def sort_cards(cards: Iterable[Card], *, descending: bool = True) -> list[Card]:
    """Cards ordered by rank, then suit (highest first by default)."""
    return sorted(cards, reverse=descending)


def check_distinct(groups: Sequence[Sequence[Card]], *, owner: str = "") -> None:
    """Raise :class:`CardError` if any card appears twice across ``groups``.

    With ``owner`` (e.g. ``"player"``) the message names the groups holding the card, counted
    from 1.
    """
    seen: dict[Card, int] = {}
    for index, group in enumerate(groups, 1):
        for card in group:
            first = seen.get(card)
            if first is not None:
                where = ""
                if owner and first != index:
                    where = f" ({owner}s {first} and {index})"
                elif owner:
                    where = f" (twice by {owner} {index})"
                raise CardError("duplicate_card", f"{_CARD_NAMES[card]} is used twice{where}.")
            seen[card] = index


def check_cards(cards: Iterable[SupportsIndex]) -> list[Card]:
    """Validate card numbers (0..51; Python or numpy integers) and return them as plain ints."""
    out: list[Card] = []
    for c in cards:
        try:
            value = operator.index(c)
        except TypeError:
            value = -1
        if isinstance(c, bool) or not 0 <= value < 52:
            raise CardError("unknown_card", f"{c!r} is not a card number (0 to 51).")
        out.append(value)
    return out
