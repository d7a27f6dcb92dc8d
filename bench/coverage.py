#!/usr/bin/env python3
"""Coverage of the standings' 95% intervals over synthetic tournaments of known strengths.

Each tournament: bots with strengths drawn from N(0, 120 Elo), a round robin of
``--games`` matches per pairing; with twins, as twin pairs whose legs each follow the
Elo model exactly but are negatively correlated (the deal favours a seat). For every
pair of bots, does the interval of ``spades standings --compare`` hold the true
difference? Prints the coverage of each setting beside the 95% it should be, and the
standard error of the figure; the last line is ``ratio R``, the lowest coverage / 0.95.

    python3 bench/coverage.py [--tournaments 2000] [--games 16] [--bots 4]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests", "tournament"))

import synthetic_pool  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tournaments", type=int, default=2000)
    parser.add_argument("--games", type=int, nargs="+", default=[8, 16, 40])
    parser.add_argument("--bots", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"{'twins':>5} {'games/pairing':>13} {'tournaments':>11} {'intervals':>9} {'bounds':>6} "
          f"{'coverage':>8} {'±se':>5} {'reference':>9} {'cpu s':>6}")
    lowest = 1.0
    for twins in (False, True):
        for games in args.games:
            start = time.process_time()
            c = synthetic_pool.run(args.tournaments, bots=args.bots, games=games, twins=twins, seed=args.seed)
            se = math.sqrt(c.rate * (1 - c.rate) / c.intervals)
            lowest = min(lowest, c.rate)
            print(f"{'yes' if twins else 'no':>5} {games:>13} {c.tournaments:>11} {c.intervals:>9} {c.bounds:>6} "
                  f"{100 * c.rate:>7.2f}% {100 * se:>5.2f} {'95.00%':>9} {time.process_time() - start:>6.1f}",
                  flush=True)
    print("(se: binomial, intervals taken as independent; those of one tournament are not, so it is a floor)")
    print(f"ratio {lowest / 0.95:.3f}")


if __name__ == "__main__":
    main()
