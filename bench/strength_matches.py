#!/usr/bin/env python3
"""Paired whole matches of strong-bot settings against the heuristic bot, in process (a
tuning tool, like ``bench/strength_hands.py``; the strength figures come from
``bench/strength.py``, which plays real matches through the referee).

``strength_hands.py`` compares settings on single hands, by points. A change that plays
for the match rather than for points (how much risk to take when ahead or behind, near
the end or not) can only be seen over whole matches: this script plays every match seed
twice, the strong pair in seats 0 and 2 and then in seats 1 and 3 (``--variant
two-player``: the strong bot in seat 0, then in seat 1), once per setting, to the target,
and reports per setting the matches won, the mean final margin, the CPU the matches took,
and the paired difference in win rate to the first setting (the same seeds and seatings)
with its standard error.

    python3 bench/strength_matches.py --seeds 100 --jobs 2 --rule blind_nil=false --set match_equity=0 --set base
    python3 bench/strength_matches.py --seeds 60 --rule blind_nil_behind=100 --set base --set sim_optimism=0.5

Settings are those of ``strength_hands.py`` (``--set``; ``base`` is the shipped bot, a
comma joins several). Every match is seeded by its seed number, so ``--save`` files of
separate runs can be paired match by match.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import strength_hands as hands  # noqa: E402

from bots.strong.arena import Arena  # noqa: E402


def play(setting: str, budget: str, rule_args: list[str], seed: int, leg: int, n: int = 4,
         against: str = "heuristic") -> dict:
    """One whole match of match seed ``seed`` at a table of ``n`` seats, the strong side
    (``setting``) on side ``leg`` against ``against``: whether it won, the final margin on
    its side, the CPU this process took."""
    seats = hands.table(hands.apply(setting, budget), seed, leg, n, against)
    c0 = time.process_time()
    try:
        result = Arena(seats, hands.rules_of(rule_args), seed=seed).play_match()
    finally:
        hands.close(seats)
    return {"setting": setting, "seed": seed, "leg": leg, "win": int(result.winner == leg),
            "margin": result.score[leg] - result.score[1 - leg], "hands": len(result.hands),
            "cpu": round(time.process_time() - c0, 3)}


def _job(task: tuple[str, str, list[str], int, int, int, str]) -> dict:
    return play(*task)


def paired(rows: list[dict], settings: list[str]) -> list[str]:
    """One report line per setting, over the (seed, leg) pairs every setting played."""
    by: dict[str, dict[tuple[int, int], dict]] = {st: {} for st in settings}
    for r in rows:
        by[r["setting"]][(r["seed"], r["leg"])] = r
    common = sorted(set.intersection(*(set(v) for v in by.values())))
    base = by[settings[0]]
    lines = []
    for st in settings:
        mine = by[st]
        n = len(common)
        wins = sum(mine[k]["win"] for k in common)
        diffs = [mine[k]["win"] - base[k]["win"] for k in common]
        mean = sum(diffs) / max(1, n)
        se = math.sqrt(sum((x - mean) ** 2 for x in diffs) / max(1, n - 1) / max(1, n))
        margin = sum(mine[k]["margin"] for k in common) / max(1, n)
        cpu = sum(mine[k]["cpu"] for k in common)
        lines.append(f"{st:<30} matches {n:>4}  won {wins:>4} ({100 * wins / max(1, n):5.1f}%)  margin {margin:>+6.0f}"
                     f"  vs first {100 * mean:>+5.1f} +- {100 * se:.1f} points of win rate  cpu {cpu:.0f} s")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="match seeds (each played in both seatings)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], dest="settings", metavar="KEY=VALUE[,...]",
                        help="one setting to measure (repeatable; the first is the reference)")
    parser.add_argument("--budget", default="32samples,exact=16,bid=32")
    parser.add_argument("--variant", choices=sorted(hands.SEATS), default="partnership")
    parser.add_argument("--opponent", choices=sorted(hands.OPPONENTS), default="heuristic")
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option (repeatable), e.g. blind_nil=false; none: the default rules")
    parser.add_argument("--jobs", type=int, default=1, help="matches at once (processes)")
    parser.add_argument("--save", type=Path, help="write every match's result here (JSON lines)")
    args = parser.parse_args(argv)
    settings = args.settings or ["base"]
    for st in settings:
        hands.apply(st, args.budget)  # a bad setting fails before any match is played
    hands.apply("base", args.budget)
    n = hands.SEATS[args.variant]
    tasks = [(st, args.budget, args.rule, seed, leg, n, args.opponent)
             for seed in range(args.first_seed, args.first_seed + args.seeds) for leg in (0, 1) for st in settings]
    if args.jobs > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            rows = list(pool.imap_unordered(_job, tasks))
    else:
        rows = [_job(t) for t in tasks]
    if args.save:
        with args.save.open("w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    for line in paired(rows, settings):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
