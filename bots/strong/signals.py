"""A discard convention the pair agrees on in the open, as partnerships at a card table do.

Most discards cost nothing: when a seat cannot follow suit, the search often values
shedding a low club and a low diamond alike. Such a choice can say something to the
partner instead. The convention here is "discard from weakness": among the discards the
search values alike, a seat sheds from the plain suit whose highest card it holds is the
lowest (the shorter such suit on a tie). So a partner that discarded a diamond is
unlikely to hold a high diamond, and the seat that reads it leads and keeps its cards
knowing where its partner's strength is not (above all on defence, where the best lead
is into the partner's winners).

Both halves are settings (:data:`SIGNAL_DISCARDS`, :data:`SIGNAL_READ_WEIGHT`), measured
in docs/benchmarks.md (*A discard signal and a model of the opponents*). The convention is public: any opponent
may read it too, and nothing in it depends on a card the signalling seat has not seen.
"""

from __future__ import annotations

from typing import Sequence

from .cards import SPADES, SUIT_MASKS

#: Whether this bot chooses among equally valued discards by the convention (a setting;
#: off as shipped).
SIGNAL_DISCARDS = False
#: Points within which a discard counts as "valued alike" with the best (0: exact ties).
SIGNAL_EPS = 0.0
#: The odds that a partner which discarded from a suit still holds one of that suit's
#: high cards (rank :data:`HIGH_RANK` or above, and above the card it discarded); None:
#: the discards are not read.
SIGNAL_READ_WEIGHT: float | None = None
#: The lowest rank the reading counts as high: 9 is the jack (ranks 0..12 are 2..A).
HIGH_RANK = 9


def _top_rank(cards: int) -> int:
    return (cards.bit_length() - 1) % 13 if cards else -1


def choose_discard(tied: Sequence[int], hand: int) -> int | None:
    """The convention's card among ``tied`` (discards valued alike; the seat cannot follow
    the led suit) from ``hand``: the lowest card of the plain suit whose top card in
    ``hand`` is the lowest (the shorter suit on a tie). None when fewer than two plain
    suits are among ``tied`` (nothing to say: the caller keeps its own choice)."""
    suits = sorted({c // 13 for c in tied if c // 13 != SPADES})
    if len(suits) < 2:
        return None
    weakest = min(suits, key=lambda s: (_top_rank(hand & SUIT_MASKS[s]),
                                        (hand & SUIT_MASKS[s]).bit_count(), s))
    return min(c for c in tied if c // 13 == weakest)


def discard_evidence(played: Sequence[tuple[int, int]], n: int, partner: int,
                     unplayed: int) -> list[tuple[int, int]]:
    """What the partner's discards say by the convention, as ``(seat, cards)`` pairs: a
    partner that shed a plain card on a trick of another suit, and did not ruff, is
    unlikely to hold a high card of that suit above it that is still out (``unplayed``).
    Read once per suit (the first discard from it); the caller weighs the facts."""
    out: list[tuple[int, int]] = []
    seen_suits = 0
    for start in range(0, len(played), n):
        trick = played[start:start + n]
        led = trick[0][1] // 13
        for seat, card in trick[1:]:
            suit = card // 13
            if seat != partner or suit == led or suit == SPADES or seen_suits >> suit & 1:
                continue
            seen_suits |= 1 << suit
            floor = max(HIGH_RANK, card % 13 + 1)
            high = SUIT_MASKS[suit] & ~((1 << (13 * suit + floor)) - 1) & unplayed
            if high:
                out.append((partner, high))
    return out
