"""A learned reading of the play: per other seat and unseen card, a lean on the odds
that the seat holds it, from what the seat bid and how it played (partnership).

The hand-written soft facts of :mod:`bots.strong.inference` each read one pattern ("it
followed low, so it holds nothing between"). This module weighs about forty plain
features of a (seat, card) pair at once, with weights fitted by logistic regression on
the strong bot's own games: the sampler's marginal for the card (from 128 deals) as the
offset and the true deal as the label, so the weights learn only what the sampler misses.
The fit and its figures are in docs/benchmarks.md ("A learned reading of the play"):
the samples place the cards better with it, but the bot did not win more points, so it
is a setting, off as shipped (:data:`LEARNED_READING`).
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from .cards import SPADES

#: How far :func:`bots.strong.sampler.knowledge` leans the sampler by the learned
#: reading: 0 not at all, 1 by the fitted odds, between: by those odds to that power
#: (read only where the play is read at all, see :func:`inference.enabled`).
LEARNED_READING = 0.0

#: Which other seats the learned reading leans: "all", "partner" or "opponents".
LEARNED_SEATS = "all"

# Rank buckets of the card asked about: 2-5, 6-9, T, J, Q, K, A.
_RANK_BUCKET = (0, 0, 0, 0, 1, 1, 1, 1, 2, 3, 4, 5, 6)

#: What each entry of :func:`features` says about "seat s holds card c" ("above": a
#: card of c's suit ranked above c; "follows": plays of c's suit to a trick led in it).
FEATURE_NAMES = (
    "rank 2-5", "rank 6-9", "rank T", "rank J", "rank Q", "rank K", "rank A",
    "c is a spade", "unseen cards above c (to 4)", "unseen cards below c (to 6)", "c is the top unseen",
    "s bid Nil", "s's bid (-1: none)", "s's partner's bid", "cards s holds",
    "s's plays of c's suit", "s's leads of c's suit", "s's plays of c's suit to other suits",
    "led above c", "led below c", "followed above c", "followed below c",
    "played above c to another suit", "played below c to another suit",
    "followed above c and lost", "followed above c and won", "followed above c to its partner's winner",
    "followed above c third", "followed above c second", "followed above c fourth",
    "followed below c third", "followed below c second", "followed below c fourth",
    "s's first lead was c's suit", "s's partner's leads of c's suit", "s's ruffs", "s's discards",
    "tricks s's side still needed at its last play",
)


@dataclasses.dataclass
class Play:
    """One card a seat played, with what the trick looked like when it did."""

    card: int
    pos: int  # 0: led the trick
    led: int  # the suit led
    winning: int  # the card winning the trick before this one was played
    partner_winning: bool  # the seat's partner was winning the trick before this card
    need: int  # tricks its side still needed for its bids before the trick
    won: bool = False  # this card won the trick


def _power(card: int, led: int) -> int:
    """Rank of ``card`` within a trick led in suit ``led`` (-1: cannot win it)."""
    if card // 13 == SPADES:
        return 100 + card % 13
    return card % 13 if card // 13 == led else -1


def plays_by_seat(played: Sequence[tuple[int, int]], bids: Sequence[int | None]) -> list[list[Play]]:
    """The plays of this hand, per seat of four, in order."""
    out: list[list[Play]] = [[] for _ in range(4)]
    side_tricks = [0, 0]
    for start in range(0, len(played), 4):
        trick = played[start:start + 4]
        led = trick[0][1] // 13
        wseat, wcard = trick[0]
        last: Play | None = None
        for i, (s, c) in enumerate(trick):
            need = (bids[s] or 0) + (bids[(s + 2) % 4] or 0) - side_tricks[s % 2]
            p = Play(c, i, led, wcard, i > 0 and (wseat - s) % 4 == 2, need)
            out[s].append(p)
            if i > 0 and _power(c, led) > _power(wcard, led):
                wseat, wcard = s, c
        if len(trick) == 4:
            side_tricks[wseat % 2] += 1
            last = out[wseat][-1]
            last.won = True
    return out


def features(plays: list[list[Play]], bids: Sequence[int | None], seen: int, s: int, c: int) -> list[float]:
    """The features of "seat ``s`` holds card ``c``"; ``seen``: the cards the reader has
    seen (its hand and every card played)."""
    u, r = c // 13, c % 13
    higher_out = sum(1 for rr in range(r + 1, 13) if not seen >> (13 * u + rr) & 1)
    lower_out = sum(1 for rr in range(r) if not seen >> (13 * u + rr) & 1)
    mine = plays[s]
    f: list[float] = [0.0] * 7
    f[_RANK_BUCKET[r]] = 1.0
    bid = bids[s]
    b = -1 if bid is None else bid
    f += [u == SPADES, min(higher_out, 4), min(lower_out, 6), higher_out == 0,
          b == 0, b, bids[(s + 2) % 4] or 0, 13 - len(mine)]
    in_suit = [p for p in mine if p.card // 13 == u]
    leads = [p for p in in_suit if p.pos == 0]
    follows = [p for p in in_suit if p.pos > 0 and p.led == u]
    off = [p for p in in_suit if p.pos > 0 and p.led != u]
    f += [len(in_suit), len(leads), len(off)]
    for group in (leads, follows, off):
        f += [any(p.card > c for p in group), any(p.card < c for p in group)]
    above = [p for p in follows if p.card > c]
    below = [p for p in follows if p.card < c]
    f += [any(_power(p.card, u) < _power(p.winning, u) and not p.won for p in above),
          any(p.won for p in above), any(p.partner_winning for p in above)]
    f += [any(p.pos == pos for p in above) for pos in (2, 1, 3)]
    f += [any(p.pos == pos for p in below) for pos in (2, 1, 3)]
    f += [bool(mine) and mine[0].pos == 0 and mine[0].card // 13 == u,
          sum(1 for p in plays[(s + 2) % 4] if p.pos == 0 and p.card // 13 == u),
          sum(1 for p in mine if p.card // 13 == SPADES and p.led != SPADES and p.pos > 0),
          sum(1 for p in mine if p.card // 13 not in (p.led, SPADES) and p.pos > 0),
          mine[-1].need if mine else max(b, 0)]
    return [float(x) for x in f]


def card_leans(played: Sequence[tuple[int, int]], bids: Sequence[int | None], me: int, hand: int,
               unseen: int, strength: float = 1.0) -> list[list[float]]:
    """Per seat of four and card, the factor the learned reading puts on the odds that
    the seat holds the card (1.0 for the reader's own seat and for seen cards), to the
    power ``strength``."""
    # The view is parsed leniently: keep only plays a seat of four could make, and a bid
    # per seat.
    played = [(s, c) for s, c in played if 0 <= s < 4 and 0 <= c < 52]
    bids = (list(bids) + [None] * 4)[:4]
    plays = plays_by_seat(played, bids)
    seen = ((1 << 52) - 1) & ~unseen
    leans = [[1.0] * 52 for _ in range(4)]
    for s in range(4):
        partner = (s - me) % 4 == 2
        if s == me or (LEARNED_SEATS == "partner" and not partner) or (LEARNED_SEATS == "opponents" and partner):
            continue
        w = PARTNER_WEIGHTS if partner else OPPONENT_WEIGHTS
        cards = unseen
        while cards:
            low = cards & -cards
            c = low.bit_length() - 1
            cards ^= low
            z = w[0] + sum(a * x for a, x in zip(w[1:], features(plays, bids, seen, s, c)))
            # Clamped: one odd feature value must not rule a card out.
            leans[s][c] = math.exp(strength * max(-4.0, min(4.0, z)))
    return leans


# Fitted weights (bias first, then one per feature of :func:`features`); see the module
# docstring.
PARTNER_WEIGHTS: tuple[float, ...] = (
    -0.4505, 0.1442, -0.0610, -0.1747, -0.2337, -0.1977, -0.0051, 0.5963, -0.0391, 0.0334, 0.0192,
    -0.0957, -0.0909, 0.0161, 0.0051, 0.0211, 0.2477, -0.1583, -0.2642, -0.3006, 0.2184, -0.1500,
    -0.1554, -0.3778, 0.1090, 1.0541, 0.1942, -0.3016, -0.3036, -0.2168, -0.0459, 0.0025, 0.1026,
    0.1769, -0.0593, 0.1276, 0.0652, 0.0366, -0.0095,
)
OPPONENT_WEIGHTS: tuple[float, ...] = (
    0.2162, 0.0836, 0.0800, 0.0438, 0.0297, -0.0254, -0.1531, -0.5062, 0.0146, -0.0535, 0.0083,
    0.0102, 0.1260, 0.0175, -0.0070, -0.0090, 0.0502, -0.1381, -0.0055, -0.3160, -0.0022, -0.2681,
    -0.0210, -0.4499, 0.0572, 0.1911, 0.3594, -0.3043, -0.1170, -0.4793, -0.1936, -0.0672, 0.0236,
    -0.0477, -0.1333, 0.0651, 0.0180, 0.0009, -0.0014,
)
