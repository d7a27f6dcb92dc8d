"""A model of the opponents for the endgame's exact search.

The exact solve (:mod:`bots.strong.solver`) lets the other side answer every card with
its best reply, as if it saw every hand. Real opponents do not: they play by rules of
thumb from what they can see. :func:`policy_reply` stands in the bot's own rule-based
policy (:mod:`bots.strong.policy`, the one its playouts use earlier in the hand) for
the opponents' turns, so the solve finds this side's best play against how opponents
are likely to play rather than against the worst case. Chosen by
``search.OPPONENT_MODEL`` (shipped: the policy seeing the sampled deal, in partnership
where Blind Nil is not free), measured in docs/benchmarks.md.
"""

from __future__ import annotations

from typing import Sequence

from .playout import AFTER
from .policy import choose_known_winner
from .solver import Reply


def policy_reply(bids: Sequence[int | None], n: int, sees: bool = True) -> Reply:
    """A :data:`solver.Reply` that plays the rule-based policy for a seat. ``sees``: it
    knows what each seat after it holds (what a policy playout does in a sampled deal);
    otherwise only which cards are still out, as a player that counts cards but reads
    nothing (the policy's cautious ``exact=False``)."""
    after_of = AFTER[n]

    def reply(seat: int, hand: int, legal: int, trick: Sequence[tuple[int, int]], wseat: int, wkey: int,
              hands: Sequence[int], tricks: Sequence[int]) -> int:
        after_seats = after_of[seat][len(trick)]
        live = 0
        for x in hands:
            live |= x
        out = live ^ hand
        after = [hands[s] for s in after_seats] if sees else [out] * len(after_seats)
        return choose_known_winner(seat, hand, legal, trick, wseat, wkey, out, after, after_seats, bids,
                                   tricks, n, sees)

    return reply
