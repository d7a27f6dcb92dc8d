#!/usr/bin/env python3
"""Tournament throughput and memory: ``python3 bench/tournament.py``.

1. Throughput: the same partnership round-robin of bundled bots (to the real
   target, 500) at concurrency 1 and 2; prints matches per minute for both
   and, last, ``ratio R``, the speed-up of 2 over 1 (target on 2 cores: 1.7).
   It also prints how many cores each run kept busy (CPU seconds of the
   referee and its bots per wall second) and the bound that follows: a single
   match already overlaps its bots' work with the referee's, so with ``b``
   cores busy at concurrency 1, two cores allow at most ``2 / b``.
2. Memory: peak RSS of the referee process for a small and a larger
   tournament (fast bots, low target, many matches), then of ``spades
   standings`` over 2,000 and 20,000 records. Records are streamed to disk and
   standings keep counters only, so the peaks should stay flat.

Each run happens in a fresh child process (so peak RSS is that run's alone)
in a temporary folder that is removed afterwards. Throughput runs alternate
c=1 and c=2 ``--repeat`` times and keep the best of each, so a burst of other
load on the machine hurts one sample rather than the ratio.

Options: ``--rounds N`` twin pairs per pairing in the throughput run
(default 3), ``--repeat N`` (default 2), ``--small N`` / ``--large N``
matches per pairing in the memory runs (defaults 4 and 40),
``--skip-memory``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs inside the child: play the config, report seconds and peak RSS as JSON.
_CHILD = textwrap.dedent("""
    import json, resource, sys, time
    from referee.config import load_config
    from referee.tournament import Tournament
    config = load_config(sys.argv[1])
    t0 = time.perf_counter()
    outcome = Tournament(config, concurrency=int(sys.argv[2])).run()
    seconds = time.perf_counter() - t0
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({"matches": outcome.played, "seconds": seconds, "peak_kb": me.ru_maxrss,
                      "referee_cpu": me.ru_utime + me.ru_stime, "bots_cpu": kids.ru_utime + kids.ru_stime,
                      "complete": outcome.complete}))
""")


# Runs inside the child: standings of a results folder, with peak RSS.
_STANDINGS_CHILD = textwrap.dedent("""
    import json, resource, sys, time
    from referee.results import ResultsFolder
    from referee.standings import render, standings_from_folder
    t0 = time.perf_counter()
    report = standings_from_folder(ResultsFolder(sys.argv[1]))
    render(report, "table")
    print(json.dumps({"matches": report.matches, "seconds": time.perf_counter() - t0,
                      "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
""")


def _config(folder: Path, *, bots: list[tuple[str, list[str]]], per_pairing: int, target: int, seed: int) -> Path:
    lines = ["name: bench", "variant: partnership", f"seed: {seed}", f"matches_per_pairing: {per_pairing}",
             "duplicate: true", f"rules: {{target: {target}}}", f"output: {folder / 'results'}", "bots:"]
    for name, argv in bots:
        lines.append(f"  - name: {name}")
        lines.append(f"    command: {json.dumps(argv)}")
        lines.append(f"    cwd: {json.dumps(str(ROOT))}")
        # Seeded random bots: every run plays the very same games, so runs
        # differ only in how fast they play them.
        lines.append('    env: {BOT_SEED: "7"}')
    path = folder / "bench.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _child(code: str, *args: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _run(config: Path, concurrency: int) -> dict:
    return _child(_CHILD, str(config), str(concurrency))


def _standings_memory(sample: list[str], count: int) -> dict:
    """Peak RSS of computing standings over ``count`` records made from ``sample``."""
    with tempfile.TemporaryDirectory(prefix="spades-bench-") as tmp:
        with open(Path(tmp) / "matches.jsonl", "w") as fh:
            for i in range(count):
                record = json.loads(sample[i % len(sample)])
                record["match"] = f"{record['match']}-copy{i}"
                record["seed"] = record["seed"] + i // len(sample)  # new twins, not repeats
                fh.write(json.dumps(record, separators=(",", ":")) + "\n")
        return _child(_STANDINGS_CHILD, tmp)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="twin pairs per pairing in the throughput run")
    parser.add_argument("--repeat", type=int, default=2, help="throughput samples per concurrency (best kept)")
    parser.add_argument("--small", type=int, default=4, help="matches per pairing, small memory run")
    parser.add_argument("--large", type=int, default=40, help="matches per pairing, large memory run")
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()

    bots = [("heuristic", ["python3", "bots/heuristic_bot.py"]),
            ("random", ["python3", "bots/random_bot.py"]),
            ("heuristic-js", ["node", "bots/js/heuristic_bot.js"])]
    load = os.getloadavg()[0]
    print(f"cpus: {os.cpu_count()}  python: {sys.version.split()[0]}  load average: {load:.2f}")
    rates: dict[int, float] = {1: 0.0, 2: 0.0}
    busy_c1: list[float] = []
    for sample in range(args.repeat):
        for concurrency in (1, 2):
            with tempfile.TemporaryDirectory(prefix="spades-bench-") as tmp:
                cfg = _config(Path(tmp), bots=bots, per_pairing=2 * args.rounds, target=500, seed=1)
                res = _run(cfg, concurrency)
            rate = res["matches"] / res["seconds"] * 60
            rates[concurrency] = max(rates[concurrency], rate)
            # CPU seconds used per wall second: how many cores the run kept busy.
            busy = (res["referee_cpu"] + res["bots_cpu"]) / res["seconds"]
            if concurrency == 1:
                busy_c1.append(busy)
            print(f"concurrency {concurrency} (sample {sample + 1}): {res['matches']} matches in "
                  f"{res['seconds']:.1f} s = {rate:.1f} matches/min, cores busy {busy:.2f} (referee "
                  f"{res['referee_cpu']:.1f} s, bots {res['bots_cpu']:.1f} s CPU), "
                  f"peak RSS {res['peak_kb'] / 1024:.1f} MiB")
    for concurrency in (1, 2):
        print(f"concurrency {concurrency}: {rates[concurrency]:.1f} matches/min (best)")

    if not args.skip_memory:
        fast = [("heuristic", ["python3", "bots/heuristic_bot.py"]),
                ("heuristic-js", ["node", "bots/js/heuristic_bot.js"])]
        sample_records: list[str] = []
        for label, per in (("small", args.small), ("large", args.large)):
            with tempfile.TemporaryDirectory(prefix="spades-bench-") as tmp:
                cfg = _config(Path(tmp), bots=fast, per_pairing=per, target=100, seed=2)
                res = _run(cfg, 2)
                sample_records = (Path(tmp) / "results" / "matches.jsonl").read_text().splitlines()
            print(f"memory {label} run: {res['matches']} matches, peak RSS {res['peak_kb'] / 1024:.1f} MiB")
        for count in (2000, 20000):
            res = _standings_memory(sample_records, count)
            print(f"memory standings: {res['matches']} records in {res['seconds']:.1f} s, "
                  f"peak RSS {res['peak_kb'] / 1024:.1f} MiB")

    # One match alone already keeps more than one core busy (its four bots
    # digest events while the referee goes on), so two cores cannot give 2x.
    one = sum(busy_c1) / len(busy_c1)
    print(f"bound: one match keeps {one:.2f} cores busy, so {os.cpu_count()} cores allow at most "
          f"{min(2, os.cpu_count() or 1) / one:.2f}x at concurrency 2")
    print(f"ratio {rates[2] / rates[1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
