"""Matches of formats that pair bots round by round (Swiss, knockout): ids, seeds, seats, pair results.

Such a format knows its pairings only as results come in, so a match id cannot
depend on a pairing's position in a precomputed list (as in
:func:`referee.tournament.schedule.build_schedule`). Here a match is named by its
round, its two bots (in config order) and its leg: ``r03-alpha-beta-2a`` is
round 3, alpha against beta, twin pair 2, first leg. Every id a format could
ever use can therefore be listed in advance (:func:`possible_ids`), which is
how its ``owns`` answers without knowing any result.

Seeds come from :func:`~referee.tournament.schedule.match_seed` with the round
in the group number, so two bots that meet again in a later round get new deals.
"""

from __future__ import annotations

import dataclasses
from typing import Iterator, Mapping, Sequence

from referee.tournament.formats.base import Played
from referee.tournament.schedule import Pairing, ScheduledMatch, _slug, match_seed

__all__ = ["PairResult", "pair_result", "possible_ids", "round_matches"]

_GROUP_STRIDE = 1000  # twin pairs per tie, at most: keeps (round, pair) groups distinct


def _stem(names: Sequence[str], round_no: int, a: int, b: int) -> str:
    lo, hi = sorted((a, b))
    return f"r{round_no:02d}-{_slug(names[lo])}-{_slug(names[hi])}"


def round_matches(names: Sequence[str], round_no: int, pairs: Sequence[tuple[int, int]], twin_pairs: int,
                  master_seed: int) -> list[ScheduledMatch]:
    """The matches of one round: ``twin_pairs`` twin pairs for each pairing ``(a, b)`` (indices into ``names``).

    The legs of a twin pair share a seed with the sides swapped; which bot
    takes side 0 first alternates with the round, the pairing and the pair.
    """
    out = []
    for index, (a, b) in enumerate(pairs):
        pairing = Pairing(index, a, b)
        stem = _stem(names, round_no, a, b)
        for twin in range(twin_pairs):
            seed = match_seed(master_seed, names[a], names[b], round_no * _GROUP_STRIDE + twin)
            a_first = (round_no + index + twin) % 2 == 0
            for leg in range(2):
                a_side0 = a_first if leg == 0 else not a_first
                legs = (f"{stem}-{twin + 1}a", f"{stem}-{twin + 1}b")
                out.append(ScheduledMatch(legs[leg], pairing, 2 * twin + leg, twin, seed,
                                          (a, b) if a_side0 else (b, a), twin_ids=legs))
    return out


def possible_ids(names: Sequence[str], rounds: int, twin_pairs: int) -> Iterator[str]:
    """Every id :func:`round_matches` could give in ``rounds`` rounds."""
    for round_no in range(1, rounds + 1):
        for a in range(len(names)):
            for b in range(a + 1, len(names)):
                stem = _stem(names, round_no, a, b)
                for twin in range(twin_pairs):
                    yield f"{stem}-{twin + 1}a"
                    yield f"{stem}-{twin + 1}b"


@dataclasses.dataclass(frozen=True)
class PairResult:
    """What the twin pairs of one pairing gave, from the point of view of bot ``a``."""

    a: int
    b: int
    points_a: float  # mean pair score of a: 1 won every pair, 1/2 even, 0 lost every pair
    margin_a: int  # a's score minus b's, over every leg
    pairs: int


def pair_result(matches: Sequence[ScheduledMatch], done: Mapping[str, Played]) -> PairResult | None:
    """The result of one pairing's matches, or None while any is unfinished."""
    first = matches[0].pairing
    points = 0.0
    margin = 0
    for match in matches:
        played = done.get(match.match_id)
        if played is None:
            return None
        a_side = match.sides.index(first.a)
        if played.winner is None:
            points += 0.5
        elif played.winner == a_side:
            points += 1.0
        if len(played.score) == 2:
            margin += played.score[a_side] - played.score[1 - a_side]
    return PairResult(first.a, first.b, points / len(matches), margin, len(matches) // 2)
