"""How the opponent bids, learned during the match (two-player).

The sampler weights deals by how likely the opponent was to make its bid with the
sampled hand (:func:`bots.strong.sampler.bid_likelihood`): a bell around the fitted hand
model's expected tricks. Other bots bid in their own style: both bundled heuristic bots
bid about 1.2 tricks under that estimate (replayed two-player matches, spread 0.5-0.9),
so with the plain model the bot reads a bid of 5 as a 5-trick hand when it is a 6-trick
one, and bids and plays against a weaker hand than the one it faces.

In two-player every card of the opponent's hand is played, so at the end of each hand
the bot knows the hand the opponent bid on (a Blind Nil bidder's exchange aside, whose
bid says nothing anyway) and records ``bid - expected tricks``. The offset and spread
used for the next bids are those records shrunk toward the prior (offset 0, spread
``PRIOR_SPREAD``) as if the prior were ``PRIOR_HANDS`` hands seen.

**The first bid of a pair.** In partnership the strong bot bids by an openly stated
convention: the first of a pair to bid bids its hand's rounded estimate
(:func:`convention_bid`), and the second searches the pair's total. A seat that bid
first by that convention holds a hand whose estimate rounds to its bid, a fact far
sharper than the bell. With :data:`bots.strong.bot.PARTNER_CONVENTION` (a setting, off
as shipped: measured too small a gain) the bot presumes its partner keeps the
agreement, and presumes it of an opponent after :data:`CONVENTION_EVIDENCE` first bids that kept it;
either presumption ends at the first first bid that breaks it (another bot, a human,
a lower level). Only first bids are checked: a second bid is a search, not a rule.
"""

from __future__ import annotations

import dataclasses
import math

from .evaluate import expected_tricks

PRIOR_SPREAD = 1.6  # the bell's width without any record (the sampler's former constant)
PRIOR_HANDS = 2.0
MIN_SPREAD = 0.5  # never sharper than this: a style seen over a few hands is no law
#: First bids that kept the convention before an opponent is presumed to keep it.
CONVENTION_EVIDENCE = 3


def first_of_pair(seat: int, dealer: int) -> bool:
    """Partnership: whether ``seat`` bids before its partner (bidding starts left of ``dealer``)."""
    return (seat - dealer - 1) % 4 < (seat + 2 - dealer - 1) % 4


def rounded_bid(estimate: float) -> int:
    """An estimate of tricks as a bid: rounded, at least 1 (a Nil is decided apart). The
    first of a pair bids this (bidding.py), so its partner can read it (below)."""
    return max(1, int(estimate + 0.5))


def convention_bid(hand: int, n: int) -> int:
    """The bid the convention gives the first of a pair holding ``hand``."""
    return rounded_bid(expected_tricks(hand, n))


@dataclasses.dataclass(frozen=True)
class BidStyle:
    """Where a seat's bids sit relative to the hand model: bid ~ estimate + offset."""

    offset: float = 0.0
    spread: float = PRIOR_SPREAD
    # Whether the seat's first bids of a pair are read by the convention.
    convention: bool = False


@dataclasses.dataclass
class BidStyles:
    """Per seat, the differences ``bid - expected tricks`` seen this match."""

    records: dict[int, list[float]] = dataclasses.field(default_factory=dict)
    # Seats presumed to keep the first-bid convention from the start (the partner).
    agreed: set[int] = dataclasses.field(default_factory=set)
    # Per seat, first bids of its pair that kept the convention; seats that broke it.
    kept: dict[int, int] = dataclasses.field(default_factory=dict)
    broke: set[int] = dataclasses.field(default_factory=set)

    def record(self, seat: int, bid: int, hand: int, n: int) -> None:
        """A finished hand: ``seat`` bid ``bid`` (not Nil) holding the 13 cards ``hand``."""
        if bid > 0 and hand.bit_count() == 13:
            self.records.setdefault(seat, []).append(bid - expected_tricks(hand, n))

    def record_first(self, seat: int, bid: int, hand: int, n: int) -> None:
        """A finished hand: ``seat`` bid ``bid`` (not Nil) first of its pair holding ``hand``."""
        if bid > 0 and hand.bit_count() == 13:
            if bid == convention_bid(hand, n):
                self.kept[seat] = self.kept.get(seat, 0) + 1
            else:
                self.broke.add(seat)

    def keeps_convention(self, seat: int) -> bool:
        """Whether ``seat``'s first bids are read by the convention now."""
        if seat in self.broke:
            return False
        return seat in self.agreed or self.kept.get(seat, 0) >= CONVENTION_EVIDENCE

    def style(self, seat: int) -> BidStyle:
        """The shrunk estimate of ``seat``'s style (the prior when nothing is recorded)."""
        convention = self.keeps_convention(seat)
        xs = self.records.get(seat, [])
        if not xs:
            return BidStyle(convention=convention)
        w = PRIOR_HANDS + len(xs)
        offset = sum(xs) / w
        var = (PRIOR_HANDS * PRIOR_SPREAD ** 2 + sum((x - offset) ** 2 for x in xs)) / w
        return BidStyle(offset, max(MIN_SPREAD, math.sqrt(var)), convention)

    def table(self, n: int) -> list[BidStyle]:
        """One style per seat, for a :class:`~bots.strong.view.View`."""
        return [self.style(s) for s in range(n)]
