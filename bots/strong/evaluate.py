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


def trick_features(hand: int) -> list[float]:
    """Features of ``hand`` (a card mask) for the expected-tricks model."""
    sp = (hand & SPADE_MASK) >> 39
    slen = sp.bit_count()
    f = [1.0,
         float(sp >> 12 & 1), float(sp >> 11 & 1), float(sp >> 10 & 1), float(sp >> 9 & 1),
         float(slen), float(max(0, slen - 3))]
    side_a = k_g = k_s = q_g = q_s = j_g = voids = singles = long4 = 0
    for s in range(3):
        p = (hand >> (13 * s)) & 0x1FFF
        ln = p.bit_count()
        if ln == 0:
            voids += 1
            continue
        if ln == 1:
            singles += 1
        if ln > 4:
            long4 += ln - 4
        if p >> 12 & 1:
            side_a += 1
        if p >> 11 & 1:
            if ln >= 2:
                k_g += 1
            else:
                k_s += 1
        if p >> 10 & 1:
            if ln >= 3:
                q_g += 1
            else:
                q_s += 1
        if p >> 9 & 1 and ln >= 4 and p >> 10 & 3:
            j_g += 1
    trump = min(slen, 3)
    f += [float(side_a), float(k_g), float(k_s), float(q_g), float(q_s), float(j_g),
          float(voids * trump), float(singles * min(slen, 2)), float(long4)]
    return f


def nil_features(hand: int) -> list[float]:
    """Features of ``hand`` for the nil-success model (danger of being forced to win)."""
    sp = (hand & SPADE_MASK) >> 39
    slen = sp.bit_count()
    spade_high = (sp >> 10).bit_count()  # Q, K, A of spades
    spade_mid = (sp >> 7 & 7).bit_count()  # 9, T, J
    side = [0, 0, 0, 0]  # A, K, Q, J outside spades
    unguarded = low = voids = short = 0
    for s in range(3):
        p = (hand >> (13 * s)) & 0x1FFF
        ln = p.bit_count()
        if ln == 0:
            voids += 1
            continue
        if ln <= 2:
            short += 1
        for i, r in enumerate((12, 11, 10, 9)):
            if p >> r & 1:
                side[i] += 1
        low += (p & 0x1F).bit_count()  # 2..6
        # A high card is "unguarded" when the suit lacks enough low cards to duck under
        # the leads of others: compare the i-th lowest card with what a duck needs.
        i = 0
        q = p
        while q:
            lowbit = q & -q
            r = lowbit.bit_length() - 1
            q ^= lowbit
            if r >= 4 + 3 * i:
                unguarded += 1
            i += 1
    return [1.0, float(spade_high), float(spade_mid), float(slen), float(side[0]),
            float(side[1]), float(side[2]), float(side[3]), float(unguarded), float(low),
            float(voids), float(short)]


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
    return sum(a * b for a, b in zip(w, f))


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

