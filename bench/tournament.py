#!/usr/bin/env python3
"""Tournament throughput and memory: ``python3 bench/tournament.py``.

1. Throughput: the same partnership round-robin of bundled bots (to the real
   target, 500) at concurrency 1 and 2; prints matches per minute for both
   and, last, ``ratio R``, the speed-up of 2 over 1 (target on 2 cores: 1.7).
2. Memory: peak RSS of the referee process for a small and a larger
   tournament (fast bots, low target, many matches). Records are streamed to
   disk and standings keep counters only, so the two peaks should be close.

Each run happens in a fresh child process (so peak RSS is that run's alone)
in a temporary folder that is removed afterwards.

Options: ``--rounds N`` twin pairs per pairing in the throughput run
(default 2), ``--small N`` / ``--large N`` matches per pairing in the memory
runs (defaults 4 and 40), ``--skip-memory``.
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
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"matches": outcome.played, "seconds": seconds, "peak_kb": peak_kb,
                      "complete": outcome.complete}))
""")


def _config(folder: Path, *, bots: list[tuple[str, list[str]]], per_pairing: int, target: int, seed: int) -> Path:
    lines = [f"name: bench", "variant: partnership", f"seed: {seed}", f"matches_per_pairing: {per_pairing}",
             "duplicate: true", f"rules: {{target: {target}}}", f"output: {folder / 'results'}", "bots:"]
    for name, argv in bots:
        lines.append(f"  - name: {name}")
        lines.append(f"    command: {json.dumps(argv)}")
        lines.append(f"    cwd: {json.dumps(str(ROOT))}")
    path = folder / "bench.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(config: Path, concurrency: int) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-c", _CHILD, str(config), str(concurrency)], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="twin pairs per pairing in the throughput run")
    parser.add_argument("--small", type=int, default=4, help="matches per pairing, small memory run")
    parser.add_argument("--large", type=int, default=40, help="matches per pairing, large memory run")
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()

    bots = [("heuristic", ["python3", "bots/heuristic_bot.py"]),
            ("random", ["python3", "bots/random_bot.py"]),
            ("heuristic-js", ["node", "bots/js/heuristic_bot.js"])]
    print(f"cpus: {os.cpu_count()}  python: {sys.version.split()[0]}")
    rates = {}
    for concurrency in (1, 2):
        with tempfile.TemporaryDirectory(prefix="spades-bench-") as tmp:
            cfg = _config(Path(tmp), bots=bots, per_pairing=2 * args.rounds, target=500, seed=1)
            res = _run(cfg, concurrency)
        rate = res["matches"] / res["seconds"] * 60
        rates[concurrency] = rate
        print(f"concurrency {concurrency}: {res['matches']} matches in {res['seconds']:.1f} s = "
              f"{rate:.1f} matches/min, peak RSS {res['peak_kb'] / 1024:.1f} MiB")

    if not args.skip_memory:
        fast = [("heuristic", ["python3", "bots/heuristic_bot.py"]),
                ("heuristic-js", ["node", "bots/js/heuristic_bot.js"])]
        for label, per in (("small", args.small), ("large", args.large)):
            with tempfile.TemporaryDirectory(prefix="spades-bench-") as tmp:
                cfg = _config(Path(tmp), bots=fast, per_pairing=per, target=100, seed=2)
                res = _run(cfg, 2)
            print(f"memory {label}: {res['matches']} matches, peak RSS {res['peak_kb'] / 1024:.1f} MiB")

    print(f"ratio {rates[2] / rates[1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
