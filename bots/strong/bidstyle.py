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
"""

from __future__ import annotations

import dataclasses
import math

from .evaluate import expected_tricks

PRIOR_SPREAD = 1.6  # the bell's width without any record (the sampler's former constant)
PRIOR_HANDS = 2.0
MIN_SPREAD = 0.5  # never sharper than this: a style seen over a few hands is no law


@dataclasses.dataclass(frozen=True)
class BidStyle:
    """Where a seat's bids sit relative to the hand model: bid ~ estimate + offset."""

    offset: float = 0.0
    spread: float = PRIOR_SPREAD


@dataclasses.dataclass
class BidStyles:
    """Per seat, the differences ``bid - expected tricks`` seen this match."""

    records: dict[int, list[float]] = dataclasses.field(default_factory=dict)

    def record(self, seat: int, bid: int, hand: int, n: int) -> None:
        """A finished hand: ``seat`` bid ``bid`` (not Nil) holding the 13 cards ``hand``."""
        if bid > 0 and hand.bit_count() == 13:
            self.records.setdefault(seat, []).append(bid - expected_tricks(hand, n))

    def style(self, seat: int) -> BidStyle:
        """The shrunk estimate of ``seat``'s style (the prior when nothing is recorded)."""
        xs = self.records.get(seat, [])
        if not xs:
            return BidStyle()
        w = PRIOR_HANDS + len(xs)
        offset = sum(xs) / w
        var = (PRIOR_HANDS * PRIOR_SPREAD ** 2 + sum((x - offset) ** 2 for x in xs)) / w
        return BidStyle(offset, max(MIN_SPREAD, math.sqrt(var)))

    def table(self, n: int) -> list[BidStyle]:
        """One style per seat, for a :class:`~bots.strong.view.View`."""
        return [self.style(s) for s in range(n)]
