"""Ratings and intervals: Elo by maximum likelihood, and the Wilson score interval.

**Elo.** Every result enters a Bradley-Terry model on the Elo scale: bot i
scores against bot j with expectation ``1 / (1 + 10 ** ((R_j - R_i) / 400))``,
a draw counting half a win. The ratings are the maximum-likelihood fit to all
results at once (as bayeselo and ordo do, rather than updating game by game,
which depends on the order of games), anchored so that their mean is 0.

Two refinements, both as in bayeselo:

* a **prior** of virtual draws (``prior`` games scored half-half) added to
  every pairing that met, so that a bot that won every game gets a large but
  finite rating instead of infinity;
* **error bars** from the Fisher information: the covariance of the
  constrained estimate is the top-left block of the inverse of the
  information matrix bordered by the mean-zero constraint. The reported error
  is the 95% half-width, 1.96 standard deviations.

Bots that never met through any chain of games cannot be compared; each
connected group is anchored to mean 0 on its own.

Pure Python: a tournament has tens of bots at most, and the referee keeps
its dependencies to the few it needs.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Mapping

__all__ = ["Rating", "fit_elo", "wilson", "Z95"]

Z95 = 1.959963984540054
_K = math.log(10) / 400  # d(logit p) / d(rating difference)


@dataclasses.dataclass(frozen=True)
class Rating:
    """An Elo rating and its 95% error (half-width); None for a bot with no games."""

    rating: float | None
    error: float | None


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n``.

    Unlike the normal approximation it stays inside [0, 1] and is sensible
    for 0 or n successes and for small n. A draw may count as half a success.
    ``n == 0`` gives the uninformative ``(0.0, 1.0)``.
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def fit_elo(n_players: int, results: Mapping[tuple[int, int], tuple[float, float]], *, prior: float = 1.0,
            z: float = Z95) -> list[Rating]:
    """Fit Elo ratings to pairwise results.

    ``results[(i, j)] = (games, score_i)``: how many games i and j played and
    how many points i scored in them (win 1, draw 1/2). Each unordered pair
    may appear once in either orientation. Returns one :class:`Rating` per
    player, mean 0 within each connected group.
    """
    games = [[0.0] * n_players for _ in range(n_players)]
    score = [[0.0] * n_players for _ in range(n_players)]
    for (i, j), (n, s) in results.items():
        if i == j or n <= 0:
            continue
        if not 0 <= s <= n:
            raise ValueError(f"score {s!r} of player {i} is outside 0..{n} games against player {j}")
        games[i][j] += n + prior
        games[j][i] += n + prior
        score[i][j] += s + prior / 2
        score[j][i] += n - s + prior / 2
    out: list[Rating] = [Rating(None, None)] * n_players
    for group in _components(games):
        if len(group) == 1:
            out[group[0]] = Rating(0.0, None)
            continue
        ratings, errors = _fit_group(group, games, score, z)
        for idx, r, e in zip(group, ratings, errors):
            out[idx] = Rating(r, e)
    return out


def _components(games: list[list[float]]) -> list[list[int]]:
    """Groups of players connected by games (players with no games left out)."""
    n = len(games)
    seen = [False] * n
    groups = []
    for start in range(n):
        if seen[start] or not any(games[start]):
            continue
        stack, group = [start], []
        seen[start] = True
        while stack:
            i = stack.pop()
            group.append(i)
            for j in range(n):
                if games[i][j] > 0 and not seen[j]:
                    seen[j] = True
                    stack.append(j)
        groups.append(sorted(group))
    return groups


def _fit_group(group: list[int], games: list[list[float]], score: list[list[float]],
               z: float) -> tuple[list[float], list[float | None]]:
    m = len(group)
    g = [[games[a][b] for b in group] for a in group]
    s = [[score[a][b] for b in group] for a in group]
    r = [0.0] * m

    def loglik(rv: list[float]) -> float:
        total = 0.0
        for i in range(m):
            for j in range(i + 1, m):
                if g[i][j] > 0:
                    d = _K * (rv[i] - rv[j])
                    # log p = -log(1 + e^-d), computed stably for large |d|
                    total -= s[i][j] * _softplus(-d) + (g[i][j] - s[i][j]) * _softplus(d)
        return total

    info: list[list[float]] = []
    current = loglik(r)
    for _ in range(200):
        grad = [0.0] * m
        info = [[0.0] * m for _ in range(m)]
        for i in range(m):
            for j in range(m):
                if i == j or g[i][j] <= 0:
                    continue
                p = _expected(r[i] - r[j])
                grad[i] += _K * (s[i][j] - g[i][j] * p)
                w = _K * _K * g[i][j] * p * (1 - p)
                info[i][i] += w
                info[i][j] -= w
        step = _solve_bordered(info, grad)
        # Newton on a concave likelihood; halve the step if it overshoots.
        t = 1.0
        while True:
            trial = [ri + t * di for ri, di in zip(r, step)]
            value = loglik(trial)
            if value >= current - 1e-12 or t < 1e-6:
                break
            t /= 2
        r, current = trial, value
        if max(abs(t * d) for d in step) < 1e-9:
            break
    mean = sum(r) / m
    r = [x - mean for x in r]
    cov = _bordered_inverse(info)
    errors: list[float | None] = []
    for i in range(m):
        var = cov[i][i] if cov is not None else float("nan")
        errors.append(z * math.sqrt(var) if var == var and var >= 0 else None)
    return r, errors


def _expected(diff: float) -> float:
    """Expected score at rating difference ``diff``."""
    x = -_K * diff
    if x > 700:
        return 0.0
    return 1.0 / (1.0 + math.exp(x))


def _softplus(x: float) -> float:
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def _bordered(matrix: list[list[float]]) -> list[list[float]]:
    """``[[M, 1], [1^T, 0]]``: ``M`` with the constraint sum = 0 attached."""
    m = len(matrix)
    return [row[:] + [1.0] for row in matrix] + [[1.0] * m + [0.0]]


def _solve_bordered(info: list[list[float]], grad: list[float]) -> list[float]:
    """The Newton step ``d`` with ``info d = grad`` and ``sum(d) = 0``."""
    a = _bordered(info)
    b = grad + [0.0]
    x = _gauss_solve(a, [[v] for v in b])
    if x is None:
        return [0.0] * len(grad)
    return [row[0] for row in x[:-1]]


def _bordered_inverse(info: list[list[float]]) -> list[list[float]] | None:
    m = len(info)
    ident = [[1.0 if i == j else 0.0 for j in range(m + 1)] for i in range(m + 1)]
    inv = _gauss_solve(_bordered(info), ident)
    if inv is None:
        return None
    return [row[:m] for row in inv[:m]]


def _gauss_solve(a: list[list[float]], b: list[list[float]]) -> list[list[float]] | None:
    """Solve ``a x = b`` by Gauss-Jordan elimination with partial pivoting."""
    n = len(a)
    cols = len(b[0])
    aug = [a[i][:] + b[i][:] for i in range(n)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(aug[r][c]))
        if abs(aug[pivot][c]) < 1e-15:
            return None
        aug[c], aug[pivot] = aug[pivot], aug[c]
        pv = aug[c][c]
        row_c = [v / pv for v in aug[c]]
        aug[c] = row_c
        for r in range(n):
            if r != c and aug[r][c] != 0.0:
                f = aug[r][c]
                row = aug[r]
                aug[r] = [x - f * y for x, y in zip(row, row_c)]
    return [row[n:n + cols] for row in aug]
