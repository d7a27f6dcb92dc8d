"""Cards as small ints and hands as 52-bit masks (the protocol's own order).

A card is ``suit * 13 + rank`` with suits clubs, diamonds, hearts, spades (0..3) and
ranks ``2`` (0) .. ``A`` (12), so sorting the ints sorts cards the way the protocol
lists them. Hands are bitmasks: following suit, voids and "only spades" become one
integer operation each, which is what keeps the search tolerable in pure Python.
"""

from __future__ import annotations

from typing import Iterable

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SPADES = 3
FULL_DECK = (1 << 52) - 1
SUIT_MASKS: tuple[int, int, int, int] = tuple(0x1FFF << (13 * s) for s in range(4))  # type: ignore[assignment]
SPADE_MASK = SUIT_MASKS[SPADES]
NON_SPADE_MASK = FULL_DECK & ~SPADE_MASK
CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}


class CardError(ValueError):
    """A string that is not a protocol card name."""


def parse_card(text: object) -> int:
    """Card int of a protocol name such as ``'TH'``; raises :class:`CardError` quoting it."""
    card = _BY_NAME.get(text) if isinstance(text, str) else None
    if card is None:
        raise CardError(f"not a card: {text!r} (expected rank of {RANKS} then suit of {SUITS})")
    return card


def parse_cards(texts: Iterable[object]) -> list[int]:
    """Card ints of a list of protocol names."""
    return [parse_card(t) for t in texts]


def mask_of(cards: Iterable[int]) -> int:
    """Bitmask with a bit set for each card."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: int) -> list[int]:
    """Cards of ``mask`` in ascending order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def names_of(mask: int) -> list[str]:
    """Protocol names of the cards of ``mask``, sorted as the protocol sorts them."""
    return [CARD_NAMES[c] for c in cards_of(mask)]


def name(card: int) -> str:
    """Protocol name of one card."""
    return CARD_NAMES[card]


def suit_of(card: int) -> int:
    """Suit index 0..3 of ``card``."""
    return card // 13


def rank_of(card: int) -> int:
    """Rank index 0 (a 2) .. 12 (an ace) of ``card``."""
    return card % 13


def legal_mask(hand: int, led_suit: int, broken: bool) -> int:
    """Cards of ``hand`` that may be played: follow ``led_suit`` (-1 when leading) if
    possible; a leader may not lead a spade before spades are broken unless holding
    only spades."""
    if led_suit >= 0:
        follow = hand & SUIT_MASKS[led_suit]
        return follow if follow else hand
    if broken:
        return hand
    plain = hand & NON_SPADE_MASK
    return plain if plain else hand


def trick_key(card: int, led: int) -> int:
    """How strongly ``card`` plays to a trick led in suit ``led``: a spade 100 + its rank,
    a card of the led suit its rank, any other card -1 (it cannot win)."""
    s = card // 13
    if s == SPADES:
        return 100 + card % 13
    return card % 13 if s == led else -1


def trick_winner(trick: list[tuple[int, int]]) -> int:
    """Seat that wins a complete trick given as ``[(seat, card), ...]`` in play order."""
    led = trick[0][1] // 13
    best_seat, best_key = trick[0][0], -1
    for seat, card in trick:
        key = trick_key(card, led)
        if key > best_key:
            best_key, best_seat = key, seat
    return best_seat
