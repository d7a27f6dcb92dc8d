"""Ratings and intervals: Elo by maximum likelihood, and the Wilson score interval.

**Elo.** Every result enters a Bradley-Terry model on the Elo scale: bot i
scores against bot j with expectation ``1 / (1 + 10 ** ((R_j - R_i) / 400))``,
a draw counting half a win. The ratings are the maximum-likelihood fit to all
results at once (Ordo and BayesElo also fit all games at once, rather than
updating game by game, which depends on the order of games).

:class:`Pool` is what the standings use: no prior, a core of bots placed
relative to each other anchored to mean 0, one-sided bounds for bots the
likelihood puts at infinity (as Ordo does for perfect scores), and
profile-likelihood intervals scaled for twin pairs; docs/standings.md has the
method in full.

A **prior** of virtual draws per pairing (``Pool(prior=...)``; BayesElo's default is 2
virtual draws per player) is available but off: docs/standings.md says why.

Bots that never met through any chain of games cannot be compared; each
connected group is anchored to mean 0 on its own.

Pure Python: a tournament has tens of bots at most, and the referee keeps
its dependencies to the few it needs.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import math
from typing import Any, Callable, Iterable, Mapping, Protocol

from referee.tournament.pentanomial import Pentanomial

__all__ = ["Estimate", "Kind", "Pairing", "Pool", "RatingFit", "informative", "twin_estimate", "wilson", "Z95", "Z95_ONE_SIDED"]

Z95 = 1.959963984540054
_K = math.log(10) / 400  # d(logit p) / d(rating difference)


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
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


# ---------------------------------------------------------------- the pool: honest intervals and bounds

#: The one-sided 95% normal quantile, for bounds ("> +310").
Z95_ONE_SIDED = 1.6448536269514722


class Kind(str, enum.Enum):
    """What an :class:`Estimate` is: a value with an interval, or only a bound."""

    ESTIMATE = "estimate"
    LOWER_BOUND = "lower bound"  # the value is above ``low`` (the data put it at +infinity)
    UPPER_BOUND = "upper bound"  # the value is below ``high``
    NONE = "none"  # nothing to say (no games, or no connection)


@dataclasses.dataclass(frozen=True)
class Estimate:
    """A rating (or a difference) in Elo with its 95% interval, at full precision.

    ``low``/``high`` are the interval's ends; an end the data leave open is infinite. A
    bound has an infinite ``value`` and one finite end: one-sided 95%.
    """

    kind: Kind
    value: float | None = None
    low: float | None = None
    high: float | None = None

    @property
    def bound(self) -> float:
        """A one-sided bound's finite end: ``low`` of a lower bound, ``high`` of an upper one."""
        end = self.low if self.kind is Kind.LOWER_BOUND else self.high if self.kind is Kind.UPPER_BOUND else None
        if end is None:
            raise ValueError(f"not a one-sided bound: got {self!r}")
        return end

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: infinities become None (``kind`` says which side is open)."""
        def finite(x: float | None) -> float | None:
            return x if x is not None and math.isfinite(x) else None
        return {"kind": self.kind.value, "value": finite(self.value), "low": finite(self.low),
                "high": finite(self.high)}

    def sort_value(self) -> float:
        """The value for ranking: bounds rank beyond every estimate, ordered by their bound."""
        if self.kind is Kind.LOWER_BOUND:
            return 1e9 + (self.low or 0.0)
        if self.kind is Kind.UPPER_BOUND:
            return -1e9 + (self.high or 0.0)
        return self.value if self.value is not None else -math.inf


@dataclasses.dataclass(frozen=True)
class Pairing:
    """Every match between bots ``i`` and ``j``: how many, ``i``'s points, and its twin pairs.

    ``twins`` counts the twin pairs among those matches from ``i``'s point of view; their
    legs are included in ``games`` and ``score``.
    """

    i: int
    j: int
    games: int
    score: float
    twins: Pentanomial = Pentanomial()


def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _log_p(d: float) -> float:
    """log of the expected score at a rating difference ``d``, stable for large ``|d|``."""
    return -_softplus(-_K * d)


class RatingFit(Protocol):
    """What the standings ask of a rating fit: :class:`Pool`, or the team-sum fit of mixed partnerships
    (:class:`referee.tournament.team_ratings.TeamFit`). Bots are indices."""

    def rating(self, i: int) -> Estimate:
        """Bot ``i``'s rating with its 95% interval (or a bound, or nothing)."""

    def difference(self, i: int, j: int) -> Estimate:
        """The rating of ``i`` minus that of ``j``, with its 95% interval."""

    def los(self, i: int, j: int) -> float | None:
        """The probability that ``i`` is stronger than ``j`` (None where the data cannot say)."""


class Pool:
    """Ratings of bots from all their results: maximum likelihood, no prior by default.

    In each connected group the **core** is the largest set of bots whose results place
    them all relative to each other (a strongly connected component of "scored against",
    where a draw counts both ways); the maximum-likelihood ratings of the core are finite,
    and anchored to mean 0. A bot outside the core won every game against it (or lost
    every one): its rating is +-infinity to the likelihood, so it gets a one-sided 95%
    bound from its games against bots already placed, as Ordo does with perfect scores.

    Intervals are profile-likelihood intervals (asymmetric where the likelihood is).
    Where matches come in twin pairs, the likelihood ratio is scaled by the ratio of the
    model's variance to the pair-clustered ("sandwich") variance of the same quantity,
    so that the width follows the spread of the pair scores, not of independent matches.
    """

    def __init__(self, n_players: int, pairings: Iterable[Pairing], *, prior: float = 0.0, z: float = Z95):
        self.n, self.z, self.prior = n_players, z, prior
        self._pairings: list[Pairing] = []
        for p in pairings:
            if p.i == p.j or p.games <= 0:
                continue
            if not 0 <= p.score <= p.games:
                raise ValueError(f"score {p.score!r} of player {p.i} is outside 0..{p.games} games against "
                                 f"player {p.j}")
            self._pairings.append(p)
        games = [[0.0] * n_players for _ in range(n_players)]
        for p in self._pairings:
            games[p.i][p.j] += p.games
            games[p.j][p.i] += p.games
        self._estimates: list[Estimate] = [Estimate(Kind.NONE)] * n_players
        self._cores: list[_Core] = []
        self._core_of: dict[int, _Core] = {}
        for group in _components(games):
            self._fit_group(group)

    # ------------------------------------------------------------ fitting

    def _fit_group(self, group: list[int]) -> None:
        members = set(group)
        pairs = [p for p in self._pairings if p.i in members]
        # Who scored against whom (a draw both ways); a prior's virtual draws connect every pairing.
        beat: dict[int, set[int]] = {i: set() for i in group}
        for p in pairs:
            if p.score > 0 or self.prior > 0:
                beat[p.i].add(p.j)
            if p.score < p.games or self.prior > 0:
                beat[p.j].add(p.i)
        components = _strong_components(group, beat)
        played: dict[int, float] = collections.defaultdict(float)
        points: dict[int, float] = collections.defaultdict(float)
        for p in pairs:
            played[p.i] += p.games
            played[p.j] += p.games
            points[p.i] += p.score
            points[p.j] += p.games - p.score

        def core_key(c: set[int]) -> tuple[float, ...]:
            # Largest, then most games; then the lower-scoring one, so that between two bots
            # with a perfect result the winner is the one shown as a bound ("> +158").
            games = sum(played[i] for i in c)
            return len(c), games, -sum(points[i] for i in c) / games, -min(c)

        core_set = max(components, key=core_key)
        core = _Core(sorted(core_set), [p for p in pairs if p.i in core_set and p.j in core_set], self.prior)
        self._cores.append(core)
        for i in core.members:
            self._core_of[i] = core  # its interval is worked out when asked for (a profile is not free)
        # Bots outside the core, nearest first: each bounded from its games against bots placed before it.
        above = _reach(core_set, {i: {j for j in group if i in beat[j]} for i in group})  # reach the core
        below = _reach(core_set, beat)  # reached from the core
        placed: dict[int, float] = {i: core.ratings[i] for i in core.members}
        # Nearest the core first: a bot above the core is placed after every bot it beat on
        # the way down to it, and never from one it lost to (not placed yet), so that a bot
        # which beat another gets the higher bound. (Placed in any order, a loss to a bot
        # placed first at its bound dragged the loser's bound below weaker bots'.)
        depth = _depths(components, beat, core_set, above, below)
        left = sorted((i for i in group if i not in core_set), key=depth.__getitem__)  # stable: ties in group order
        while left:
            progress = False
            for i in list(left):
                opponents = [(p, p.j if p.i == i else p.i) for p in pairs if i in (p.i, p.j)]
                known = [(p, j) for p, j in opponents if j in placed]
                if not known:
                    continue
                up = i in above or (i not in below and sum(p.score if p.i == i else p.games - p.score
                                                           for p, _ in opponents) * 2 >= sum(p.games for p, _ in opponents))
                games: list[tuple[float, float, float]] = []
                for p, j in known:
                    own = p.score if p.i == i else p.games - p.score
                    twins = p.twins.pairs
                    # A twin pair's two legs are not independent: in a bound each pair counts as one game.
                    n_eff = float(p.games - twins)
                    games.append((n_eff, own * n_eff / p.games, placed[j]))
                est = _one_sided(games, up)
                self._estimates[i] = est
                placed[i] = est.bound
                left.remove(i)
                progress = True
            if not progress:
                break  # connected only through bots that cannot be placed: left as "none"

    # ------------------------------------------------------------ queries

    def rating(self, i: int) -> Estimate:
        """Bot ``i``'s rating against the mean of its core, with a 95% interval or a bound."""
        core = self._core_of.get(i)
        if core is not None and self._estimates[i].kind is Kind.NONE:
            self._estimates[i] = core.rating(i, self.z)
        return self._estimates[i]

    def difference(self, i: int, j: int) -> Estimate:
        """The rating of ``i`` minus that of ``j``, with its 95% interval (or a bound)."""
        core = self._core_of.get(i)
        if core is not None and core is self._core_of.get(j):
            return core.difference(i, j, self.z)
        a, b = self.rating(i), self.rating(j)
        if Kind.NONE in (a.kind, b.kind) or not self._same_group(i, j):
            return Estimate(Kind.NONE)
        if a.kind is Kind.LOWER_BOUND and b.kind is not Kind.LOWER_BOUND:
            return Estimate(Kind.LOWER_BOUND, math.inf, (a.low or 0.0) - _upper(b), math.inf)
        if b.kind is Kind.LOWER_BOUND and a.kind is not Kind.LOWER_BOUND:
            return Estimate(Kind.UPPER_BOUND, -math.inf, -math.inf, _upper(a) - (b.low or 0.0))
        if a.kind is Kind.UPPER_BOUND and b.kind is not Kind.UPPER_BOUND:
            return Estimate(Kind.UPPER_BOUND, -math.inf, -math.inf, (a.high or 0.0) - _lower(b))
        if b.kind is Kind.UPPER_BOUND and a.kind is not Kind.UPPER_BOUND:
            return Estimate(Kind.LOWER_BOUND, math.inf, _lower(a) - (b.high or 0.0), math.inf)
        return Estimate(Kind.NONE)  # both beyond the core on the same side: the data cannot order them

    def los(self, i: int, j: int) -> float | None:
        """Likelihood of superiority: the probability that ``i`` is stronger than ``j``.

        ``Phi(d / sd(d))`` with the (pair-aware) standard deviation of the difference, as
        cutechess and BayesElo report it; None where the two are not both in one core.
        """
        core = self._core_of.get(i)
        if core is None or core is not self._core_of.get(j):
            return None
        return core.los(i, j)

    def _same_group(self, i: int, j: int) -> bool:
        return any(i in g and j in g for g in _components(self._games_matrix()))

    def _games_matrix(self) -> list[list[float]]:
        games = [[0.0] * self.n for _ in range(self.n)]
        for p in self._pairings:
            games[p.i][p.j] += p.games
            games[p.j][p.i] += p.games
        return games


def _upper(e: Estimate) -> float:
    """The value a bound of another bot is taken against: its fitted rating.

    The bound itself was found with the placed bots held at their ratings, so it is
    read against the same ratings, not against the ends of their intervals.
    """
    return e.value if e.value is not None and math.isfinite(e.value) else (
        e.high if e.high is not None and math.isfinite(e.high) else (e.low or 0.0))


def _lower(e: Estimate) -> float:
    return e.value if e.value is not None and math.isfinite(e.value) else (
        e.low if e.low is not None and math.isfinite(e.low) else (e.high or 0.0))


def _depths(components: list[set[int]], beat: Mapping[int, set[int]], core: set[int],
            above: set[int], below: set[int]) -> dict[int, int]:
    """How far each bot stands from the core: the longest chain of one-way results
    (component to component) between it and the core, on its own side of it. The order of
    placing the bounds; 0 for the core, and a large number for a bot on neither side."""
    comp_of = {i: k for k, c in enumerate(components) for i in c}
    down: dict[int, set[int]] = {k: set() for k in range(len(components))}  # k scored against m
    for i, js in beat.items():
        for j in js:
            if comp_of[i] != comp_of[j]:
                down[comp_of[i]].add(comp_of[j])
    up = {k: {m for m in down if k in down[m]} for k in down}  # m scored against k
    core_k = comp_of[next(iter(core))]

    def longest(side: set[int], edges: Mapping[int, set[int]]) -> dict[int, int]:
        # Every component of ``side`` (the core included) leads to the core along ``edges``
        # through components of ``side``, so the maximum below is never over nothing.
        comps = {comp_of[i] for i in side}
        memo = {core_k: 0}

        def chain(k: int) -> int:
            if k not in memo:
                memo[k] = 1 + max(chain(m) for m in edges[k] if m in comps)
            return memo[k]

        return {i: chain(comp_of[i]) for i in side}

    far = len(components) + 1
    return {i: far for i in comp_of} | longest(below, up) | longest(above, down)


def _strong_components(nodes: list[int], edges: Mapping[int, set[int]]) -> list[set[int]]:
    """Strongly connected components (by mutual reachability; groups are small)."""
    reach = {i: _reach({i}, {a: {b for b in nodes if a in edges[b]} for a in nodes}) for i in nodes}
    # reach[i]: the nodes from which i can be reached; i's component is those it also reaches.
    out: list[set[int]] = []
    seen: set[int] = set()
    for i in nodes:
        if i in seen:
            continue
        forward = _reach({i}, edges)
        comp = {j for j in forward if j in reach[i]}
        seen |= comp
        out.append(comp)
    return out


def _reach(start: set[int], edges: Mapping[int, set[int]]) -> set[int]:
    """Every node reachable from ``start`` along ``edges`` (``start`` included)."""
    seen, stack = set(start), list(start)
    while stack:
        for j in edges[stack.pop()]:
            if j not in seen:
                seen.add(j)
                stack.append(j)
    return seen


def _one_sided(games: list[tuple[float, float, float]], up: bool) -> Estimate:
    """The one-sided 95% profile bound of one rating against opponents held at their values.

    ``games``: ``(n, points, opponent rating)``. For ``up`` it is the lowest rating whose
    likelihood is within ``Z95_ONE_SIDED ** 2 / 2`` of the supremum; for a bot with every
    point (the supremum, 1, is at infinity) that solves ``sum n log p = -1.35``.
    """
    sign = 1.0 if up else -1.0

    def loglik(t: float) -> float:
        return sum(s * _log_p(t - r) + (n - s) * _log_p(r - t) for n, s, r in games)

    # The supremum: at the perfect end it is the limit (0 for all points); else the 1-D maximum.
    lo_t, hi_t = -4000.0, 4000.0
    best_t = _argmax_1d(loglik, lo_t, hi_t)
    best = max(loglik(best_t), loglik(sign * 1e5))
    target = best - Z95_ONE_SIDED ** 2 / 2
    # Walk from the maximum towards the other side until the likelihood drops below target.
    start = best_t if abs(best_t) < 3999 else sign * 3999
    a, b = start, start - sign * 1.0
    while loglik(b) > target and abs(b) < 1e5:
        a, b = b, start - sign * 2 * abs(b - start)
    for _ in range(100):
        mid = (a + b) / 2
        if loglik(mid) > target:
            a = mid
        else:
            b = mid
    bound = (a + b) / 2
    if up:
        return Estimate(Kind.LOWER_BOUND, math.inf, bound, math.inf)
    return Estimate(Kind.UPPER_BOUND, -math.inf, -math.inf, bound)


def _argmax_1d(f: Callable[[float], float], lo: float, hi: float) -> float:
    """The maximum of a concave function on [lo, hi] by golden-section search."""
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(120):
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return (a + b) / 2


class _Core:
    """The bots of one core: the maximum-likelihood fit, its covariances and profiles."""

    def __init__(self, members: list[int], pairings: list[Pairing], prior: float):
        self.members = members
        self.index = {b: k for k, b in enumerate(members)}
        m = len(members)
        # Per pairing (core indices): games, points of the first, and its twin pairs.
        self.pairs = [(self.index[p.i], self.index[p.j], p.games + prior, p.score + prior / 2, p.twins)
                      for p in pairings]
        self.ratings: dict[int, float] = {b: 0.0 for b in members}
        self._cov_model: list[list[float]] | None = None
        self._cov_robust: list[list[float]] | None = None
        if m == 1:
            return
        r = self._maximise([0.0] * m, [])
        self.r = r
        self.best = self._loglik(r)
        for b, k in self.index.items():
            self.ratings[b] = r[k]
        info = self._info(r)
        g = _bordered_inverse(info)
        self._cov_model = g
        if g is not None and any(t.pairs for *_, t in self.pairs):
            meat = self._meat(r)
            gm = _matmul(g, meat)
            self._cov_robust = _matmul(gm, g)
        else:
            self._cov_robust = g

    # -------------------------------------------------------- likelihood

    def _loglik(self, r: list[float]) -> float:
        total = 0.0
        for i, j, n, s, _ in self.pairs:
            d = r[i] - r[j]
            total += s * _log_p(d) + (n - s) * _log_p(-d)
        return total

    def _grad_info(self, r: list[float]) -> tuple[list[float], list[list[float]]]:
        m = len(r)
        grad = [0.0] * m
        info = [[0.0] * m for _ in range(m)]
        for i, j, n, s, _ in self.pairs:
            p = _expected(r[i] - r[j])
            gi = _K * (s - n * p)
            grad[i] += gi
            grad[j] -= gi
            w = _K * _K * n * p * (1 - p)
            info[i][i] += w
            info[j][j] += w
            info[i][j] -= w
            info[j][i] -= w
        return grad, info

    def _info(self, r: list[float]) -> list[list[float]]:
        return self._grad_info(r)[1]

    def _meat(self, r: list[float]) -> list[list[float]]:
        """The variance of the score vector, with each twin pair as one unit of evidence.

        Single matches keep the model's ``p (1 - p)`` (so without twins nothing changes);
        a twin pair adds its observed ``(2 * pair score - 2 p) ** 2``.
        """
        m = len(r)
        units = 0.0
        terms = []
        for i, j, n, _, twins in self.pairs:
            p = _expected(r[i] - r[j])
            single = n - 2 * twins.pairs
            units += single + twins.pairs
            terms.append((i, j, single * p * (1 - p), 4 * twins.spread(p)))
        # The small-sample correction of a clustered variance (as "CR1"): units / (units - free
        # parameters), on the observed pair part. Without it the pair variance, estimated from
        # the same few pairs, runs low: 94.1% coverage instead of 95.0% in the synthetic
        # tournaments of the tests (16 matches per pairing, 4 bots).
        factor = units / (units - (m - 1)) if units > m - 1 else 1.0
        meat = [[0.0] * m for _ in range(m)]
        for i, j, model, observed in terms:
            w = _K * _K * (model + factor * observed)
            meat[i][i] += w
            meat[j][j] += w
            meat[i][j] -= w
            meat[j][i] -= w
        return meat

    def _maximise(self, r: list[float], constraints: list[tuple[list[float], float]]) -> list[float]:
        """Newton ascent from a point satisfying ``constraints`` (``c . r = t``) and ``sum r = 0``."""
        current = self._loglik(r)
        rows = [[1.0] * len(r)] + [c for c, _ in constraints]
        for _ in range(100):
            grad, info = self._grad_info(r)
            step = _solve_kkt(info, grad, rows)
            t = 1.0
            while True:
                trial = [ri + t * di for ri, di in zip(r, step)]
                value = self._loglik(trial)
                if value >= current - 1e-12 or t < 1e-6:
                    break
                t /= 2
            r, current = trial, value
            if max((abs(t * d) for d in step), default=0.0) < 1e-7:
                break
        return r

    # -------------------------------------------------------- intervals

    def _contrast(self, weights: Mapping[int, float]) -> list[float]:
        c = [0.0] * len(self.members)
        for b, w in weights.items():
            c[self.index[b]] += w
        return c

    def _variances(self, c: list[float]) -> tuple[float, float] | None:
        if self._cov_model is None or self._cov_robust is None:
            return None
        model = _quad(self._cov_model, c)
        # A quantity carried by a few pairs that ended as the model expected would get a
        # variance near 0 and claim certainty: the pair variance may narrow the per-match
        # figure by at most a factor 2 in variance (1.41 in width); it may widen it freely.
        robust = max(_quad(self._cov_robust, c), model / 2)
        return model, robust

    def _interval(self, c: list[float], z: float) -> Estimate:
        """The profile-likelihood interval of ``c . r`` (scaled for twin pairs)."""
        est = sum(ci * ri for ci, ri in zip(c, self.r))
        var = self._variances(c)
        if var is None or var[0] <= 0:
            return Estimate(Kind.ESTIMATE, est, None, None)
        model, robust = var
        scale = model / robust if robust > 0 else 1.0
        cc = sum(x * x for x in c)

        def excess(t: float, start: list[float]) -> tuple[float, list[float]]:
            feasible = [ri + (t - sum(ci * x for ci, x in zip(c, start))) / cc * ci for ri, ci in zip(start, c)]
            r = self._maximise(feasible, [(c, t)])
            return scale * 2 * (self.best - self._loglik(r)) - z * z, r

        ends = []
        for sign in (-1.0, 1.0):
            width = z * math.sqrt(robust)
            inner, inner_r, inner_v = est, self.r, -z * z
            outer = est + sign * width
            v, r = excess(outer, self.r)
            while v < 0 and abs(outer - est) < 1e5:
                inner, inner_r, inner_v = outer, r, v
                outer = est + 2 * (outer - est)
                v, r = excess(outer, r)
            if v < 0:
                ends.append(sign * math.inf)
                continue
            outer_v = v
            for _ in range(60):  # regula falsi (Illinois) on a nearly linear signed root
                t = inner + (outer - inner) * (-inner_v) / (outer_v - inner_v)
                v, r = excess(t, inner_r)
                if abs(v) < 1e-6 or abs(outer - inner) < 1e-4:  # within 0.001 Elo or so
                    inner = outer = t
                    break
                if v < 0:
                    inner, inner_r, inner_v = t, r, v
                    outer_v /= 2
                else:
                    outer, outer_v = t, v
            ends.append((inner + outer) / 2)
        return Estimate(Kind.ESTIMATE, est, ends[0], ends[1])

    def rating(self, b: int, z: float) -> Estimate:
        if len(self.members) == 1:
            return Estimate(Kind.ESTIMATE, 0.0, None, None)
        m = len(self.members)
        weights = {x: -1.0 / m for x in self.members}
        weights[b] += 1.0
        return self._interval(self._contrast(weights), z)

    def difference(self, a: int, b: int, z: float) -> Estimate:
        if a == b:
            return Estimate(Kind.ESTIMATE, 0.0, 0.0, 0.0)
        return self._interval(self._contrast({a: 1.0, b: -1.0}), z)

    def los(self, a: int, b: int) -> float | None:
        if a == b or len(self.members) == 1:
            return None
        c = self._contrast({a: 1.0, b: -1.0})
        var = self._variances(c)
        if var is None or var[1] <= 0:
            return None
        d = self.ratings[a] - self.ratings[b]
        return _phi(d / math.sqrt(var[1]))


def _solve_kkt(info: list[list[float]], grad: list[float], rows: list[list[float]]) -> list[float]:
    """The Newton step ``d`` with ``info d = grad`` projected so that ``row . d = 0`` for each row."""
    m, k = len(info), len(rows)
    a = [info[i][:] + [rows[c][i] for c in range(k)] for i in range(m)]
    a += [rows[c][:] + [0.0] * k for c in range(k)]
    x = _gauss_solve(a, [[v] for v in grad] + [[0.0]] * k)
    if x is None:
        return [0.0] * m
    return [row[0] for row in x[:m]]


def _matmul(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    cols = list(zip(*b))
    return [[sum(x * y for x, y in zip(row, col)) for col in cols] for row in a]


def _quad(matrix: list[list[float]], c: list[float]) -> float:
    return sum(ci * sum(mij * cj for mij, cj in zip(row, c)) for ci, row in zip(c, matrix))


def informative(twins: Pentanomial) -> bool:
    """Whether the pairs' spread can stand for the variance: at least two pairs, not all alike.

    A single pair, or pairs all with the same outcome, have a sample variance of 0, which
    would claim certainty; then the legs are treated as single matches instead.
    """
    return twins.pairs >= 2 and (twins.variance() or 0.0) > 0.0


def twin_estimate(twins: Pentanomial, z: float = Z95) -> Estimate:
    """The Elo difference one pairing's twin pairs show, from the pentanomial alone.

    The score's normal interval from the pair variance, mapped to Elo (as fastchess does);
    a pairing where one bot won every pair (or lost every one) gets a one-sided 95% bound,
    each pair counting as one game.
    """
    mu = twins.mean()
    if mu is None:
        return Estimate(Kind.NONE)
    if mu in (0.0, 1.0):
        return _one_sided([(float(twins.pairs), twins.pairs * mu, 0.0)], mu == 1.0)
    if not informative(twins):  # no spread to learn from: the legs as single matches
        return Pool(2, [Pairing(0, 1, 2 * twins.pairs, 2 * twins.pairs * mu)], z=z).difference(0, 1)
    interval = twins.elo_interval(z)
    lo, hi = interval if interval is not None else (None, None)
    return Estimate(Kind.ESTIMATE, twins.elo(), lo, hi)
