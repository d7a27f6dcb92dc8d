#!/usr/bin/env python3
"""Tournament throughput and memory: ``python3 bench/tournament.py``.

1. Throughput: a partnership round-robin (to the real target, 500) played at
   concurrency 1 and 2, alternating ``--repeat`` times; each pair of runs
   gives a speed-up (c=2 rate / c=1 rate) and the medians are reported
   (target on 2 cores: 1.7). Two bot line-ups:

   * **light**: the bundled heuristic and random bots (Python and
     JavaScript), which answer in well under a millisecond. Here a match is
     mostly process start-up (four interpreters, 60-120 ms of CPU each) and
     message passing, and a single match already keeps more than one core
     busy: the four bots start in parallel and digest events while the
     referee goes on. With ``b`` cores busy at concurrency 1, two cores allow
     at most ``2 / b``; the run prints ``b`` and that bound.
   * **mixed**: the strong bot (a search bot) against the heuristic bots, as
     a real tournament has it. The strong bot gets a fixed *sample-count*
     budget (``--strong-budget``, default ``32samples`` as in the strength
     benchmark, some 40 ms a decision here): the same work per decision
     however busy the machine is. A time budget would make it think for as long as the clock allows
     whatever the concurrency, which would make scaling trivially perfect
     and measure nothing.

   The last lines print both speed-ups side by side; ``ratio R`` (the last
   line) is the mixed line-up's. It also prints, per run, how many cores
   were kept busy (CPU seconds of the referee and its bots per wall second)
   and, at concurrency 2, the share of worker time lost to the ramp-down
   (once fewer matches are left than workers, a core has nothing to do; in
   a short run of long matches that is a visible part of the run).
2. Memory: peak RSS of the referee process for a small and a larger
   tournament (fast bots, low target, many matches), then of ``spades
   standings`` over 2,000 and 20,000 records. Records are streamed to disk and
   standings keep counters only, so the peaks should stay flat.

Each run happens in a fresh child process (so peak RSS is that run's alone)
in a temporary folder that is removed afterwards.

Options: ``--rounds N`` twin pairs per pairing in the light run (default 3),
``--mixed-rounds N`` (default 3), ``--repeat N`` pairs of runs (default 3),
``--strong-budget`` (default ``32samples``, the strength benchmark's budget),
``--only light|mixed``, ``--small N`` / ``--large N`` matches per pairing in
the memory runs (defaults 4 and 40), ``--skip-memory``, ``--skip-machine``.

3. The machine's own ceiling, printed first: two CPU-bound Python processes
   run at once against one after the other. Two virtual CPUs that share a
   physical core, or a busy neighbour, give less than 2.0; no tournament can
   scale beyond it, so each speed-up is also printed as a share of it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs inside the child: play the config, report seconds and peak RSS as JSON.
# Also measures the ramp-down: when each worker thread finished its last match
# (once fewer matches are left than workers, a core idles).
_CHILD = textwrap.dedent("""
    import json, resource, sys, threading, time
    import referee.tournament.executors.local as local
    from referee.tournament.config import load_config
    from referee.tournament.runner import Tournament
    config = load_config(sys.argv[1])
    concurrency = int(sys.argv[2])
    ends = {}
    run_match = local.run_match
    def timed_run_match(*args, **kwargs):
        try:
            return run_match(*args, **kwargs)
        finally:
            ends[threading.current_thread().name] = time.perf_counter()
    local.run_match = timed_run_match
    before = resource.getrusage(resource.RUSAGE_SELF)  # the interpreter's start-up is not the run's
    t0 = time.perf_counter()
    outcome = Tournament(config, concurrency=concurrency).run()
    t1 = time.perf_counter()
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    referee_cpu = me.ru_utime + me.ru_stime - before.ru_utime - before.ru_stime
    idle = sum(t1 - end for end in ends.values()) / (concurrency * (t1 - t0))
    print(json.dumps({"matches": outcome.played, "seconds": t1 - t0, "peak_kb": me.ru_maxrss,
                      "referee_cpu": referee_cpu, "bots_cpu": kids.ru_utime + kids.ru_stime,
                      "ramp_down": idle, "complete": outcome.complete}))
""")


# Runs inside the child: standings of a results folder, with peak RSS.
_STANDINGS_CHILD = textwrap.dedent("""
    import json, resource, sys, time
    from referee.tournament.results import ResultsFolder, standings_from_folder
    from referee.tournament.standings import render
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
        # Seeded bots: every run plays the very same games, so runs differ
        # only in how fast they play them.
        lines.append('    env: {BOT_SEED: "7", STRONG_SEED: "7"}')
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


# A CPU-bound pure-Python loop (about a second): the machine's own 2-process scaling.
_SPIN = "x = 0\nfor i in range(8_000_000):\n    x += i * i % 7\n"


def machine_scaling(repeat: int) -> float:
    """How much faster two CPU-bound processes finish than one after the other.

    2.0 on two independent cores; less when the two virtual CPUs share a physical core
    or a noisy neighbour takes its share. No tournament can scale beyond this, so it is
    the reference for the concurrency speed-up."""
    ratios = []
    argv = [sys.executable, "-c", _SPIN]
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(argv, check=True)
        alone = time.perf_counter() - t0
        t0 = time.perf_counter()
        procs = [subprocess.Popen(argv) for _ in range(2)]
        for p in procs:
            p.wait()
        pair = time.perf_counter() - t0
        ratios.append(2 * alone / pair)
    return statistics.median(ratios)


def throughput(label: str, bots: list[tuple[str, list[str]]], per_pairing: int, repeat: int) -> dict[str, float]:
    """Alternate concurrency 1 and 2 ``repeat`` times; return the medians."""
    rates: dict[int, list[float]] = {1: [], 2: []}
    busy: dict[int, list[float]] = {1: [], 2: []}
    ramp: list[float] = []
    speedups: list[float] = []
    for sample in range(repeat):
        for concurrency in (1, 2):
            with tempfile.TemporaryDirectory(prefix="spades-bench-") as tmp:
                cfg = _config(Path(tmp), bots=bots, per_pairing=per_pairing, target=500, seed=1)
                res = _run(cfg, concurrency)
            rate = res["matches"] / res["seconds"] * 60
            rates[concurrency].append(rate)
            # CPU seconds used per wall second: how many cores the run kept busy.
            busy[concurrency].append((res["referee_cpu"] + res["bots_cpu"]) / res["seconds"])
            extra = ""
            if concurrency == 2:
                ramp.append(res["ramp_down"])
                extra = f", ramp-down idle {100 * res['ramp_down']:.0f}%"
            print(f"{label} concurrency {concurrency} (sample {sample + 1}): {res['matches']} matches in "
                  f"{res['seconds']:.1f} s = {rate:.1f} matches/min, cores busy {busy[concurrency][-1]:.2f} "
                  f"(referee {res['referee_cpu']:.1f} s, bots {res['bots_cpu']:.1f} s CPU){extra}, "
                  f"peak RSS {res['peak_kb'] / 1024:.1f} MiB, load average {os.getloadavg()[0]:.2f}", flush=True)
        speedups.append(rates[2][-1] / rates[1][-1])
    return {"c1": statistics.median(rates[1]), "c2": statistics.median(rates[2]),
            "busy1": statistics.median(busy[1]), "busy2": statistics.median(busy[2]),
            "ramp_down": statistics.median(ramp), "ratio": statistics.median(speedups)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="twin pairs per pairing in the light run")
    parser.add_argument("--mixed-rounds", type=int, default=3, help="twin pairs per pairing in the mixed run")
    parser.add_argument("--repeat", type=int, default=3, help="pairs of c=1/c=2 runs (medians are reported)")
    parser.add_argument("--strong-budget", default="32samples",
                        help="the strong bot's budget in the mixed run: a sample count, e.g. 32samples")
    parser.add_argument("--only", choices=("light", "mixed"), help="run one line-up only")
    parser.add_argument("--small", type=int, default=4, help="matches per pairing, small memory run")
    parser.add_argument("--large", type=int, default=40, help="matches per pairing, large memory run")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--skip-machine", action="store_true", help="skip the machine's own 2-process scaling")
    args = parser.parse_args()
    if not re.fullmatch(r"\d+\s*samples?", args.strong_budget.strip()):
        parser.error(f"--strong-budget must be a sample count such as 16samples (a time budget would scale "
                     f"perfectly by construction), got: {args.strong_budget!r}")

    light = [("heuristic", ["python3", "bots/heuristic_bot.py"]),
             ("random", ["python3", "bots/random_bot.py"]),
             ("heuristic-js", ["node", "bots/js/heuristic_bot.js"])]
    mixed = [("strong", ["python3", "bots/strong_bot.py", "--budget", args.strong_budget]),
             ("heuristic", ["python3", "bots/heuristic_bot.py"]),
             ("heuristic-js", ["node", "bots/js/heuristic_bot.js"])]
    print(f"cpus: {os.cpu_count()}  python: {sys.version.split()[0]}  load average: {os.getloadavg()[0]:.2f}")
    machine = None if args.skip_machine else machine_scaling(max(3, args.repeat))
    if machine is not None:
        print(f"machine: two CPU-bound processes at once finish {machine:.2f}x as fast as one after the other "
              f"(the ceiling for any tournament here)", flush=True)
    results: dict[str, dict[str, float]] = {}
    if args.only != "mixed":
        results["light"] = throughput("light", light, 2 * args.rounds, args.repeat)
    if args.only != "light":
        results["mixed"] = throughput("mixed", mixed, 2 * args.mixed_rounds, args.repeat)

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

    cores = min(2, os.cpu_count() or 1)
    for label, what in (("light", "heuristic/random bots"), ("mixed", f"strong bot at {args.strong_budget}")):
        r = results.get(label)
        if r is None:
            continue
        print(f"{label} ({what}): concurrency 1 {r['c1']:.1f} matches/min, concurrency 2 {r['c2']:.1f} "
              f"matches/min; one match keeps {r['busy1']:.2f} cores busy, so {cores} cores allow at most "
              f"{cores / r['busy1']:.2f}x; the ramp-down at the end of the run idles "
              f"{100 * r['ramp_down']:.0f}% of concurrency 2's slots; speed-up {r['ratio']:.2f}"
              + (f" ({r['ratio'] / machine:.0%} of the machine's {machine:.2f}x)" if machine else ""))
    print(f"ratio {results['mixed' if 'mixed' in results else 'light']['ratio']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
