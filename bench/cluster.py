#!/usr/bin/env python3
"""The Dask executor against the local one: ``python3 bench/cluster.py``.

1. Throughput: the same tournament (a two-player round-robin of the bundled
   heuristic and random bots, seeded, every match exactly ``--hands`` hands,
   so every run plays the very same games) on ``local`` at concurrency 2 and
   on ``dask`` with a local cluster of 2 worker processes of 1 match each,
   alternating ``--repeat`` times. Each pair gives a ratio (dask rate / local
   rate); the median is the last line, ``ratio R`` (target: at least 0.95,
   an overhead of at most 5%). The cluster's start (about a second, once per
   tournament) is shown apart and left out of the rate.
2. Per-match overhead of each executor, in ms: the match slots' time not
   spent playing matches (slots x wall time, less the sum of the records'
   ``seconds``), per match. The local executor's figure is what any run
   loses (start, ramp-down, the runner's own work); the difference is the
   Dask executor's cost: shipping specs, records and logs, scheduling.
3. A simulated scale curve for 1 to 64 workers of one match slot each:
   ``rate(w) = min(w / (match + overhead), 1 / coordinator CPU per match)``
   from the measured per-match time and dask overhead. The coordinator's CPU
   per match (the runner storing records and logs, the Dask client and,
   here, the in-process scheduler of the local cluster: an upper bound for a
   cluster whose scheduler runs elsewhere) is the limit no number of workers
   can pass.

Options: ``--rounds N`` twin pairs per pairing (default 2), ``--hands N``
(default 4), ``--repeat N`` pairs of runs (default 3).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.game.rules import Rules, Variant  # noqa: E402
from referee.match import MatchSpec  # noqa: E402
from referee.tournament.config import BotEntry, TournamentConfig, check_command  # noqa: E402
from referee.tournament.executors import DaskExecutor, Executor, LocalExecutor  # noqa: E402
from referee.tournament.executors.base import MatchDone, Outcome  # noqa: E402
from referee.tournament.runner import Tournament, bot_seats  # noqa: E402


class Timed(Executor):
    """Forwards to an executor and keeps each finished match's own time."""

    name = "timed"

    def __init__(self, inner: Executor):
        self.inner = inner
        self.match_s: list[float] = []

    @property
    def capacity(self) -> int:
        return self.inner.capacity

    @property
    def at_once(self) -> int:
        return self.inner.at_once

    def start(self) -> None:
        self.inner.start()

    def submit(self, spec: MatchSpec) -> None:
        self.inner.submit(spec)

    def wait(self, timeout_s: float) -> Sequence[Outcome]:
        out = self.inner.wait(timeout_s)
        self.match_s.extend(o.record["seconds"] for o in out if isinstance(o, MatchDone))
        return out

    def cancel(self) -> None:
        self.inner.cancel()

    def close(self) -> None:
        pass  # the bench closes the inner executor after the clock stops: a cluster's shutdown is not a match's


def config(folder: Path, rounds: int, hands: int) -> TournamentConfig:
    py = sys.executable
    bots = [("heuristic", [py, "bots/heuristic_bot.py"]), ("random", [py, "bots/random_bot.py"]),
            ("heuristic2", [py, "bots/heuristic_bot.py"]), ("random2", [py, "bots/random_bot.py"])]
    entries = tuple(BotEntry(name, tuple(argv), ROOT, {"BOT_SEED": str(i)}) for i, (name, argv) in enumerate(bots))
    return TournamentConfig(path=None, name="cluster-bench", variant=Variant.TWO_PLAYER, bots=entries, seed=5,
                            matches_per_pairing=2 * rounds, concurrency=2,
                            rules=Rules(target=100000, max_hands=hands), output=folder)


def cpu_s() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


def all_cpu_s() -> float:
    """CPU seconds of this process and of its reaped children (bots, on a worker)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def workers_cpu_s(executor: Executor) -> float:
    """All the CPU of the local cluster's worker processes and their bots so far (0 for local)."""
    client = getattr(executor, "_client", None)
    return sum(client.run(all_cpu_s).values()) if client is not None else 0.0


def play(cfg: TournamentConfig, executor: Executor) -> dict[str, Any]:
    timed = Timed(executor)
    slots = executor.at_once
    w0, a0 = workers_cpu_s(executor), all_cpu_s()
    t0, c0 = time.perf_counter(), cpu_s()
    outcome = Tournament(cfg, executor=timed, fresh=True).run()
    wall, cpu = time.perf_counter() - t0, cpu_s() - c0
    total = all_cpu_s() - a0 + workers_cpu_s(executor) - w0
    executor.close()
    assert outcome.exit_code == 0 and outcome.complete, outcome.error
    idle = slots * wall - sum(timed.match_s)
    return {"rate": outcome.played / wall, "matches": outcome.played, "wall": wall, "cpu": cpu, "total_cpu": total,
            "overhead_ms": 1000 * idle / outcome.played, "match_s": statistics.mean(timed.match_s)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ratios, local_runs, dask_runs, starts = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="spades-cluster-bench-") as tmp:
        cfg = config(Path(tmp) / "results", args.rounds, args.hands)
        for i in range(args.repeat):
            def local() -> dict[str, Any]:
                return play(cfg, LocalExecutor(2))

            def dask() -> dict[str, Any]:
                executor = DaskExecutor(workers=2, matches_per_worker=1, bots=bot_seats(cfg), check=check_command)
                t0 = time.perf_counter()
                executor.start()  # the cluster's start, once per tournament: not part of the rate
                starts.append(time.perf_counter() - t0)
                return play(cfg, executor)

            # Alternate the order, so a machine getting busier does not favour one side.
            first, second = (local, dask) if i % 2 == 0 else (dask, local)
            a, b = first(), second()
            lo, da = (a, b) if first is local else (b, a)
            local_runs.append(lo)
            dask_runs.append(da)
            ratios.append(da["rate"] / lo["rate"])
            print(f"run {i + 1}: local c=2 {lo['rate']:.2f} matches/s ({lo['matches']} in {lo['wall']:.1f} s), "
                  f"dask 2x1 {da['rate']:.2f} matches/s ({da['wall']:.1f} s; cluster start {starts[-1]:.2f} s); "
                  f"mean match {lo['match_s']:.2f} s local, {da['match_s']:.2f} s dask: "
                  f"ratio {ratios[-1]:.3f}", flush=True)

    match_s = statistics.median(r["match_s"] for r in dask_runs + local_runs)
    local_ms = statistics.median(r["overhead_ms"] for r in local_runs)
    dask_ms = max(0.0, statistics.median(r["overhead_ms"] for r in dask_runs) - local_ms)
    coord_ms = statistics.median(1000 * r["cpu"] / r["matches"] for r in dask_runs)
    local_coord_ms = statistics.median(1000 * r["cpu"] / r["matches"] for r in local_runs)
    print()
    print(f"tournament: {dask_runs[0]['matches']} two-player matches of {args.hands} hands, "
          f"{match_s:.2f} s a match (median)")
    print(f"throughput   local c=2 {statistics.median(r['rate'] for r in local_runs):.2f} matches/s   "
          f"dask 2 workers x 1 {statistics.median(r['rate'] for r in dask_runs):.2f} matches/s")
    print(f"slot time not in matches, per match: local {local_ms:.1f} ms; the dask executor's per-match "
          f"overhead on top: {dask_ms:.1f} ms")
    print("all CPU per match (referee, bots and, for dask, the worker processes): local "
          f"{statistics.median(1000 * r['total_cpu'] / r['matches'] for r in local_runs):.0f} ms   dask "
          f"{statistics.median(1000 * r['total_cpu'] / r['matches'] for r in dask_runs):.0f} ms")
    print(f"coordinator CPU per match: local {local_coord_ms:.1f} ms   dask {coord_ms:.1f} ms "
          "(runner + Dask client + the local cluster's scheduler and nannies)")
    print()
    limit = 1000 / coord_ms
    print(f"simulated scale ({match_s:.2f} s a match + {dask_ms:.0f} ms overhead per slot; coordinator limit "
          f"{limit:.0f} matches/s)")
    print(f"{'workers':>8} {'matches/s':>10} {'speed-up':>9}  limit")
    one = 1 / (match_s + dask_ms / 1000)
    for w in (1, 2, 4, 8, 16, 32, 64):
        slots = w / (match_s + dask_ms / 1000)
        rate = min(slots, limit)
        print(f"{w:>8} {rate:>10.2f} {rate / one:>9.1f}  {'coordinator CPU' if limit < slots else 'workers'}")
    print()
    print(f"dask/local throughput ratio (median of {len(ratios)}; target >= 0.95):")
    print(f"ratio {statistics.median(ratios):.3f}")


if __name__ == "__main__":  # the local cluster's workers are spawned processes that import this file
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    main()
