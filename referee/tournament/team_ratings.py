"""Ratings of individuals from team results: a team-sum Bradley–Terry (Elo) fit.

In a partnership game a bot's result is its team's. When bots play with many
partners, each bot's own strength can still be told apart: the model is

    P(team A beats team B) = 1 / (1 + 10 ** (-(sum of A's ratings - sum of B's) / 400))

(a draw counts half a win), fitted by maximum likelihood with Newton steps. A
weak normal prior (sd ``PRIOR_SD`` Elo around 0) keeps the fit finite when a
team won every game and fixes the free shift of all ratings at mean 0.

Intervals are 1.96 standard deviations of each rating minus the mean. As in the
standings' own fit (:class:`referee.tournament.ratings.Pool`), a twin pair (the
same deals, the teams' seats swapped) is one unit of evidence: the covariance is
the sandwich ``A^-1 B A^-1`` of the (prior-regularised) information ``A`` and the
observed variance ``B`` of the score with each twin pair's two legs summed (with
the small-sample factor units / (units - free parameters)); a single match keeps
the model's ``p (1 - p)``. A variance may come out at most a factor 2 below the
model's, so that a few pairs that went as expected do not claim certainty.

An Elo fit rather than openskill's team model: the result is a maximum-likelihood
rating with a classical interval, on the same scale as the standings' Elo column,
with no order dependence and no dependency.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Iterable, Sequence

from referee.tournament.pentanomial import Pentanomial
from referee.tournament.ratings import Z95, Estimate, Kind

__all__ = ["PRIOR_SD", "TeamFit", "TeamGame", "TeamPairing", "TeamRating", "expected_score", "fit_team_elo",
           "pairings_of"]

PRIOR_SD = 400.0
_K = math.log(10) / 400


@dataclasses.dataclass(frozen=True)
class TeamGame:
    """One match: the bots of each team (indices) and team A's points (1, 1/2, 0)."""

    team_a: tuple[int, ...]
    team_b: tuple[int, ...]
    score_a: float


@dataclasses.dataclass(frozen=True)
class TeamPairing:
    """Every match between two teams: how many, team A's points, and team A's twin pairs among them.

    ``games`` counts every match, those of the twin pairs included (two each).
    """

    team_a: tuple[int, ...]
    team_b: tuple[int, ...]
    games: int
    score_a: float
    twins_a: Pentanomial = Pentanomial()


@dataclasses.dataclass(frozen=True)
class TeamRating:
    """A bot's rating and the half-width of its 95% interval."""

    rating: float
    error: float


def expected_score(ratings: Sequence[float], game: TeamGame | TeamPairing) -> float:
    """Team A's expected points in one match of ``game`` under ``ratings``."""
    diff = sum(ratings[i] for i in game.team_a) - sum(ratings[i] for i in game.team_b)
    x = -_K * diff
    return 0.0 if x > 700 else 1.0 / (1.0 + math.exp(x))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix^-1 vector`` by Gaussian elimination with partial pivoting (matrix positive definite)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def _design(n: int, pairing: TeamPairing) -> list[float]:
    x = [0.0] * n
    for i in pairing.team_a:
        x[i] += 1
    for i in pairing.team_b:
        x[i] -= 1
    return x


def _add_outer(matrix: list[list[float]], x: list[float], w: float) -> None:
    touched = [i for i, xi in enumerate(x) if xi]
    for i in touched:
        for j in touched:
            matrix[i][j] += w * x[i] * x[j]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    return [_solve(matrix, [1.0 if j == i else 0.0 for j in range(n)]) for i in range(n)]


def _matmul(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def _quad(matrix: list[list[float]], c: Sequence[float]) -> float:
    return sum(ci * mij * cj for ci, row in zip(c, matrix) for mij, cj in zip(row, c))


def pairings_of(games: Iterable[TeamGame]) -> list[TeamPairing]:
    """Single matches (no twin pairs) grouped by the two teams."""
    totals: dict[tuple[tuple[int, ...], tuple[int, ...]], list[float]] = {}
    for game in games:
        row = totals.setdefault((game.team_a, game.team_b), [0, 0.0])
        row[0] += 1
        row[1] += game.score_a
    return [TeamPairing(a, b, int(games_), score) for (a, b), (games_, score) in totals.items()]


class TeamFit:
    """The team-sum fit of ``n`` bots from their teams' results (see the module docstring)."""

    def __init__(self, n: int, pairings: Sequence[TeamPairing], z: float = Z95) -> None:
        self.n, self.z = n, z
        self.pairings = [p for p in pairings if p.games]
        self.played = [False] * n
        for p in self.pairings:
            for i in p.team_a + p.team_b:
                self.played[i] = True
        self.ratings = self._maximise()
        info = self._information(self.ratings)
        inverse = _inverse(info)
        self._cov_model = inverse
        self._cov_robust = _matmul(_matmul(inverse, self._meat(self.ratings)), inverse)

    def _information(self, ratings: list[float]) -> list[list[float]]:
        info = [[(1.0 / PRIOR_SD ** 2 if i == j else 0.0) for j in range(self.n)] for i in range(self.n)]
        for p in self.pairings:
            e = expected_score(ratings, p)
            _add_outer(info, _design(self.n, p), p.games * _K * _K * e * (1 - e))
        return info

    def _meat(self, ratings: list[float]) -> list[list[float]]:
        """The variance of the score vector, each twin pair one unit (see the module docstring)."""
        meat = [[0.0] * self.n for _ in range(self.n)]
        units = sum(p.games - p.twins_a.pairs for p in self.pairings)
        factor = units / (units - (self.n - 1)) if units > self.n - 1 else 1.0
        for p in self.pairings:
            e = expected_score(ratings, p)
            single = p.games - 2 * p.twins_a.pairs
            observed = 4 * p.twins_a.spread(e)  # (2 * pair score - 2e) ** 2 over the pairs
            _add_outer(meat, _design(self.n, p), _K * _K * (single * e * (1 - e) + factor * observed))
        return meat

    def _maximise(self) -> list[float]:
        ratings = [0.0] * self.n
        for _ in range(100):
            grad = [-r / PRIOR_SD ** 2 for r in ratings]
            for p in self.pairings:
                residual = _K * (p.score_a - p.games * expected_score(ratings, p))
                for i in p.team_a:
                    grad[i] += residual
                for i in p.team_b:
                    grad[i] -= residual
            step = _solve(self._information(ratings), grad)
            ratings = [r + s for r, s in zip(ratings, step)]
            if max(abs(s) for s in step) < 1e-7:
                break
        mean = sum(ratings) / self.n
        return [r - mean for r in ratings]

    def _sd(self, c: Sequence[float]) -> float:
        model = _quad(self._cov_model, c)
        return math.sqrt(max(_quad(self._cov_robust, c), model / 2, 0.0))

    def _centred(self, i: int) -> list[float]:
        return [(1.0 if j == i else 0.0) - 1.0 / self.n for j in range(self.n)]

    def error(self, i: int) -> float:
        """Half the width of the 95% interval of bot ``i``'s rating (minus the mean of all)."""
        return self.z * self._sd(self._centred(i))

    def rating(self, i: int) -> Estimate:
        """Bot ``i``'s rating (mean 0) with its 95% interval; no estimate without a match."""
        if not self.played[i]:
            return Estimate(Kind.NONE)
        r, e = self.ratings[i], self.error(i)
        return Estimate(Kind.ESTIMATE, r, r - e, r + e)

    def difference(self, i: int, j: int) -> Estimate:
        """The rating of ``i`` minus that of ``j``, with its 95% interval."""
        if not (self.played[i] and self.played[j]):
            return Estimate(Kind.NONE)
        d = self.ratings[i] - self.ratings[j]
        e = self.z * self._sd([(1.0 if k == i else -1.0 if k == j else 0.0) for k in range(self.n)])
        return Estimate(Kind.ESTIMATE, d, d - e, d + e)

    def los(self, i: int, j: int) -> float | None:
        """The probability that ``i`` is stronger than ``j``: ``Phi(d / sd(d))``; None without matches."""
        if not (self.played[i] and self.played[j]) or i == j:
            return None
        sd = self._sd([(1.0 if k == i else -1.0 if k == j else 0.0) for k in range(self.n)])
        d = self.ratings[i] - self.ratings[j]
        return 0.5 * math.erfc(-d / sd / math.sqrt(2.0)) if sd > 0 else (1.0 if d > 0 else 0.0 if d < 0 else 0.5)


def fit_team_elo(n: int, games: Sequence[TeamGame]) -> list[TeamRating]:
    """Each of ``n`` bots' rating (mean 0) and 95% error from single ``games`` (no twin pairs)."""
    fit = TeamFit(n, pairings_of(games))
    return [TeamRating(r, fit.error(i)) for i, r in enumerate(fit.ratings)]

