"""Sampling complete deals consistent with everything a seat has seen.

:func:`knowledge` distils a :class:`~bots.strong.view.View` into hard constraints:

* this seat's cards, every card played (nobody holds them any more);
* shown voids: a seat that did not follow the led suit holds none of it, and a seat that
  led a spade before spades were broken held only spades;
* cards this seat saw in the two-player draw (its discards: the unseen pile is the
  opponent's discards; nobody holds this seat's own), with one exception: an opponent
  that bid Blind Nil may have drawn some of them in its exchange;
* cards this seat passed in a partnership exchange (the partner holds them until it plays
  them or passes them back);
* how many cards every seat still holds.

:func:`sample_deals` then deals the unknown cards at random to the other seats (and, in
two-player, to the unseen discard pile), most constrained cards first with each seat
chosen in proportion to its free places (in partnership where the play is read, times
the odds the play gives that seat of holding the card, :mod:`bots.strong.inference`),
restarting on a dead end and falling back to an exhaustive search, so that a sample
never contradicts a constraint. Samples are then
biased by the bids: every seat's original hand is scored by how likely it was to make
the bid it made (:func:`bid_likelihood`), and deals are drawn in proportion to that
weight from a larger candidate set.
"""

from __future__ import annotations

import dataclasses
import math
import random

from .bidstyle import BidStyle, convention_bid, first_of_pair
from .cards import FULL_DECK, SPADES, SUIT_MASKS, cards_of
from .evaluate import blind_exchange_weight, expected_tricks, keep_odds, nil_probability
from . import reading
from .inference import Evidence, play_evidence

# Two-player: odds that the opponent kept a card it saw (it keeps good cards).
_KEEP_ODDS = keep_odds()
# ... and one that bid Blind Nil before its draw keeps low cards instead.
_NIL_KEEP_ODDS = keep_odds("keep2nil")
from .view import View


@dataclasses.dataclass
class Knowledge:
    """Hard facts one seat knows about where the cards are."""

    n: int
    me: int
    hand: int
    counts: list[int]  # cards each seat holds now
    voids: list[int]  # per seat, bit s set when it is known to hold no card of suit s
    known: list[int]  # per seat, cards it is known to hold
    pool: int  # cards held by another seat (or lying in the two-player unseen pile)
    pile: int  # two-player: how many pool cards are in the unseen discard pile
    maybe_opp: int = 0  # two-player: own discards an opponent's Blind Nil exchange may have taken
    maybe_max: int = 0
    played_by: list[int] = dataclasses.field(default_factory=list)
    bids: list[int | None] = dataclasses.field(default_factory=list)
    blind: list[bool] = dataclasses.field(default_factory=list)
    exchange: int = 0  # partnership: cards a Blind Nil bidder and its partner swap
    bid_styles: list[BidStyle] = dataclasses.field(default_factory=list)  # per seat, see bidstyle.py
    evidence: list[Evidence] = dataclasses.field(default_factory=list)  # soft facts from the play
    # Per seat and card, the odds the dealer gives that seat that card (from ``evidence``;
    # empty: even odds).
    card_odds: list[list[float]] = dataclasses.field(default_factory=list)
    # Partnership: per seat, whether it bid before its partner (empty: unknown).
    first_of_pair: list[bool] = dataclasses.field(default_factory=list)


def shown_voids(played: list[tuple[int, int]], n: int, broken_at_start: bool = False) -> list[int]:
    """Per seat, the suits it has shown to be out of (bitmask), from the play so far."""
    voids = [0] * n
    broken = broken_at_start
    for i in range(0, len(played), n):
        trick = played[i:i + n]
        lead_seat, lead_card = trick[0]
        led = lead_card // 13
        if led == SPADES and not broken:
            voids[lead_seat] |= 0b0111  # led an unbroken spade: held only spades
        for seat, card in trick[1:]:
            if card // 13 != led:
                voids[seat] |= 1 << led
        if any(c // 13 == SPADES for _, c in trick):
            broken = True
    return voids


def knowledge(view: View, blind_nil_cards: int = 3, read_play: bool = False) -> Knowledge:
    """The constraints :func:`sample_deals` must respect, from ``view``; with
    ``read_play``, also the soft facts the plays give (:mod:`bots.strong.inference`)."""
    n, me = view.n, view.seat
    played_by = [0] * n
    for s, c in view.played:
        if 0 <= s < n:
            played_by[s] |= 1 << c
    played = 0
    for m in played_by:
        played |= m
    counts = [13 - m.bit_count() for m in played_by]
    counts[me] = view.hand.bit_count()
    voids = shown_voids(view.played, n)
    known = [0] * n
    pool = FULL_DECK & ~view.hand & ~played
    pile = 0
    maybe_opp = maybe_max = 0
    if n == 4:
        partner = (me + 2) % 4
        passed = view.passed & ~view.hand & ~played
        if passed:
            to = view.passed_to if view.passed_to is not None else partner
            if 0 <= to < n and to != me:
                known[to] = passed
        pool &= ~(known[0] | known[1] | known[2] | known[3])
    else:
        opp = 1 - me
        seen = view.discards & ~view.hand & ~played
        pool &= ~seen
        if view.bids[opp] == 0 and view.blind[opp]:
            maybe_opp, maybe_max = seen, blind_nil_cards
        pile = max(0, pool.bit_count() - counts[opp])
    # A known card's suit cannot be a void (guards against inconsistent input).
    for s in range(n):
        for suit in range(4):
            if known[s] & SUIT_MASKS[suit]:
                voids[s] &= ~(1 << suit)
    evidence = play_evidence(view.played, n, me, view.bids, FULL_DECK & ~view.hand & ~played) \
        if read_play else []
    firsts = [first_of_pair(s, view.dealer) for s in range(4)] if n == 4 and view.dealer is not None else []
    odds = card_odds(evidence, n)
    if read_play and n == 4 and reading.LEARNED_READING:
        leans = reading.card_leans(view.played, view.bids, me, view.hand, FULL_DECK & ~view.hand & ~played,
                                   reading.LEARNED_READING)
        odds = [[a * b for a, b in zip(row, lean)] for row, lean in zip(odds or [[1.0] * 52] * n, leans)]
    return Knowledge(n, me, view.hand, counts, voids, known, pool, pile, maybe_opp, maybe_max,
                     played_by, list(view.bids), list(view.blind), exchange=blind_nil_cards if n == 4 else 0,
                     bid_styles=list(view.bid_styles), evidence=evidence, card_odds=odds,
                     first_of_pair=firsts)


def card_odds(evidence: list[Evidence], n: int) -> list[list[float]]:
    """Per seat and card, the product of the weights of the soft facts that say the seat
    is unlikely to hold the card (empty when there are none).

    The facts lean the deal itself rather than weigh finished deals: a fact such as "no
    heart below the 9" holds in few uniform deals, and picking among a few times more
    deals than are needed could not lean the samples far (in the position of
    tests/bundled/test_strong_inference.py: 95% of the samples contradicted the fact
    unread, 89% with finished deals weighted by 0.2, 29% dealt at the shipped odds)."""
    if not evidence:
        return []
    odds = [[1.0] * 52 for _ in range(n)]
    for ev in evidence:
        for c in cards_of(ev.cards):
            odds[ev.seat][c] *= ev.weight
    return odds


def deal_once(k: Knowledge, rng: random.Random) -> list[int] | None:
    """One random deal (a mask per seat) satisfying every constraint, or None on a dead
    end of the fast randomized method (the caller retries)."""
    n = k.n
    hands = list(k.known)
    hands[k.me] = k.hand
    caps = [k.counts[s] - k.known[s].bit_count() if s != k.me else 0 for s in range(n)]
    pool = k.pool
    voids = list(k.voids)
    odds = _KEEP_ODDS
    if n == 2:
        opp = 1 - k.me
        if len(k.bids) == 2 and k.bids[opp] == 0 and k.blind[opp]:
            odds = _NIL_KEEP_ODDS
        if k.maybe_opp and k.maybe_max:
            # Each card of the opponent's Blind Nil exchange came from the 26 discards,
            # about half of which are ours.
            j = sum(1 for _ in range(k.maybe_max) if rng.random() < 0.5)
            cands = [c for c in cards_of(k.maybe_opp) if not voids[opp] >> (c // 13) & 1]
            rng.shuffle(cands)
            for c in cands[:min(j, caps[opp])]:
                hands[opp] |= 1 << c
                caps[opp] -= 1
        # The unseen pile is a pseudo-seat with no voids.
        hands.append(0)
        caps.append(max(0, pool.bit_count() - caps[opp]))
        voids.append(0)
    m = len(hands)
    cards = cards_of(pool)
    if sum(caps) != len(cards):
        return None
    if n == 4 and not k.card_odds and not any(voids[s] for s in range(4) if s != k.me and caps[s]):
        # No shown void: a plain shuffle dealt into the free places is exact and fast.
        rng.shuffle(cards)
        i = 0
        for s in range(4):
            if s != k.me and caps[s]:
                for c in cards[i:i + caps[s]]:
                    hands[s] |= 1 << c
                i += caps[s]
        return hands
    # In two-player the opponent chose which of the cards it saw to keep: a pool card
    # goes to its hand with weight (free places x keep odds), to the pile with weight
    # (free places). In partnership every seat's weight is its free places, times the
    # odds the play gives it of holding the card (``k.card_odds``).
    odds_seat = (1 - k.me) if n == 2 else -1
    seat_odds = k.card_odds
    elig_by_suit = [[s for s in range(m) if s != k.me and caps[s] > 0 and not voids[s] >> suit & 1]
                    for suit in range(4)]
    rng.shuffle(cards)
    cards.sort(key=lambda c: len(elig_by_suit[c // 13]))
    for c in cards:
        elig = [s for s in elig_by_suit[c // 13] if caps[s] > 0]
        if not elig:
            return None
        if len(elig) == 1:
            s = elig[0]
        else:
            if seat_odds:
                ws = [caps[s] * seat_odds[s][c] for s in elig]
            else:
                ws = [caps[s] * odds[c] if s == odds_seat else caps[s] for s in elig]
            x = rng.random() * sum(ws)
            for s, w in zip(elig, ws):
                x -= w
                if x < 0:
                    break
        hands[s] |= 1 << c
        caps[s] -= 1
    return hands[:n]


def deal_exhaustive(k: Knowledge, rng: random.Random) -> list[int] | None:
    """A deal found by systematic search (always succeeds when one exists).

    Only suits matter to the constraints (voids and hand sizes), so the search runs over
    how many cards of each suit each seat gets (a few dozen small choices) instead of
    over single cards, then deals each suit's cards at random to those counts.
    """
    n = k.n
    hands = list(k.known)
    hands[k.me] = k.hand
    caps = [k.counts[s] - k.known[s].bit_count() if s != k.me else 0 for s in range(n)]
    voids = list(k.voids)
    if n == 2:
        hands.append(0)
        caps.append(max(0, k.pool.bit_count() - caps[1 - k.me]))
        voids.append(0)
    m = len(hands)
    by_suit = [cards_of(k.pool & SUIT_MASKS[u]) for u in range(4)]
    if sum(caps) != sum(len(x) for x in by_suit):
        return None
    seats = [s for s in range(m) if s != k.me]
    counts = [[0] * m for _ in range(4)]

    def fill(u: int, i: int, left: int) -> bool:
        # Give ``left`` cards of suit u to seats[i:], then move on to the next suit.
        if i == len(seats):
            if left:
                return False
            if u == 3:
                return all(c == 0 for c in caps)
            return fill(u + 1, 0, len(by_suit[u + 1]))
        s = seats[i]
        if voids[s] >> u & 1:
            hi = 0
        else:
            hi = min(left, caps[s])
        rest_room = sum(caps[t] for t in seats[i + 1:] if not voids[t] >> u & 1)
        lo = max(0, left - rest_room)
        options = list(range(lo, hi + 1))
        rng.shuffle(options)
        for x in options:
            caps[s] -= x
            counts[u][s] = x
            if fill(u, i + 1, left - x):
                return True
            caps[s] += x
        counts[u][s] = 0
        return False

    if not fill(0, 0, len(by_suit[0])):
        return None
    for u in range(4):
        cards = by_suit[u][:]
        rng.shuffle(cards)
        i = 0
        for s in seats:
            for c in cards[i:i + counts[u][s]]:
                hands[s] |= 1 << c
            i += counts[u][s]
    return hands[:n]


def bid_likelihood(bid: int, hand: int, n: int, style: BidStyle = BidStyle()) -> float:
    """How likely a player holding ``hand`` (13 cards) was to bid ``bid``.

    Deliberately soft (wide spread, floor): opponents bid in styles we do not know, so
    the weights only lean the samples toward plausible hands. ``style``: the seat's bids
    relative to the model as learned this match (two-player, :mod:`bots.strong.bidstyle`).
    """
    p_nil = nil_probability(hand, n)
    if bid == 0:
        return max(0.02, p_nil)
    e = expected_tricks(hand, n) + style.offset
    d = bid - e
    return max(0.01, math.exp(-d * d / (2 * style.spread * style.spread))) * (1.0 - 0.7 * p_nil)


#: The weight of a deal in which a seat that keeps the first-bid convention
#: (:mod:`bots.strong.bidstyle`) holds a hand whose estimate does not round to its bid.
CONVENTION_MISS = 0.02


def convention_likelihood(bid: int, hand: int, n: int) -> float:
    """How likely a seat keeping the first-bid convention was to bid ``bid`` (> 0) holding
    ``hand``: about 1 when the convention gives that bid (less the chance the hand was
    worth a Nil it passed up), :data:`CONVENTION_MISS` otherwise."""
    if convention_bid(hand, n) != bid:
        return CONVENTION_MISS
    return 1.0 - 0.7 * nil_probability(hand, n)


def convention_seats(k: Knowledge) -> set[int]:
    """The other seats whose bid is read by the first-bid convention: each bid (not Nil)
    first of its pair, keeps the convention (its :class:`BidStyle`), and its side did
    not exchange cards for a Blind Nil (it no longer holds the hand it bid on)."""
    if not k.first_of_pair or len(k.bids) != k.n:
        return set()
    exchanged = {s % 2 for s in range(k.n) if k.exchange and k.bids[s] == 0 and k.blind[s]}
    return {s for s in range(k.n)
            if s != k.me and s < len(k.bid_styles) and k.bid_styles[s].convention and k.first_of_pair[s]
            and (k.bids[s] or 0) > 0 and not k.blind[s] and s % 2 not in exchanged}


def deal_weight(k: Knowledge, hands: list[int], by_convention: set[int] | None = None) -> float:
    """Product of the bid likelihoods of every other seat's original hand.

    A Blind Nil says nothing about the cards it was bid on, but in partnership the
    exchange that follows does: the bidder gives away its most dangerous cards and
    receives its partner's lowest, so its hand holds few queens, kings and aces
    (:func:`~bots.strong.evaluate.blind_exchange_weight`). The seats of
    :func:`convention_seats` (``by_convention``, computed when None) are read by the
    first-bid convention (:func:`convention_likelihood`)."""
    w = 1.0
    if by_convention is None:
        by_convention = convention_seats(k)
    for s in range(k.n):
        if s == k.me or s >= len(k.bids):
            continue
        b = k.bids[s]
        if b is None:
            continue  # no bid yet
        orig = hands[s] | k.played_by[s]
        if orig.bit_count() != 13:
            continue
        if b == 0 and k.blind[s]:
            if k.exchange:
                w *= blind_exchange_weight(orig)
            continue
        if s in by_convention:
            w *= convention_likelihood(b, orig, k.n)
        else:
            w *= bid_likelihood(b, orig, k.n, k.bid_styles[s] if s < len(k.bid_styles) else BidStyle())
    return w


#: Candidates drawn per deal kept when deals are weighted by the bids.
OVERSAMPLE = 3
#: Where a bid is read by the first-bid convention, at most this many candidates per
#: deal asked are drawn to find ones that keep it: about one random hand in five has
#: the estimate a given first bid rounds from, so weighing three candidates a deal
#: left about half the deals kept contradicting it.
CONVENTION_OVERSAMPLE = 10


def sample_deals(k: Knowledge, count: int, rng: random.Random, weighted: bool = True,
                 oversample: int | None = None) -> list[list[int]]:
    """``count`` deals consistent with ``k``; with ``weighted``, drawn in proportion to
    :func:`deal_weight` from ``oversample * count`` candidates (without replacement;
    default :data:`OVERSAMPLE`). Where a bid is read by the first-bid convention the
    candidates are first drawn to keep it (see below)."""
    by_convention = convention_seats(k) if weighted else set()
    want = count * ((oversample or OVERSAMPLE) if weighted else 1)
    # Where a bid is read by the convention, candidates are drawn until ``want`` keep
    # it (at most CONVENTION_OVERSAMPLE per deal asked), the rest filled with those that
    # do not; the bids then weigh them as usual (the convention's seats by its rule).
    tries = max(want, count * CONVENTION_OVERSAMPLE) if by_convention else want
    cands: list[list[int]] = []
    misses: list[list[int]] = []
    failures = 0
    while len(cands) < want and len(cands) + len(misses) < tries:
        d = deal_once(k, rng)
        if d is None:
            failures += 1
            if failures > 30 + 2 * want:
                d = deal_exhaustive(k, rng)
                if d is None:
                    break  # the constraints are contradictory: nothing to sample
                failures = 0
            else:
                continue
        if by_convention and not all(convention_bid(d[s] | k.played_by[s], k.n) == k.bids[s]
                                     for s in by_convention):
            misses.append(d)
        else:
            cands.append(d)
    cands += misses[:want - len(cands)]
    if not weighted or len(cands) <= count:
        return cands[:count]
    # Weighted sampling without replacement (Efraimidis-Spirakis keys u^(1/w)).
    keyed = []
    for d in cands:
        w = deal_weight(k, d, by_convention)
        u = rng.random()
        keyed.append((math.log(u) / w if w > 0 else -math.inf, d))
    keyed.sort(key=lambda t: t[0], reverse=True)
    return [d for _, d in keyed[:count]]
