"""Pairing one Swiss round exactly: a maximum-weight perfect matching.

The pairing of a round is the matching of the bots (plus a *bye* node when
their number is odd) that is best by these preferences, each one absolute
over the ones after it:

1. **Fewest repeats.** A pairing of two bots that have met, or a bye for a
   bot that has had one, counts as a repeat; the round has as few as possible,
   so none when a repeat-free round exists.
2. **The bye to the lowest-ranked bot** that can take it under (1).
3. **Equal scores.** The smallest sum of squared score differences over the
   pairings (a squared sum prefers two half-point gaps to one gap of a point).
4. **Rank order.** The highest-ranked bot meets the highest-ranked partner it
   can under (1)-(3), then the highest-ranked bot still unpaired does the same,
   and so on down: the rule "top meets next", kept as the last preference.

Each preference becomes one digit of an integer edge weight, in a base larger
than anything the preferences after it can add up to over a whole round, so a
heavier matching is always the better one in this order. The blossom algorithm
(``networkx.max_weight_matching``) then finds the best matching exactly, in
polynomial time (36-176 ms of CPU a round for 41 bots here, 1.0 s for 20 rounds), where a depth-first search over
pairings can take exponentially many steps to prove that a repeat is avoidable.
Weights are Python integers, so the comparison is exact however many digits
rank order needs (it needs about ``n log n`` bits for ``n`` bots).
"""

from __future__ import annotations

from typing import Mapping, Sequence

__all__ = ["pair_round"]

_BYE = -1  # the bye node; bots are indices >= 0


def pair_round(order: Sequence[int], met: Mapping[int, set[int]], byes: set[int],
               scores: Mapping[int, float] | None = None) -> tuple[list[tuple[int, int]], int | None]:
    """The pairs of one round, each ``(higher-ranked, lower-ranked)`` in rank order, and the bye (None if even).

    ``order``: bots ranked best first; ``met``: the opponents each bot has had;
    ``byes``: bots that have had a bye; ``scores``: each bot's points so far
    (all equal when omitted). See the module docstring for what "best" means.
    """
    # Imported here: networkx takes a few hundred ms to import, and only a Swiss round needs it.
    import networkx as nx  # type: ignore[import-untyped]  # no stubs installed

    bots = list(order)
    if len(bots) < 2:
        return [], (bots[0] if bots else None)
    rank = {bot: r for r, bot in enumerate(bots)}
    points = {bot: int(round(4 * (scores or {}).get(bot, 0.0))) for bot in bots}  # quarter points: exact
    n = len(bots)
    # Rank order (4): the pair of ranks i < j is worth base_order ** (n - 1 - i) * (n - j). Any change of
    # the partner of the best-ranked bot whose partner differs outweighs every later bot's term, since
    # base_order exceeds n + 1 (the sum of those terms is below base_order ** (n - 1 - i)).
    base_order = n + 2
    order_span = n * base_order ** n  # more than any round's total of rank-order weight
    spread = max(points.values()) - min(points.values())
    score_cap = spread * spread  # the largest squared difference of one pairing
    score_span = (n // 2 + 1) * score_cap + 1
    bye_span = n + 1

    def weight(new: bool, bye_rank: int, penalty: int, order_weight: int) -> int:
        return order_weight + order_span * ((score_cap - penalty) + score_span * (bye_rank + bye_span * new))

    graph = nx.Graph()
    for i, a in enumerate(bots):
        for b in bots[i + 1:]:
            j = rank[b]
            penalty = (points[a] - points[b]) ** 2
            graph.add_edge(a, b, weight=weight(b not in met.get(a, ()), 0, penalty, base_order ** (n - 1 - i) * (n - j)))
        if n % 2:
            # The bye as a pairing with nobody: no score difference or rank order to weigh, only who gets it.
            graph.add_edge(a, _BYE, weight=weight(a not in byes, i + 1, 0, 0))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    bye = None
    pairs = []
    for a, b in matching:
        if _BYE in (a, b):
            bye = a if b == _BYE else b
        else:
            pairs.append((a, b) if rank[a] < rank[b] else (b, a))
    pairs.sort(key=lambda p: rank[p[0]])
    return pairs, bye
