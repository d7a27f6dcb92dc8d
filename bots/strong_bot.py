#!/usr/bin/env python3
"""The strong bundled Spades bot (protocol v1): ``python3 bots/strong_bot.py``.

Options: ``--budget 200ms | 0.5s | 64samples | 128samples,exact=32,bid=64`` (or env
``STRONG_BUDGET``) fixes the work per decision (a sample budget may give the endgame's
exact solves and the bids counts of their own); ``--seed N`` (or env ``STRONG_SEED``)
fixes its randomness; ``--verbose`` logs every decision to stderr; ``--level 1..5``
plays one level of the ladder (docs/bots.md). See docs/strong-bot.md.
"""

from __future__ import annotations

import argparse
import os
import sys

# Run from any working directory, from a clone (bots/) or an installed wheel
# (the same folder as the package spades_bots): import ``strong`` from this file's folder.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from strong.bot import Budget, StrongBot, serve  # noqa: E402
from strong.levels import LevelBot, LevelError, budget_given, parse_level  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Strong Spades bot (protocol v1 on stdin/stdout).")
    parser.add_argument("--budget", default=os.environ.get("STRONG_BUDGET", "300ms"),
                        help="work per decision: e.g. 200ms, 0.5s, 64samples or 128samples,exact=32,bid=64 "
                             "(default 300ms)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: env STRONG_SEED)")
    parser.add_argument("--verbose", action="store_true", help="log each decision to stderr")
    parser.add_argument("--level", default=None,
                        help="play at ladder level 1 (weakest) .. 5 (full strength); see docs/bots.md")
    args = parser.parse_args(argv)
    try:
        budget = Budget.parse(args.budget)
    except ValueError as exc:
        parser.error(str(exc))
    seed = args.seed
    if seed is None and os.environ.get("STRONG_SEED"):
        try:
            seed = int(os.environ["STRONG_SEED"])
        except ValueError:
            parser.error(f"STRONG_SEED must be an integer, got: {os.environ['STRONG_SEED']!r}")
    if args.level is not None:
        try:
            level = parse_level(args.level)
        except LevelError as exc:
            parser.error(str(exc))
        own = budget if budget_given(sys.argv[1:] if argv is None else argv) else None
        return serve(LevelBot(level, own, seed, verbose=args.verbose))
    return serve(StrongBot(budget, seed, verbose=args.verbose))


if __name__ == "__main__":
    sys.exit(main())
