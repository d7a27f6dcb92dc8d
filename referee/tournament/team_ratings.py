"""Ratings of individuals from team results: a team-sum Bradley–Terry (Elo) fit.

In a partnership game a bot's result is its team's. When bots play with many
partners, each bot's own strength can still be told apart: the model is

    P(team A beats team B) = 1 / (1 + 10 ** (-(sum of A's ratings - sum of B's) / 400))

(a draw counts half a win), fitted by maximum likelihood with Newton steps. A
weak normal prior (sd ``PRIOR_SD`` Elo around 0) keeps the fit finite when a
team won every game and fixes the free shift of all ratings at mean 0. Errors
are 1.96 standard deviations of each rating minus the mean, from the inverse
of the (prior-regularised) Fisher information. An Elo fit rather than openskill's team model: the result
is a maximum-likelihood rating with a classical interval, on the same scale as
the standings' Elo column, with no order dependence and no dependency.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

__all__ = ["PRIOR_SD", "TeamGame", "TeamRating", "expected_score", "fit_team_elo"]

PRIOR_SD = 400.0
_K = math.log(10) / 400
_Z95 = 1.959963984540054


@dataclasses.dataclass(frozen=True)
class TeamGame:
    """One match: the bots of each team (indices) and team A's points (1, 1/2, 0)."""

    team_a: tuple[int, ...]
    team_b: tuple[int, ...]
    score_a: float


@dataclasses.dataclass(frozen=True)
class TeamRating:
    """A bot's rating and the half-width of its 95% interval."""

    rating: float
    error: float


def expected_score(ratings: Sequence[float], game: TeamGame) -> float:
    """Team A's expected points in ``game`` under ``ratings``."""
    diff = sum(ratings[i] for i in game.team_a) - sum(ratings[i] for i in game.team_b)
    return 1.0 / (1.0 + math.exp(-_K * diff))


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


def _information(n: int, ratings: list[float], games: Sequence[TeamGame]) -> list[list[float]]:
    info = [[(1.0 / PRIOR_SD ** 2 if i == j else 0.0) for j in range(n)] for i in range(n)]
    for game in games:
        p = expected_score(ratings, game)
        w = _K * _K * p * (1 - p)
        x = [0.0] * n
        for i in game.team_a:
            x[i] += 1
        for i in game.team_b:
            x[i] -= 1
        touched = [i for i in range(n) if x[i]]
        for i in touched:
            for j in touched:
                info[i][j] += w * x[i] * x[j]
    return info


def fit_team_elo(n: int, games: Sequence[TeamGame]) -> list[TeamRating]:
    """Each of ``n`` bots' rating (mean 0) and 95% error from ``games``."""
    ratings = [0.0] * n
    for _ in range(100):
        grad = [-r / PRIOR_SD ** 2 for r in ratings]
        for game in games:
            residual = _K * (game.score_a - expected_score(ratings, game))
            for i in game.team_a:
                grad[i] += residual
            for i in game.team_b:
                grad[i] -= residual
        step = _solve(_information(n, ratings, games), grad)
        ratings = [r + s for r, s in zip(ratings, step)]
        if max(abs(s) for s in step) < 1e-7:
            break
    mean = sum(ratings) / n
    ratings = [r - mean for r in ratings]
    info = _information(n, ratings, games)
    cov = [_solve(info, [1.0 if j == i else 0.0 for j in range(n)]) for i in range(n)]
    # Errors of the ratings as reported, each minus their mean: the shift all ratings share (which
    # only the prior pins down) drops out. Var(r_i - mean) = C_ii - 2 mean_j C_ij + mean_jk C_jk.
    row_mean = [sum(row) / n for row in cov]
    total_mean = sum(row_mean) / n
    errors = [_Z95 * math.sqrt(max(cov[i][i] - 2 * row_mean[i] + total_mean, 0.0)) for i in range(n)]
    return [TeamRating(r, e) for r, e in zip(ratings, errors)]
