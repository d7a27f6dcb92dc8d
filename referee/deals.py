"""Deals: the only source of chance in a match, as explicit seeded input.

A :class:`Deal` is the order of the 52 cards for one hand (partnership: dealt
one at a time from the dealer's left; two-player: the stock, top first) plus
a ``salt`` that seeds the one other random event of the rules, the
two-player Blind Nil replacement draw. Duplicate tournaments give two matches
the same deal source so both meet the same cards.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Callable, Sequence

from .cards import DECK_SIZE, card_name


_ALL_CARDS = frozenset(range(DECK_SIZE))


@dataclasses.dataclass(frozen=True)
class Deal:
    """One hand's card order and replacement-draw salt."""

    cards: tuple[int, ...]
    salt: int = 0

    def __post_init__(self) -> None:
        if len(self.cards) != DECK_SIZE or frozenset(self.cards) != _ALL_CARDS:
            raise ValueError(f"a deal is an order of all 52 cards, got {len(self.cards)} cards: "
                             f"{[card_name(c) if 0 <= c < 52 else c for c in self.cards][:60]!r}")

    @classmethod
    def from_cards(cls, cards: Sequence[int], salt: int = 0) -> "Deal":
        return cls(tuple(cards), salt)


DealSource = Callable[[int], Deal]


def seeded_deal(seed: int, hand_no: int) -> Deal:
    """The deal of hand ``hand_no`` of a match with master ``seed``.

    Seeding with a string makes the result independent of Python's hash
    randomisation and of the platform, so a recorded seed replays anywhere.
    """
    rng = random.Random(f"spades-referee:{seed}:{hand_no}")
    cards = list(range(DECK_SIZE))
    rng.shuffle(cards)
    return Deal(tuple(cards), rng.getrandbits(32))


def seeded_deals(seed: int) -> DealSource:
    """A deal source for a whole match from one seed."""
    return lambda hand_no: seeded_deal(seed, hand_no)
