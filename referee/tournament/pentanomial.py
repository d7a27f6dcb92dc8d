"""Twin pairs as the unit of evidence: the pentanomial model.

The two matches of a twin pair are played on the same deals with the sides swapped, so
their results are not independent: a lucky deal helps whoever holds it in each leg. As
fastchess and fishtest do for game pairs, a pair is scored as one outcome, from the
point of view of one bot, by the sum of its two match points (win 1, draw 1/2, loss 0):

=======  ==========  ====================================
index    pair score  the two legs
=======  ==========  ====================================
0        0           lost both
1        0.25        drew one, lost the other
2        0.5         won one and lost one, or drew both
3        0.75        won one, drew the other
4        1           won both
=======  ==========  ====================================

The score of a bot is the mean pair score, and its uncertainty comes from the variance
of the pair scores, not from treating 2n matches as independent. This module holds only
that counting and the arithmetic on it; the SPRT format and the standings both use it.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Iterable

__all__ = ["PAIR_SCORES", "Pentanomial", "pair_index", "score_to_elo"]

#: The pair score of each pentanomial index.
PAIR_SCORES: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)


def pair_index(first: float, second: float) -> int:
    """The pentanomial index of a pair from one bot's match points in its two legs.

    Each leg's points are 1 (won), 0.5 (drawn) or 0 (lost).

    >>> pair_index(1, 0.5)
    3
    """
    for points in (first, second):
        if points not in (0, 0.5, 1):
            raise ValueError(f"match points are 0, 0.5 or 1; got: {points!r}")
    return round((first + second) * 2)


def _five(counts: list[int]) -> tuple[int, int, int, int, int]:
    return counts[0], counts[1], counts[2], counts[3], counts[4]


def score_to_elo(score: float) -> float:
    """The logistic Elo difference of an expected score in (0, 1); +-inf at the ends."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclasses.dataclass(frozen=True)
class Pentanomial:
    """Counts of twin-pair outcomes, indexed 0 (lost both) to 4 (won both).

    Immutable: :meth:`add` returns a new value, so a running total can be shared safely.
    """

    counts: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

    def __post_init__(self) -> None:
        if len(self.counts) != 5 or any(not isinstance(c, int) or c < 0 for c in self.counts):
            raise ValueError(f"pentanomial counts are five whole numbers >= 0; got: {self.counts!r}")

    @classmethod
    def from_legs(cls, legs: Iterable[tuple[float, float]]) -> Pentanomial:
        """Counts from ``(first leg points, second leg points)`` of each pair."""
        counts = [0] * 5
        for first, second in legs:
            counts[pair_index(first, second)] += 1
        return cls(_five(counts))

    def add(self, first: float, second: float) -> Pentanomial:
        """These counts with one more pair."""
        counts = list(self.counts)
        counts[pair_index(first, second)] += 1
        return Pentanomial(_five(counts))

    def flipped(self) -> Pentanomial:
        """The same pairs from the other bot's point of view."""
        return Pentanomial(_five(list(reversed(self.counts))))

    @property
    def pairs(self) -> int:
        """How many pairs were counted."""
        return sum(self.counts)

    def mean(self) -> float | None:
        """The mean pair score (equal to the match score over the pairs); None without pairs."""
        n = self.pairs
        if n == 0:
            return None
        return sum(c * s for c, s in zip(self.counts, PAIR_SCORES)) / n

    def variance(self) -> float | None:
        """The variance of one pair's score (population form, as fastchess uses); None without pairs."""
        mu = self.mean()
        if mu is None:
            return None
        return sum(c * (s - mu) ** 2 for c, s in zip(self.counts, PAIR_SCORES)) / self.pairs

    def standard_error(self) -> float | None:
        """The standard error of :meth:`mean`; None without pairs."""
        var = self.variance()
        return None if var is None else math.sqrt(var / self.pairs)

    def score_interval(self, z: float) -> tuple[float, float] | None:
        """The normal interval ``mean +- z * standard error`` of the score, clipped to [0, 1]."""
        mu, se = self.mean(), self.standard_error()
        if mu is None or se is None:
            return None
        return max(0.0, mu - z * se), min(1.0, mu + z * se)

    def spread(self, about: float) -> float:
        """The sum over pairs of ``(pair score - about) ** 2``.

        With ``about`` the mean this is ``pairs * variance``; the standings take it about a
        model's expected score instead, for the pair-clustered ("sandwich") variance of a fit.
        """
        return sum(c * (s - about) ** 2 for c, s in zip(self.counts, PAIR_SCORES))

    def elo(self) -> float | None:
        """The Elo difference the mean score implies (+-inf for a perfect or null score)."""
        mu = self.mean()
        return None if mu is None else score_to_elo(mu)

    def elo_interval(self, z: float) -> tuple[float, float] | None:
        """The score interval mapped to Elo; asymmetric, and infinite at a perfect end."""
        interval = self.score_interval(z)
        return None if interval is None else (score_to_elo(interval[0]), score_to_elo(interval[1]))
