"""The two-player draw: keep-or-discard decisions and the Blind Nil discard.

There are 26 keep decisions per player per hand, so each must be cheap (about a
millisecond). The decision compares the card just drawn with what discarding it buys:
the *next* card, kept unseen, which is a random card among those this seat has not seen.
Both are valued by the fitted hand models of :mod:`bots.strong.evaluate` applied to the
partial hand: the marginal expected tricks of the card (trick plan) or the marginal
log-odds of a successful nil (nil plan, when this seat bid Blind Nil). The models were
fitted by self-play simulation (``bots/strong/calibrate.py``), which is how this
decision is calibrated.
"""

from __future__ import annotations

import math
from .cards import FULL_DECK, cards_of
from .evaluate import PARAMS, expected_tricks, nil_features


def nil_logit(hand: int) -> float:
    """Log-odds of nil success of a (partial) two-player hand under the fitted model."""
    w = PARAMS["nil2"]["weights"]
    return sum(a * b for a, b in zip(w, nil_features(hand)))


def keep_card(hand: int, seen: int, card: int, nil_plan: bool) -> bool:
    """Keep ``card`` (else discard it and keep the next, unseen, card)?

    ``hand``: cards kept so far; ``seen``: every other card this seat has seen and that is
    out of the stock (its discards). The alternative card is uniform over the unseen ones.
    """
    unseen = FULL_DECK & ~hand & ~seen & ~(1 << card)
    others = cards_of(unseen)
    if not others:
        return True
    if nil_plan:
        base = nil_logit(hand)
        gain = nil_logit(hand | 1 << card) - base
        avg = sum(nil_logit(hand | 1 << x) - base for x in others) / len(others)
    else:
        # Cards this seat discarded are out of play: its honours below them are promoted.
        base = expected_tricks(hand, 2, seen)
        gain = expected_tricks(hand | 1 << card, 2, seen) - base
        avg = sum(expected_tricks(hand | 1 << x, 2, seen) - base for x in others) / len(others)
    return gain >= avg


def blind_nil_discards(hand: int, seen: int, max_cards: int) -> list[int]:
    """Cards a two-player Blind Nil bidder discards for replacement from the discards.

    Each replacement is a random card of the 26 discards: about half are this seat's own
    discards (known) and half the opponent's (some of the unseen cards). A card is
    discarded when the nil success probability with a random replacement beats keeping
    it by a clear margin; the worst cards first, up to ``max_cards``.
    """
    own_pile = cards_of(seen & ~hand)
    unseen = cards_of(FULL_DECK & ~hand & ~seen)
    current = _p(nil_logit(hand))
    gains = []
    for c in cards_of(hand):
        rest = hand & ~(1 << c)
        parts = []
        for xs, weight in ((own_pile, len(own_pile)), (unseen, 13 if unseen else 0)):
            if xs and weight:
                parts.append((sum(_p(nil_logit(rest | 1 << x)) for x in xs) / len(xs), weight))
        total = sum(w for _, w in parts)
        if not total:
            continue
        gain = sum(v * w for v, w in parts) / total - current
        if gain > 0.03:
            gains.append((gain, c))
    gains.sort(reverse=True)
    return sorted(c for _, c in gains[:max(0, max_cards)])


def _p(z: float) -> float:
    z = max(-30.0, min(30.0, z))
    return 1.0 / (1.0 + math.exp(-z))
