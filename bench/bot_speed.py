#!/usr/bin/env python3
"""CPU cost of the strong bot's decisions against an earlier commit's bot, on the same hands.

Both bots play the same in-process partnership hands against the heuristic bot
(``bench/strength_hands.py``: the first hands of ``--deals`` deals, both seatings, a
fixed sample budget, so the work does not depend on the machine's speed), each in a
process of its own, ``--runs`` times, alternating; the CPU time (user + system) of each
run is read from the finished child. The earlier bot is ``--ref``'s ``bots/`` and
``bench/``, extracted with ``git archive`` into a temporary folder.

It also checks that the two played the same game: every hand's result must be equal
(``--save`` records of ``strength_hands.py``). A change meant only to be faster must
say "same play: yes"; with "no" the figures compare two different bots.

    python3 bench/bot_speed.py --ref fac6e5d
    python3 bench/bot_speed.py --ref HEAD~3 --deals 5 --budget 32samples --runs 5

Printed: each run's CPU seconds, the minimum and median per bot, whether the play was
the same, and last ``ratio R``: this tree's minimum CPU over the reference's (R < 1:
this tree is faster).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent


def extract(ref: str, into: Path) -> Path:
    """``ref``'s ``bots/`` and ``bench/`` under ``into``; exits with git's message if
    ``ref`` is not a commit of this repository."""
    proc = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref, "bots", "bench"],
                          capture_output=True)
    if proc.returncode != 0:
        sys.exit(f"error: cannot read commit {ref!r} of {ROOT.name}: "
                 f"{proc.stderr.decode(errors='replace').strip()}")
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=proc.stdout, check=True)
    if not (into / "bench" / "strength_hands.py").exists():
        sys.exit(f"error: commit {ref!r} has no bench/strength_hands.py to play the hands with")
    return into


def one_run(tree: Path, args: argparse.Namespace, save: Path) -> float:
    """CPU seconds (user + system) of one ``strength_hands.py`` run in ``tree``."""
    cmd = [sys.executable, str(tree / "bench" / "strength_hands.py"), "--deals", str(args.deals),
           "--first-deal", str(args.first_deal), "--budget", args.budget, "--set", "base",
           "--jobs", "1", "--save", str(save)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, cwd=tree, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"error: strength_hands.py failed in {tree} (exit {proc.returncode}):\n{proc.stderr.strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", required=True, help="the commit to compare with (e.g. fac6e5d, HEAD~2)")
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--first-deal", type=int, default=9301)
    ap.add_argument("--budget", default="128samples,exact=32,bid=64",
                    help="the strong bot's sample budget (default: the partnership strength rows')")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    if args.deals < 1 or args.runs < 1:
        ap.error(f"--deals and --runs must be at least 1, got: {args.deals} and {args.runs}")
    with tempfile.TemporaryDirectory(prefix="bot-speed-") as tmp:
        work = Path(tmp)
        ref_tree = extract(args.ref, work / "ref")
        trees = {"this tree": ROOT, f"ref {args.ref}": ref_tree}
        cpu: dict[str, list[float]] = {name: [] for name in trees}
        print(f"# {args.deals} deals from {args.first_deal}, both seatings ({2 * args.deals} hands), "
              f"budget {args.budget}, {args.runs} runs each, alternating", flush=True)
        for i in range(args.runs):
            for name, tree in (trees.items() if i % 2 == 0 else reversed(list(trees.items()))):
                s = one_run(tree, args, work / f"{'ref' if tree == ref_tree else 'cur'}-{i}.jsonl")
                cpu[name].append(s)
                print(f"run {i + 1} {name:<24} {s:8.2f} s CPU", flush=True)
        results = {p.read_text() for p in work.glob("*.jsonl")}
    same = len(results) == 1
    print()
    for name, xs in cpu.items():
        print(f"{name:<28} min {min(xs):8.2f} s  median {statistics.median(xs):8.2f} s  "
              f"per hand {min(xs) / (2 * args.deals):.2f} s")
    print(f"same play: {'yes' if same else 'no (the two bots did not play the same hands)'}")
    ratio = min(cpu["this tree"]) / min(cpu[f"ref {args.ref}"])
    print(f"ratio {ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
