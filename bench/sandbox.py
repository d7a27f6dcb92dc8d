"""What the sandbox costs, and which fair clock holds against the spinning-children attack.

1. Start-up: start a bot that answers hello at once (a shell one-liner, so the
   sandbox's own cost is not hidden behind an interpreter's start), answer
   hello, close it, ``--starts`` times, in the sandbox (``auto``: bwrap
   namespaces, cgroup, limits) and as a plain process (``none``): median
   milliseconds per start, wall time and CPU time of everything involved.
2. Per decision: a whole two-player match of two minimal bots, with the
   sandbox and the fair clock (frozen between requests) and without: CPU
   microseconds per decision of the whole run (referee + bots, measured in a
   cpuacct cgroup holding everything this script starts), and wall time.
3. Fair clock: a fair bot (150 ms of CPU per move, 300 ms allowed, no bank)
   against the spinning-children attacker, under each clock (``wall`` or
   ``cpu``) with and without freezing, against a control with a harmless
   opponent: in how many of ``--seeds`` matches the fair bot lost on time.

The last line is ``ratio R``: CPU per decision with the sandbox / without.

Usage: python bench/sandbox.py [--starts 20] [--seeds 3] [--no-fair-clock]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from protocol import cpu_now, enter_own_cpu_group  # noqa: E402

from referee.game.rules import Rules, Variant  # noqa: E402
from referee.match import MatchSpec, run_match  # noqa: E402
from referee.seat.botprocess import BotProcess  # noqa: E402
from referee.seat.clock import TimeControl  # noqa: E402
from referee.seat.faults import FaultKind  # noqa: E402
from referee.seat.sandbox import SandboxPolicy, SandboxSpec, detect  # noqa: E402
from referee.seat.spec import SeatSpec  # noqa: E402

BOT = [sys.executable, str(HERE / "minimal_bot.py")]
SHELL_BOT = ["/bin/sh", "-c", 'read line; echo \'{"id":0,"name":"sh"}\'; while read line; do :; done']
ATTACKS = HERE.parent / "tests" / "security" / "bots"
HELLO = ('{"type":"hello","id":0,"protocol":1,"match":"bench","variant":"two-player","seat":0,'
         '"players":["a","b"],"rules":{},"time":{"move_ms":1000,"bank_ms":0}}')


def start_ms(policy: SandboxPolicy, n: int) -> tuple[float, float]:
    """Median (wall ms, CPU ms) to start a bot, get its hello answer and end it."""
    walls, cpus = [], []
    for _ in range(n):
        t0, c0 = time.perf_counter(), cpu_now()
        bot = BotProcess(SHELL_BOT, name="bench", sandbox=SandboxSpec(policy=policy))
        bot.start()
        bot.request(HELLO, 10.0)
        bot.close(grace_s=1.0)
        walls.append((time.perf_counter() - t0) * 1000)
        cpus.append((cpu_now() - c0) * 1000)
    return statistics.median(walls), statistics.median(cpus)


def decision_cost(policy: SandboxPolicy, seed: int) -> tuple[float, float, int]:
    """(CPU us, wall us, decisions) per decision of one whole two-player match of minimal bots."""
    spec = MatchSpec(variant=Variant.TWO_PLAYER, seats=[SeatSpec("a", BOT), SeatSpec("b", BOT)],
                     rules=Rules(target=500), seed=seed, match_id="bench", grace_s=1.0,
                     sandbox=SandboxSpec(policy=policy))
    cpu0, t0 = cpu_now(), time.perf_counter()
    record = run_match(spec)
    cpu, wall = cpu_now() - cpu0, time.perf_counter() - t0
    n = sum(s["decisions"] for s in record.stats)
    return cpu / n * 1e6, wall / n * 1e6, n


def fair_clock_losses(attacker: str, ponder: bool, cpu_clock: bool, seeds: int) -> int:
    """In how many seeds the fair bot (seat 1) lost on time against ``attacker``."""
    losses = 0
    for seed in range(1, seeds + 1):
        spec = MatchSpec(
            variant=Variant.TWO_PLAYER, rules=Rules(target=100, max_hands=1), seed=seed, match_id="fair",
            seats=[SeatSpec("attacker", [sys.executable, str(ATTACKS / attacker)]),
                   SeatSpec("fair", [sys.executable, str(ATTACKS / "fair.py")])],
            time=TimeControl(300, 0, 10000), grace_s=0.5, sandbox=SandboxSpec(ponder=ponder, cpu_clock=cpu_clock))
        record = run_match(spec)
        losses += any(f.seat == 1 and f.kind is FaultKind.TIMEOUT for f in record.faults)
    return losses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--no-fair-clock", action="store_true", help="Skip part 3 (the slowest).")
    args = parser.parse_args()
    print(enter_own_cpu_group(), flush=True)
    host = detect()
    print(f"cpus: {os.cpu_count()}  bwrap: {host.bwrap}  cgroups: "
          f"{host.cgroups.controllers if host.cgroups else host.cgroup_problem}  "
          f"load average: {os.getloadavg()[0]:.2f}", flush=True)
    auto, none = SandboxPolicy.AUTO, SandboxPolicy.NONE
    (w_auto, c_auto), (w_none, c_none) = start_ms(auto, args.starts), start_ms(none, args.starts)
    print(f"start + hello + close, median of {args.starts}: wall sandbox {w_auto:6.1f} ms, none {w_none:6.1f} ms "
          f"(+{w_auto - w_none:.1f} ms); CPU sandbox {c_auto:6.1f} ms, none {c_none:6.1f} ms "
          f"(+{c_auto - c_none:.1f} ms per bot start)", flush=True)
    rows: dict[SandboxPolicy, list[tuple[float, float, int]]] = {auto: [], none: []}
    for m in range(args.matches):
        for policy in (auto, none):
            rows[policy].append(decision_cost(policy, m + 1))
        print(f"match {m + 1}: {rows[auto][-1][2]} decisions; CPU sandbox {rows[auto][-1][0]:6.1f} us, "
              f"none {rows[none][-1][0]:6.1f} us per decision; wall sandbox {rows[auto][-1][1]:6.1f} us, "
              f"none {rows[none][-1][1]:6.1f} us", flush=True)
    cpu_auto = statistics.median(r[0] for r in rows[auto])
    cpu_none = statistics.median(r[0] for r in rows[none])
    ratios = [a[0] / b[0] for a, b in zip(rows[auto], rows[none])]
    if not args.no_fair_clock:
        print(f"fair clock: fair bot (150 ms CPU of 300 ms) lost on time in N of {args.seeds} seeds:", flush=True)
        for attacker, label in (("sleepy.py", "control (harmless opponent)"), ("spinner.py", "spinning children")):
            cells = []
            for cpu_clock in (False, True):
                for ponder in (True, False):
                    lost = fair_clock_losses(attacker, ponder, cpu_clock, args.seeds)
                    cells.append(f"{'cpu' if cpu_clock else 'wall'}+{'ponder' if ponder else 'freeze'} {lost}")
            print(f"  {label:<30} " + ", ".join(cells) + f"  (load average {os.getloadavg()[0]:.2f})", flush=True)
    print(f"CPU per decision, sandbox + fair clock: {cpu_auto:6.1f} us; none: {cpu_none:6.1f} us "
          f"(ratios {min(ratios):.2f} to {max(ratios):.2f})")
    print(f"ratio {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
