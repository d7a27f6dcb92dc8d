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
import struct
from typing import Callable, Sequence

from referee.game.cards import DECK_SIZE, card_name


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

_KEYS = struct.Struct("<52Q").unpack
_DECK = range(DECK_SIZE)


def shuffled_deck(rng: random.Random) -> tuple[int, ...]:
    """A uniformly random order of the 52 cards.

    Sorting by 52 random 64-bit keys (a tie has probability below 1e-16) is
    about twice as fast as ``random.shuffle`` in CPython, which matters when
    tools and benchmarks deal millions of hands.
    """
    keys = _KEYS(rng.randbytes(8 * DECK_SIZE))
    return tuple(sorted(_DECK, key=keys.__getitem__))


def trusted_deal(cards: tuple[int, ...], salt: int = 0, *, _new: Callable = object.__new__) -> Deal:
    """A :class:`Deal` from an order this module made, skipping the validation."""
    deal = _new(Deal)
    # Filled in through the instance dict, past the frozen __setattr__ (what
    # object.__setattr__ would do, for half the cost: benchmarks deal a lot).
    fields = deal.__dict__
    fields["cards"] = cards
    fields["salt"] = salt
    return deal


def seeded_deal(seed: int, hand_no: int) -> Deal:
    """The deal of hand ``hand_no`` of a match with master ``seed``.

    Seeding with a string makes the result independent of Python's hash
    randomisation and of the platform, so a recorded seed replays anywhere.
    """
    rng = random.Random(f"spades-referee:{seed}:{hand_no}")
    return trusted_deal(shuffled_deck(rng), rng.getrandbits(32))


def deal_from_hands(hands: Sequence[Sequence[int]], dealer: int, salt: int = 0) -> Deal:
    """The partnership deal that gives seat ``s`` the cards ``hands[s]`` when ``dealer`` deals.

    Cards are dealt one at a time from the dealer's left, so card ``i`` of the
    order goes to seat ``(dealer + 1 + i) % 4``.
    """
    if len(hands) != 4 or any(len(h) != 13 for h in hands):
        raise ValueError(f"a partnership deal is 4 hands of 13 cards, got hands of {[len(h) for h in hands]} cards")
    order = [hands[(dealer + 1 + k) % 4][i] for i in range(13) for k in range(4)]
    return Deal(tuple(order), salt)


def seeded_deals(seed: int) -> DealSource:
    """A deal source for a whole match from one seed."""
    return lambda hand_no: seeded_deal(seed, hand_no)


def keyed_deal(key: str, hand_no: int) -> Deal:
    """The deal of hand ``hand_no`` of a match whose deals come from a secret ``key``.

    A tournament derives the key from its public match seed and a secret
    kept out of every bot's view (:mod:`referee.tournament.integrity`), so
    knowing the seed, the config and the match id tells a bot nothing about
    the cards. The text is distinct from :func:`seeded_deal`'s, so no seed
    ever gives the same deals as a key.
    """
    rng = random.Random(f"spades-referee/keyed-deal/v1:{key}:{hand_no}")
    return trusted_deal(shuffled_deck(rng), rng.getrandbits(32))


def keyed_deals(key: str) -> DealSource:
    """A deal source for a whole match from a secret deal key."""
    return lambda hand_no: keyed_deal(key, hand_no)
