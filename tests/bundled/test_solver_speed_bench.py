"""bench/solver_speed.py: the random positions it times are well formed (disjoint hands of
k cards each, the tricks already played credited to the seats, the first seat to lead),
small positions solve completely and count their search nodes, a solve cut off by its CPU
limit ends the series instead of being counted, and the quick run prints a row per hand
size for both variants and the full-deal lines.

The quick run spends most of its time on a partnership full deal that cannot finish in
its 5 s of CPU; the test caps every CPU limit at 1 s so it stays short. Whether the
solver's values are right is tests/bundled/test_strong_solver.py's business."""

from __future__ import annotations

import math
import random
import re
from typing import Any

import pytest

from conftest import load_bench

bench = load_bench("solver_speed")


def popcount(mask: int) -> int:
    return bin(mask).count("1")


@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("k", [1, 5, 13])
def test_deal_gives_disjoint_hands_of_k_cards_and_the_other_tricks_taken(n: int, k: int) -> None:
    rng = random.Random(100 * n + k)
    for _ in range(20):
        pos = bench.deal(rng, n, k)
        assert len(pos.hands) == n and [popcount(h) for h in pos.hands] == [k] * n
        union = 0
        for h in pos.hands:
            assert union & h == 0, "two hands share a card"
            union |= h
        assert union >> 52 == 0  # real cards only
        assert len(pos.tricks) == n and min(pos.tricks) >= 0 and sum(pos.tricks) == 13 - k
        assert pos.trick == [] and pos.leader == 0 and pos.to_move == 0
        if k == 13:
            assert not pos.broken  # nobody can have broken spades before the first trick


@pytest.mark.parametrize("n", [2, 4])
def test_objective_is_score_aware_with_a_normal_bid_per_seat(n: int) -> None:
    obj = bench.objective(n, random.Random(3))
    assert len(obj.bids) == n and all(b > 0 for b in obj.bids)
    assert obj.ctx.n_seats == n and obj.ctx.my_side == 0
    # No Nil: partners share a trick counter in partnership; each seat has its own in two-player.
    assert obj.slots() == ([0, 1, 0, 1] if n == 4 else [0, 1])
    # Side 0 prefers taking every remaining trick to taking none.
    assert obj.value([13, 0] if n == 2 else [7, 0, 6, 0]) > obj.value([0, 13] if n == 2 else [0, 7, 0, 6])


@pytest.mark.parametrize("n,k", [(4, 2), (4, 3), (4, 4), (2, 2), (2, 3), (2, 4)])
def test_measure_completes_every_small_solve_and_counts_nodes(n: int, k: int) -> None:
    per, nps, done, nodes = bench.measure(n, k, 4, 100 * n + k, limit=20.0)
    assert done == 4
    assert nodes > 0 and nps > 0
    assert 0 < per < math.inf
    # The same seed deals the same positions, and the search is deterministic.
    assert bench.measure(n, k, 4, 100 * n + k, limit=20.0)[2:] == (done, nodes)


def test_a_solve_over_its_cpu_limit_is_not_counted() -> None:
    # A partnership position with 9 cards a hand takes far more than 10 ms of CPU.
    per, nps, done, nodes = bench.measure(4, 9, 3, 7, limit=0.01)
    assert (done, nodes) == (0, 0)
    assert per == math.inf


def test_the_first_solve_cut_off_ends_the_series(monkeypatch: pytest.MonkeyPatch) -> None:
    real_solve = bench.solve
    calls = []

    def solve(*args: Any, **kwargs: Any) -> dict[int, float]:
        calls.append(args[0])
        if len(calls) == 2:
            raise bench.SearchTimeout()
        return real_solve(*args, **kwargs)

    monkeypatch.setattr(bench, "solve", solve)
    per, nps, done, nodes = bench.measure(4, 3, 5, 11, limit=20.0)
    assert len(calls) == 2  # no solve after the one that timed out
    assert done == 1 and nodes > 0 and 0 < per < math.inf


ROW = re.compile(r"^(partnership|two-player) +(\d+) +(\d+) +(\S+) +(\d+) +(\d+)$")
FULL = re.compile(r"^(partnership|two-player) +deal (\d): +(?:([\d.]+) s, (\d+) nodes|not finished in \d+ s)$")


def test_quick_run_prints_a_row_per_hand_size_and_the_full_deals(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    real_limit = bench.cpu_limit
    monkeypatch.setattr(bench, "cpu_limit", lambda seconds: real_limit(min(seconds, 1.0)))
    assert bench.main(["--quick"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [m.groups() for line in lines if (m := ROW.match(line))]
    for variant, last_k in (("partnership", 7), ("two-player", 11)):
        mine = [r for r in rows if r[0] == variant]
        ks = [int(r[1]) for r in mine]
        # k from 2 upwards without a gap, stopping at the table's end or after a slow size.
        assert ks == list(range(2, ks[-1] + 1)) and ks[-1] <= last_k, ks
        for _, k, solves, mean_ms, nodes, nps in mine[:-1]:
            assert int(solves) == 5 and 0 < float(mean_ms) <= 1000.0 and int(nodes) > 0 and int(nps) > 0
        if ks[-1] < last_k:
            assert mine[-1][3] == "inf" or float(mine[-1][3]) > 1000.0  # the size that stopped the series
    assert all(ROW.match(line) for line in lines[2:2 + len(rows)])  # the rows follow the two header lines
    full = [m.groups() for line in lines if (m := FULL.match(line))]
    assert [(v, int(d)) for v, d, _, _ in full] == [("two-player", 1), ("two-player", 2), ("two-player", 3),
                                                  ("partnership", 1)]
    # Two-player full deals solve well within the limit.
    assert all(seconds is not None and int(nodes) > 0 for v, _, seconds, nodes in full if v == "two-player")
