"""Synthetic tournaments of bots with known strengths, for the coverage of the 95% intervals.

Pure and in-process: records are made up (two-player, no hands) and fed through the real
:class:`StandingsBuilder`, so the whole path is exercised, twin pairing by seed included.
Used by ``tests/tournament/test_standings_coverage.py`` (a quick run) and
``bench/coverage.py`` (a long one).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from typing import Any

from referee.tournament.ratings import Kind
from referee.tournament.standings import StandingsBuilder


def expected(diff: float) -> float:
    """The Elo model's expected score at a rating difference (written out here, not imported)."""
    return 1.0 / (1.0 + 10.0 ** (-diff / 400.0))


def _record(match: str, seed: int, first: str, second: str, first_wins: bool) -> dict[str, Any]:
    return {"match": match, "variant": "two-player", "seed": seed, "bots": [first, second], "hands": [],
            "score": [500, 0] if first_wins else [0, 500], "winner": 0 if first_wins else 1, "reason": "target",
            "faults": [], "seconds": 0.0, "stats": []}


def tournament(rng: random.Random, strengths: list[float], games: int, twins: bool) -> list[dict[str, Any]]:
    """A round robin of ``games`` matches per pairing (``games // 2`` twin pairs with ``twins``).

    In a twin pair the deal favours one seat: the first leg's expected score is ``p + d``
    and the second's ``p - d`` (``d`` uniform within what keeps both in [0, 1]), so each
    leg on its own follows the Elo model exactly, while the pair's legs are negatively
    correlated, as twins on shared deals are.
    """
    names = [f"b{k}" for k in range(len(strengths))]
    records = []
    seed = 0
    for i, j in itertools.combinations(range(len(names)), 2):
        p = expected(strengths[i] - strengths[j])
        if twins:
            for _ in range(games // 2):
                seed += 1
                d = rng.uniform(-1, 1) * min(p, 1 - p)
                records.append(_record(f"m{seed}a", seed, names[i], names[j], rng.random() < p + d))
                # Second leg, seats swapped: bot j sits where i sat and gets the favoured seat.
                records.append(_record(f"m{seed}b", seed, names[j], names[i], rng.random() >= p - d))
        else:
            for k in range(games):
                seed += 1
                first, second = (i, j) if k % 2 == 0 else (j, i)
                win_first = rng.random() < expected(strengths[first] - strengths[second])
                records.append(_record(f"m{seed}", seed, names[first], names[second], win_first))
    return records


@dataclasses.dataclass
class Coverage:
    intervals: int = 0
    covered: int = 0
    bounds: int = 0  # of the intervals, one-sided bounds
    tournaments: int = 0

    @property
    def rate(self) -> float:
        return self.covered / self.intervals


def covers(est: dict[str, Any], truth: float) -> bool:
    if est["kind"] == Kind.LOWER_BOUND.value:
        return truth > est["low"]
    if est["kind"] == Kind.UPPER_BOUND.value:
        return truth < est["high"]
    if est["kind"] != Kind.ESTIMATE.value:
        return False
    low = -math.inf if est["low"] is None else est["low"]
    high = math.inf if est["high"] is None else est["high"]
    return low <= truth <= high


def run(n_tournaments: int, *, bots: int = 4, games: int = 16, twins: bool, spread: float = 120.0,
        seed: int = 1) -> Coverage:
    """Coverage of the interval of every pairwise difference over ``n_tournaments`` tournaments."""
    rng = random.Random(seed)
    out = Coverage()
    for _ in range(n_tournaments):
        strengths = [rng.gauss(0.0, spread) for _ in range(bots)]
        builder = StandingsBuilder([f"b{k}" for k in range(bots)])
        for record in tournament(rng, strengths, games, twins):
            assert builder.add(record), builder.warnings
        pool = builder.pool()  # what the report and --compare use, without the tables
        out.tournaments += 1
        for i, j in itertools.combinations(range(bots), 2):
            est = pool.difference(i, j).to_dict()
            out.intervals += 1
            out.bounds += est["kind"] in (Kind.LOWER_BOUND.value, Kind.UPPER_BOUND.value)
            out.covered += covers(est, strengths[i] - strengths[j])
    return out
