#!/usr/bin/env python3
"""Speed of the strong bot's exact solver (bots/strong/solver.py).

Prints, for both variants:

* search nodes per second and the mean solve time when solving random positions with
  k cards in every hand (k from 2 up to the size where a solve takes about a second),
  with the score-aware objective, values for every legal card;
* full-solve times (all 13 tricks) for a few fixed deals: two-player deals solve fully;
  partnership full deals are far beyond a Python search's reach in a decision's time,
  which is why the bot samples playouts until few cards remain (docs/strong-bot.md).

    python3 bench/solver_speed.py [--quick]

Times are CPU time of this process (``time.process_time``), and the time limits are CPU
limits, so a machine loaded by other work gives the same figures.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bots.strong.cards import mask_of  # noqa: E402
from bots.strong.game import MatchContext, Objective, RuleSet  # noqa: E402
from bots.strong.solver import Position, SearchTimeout, SolveStats, solve  # noqa: E402
from bots.strong.timing import Deadline  # noqa: E402


def cpu_limit(seconds: float) -> Deadline:
    """A solve deadline ``seconds`` of CPU time from now (no wall-clock limit)."""
    return Deadline(wall=float("inf"), cpu=time.process_time() + seconds)


def deal(rng: random.Random, n: int, k: int) -> Position:
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [mask_of(deck[i * k:(i + 1) * k]) for i in range(n)]
    tricks = [0] * n
    for _ in range(13 - k):
        tricks[rng.randrange(n)] += 1
    return Position(hands, [], 0, k < 13 and rng.random() < 0.5, tricks)


def objective(n: int, rng: random.Random) -> Objective:
    bids = [rng.choice([2, 3, 4]) for _ in range(n)] if n == 4 else [rng.choice([5, 6, 7]) for _ in range(2)]
    ctx = MatchContext(RuleSet(), n, 0, (150, 200), (3, 6), 4)
    return Objective(ctx, bids, [False] * n)


def measure(n: int, k: int, count: int, seed: int, limit: float) -> tuple[float, float, int, int]:
    """Mean seconds per solve, nodes per second, solves done, nodes per solve."""
    rng = random.Random(seed)
    stats = SolveStats()
    done = 0
    t0 = time.process_time()
    for _ in range(count):
        pos = deal(rng, n, k)
        obj = objective(n, rng)
        try:
            solve(pos, obj.value, 0, stats, slots=obj.slots(), deadline=cpu_limit(limit))
        except SearchTimeout:
            break
        done += 1
    dt = time.process_time() - t0
    return (dt / done if done else float("inf")), (stats.nodes / dt if dt else 0.0), done, \
        (stats.nodes // done if done else 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions (a smoke run)")
    args = parser.parse_args(argv)
    count = 5 if args.quick else 20
    print("Random positions, every hand with k cards, score-aware objective, value of every legal card"
          " (CPU time)")
    print(f"{'variant':<12} {'k':>3} {'solves':>6} {'mean ms':>9} {'nodes/solve':>11} {'nodes/s':>9}")
    for n, ks in ((4, range(2, 8)), (2, range(2, 12))):
        for k in ks:
            per, nps, done, nodes = measure(n, k, count, 100 * n + k, limit=20.0)
            name = "partnership" if n == 4 else "two-player"
            print(f"{name:<12} {k:>3} {done:>6} {per * 1000:>9.1f} {nodes:>11} {nps:>9.0f}")
            if per > 1.0:
                break
    print()
    print("Full 13-trick solves of fixed deals (seeds 1..3), CPU time limit 60 s each")
    for n in (2, 4):
        for seed in (1, 2, 3) if not args.quick or n == 2 else (1,):
            rng = random.Random(seed)
            pos = deal(rng, n, 13)
            obj = objective(n, rng)
            stats = SolveStats()
            t0 = time.process_time()
            try:
                solve(pos, obj.value, 0, stats, slots=obj.slots(),
                      deadline=cpu_limit(60.0 if n == 2 else (5.0 if args.quick else 60.0)))
                result = f"{time.process_time() - t0:8.2f} s, {stats.nodes} nodes"
            except SearchTimeout:
                result = f"not finished in {time.process_time() - t0:.0f} s"
            name = "partnership" if n == 4 else "two-player"
            print(f"{name:<12} deal {seed}: {result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
