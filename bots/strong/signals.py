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
in docs/benchmarks.md (*A discard signal and a model of the opponents*). So is a second
convention, a spade-length echo (:data:`SPADE_ECHO`, :data:`ECHO_READ_WEIGHT`): the order
in which a seat plays equivalent plain cards says whether it was dealt four spades or
more (docs/benchmarks.md, twenty-fifth session). Both are off as shipped. Both
conventions are public: any opponent may read them too, and nothing in them depends on a
card the signalling seat has not seen.
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


#: Whether this bot shows its spade length by the order it plays equivalent cards in (a
#: setting; off as shipped): with at least :data:`ECHO_LONG` spades dealt, it plays the
#: highest card of a run of plain cards that are equivalent from its view ("high-low"),
#: otherwise the lowest (as the search does anyway). Equivalent cards take the same
#: tricks, so the order costs nothing; the partner reads it once it sees two of them.
SPADE_ECHO = False
#: Spades dealt that count as long.
ECHO_LONG = 4
#: The odds the reader gives the cards an echo says the partner is unlikely to hold (its
#: spades after "low-high", its plain cards after "high-low"); None: echoes not read.
ECHO_READ_WEIGHT: float | None = None


def echo_card(card: int, hand: int, live: int, spades_dealt: int) -> int:
    """The card of ``card``'s run this seat plays by the spade echo: ``card`` itself
    (the lowest of its run) when short in spades or ``card`` is a spade, else the
    highest card of ``hand`` that no card in ``live`` (held by another seat, or in the
    trick in progress) separates from it."""
    suit = card // 13
    if suit == SPADES or spades_dealt < ECHO_LONG:
        return card
    top = card
    for x in range(card + 1, 13 * suit + 13):
        if hand >> x & 1:
            top = x
        elif live >> x & 1:
            break
    return top


def echo_evidence(played: Sequence[tuple[int, int]], n: int, partner: int,
                  unplayed: int) -> list[tuple[int, int]]:
    """What the partner's first echo says, as at most one ``(seat, cards)`` pair. An echo
    is two plain cards of one suit the partner played in different tricks, with every
    card between them gone before the first one's trick or played by the partner: they
    were equivalent when it played the first, so their order was its choice. High-low
    says long spades (so its plain cards still out are less likely); low-high, short
    (its spades still out are less likely)."""
    gone = 0  # cards of the tricks finished so far
    partner_cards = 0
    firsts: dict[int, tuple[int, int]] = {}  # suit -> (first card, cards gone before its trick)
    for start in range(0, len(played), n):
        trick = played[start:start + n]
        for seat, card in trick:
            suit = card // 13
            if seat != partner:
                continue
            partner_cards |= 1 << card
            if suit == SPADES:
                continue
            if suit not in firsts:
                firsts[suit] = (card, gone)
                continue
            first, gone_then = firsts[suit]
            lo, hi = min(first, card), max(first, card)
            between = ((1 << hi) - 1) & ~((2 << lo) - 1)
            if between & ~(gone_then | partner_cards):
                firsts[suit] = (card, gone)  # not equivalent: this card may start an echo
                continue
            if first > card:
                return [(partner, unplayed & ~SUIT_MASKS[SPADES])]
            return [(partner, unplayed & SUIT_MASKS[SPADES])]
        for _, card in trick:
            gone |= 1 << card
    return []
