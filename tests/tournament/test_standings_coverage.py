"""The 95% intervals of the standings cover the true Elo difference about 95% of the time.

Synthetic round robins of 3 bots with known strengths (``synthetic_pool``), 16 matches
per pairing, in process: every pairwise difference's interval is checked against the
truth. A quick run here (400 tournaments, 1,200 intervals, seed 1, so the figure is
reproducible: 95.33% without twins, 94.83% with them);
``bench/coverage.py`` runs thousands of 4-bot tournaments.
"""

from __future__ import annotations

import random

import synthetic_pool

from referee.tournament.ratings import Kind

TOURNAMENTS = 400  # x 3 differences each; about 2 s of CPU per setting


def test_coverage_of_independent_matches() -> None:
    c = synthetic_pool.run(TOURNAMENTS, bots=3, games=16, twins=False, seed=1)
    assert 0.93 <= c.rate <= 0.97, c


def test_coverage_with_twin_pairs() -> None:
    c = synthetic_pool.run(TOURNAMENTS, bots=3, games=16, twins=True, seed=1)
    assert 0.93 <= c.rate <= 0.97, c


def test_pair_aware_intervals_are_narrower_where_the_legs_are_negatively_correlated() -> None:
    """Why the pair variance matters: the same twin results read as independent matches (no
    seed, so no pairing) give intervals about 7% wider here, for legs whose correlation is
    negative; the pair-aware ones are narrower and still cover 95% (the test above)."""
    rng = random.Random(3)
    aware = plain = 0.0
    for _ in range(TOURNAMENTS // 4):
        strengths = [rng.gauss(0.0, 120.0) for _ in range(3)]
        paired, unpaired = (synthetic_pool.StandingsBuilder([f"b{k}" for k in range(3)]) for _ in range(2))
        for r in synthetic_pool.tournament(rng, strengths, 16, twins=True):
            assert paired.add(r) and unpaired.add({k: v for k, v in r.items() if k != "seed"})
        with_pairs, without = paired.pool(), unpaired.pool()
        for i, j in ((0, 1), (0, 2), (1, 2)):
            a, b = with_pairs.difference(i, j), without.difference(i, j)
            if a.kind is Kind.ESTIMATE and b.kind is Kind.ESTIMATE:
                aware += (a.high or 0.0) - (a.low or 0.0)
                plain += (b.high or 0.0) - (b.low or 0.0)
    assert aware < 0.97 * plain, (aware, plain)
