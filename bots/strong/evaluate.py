"""Fast hand evaluation: expected tricks and nil safety of a hand.

Two small models, one per variant, linear in hand features (expected tricks) and
logistic (probability that a nil bid with this hand succeeds). Their coefficients are
fitted offline by :mod:`bots.strong.calibrate` from self-play in which the strong bot's
own play policy plays every hand out; the fitted numbers ship in ``params.json`` next to
this file. The bot uses them where a decision must be cheap (the 26 keep decisions of the
two-player draw, weighting sampled deals by the bids seen) and as the prior that the
bidding simulation corrects.
"""

from __future__ import annotations

import json
import math
import operator
import os
from typing import Sequence

from .cards import SPADE_MASK

TRICK_FEATURES = (
    "bias", "spade_A", "spade_K", "spade_Q", "spade_J", "spade_len", "spade_len_over3",
    "side_A", "side_K_guarded", "side_K_single", "side_Q_guarded", "side_Q_short",
    "side_J_guarded", "voids_trump", "singletons_trump", "long_side_over4",
)

NIL_FEATURES = (
    "bias", "spade_high", "spade_mid", "spade_len", "side_A", "side_K", "side_Q",
    "side_J", "unguarded_high", "low_cards", "voids", "short_suits",
)

_PARAMS_FILE = os.path.join(os.path.dirname(__file__), "params.json")


def _load() -> dict:
    with open(_PARAMS_FILE, encoding="utf-8") as fh:
        return json.load(fh)


PARAMS: dict = _load()


def _trick_suit(p: int) -> tuple[int, ...]:
    """One plain suit's counts for :func:`trick_features` (``p``: its 13 rank bits), in
    the order of :data:`TRICK_FEATURES` from ``side_A``: ace, king guarded, king single,
    queen guarded, queen short, jack guarded; then void, singleton, length over 4."""
    ln = p.bit_count()
    if ln == 0:
        return (0, 0, 0, 0, 0, 0, 1, 0, 0)
    k, q = p >> 11 & 1, p >> 10 & 1
    jack_guarded = int(bool(p >> 9 & 1 and ln >= 4 and p >> 10 & 3))
    return (p >> 12 & 1, k if ln >= 2 else 0, k if ln < 2 else 0, q if ln >= 3 else 0, q if ln < 3 else 0,
            jack_guarded, 0, int(ln == 1), max(0, ln - 4))


def _nil_suit(p: int) -> tuple[int, ...]:
    """One plain suit's counts for :func:`nil_features`, in the order of
    :data:`NIL_FEATURES` from ``side_A``: ace, king, queen, jack, unguarded high cards,
    low cards (2..6), void, short (1-2 cards)."""
    ln = p.bit_count()
    if ln == 0:
        return (0, 0, 0, 0, 0, 0, 1, 0)
    # A card is "unguarded" when the suit lacks enough low cards to duck under the leads
    # of others: the i-th lowest card (from 0) is unguarded from rank 4 + 3i up.
    unguarded = i = 0
    q = p
    while q:
        lowbit = q & -q
        r = lowbit.bit_length() - 1
        q ^= lowbit
        if r >= 4 + 3 * i:
            unguarded += 1
        i += 1
    return (p >> 12 & 1, p >> 11 & 1, p >> 10 & 1, p >> 9 & 1, unguarded, (p & 0x1F).bit_count(), 0, int(ln <= 2))


# Both models' plain-suit features depend on the suit's 13 bits alone: looked up per suit
# (8,192 patterns each, built once) instead of worked out for every sampled deal's weight.
_TRICK_SUIT = tuple(_trick_suit(p) for p in range(1 << 13))
_NIL_SUIT = tuple(_nil_suit(p) for p in range(1 << 13))


def trick_features(hand: int) -> list[float]:
    """Features of ``hand`` (a card mask) for the expected-tricks model."""
    sp = (hand & SPADE_MASK) >> 39
    slen = sp.bit_count()
    ace, k_g, k_s, q_g, q_s, j_g, voids, singles, long4 = map(
        sum, zip(_TRICK_SUIT[hand & 0x1FFF], _TRICK_SUIT[hand >> 13 & 0x1FFF], _TRICK_SUIT[hand >> 26 & 0x1FFF]))
    trump = min(slen, 3)
    return [1.0,
            float(sp >> 12 & 1), float(sp >> 11 & 1), float(sp >> 10 & 1), float(sp >> 9 & 1),
            float(slen), float(max(0, slen - 3)),
            float(ace), float(k_g), float(k_s), float(q_g), float(q_s), float(j_g),
            float(voids * trump), float(singles * min(slen, 2)), float(long4)]


def nil_features(hand: int) -> list[float]:
    """Features of ``hand`` for the nil-success model (danger of being forced to win)."""
    sp = (hand & SPADE_MASK) >> 39
    plain = map(sum, zip(_NIL_SUIT[hand & 0x1FFF], _NIL_SUIT[hand >> 13 & 0x1FFF], _NIL_SUIT[hand >> 26 & 0x1FFF]))
    # spade_high (Q, K, A of spades), spade_mid (9, T, J), spade_len, then the plain suits'.
    return [1.0, float((sp >> 10).bit_count()), float((sp >> 7 & 7).bit_count()), float(sp.bit_count()),
            *map(float, plain)]


def promote(hand: int, dead: int) -> int:
    """``hand`` with each card moved up by the number of higher cards of its suit that are
    known to be out of play (``dead``): a king whose ace was discarded plays like an ace.
    Lets the absolute-rank features of the models see what a seat knows."""
    if not dead:
        return hand
    out = 0
    for s in range(4):
        mine = (hand >> (13 * s)) & 0x1FFF
        if not mine:
            continue
        gone = (dead >> (13 * s)) & 0x1FFF & ~mine
        for r in range(13):
            if mine >> r & 1:
                above = (gone >> (r + 1)).bit_count()
                out |= 1 << (13 * s + r + above)
    return out


def _dot(w: Sequence[float], f: Sequence[float]) -> float:
    # map(mul) adds the same products in the same order as a generator would (the same
    # float), at a quarter of the cost: this runs for every sampled deal's weight.
    return sum(map(operator.mul, w, f))


def expected_tricks(hand: int, n_seats: int, dead: int = 0) -> float:
    """Expected tricks a 13-card ``hand`` takes when its side plays to make its bid;
    ``dead``: cards known to be out of play (see :func:`promote`)."""
    w = PARAMS["tricks4" if n_seats == 4 else "tricks2"]["weights"]
    return max(0.0, _dot(w, trick_features(promote(hand, dead))))


def trick_sigma(n_seats: int) -> float:
    """Residual standard deviation of :func:`expected_tricks` (from the fit)."""
    return float(PARAMS["tricks4" if n_seats == 4 else "tricks2"]["sigma"])


def nil_probability(hand: int, n_seats: int) -> float:
    """Probability that a nil bid with ``hand`` succeeds (no partner help assumed in
    two-player; the partner covers in partnership)."""
    w = PARAMS["nil4" if n_seats == 4 else "nil2"]["weights"]
    z = _dot(w, nil_features(hand))
    z = max(-30.0, min(30.0, z))
    return 1.0 / (1.0 + math.exp(-z))


def keep_odds(table_name: str = "keep2") -> list[float]:
    """Per card, the odds that a two-player opponent kept it rather than discarded it,
    given that it saw the card (fitted by self-play, softened toward even odds because
    other bots keep differently). Indexed by card int. ``table_name``: ``keep2`` for a
    normal drawer, ``keep2nil`` for one that bid Blind Nil before its draw."""
    table = PARAMS[table_name]
    out = []
    for suit in range(4):
        rates = table["spade" if suit == 3 else "plain"]
        for r in range(13):
            p = 0.5 + 0.8 * (rates[r] - 0.5)
            out.append(p / (1.0 - p))
    return out


def blind_nil_probability(n_seats: int) -> float:
    """Success rate of a blind nil (fitted by simulation, exchange included)."""
    return float(PARAMS["blind_nil"]["p4" if n_seats == 4 else "p2"])


# Queens, kings and aces: what a Blind Nil bidder's exchange moves out of its hand.
HONOURS_MASK = sum(1 << (13 * s + r) for s in range(4) for r in (10, 11, 12))


def blind_exchange_weight(hand: int) -> float:
    """How much likelier ``hand`` (13 cards) is as a partnership Blind Nil bidder's hand
    after its exchange than as a random hand, by its queens, kings and aces (the bidder
    passes its most dangerous cards and receives its partner's lowest)."""
    w = PARAMS["blind_exchange4"]["weights"]
    return float(w[min(len(w) - 1, (hand & HONOURS_MASK).bit_count())])

