#!/usr/bin/env python3
"""How many matches an SPRT needs, against a fixed run, for the same conclusion.

The strong bot (B) against the heuristic bot (A), partnership (or two-player),
duplicate twins, the strong bot at a fixed sample budget so the result does not
depend on the machine's speed. Two tournaments on the same master seed, with
``spades run``:

* ``format: sprt`` (H0: nElo 0, H1: nElo ``--elo1``, alpha = beta = 0.05),
  stopped by the test, at most ``--fixed`` matches;
* ``format: round-robin`` with ``matches_per_pairing: --fixed`` (200 by default).

H1 is by default the difference the fixed run itself detects with 95% power
(``--elo1 matched``): the fixed run says "stronger" when the lower end of its
two-sided 95% interval is above 1/2 (a false alarm rate of 2.5%), so it shows a
difference of ``(1.960 + 1.645) / sqrt(pairs)`` pair standard deviations 95% of
the time, which is ``NELO_PER_T / sqrt(2) * 3.605 / sqrt(pairs)`` nElo: 88.5 nElo
for 200 matches (100 pairs). With elo0 = 0 and alpha = beta = 0.05 the SPRT then
has about the fixed run's error rates at the same two hypotheses, and the
comparison is of the matches each needs for them.

The fixed run's conclusion is "strong is stronger" when the lower end of the 95%
interval of its pair score (pentanomial) is above 1/2, "not shown" otherwise; the
SPRT's is "strong is stronger" when it accepts H1, "not shown" when it accepts H0
or ends undecided at the budget. Printed side by side, then ``ratio R``:
matches the SPRT played over matches of the fixed run (lower is better).

    python3 bench/sprt.py                       # partnership, 200 fixed matches, target 500, 32samples
    python3 bench/sprt.py --variant two-player --fixed 60 --out results/bench-sprt-2p   # the two-player run

Re-running resumes both runs (``--fresh`` starts over); every figure comes from the
stored records, so a re-run of a finished bench prints the same table. CPU-heavy: each
strong-bot decision samples ``--budget`` deals.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))

from referee.tournament.pentanomial import Pentanomial  # noqa: E402
from referee.tournament.sprt import NELO_PER_T  # noqa: E402

Z95 = 1.959963984540054
Z_POWER95 = 1.6448536269514722  # one-sided: the fixed run's power of 95% at H1


def matched_elo1(fixed_matches: int) -> float:
    """The nElo the fixed run of ``fixed_matches`` shows stronger with 95% power (see the module text)."""
    return NELO_PER_T / math.sqrt(2.0) * (Z95 + Z_POWER95) / math.sqrt(fixed_matches / 2)


def elo1_arg(text: str) -> float | None:
    """``--elo1``: a number, or ``matched`` (None: derived from ``--fixed``)."""
    if text == "matched":
        return None
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of normalised Elo or 'matched', got: {text!r}") from None


def config_text(name: str, fmt_lines: str, args: argparse.Namespace, out: Path) -> str:
    return f"""name: {name}
variant: {args.variant}
seed: {args.seed}
{fmt_lines}
duplicate: true
concurrency: {args.concurrency}
rules: {{target: {args.target}}}
time: {{move_ms: 5000, bank_ms: 60000, startup_ms: 10000}}
output: {out}
bots:
  - name: heuristic
    command: [{sys.executable}, {ROOT / 'bots' / 'heuristic_bot.py'}]
  - name: strong
    command: [{sys.executable}, {ROOT / 'bots' / 'strong_bot.py'}, --budget, {args.budget}, --seed, "1"]
"""


def run(config: Path, fresh: bool) -> None:
    """``spades run CONFIG --quiet`` (it resumes a run already begun, and plays nothing more in a finished one)."""
    argv = [sys.executable, "-m", "referee.cli", "run", str(config), "--quiet"] + (["--fresh"] if fresh else [])
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"error: `{' '.join(argv)}` failed ({proc.returncode}):\n{proc.stderr}")


def pentanomial(folder: Path) -> tuple[Pentanomial, int, float, float]:
    """Strong's pair outcomes from ``matches.jsonl`` (twins share a seed), the match count, the
    matches' wall seconds, and the seconds the bots spent on turn (decisions x mean decision
    time, from the records' stats). From the records, so a resumed or re-printed run shows
    what its matches took. The bots' CPU time is not in any record (each seat's is counted in
    its own control group); with the fair clock a bot is frozen off turn, so its time on turn
    is its CPU time plus whatever it waited for a core on a loaded machine."""
    legs: dict[int, list[float]] = {}
    matches = 0
    wall = on_turn = 0.0
    for line in (folder / "matches.jsonl").read_text().splitlines():
        rec = json.loads(line)
        matches += 1
        wall += rec["seconds"]
        on_turn += sum(st["decisions"] * st["mean_ms"] / 1000 for st in rec["stats"] if st.get("decisions"))
        side = rec["bots"].index("strong")
        points = 0.5 if rec["winner"] is None else float(rec["winner"] == side)
        legs.setdefault(rec["seed"], []).append(points)
    return Pentanomial.from_legs((p[0], p[1]) for p in legs.values() if len(p) == 2), matches, wall, on_turn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="partnership", choices=("two-player", "partnership"))
    parser.add_argument("--fixed", type=int, default=200, help="matches of the fixed run (even; default 200)")
    parser.add_argument("--elo1", type=elo1_arg, default=None,
                        help="H1 of the SPRT in normalised Elo, or 'matched' (default): what the fixed run "
                             "detects with 95%% power")
    parser.add_argument("--target", type=int, default=500, help="game target (default 500)")
    parser.add_argument("--budget", default="32samples", help="the strong bot's budget (default 32samples)")
    parser.add_argument("--seed", type=int, default=4048)
    parser.add_argument("--concurrency", type=int, default=1, help="matches at once (default 1)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench-sprt")
    parser.add_argument("--fresh", action="store_true")
    args = parser.parse_args()
    if args.fixed < 2 or args.fixed % 2:
        parser.error(f"--fixed must be even and at least 2, got: {args.fixed}")
    if args.elo1 is None:
        args.elo1 = round(matched_elo1(args.fixed), 1)
    args.out = args.out.resolve()  # the configs name it as their output, relative to their own folder
    args.out.mkdir(parents=True, exist_ok=True)
    runs = {
        "sprt": f"format: sprt\nelo0: 0\nelo1: {args.elo1:g}\nalpha: 0.05\nbeta: 0.05\nmax_matches: {args.fixed}",
        "fixed": f"format: round-robin\nmatches_per_pairing: {args.fixed}",
    }
    figures = {}
    for key, fmt_lines in runs.items():
        config = args.out / f"{key}.yaml"
        config.write_text(config_text(f"bench-sprt-{key}", fmt_lines, args, args.out / key))
        run(config, args.fresh)
        figures[key] = pentanomial(args.out / key)

    sprt_json = subprocess.run([sys.executable, "-m", "referee.cli", "standings", str(args.out / "sprt"), "--format",
                                "json"], capture_output=True, text=True, check=True,
                               env=dict(os.environ, PYTHONPATH=str(ROOT))).stdout
    verdict = json.loads(sprt_json)["sprt"]["verdict"]
    fixed_counts = figures["fixed"][0]
    interval = fixed_counts.score_interval(Z95) or (0.0, 1.0)
    # Two conclusions: shown stronger, or not shown (H0 accepted, or undecided, or a 95% interval
    # that reaches down to an even score).
    fixed_says = "strong is stronger" if interval[0] > 0.5 else "not shown"
    sprt_says = "strong is stronger" if verdict == "H1" else "not shown"

    print(f"strong ({args.budget}) vs heuristic, {args.variant}, target {args.target}, seed {args.seed}")
    print(f"{'':28}{'SPRT (0, ' + format(args.elo1, 'g') + ' nElo)':>28}{'fixed run':>24}")
    for label, value in (("matches", lambda f: str(f[1])), ("twin pairs (LL..WW)", lambda f: str(list(f[0].counts))),
                         ("strong's score", lambda f: f"{f[0].mean():.3f}" if f[0].pairs else "-"),
                         ("matches' wall s", lambda f: f"{f[2]:.0f}"),
                         ("bots' time on turn s", lambda f: f"{f[3]:.0f}")):
        print(f"{label:28}{value(figures['sprt']):>28}{value(figures['fixed']):>24}")
    elo_lo, elo_hi = (fixed_counts.elo_interval(Z95) or (-math.inf, math.inf))
    print(f"{'conclusion':28}{sprt_says + ' (' + verdict + ')':>28}{fixed_says:>24}")
    print(f"fixed run: Elo 95% interval [{elo_lo:+.0f}, {elo_hi:+.0f}]; same conclusion: "
          f"{'yes' if sprt_says == fixed_says else 'NO'}")
    print(f"ratio {figures['sprt'][1] / figures['fixed'][1]:.3f}")


if __name__ == "__main__":
    main()
