"""The sequential probability ratio test on twin pairs (GSPRT, normalised-Elo model).

"Is B stronger than A?" is answered by playing twin pairs until the evidence is
enough, as fishtest and fastchess do for game pairs. Each twin pair is one
pentanomial outcome (:mod:`referee.tournament.pentanomial`), scored from B's
side. The two hypotheses are stated in *normalised Elo* (nElo), which measures
a difference by how many standard deviations of the match score it is worth,
so that the test needs the same number of pairs whatever the draw rate or
luck of the game:

    nElo = (800 / ln 10) * (score - 1/2) / sigma_match,   sigma_match = sqrt(2) * sigma_pair

* H0: nElo = ``elo0``; H1: nElo = ``elo1`` (``elo0 < elo1``).
* The *generalised* SPRT: the log-likelihood ratio of the observed counts under
  the maximum-likelihood pentanomial distribution that satisfies each
  hypothesis (Van den Bergh's construction, used by fishtest):
  ``LLR = N * sum_i phat_i * ln(p1_i / p0_i)``.
* Bounds: ``ln(beta / (1 - alpha))`` below, ``ln((1 - beta) / alpha)`` above.
  Leaving above accepts H1, below accepts H0; error rates are then at most
  about ``alpha`` (H1 accepted while H0 holds) and ``beta``.

Empty cells get a count of 1e-3 before the fit (as fishtest does), so a test
that has seen only wins still has a defined variance.
"""

from __future__ import annotations

import dataclasses
import enum
import math

from referee.tournament.pentanomial import PAIR_SCORES, Pentanomial

__all__ = ["NELO_PER_T", "Sprt", "SprtState", "Verdict", "normalised_elo"]

#: nElo per unit of t-value (score excess over its standard deviation): 800 / ln 10.
NELO_PER_T = 800.0 / math.log(10.0)
_EMPTY_CELL = 1e-3
_SQRT2 = math.sqrt(2.0)


class Verdict(enum.Enum):
    """Where a sequential test stands; each with the sentence the standings print."""

    H1 = "H1 accepted: {b} is stronger than {a} by at least {elo1:g} (normalised Elo)"
    H0 = "H0 accepted: {b} is not stronger than {a} by {elo1:g} or more (at most {elo0:g}, normalised Elo)"
    UNDECIDED = ("no decision after {matches} matches (max_matches): the LLR {llr:.2f} stayed within "
                 "({lower:.2f}, {upper:.2f})")
    RUNNING = "still running: LLR {llr:.2f} within ({lower:.2f}, {upper:.2f})"

    @property
    def decided(self) -> bool:
        return self in (Verdict.H0, Verdict.H1)


def normalised_elo(counts: Pentanomial) -> float | None:
    """The nElo the counts imply (None without pairs or without variance)."""
    mu, var = counts.mean(), counts.variance()
    if mu is None or var is None or var <= 0.0:
        return None
    return NELO_PER_T * (mu - 0.5) / (_SQRT2 * math.sqrt(var))


def _regularised(counts: Pentanomial) -> list[float]:
    raw = [float(c) if c else _EMPTY_CELL for c in counts.counts]
    total = sum(raw)
    return [c / total for c in raw]


def _moments(probs: list[float]) -> tuple[float, float]:
    mu = sum(p * a for p, a in zip(probs, PAIR_SCORES))
    return mu, sum(p * (a - mu) ** 2 for p, a in zip(probs, PAIR_SCORES))


def _secular(weights: list[float], values: list[float], guess: float = 0.0) -> float:
    """The root ``x`` of ``sum w_i v_i / (1 + x v_i) = 0`` with every ``1 + x v_i > 0``.

    The left side falls strictly in ``x`` on that interval, from +inf to -inf,
    so the root is unique: Newton steps from ``guess`` (0 when it is outside the
    interval), kept inside the bracket by bisection.

    When the values all have one sign there is no such interval (``lo >= hi``) and no
    root: the steps then close in on a pole, and that is what moves the fixed-point
    iteration's mass to an end cell (all draws against a large t). Those steps are
    kept exactly as they are; the shortcuts below apply to a true bracket only.
    """
    lo, hi = -1.0 / max(values), -1.0 / min(values)
    bracket = lo < hi
    x = guess if bracket and lo < guess < hi else 0.0
    for _ in range(200):
        f = sum(w * v / (1 + x * v) for w, v in zip(weights, values))
        if bracket and f == 0.0:
            return x  # exactly on the root: the bracket below would bisect away from it
        if f > 0:
            lo = x
        else:
            hi = x
        slope = -sum(w * v * v / (1 + x * v) ** 2 for w, v in zip(weights, values))
        step = x - f / slope if slope else (lo + hi) / 2
        # Converged before the bracket test: a Newton step of nothing lands on the bracket's
        # end just set to x, and bisecting from there would throw the root away.
        if bracket and abs(step - x) <= 1e-14 * max(1.0, abs(x)):
            return step
        x_new = step if lo < step < hi else (lo + hi) / 2
        if abs(x_new - x) <= 1e-14 * max(1.0, abs(x)):
            return x_new
        x = x_new
    return x


def _mle_tvalue(phat: list[float], t: float) -> list[float]:
    """The pentanomial distribution closest in likelihood to ``phat`` whose t-value
    ``(mean - 1/2) / sd`` equals ``t`` (fishtest's fixed-point iteration on the
    Lagrange condition).

    From the uniform start the iteration can break down when ``t`` is large (elo1 of
    250 nElo and more): a variance of zero or a negative probability. Then ``t`` is
    reached in steps, each started from the solution of the one before."""
    uniform = [1.0 / len(phat)] * len(phat)
    found = _fixed_point(phat, t, uniform)
    steps = 4
    while found is None and steps <= 256:
        found = uniform
        for k in range(1, steps + 1):
            found = _fixed_point(phat, t * k / steps, found)
            if found is None:
                break
        steps *= 4
    if found is None:
        raise ArithmeticError(f"no pentanomial distribution with t-value {t!r} near {phat!r}")
    return found


def _fixed_point(phat: list[float], t: float, probs: list[float]) -> list[float] | None:
    """The fixed-point iteration of :func:`_mle_tvalue` from ``probs``; None when it breaks
    down (no spread left, a cell exactly on a pole) or ends on a cell that is not positive.
    After 100 rounds it returns where it is, as fishtest's does after its rounds."""
    x = 0.0
    try:
        for _ in range(100):
            mu, var = _moments(probs)
            if not var > 0.0:
                return None
            sigma = math.sqrt(var)
            values = [a - 0.5 - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2 for a in PAIR_SCORES]
            # The root moves little between rounds: starting from the last one saves most Newton steps.
            x = _secular(phat, values, x)
            new = [p / (1 + x * v) for p, v in zip(phat, values)]
            total = sum(new)
            new = [p / total for p in new]
            if not all(math.isfinite(p) for p in new):
                return None
            converged = max(abs(a - b) for a, b in zip(new, probs)) < 1e-12
            probs = new
            if converged:
                break
    except ZeroDivisionError:
        return None
    # On the way a round may pass through a negative cell (a step onto the far side of a
    # pole) and still end on a good solution; only where it ends must be a distribution.
    return probs if all(p > 0.0 for p in probs) else None


def _normal_llr(phat: list[float], n: int, t0: float, t1: float) -> float:
    """The LLR of per-pair t-values ``t1`` over ``t0`` when the mean pair score is taken
    as normal (fishtest's approximation of the GSPRT): ``n (t1 - t0)(2 t - t0 - t1) / 2``,
    ``t`` the observed t-value. The regularised counts always have a spread."""
    mu, var = _moments(phat)
    t = (mu - 0.5) / math.sqrt(var)
    return n * (t1 - t0) * (2.0 * t - t0 - t1) / 2.0


@dataclasses.dataclass(frozen=True)
class SprtState:
    """The test after some pairs: its LLR and where that leaves it."""

    counts: Pentanomial
    llr: float
    verdict: Verdict


@dataclasses.dataclass(frozen=True)
class Sprt:
    """A GSPRT of H0: nElo = elo0 against H1: nElo = elo1, with error rates alpha and beta."""

    elo0: float
    elo1: float
    alpha: float
    beta: float

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 must be less than elo1, got: elo0={self.elo0!r}, elo1={self.elo1!r}")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.alpha + self.beta < 1):
            raise ValueError(f"alpha and beta must be in (0, 1) with alpha + beta < 1, got: "
                             f"alpha={self.alpha!r}, beta={self.beta!r}")

    @property
    def lower(self) -> float:
        """Below it H0 is accepted: ln(beta / (1 - alpha))."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Above it H1 is accepted: ln((1 - beta) / alpha)."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Pentanomial) -> float:
        """The generalised log-likelihood ratio of H1 over H0 for these pair counts (0 without pairs)."""
        n = counts.pairs
        if n == 0:
            return 0.0
        phat = _regularised(counts)
        # t-values are per pair: a pair's sd is the match sd over sqrt(2).
        t0, t1 = self.elo0 / NELO_PER_T * _SQRT2, self.elo1 / NELO_PER_T * _SQRT2
        try:
            p0 = _mle_tvalue(phat, t0)
            p1 = _mle_tvalue(phat, t1)
        except ArithmeticError:
            # Hypotheses far outside what a config allows (beyond +-500 nElo) can leave
            # the exact fit without a solution; a running tournament must still get a
            # verdict, so it falls back to the normal approximation.
            return _normal_llr(phat, n, t0, t1)
        return n * sum(p * math.log(b / a) for p, a, b in zip(phat, p0, p1))

    def judge(self, llr: float) -> Verdict:
        """H1 above the upper bound, H0 below the lower one, else still running."""
        if llr >= self.upper:
            return Verdict.H1
        if llr <= self.lower:
            return Verdict.H0
        return Verdict.RUNNING

    def state(self, counts: Pentanomial) -> SprtState:
        llr = self.llr(counts)
        return SprtState(counts, llr, self.judge(llr))
