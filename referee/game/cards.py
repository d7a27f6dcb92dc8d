"""Cards, suits and hands as small integers and bitmasks.

A card is an ``int`` in ``0..51``: ``suit * 13 + rank`` with suits ordered
clubs, diamonds, hearts, spades (0..3) and ranks ``2`` (0) to ``A`` (12).
That order is also the protocol's sort order (by suit, then rank), so sorting
the integers sorts the cards. A hand is a 52-bit mask with bit ``card`` set
for every card held: set operations (follow suit, voids, "holds only spades")
become single integer operations, which is what makes the engine fast.
"""

from __future__ import annotations

from typing import Iterable

RANKS = "23456789TJQKA"
SUITS = "CDHS"
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")

DECK_SIZE = 52
FULL_DECK = (1 << DECK_SIZE) - 1
SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))
SPADE_MASK = SUIT_MASKS[SPADES]
NON_SPADE_MASK = FULL_DECK & ~SPADE_MASK

CARD_NAMES = tuple(r + s for s in SUITS for r in RANKS)
_CARD_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}


class CardError(ValueError):
    """A card name that is not two characters of rank then suit."""


def suit_of(card: int) -> int:
    """Suit index (0 clubs .. 3 spades) of ``card``."""
    return card // 13


def rank_of(card: int) -> int:
    """Rank index (0 for a 2 .. 12 for an ace) of ``card``."""
    return card % 13


def card_name(card: int) -> str:
    """Protocol name of ``card``, e.g. ``'AS'``."""
    return CARD_NAMES[card]


def parse_card(text: object) -> int:
    """Parse a protocol card name such as ``'TH'``; raise :class:`CardError` quoting it."""
    if isinstance(text, str):
        card = _CARD_BY_NAME.get(text)
        if card is not None:
            return card
    raise CardError(
        f"not a card: {text!r} (a card is a rank of {RANKS} then a suit of {SUITS}, e.g. 'AS', 'TH')"
    )


def parse_cards(texts: Iterable[object]) -> list[int]:
    """Parse a list of protocol card names."""
    return [parse_card(t) for t in texts]


def mask_of(cards: Iterable[int]) -> int:
    """Bitmask holding ``cards``."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


# Per-suit tables "13-bit pattern -> tuple of card ints", built once: turning a
# mask into a sorted list is on the engine's hot path (legal actions), and a
# table lookup per suit is several times faster than testing 52 bits.
def _build_suit_table(suit: int) -> tuple[tuple[int, ...], ...]:
    base = 13 * suit
    table: list[tuple[int, ...]] = [()]
    for rank in range(13):
        # Patterns with the top bit `rank` are the earlier ones plus this card.
        table += [t + (base + rank,) for t in table]
    return tuple(table)


_SUIT_TABLES = tuple(_build_suit_table(s) for s in range(4))
_T0, _T1, _T2, _T3 = _SUIT_TABLES


def suit_cards(suit: int, pattern: int) -> tuple[int, ...]:
    """The cards of ``suit`` whose rank bits are set in the 13-bit ``pattern``."""
    return _SUIT_TABLES[suit][pattern]


def cards_of(mask: int) -> list[int]:
    """The cards of ``mask`` in ascending (protocol) order."""
    return [*_T0[mask & 0x1FFF], *_T1[mask >> 13 & 0x1FFF], *_T2[mask >> 26 & 0x1FFF], *_T3[mask >> 39]]


def names_of(mask: int) -> list[str]:
    """Protocol names of the cards of ``mask``, sorted."""
    return [CARD_NAMES[c] for c in cards_of(mask)]


def count(mask: int) -> int:
    """Number of cards in ``mask``."""
    return mask.bit_count()
