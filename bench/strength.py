#!/usr/bin/env python3
"""Measure the strong bot's strength against the bundled bots with ``spades run``.

Every row of issue 16's item 1 is a *row* here: a variant, its rules and an opponent.
Each row becomes one gauntlet tournament derived from ``bench/strength-<variant>.yaml``
(strong bot first; duplicate twins, the same deals twice with the seats swapped; a
fixed sample budget), run with ``spades run CONFIG --quiet``; ``matches.jsonl`` is read
back. Reported per row: matches, wins-losses-draws, win rate ((wins + draws/2) /
matches) with its 95% Wilson interval (the lower end is the figure a target is judged
by), mean point difference per hand, twin pairs (won both, split, lost both), decision
times; and where the points come from (contracts made, Nils and Blind Nils made by each
side, the opponents' Nils the strong side set, bags per hand).

    python3 bench/strength.py                          # every row, 200 matches each
    python3 bench/strength.py --matches 40 --ruleset no-blind-nil --ruleset blind-nil-behind-100
    python3 bench/strength.py --variant two-player --opponent heuristic --matches 20
    python3 bench/strength.py --rule blind_nil_bonus=100 --variant partnership   # other rules
    python3 bench/strength.py --nil-reference ...      # + the opponent defending its own nils
    python3 bench/strength.py --opponent strong ...    # self-play (the Blind Nil success rate)
    python3 bench/strength.py --report-only            # re-read finished results

Re-running resumes (finished matches are kept); ``--fresh`` starts over; ``--seed``
plays other deals (tune on one seed, report on another).

**Nil defence reference** (``--nil-reference``, partnership rows): the same tournament is
played a second time with the opponent in both chairs (the defending copy keeps the
strong bot's seat name, so that the schedule gives it the same seeds, and the results
folder gets the first run's deal secret, so that every hand number brings the same
cards). The opponent's Nil depends only on its own cards and its partner's bid, so it
bids the same Nils on the same cards in both runs; comparing, Nil by Nil, whether the
strong bot or the opponent itself set it is a paired comparison on identical hands.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import re
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
VARIANTS = ("partnership", "two-player")
SECRET_FILE = "secret"  # a results folder's deal secret (referee.tournament.integrity.SECRET_FILE)

#: Named rule sets of the rows (on top of each template's own rules, e.g. target 500).
RULESETS: dict[str, dict[str, Any]] = {
    "default": {},
    "no-blind-nil": {"blind_nil": False},
    "blind-nil-behind-100": {"blind_nil_behind": 100},
}
OPPONENTS = ("heuristic", "heuristic-js")
SELF = "strong"  # --opponent strong: the strong bot against a copy of itself


@dataclasses.dataclass(frozen=True)
class Row:
    """One line of the report: a variant under some rules against one opponent."""

    variant: str
    rules: tuple[tuple[str, Any], ...]
    opponent: str

    @property
    def rules_dict(self) -> dict[str, Any]:
        return dict(self.rules)

    def rules_text(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.rules) or "default"


def default_rows() -> list[Row]:
    """Issue 16 item 1: two-player under the default rules; partnership without Blind
    Nil, with ``blind_nil_behind: 100`` and under the default rules; each against both
    heuristic bots."""
    rows = [Row("two-player", (), o) for o in OPPONENTS]
    for name in ("no-blind-nil", "blind-nil-behind-100", "default"):
        rows += [Row("partnership", tuple(sorted(RULESETS[name].items())), o) for o in OPPONENTS]
    return rows


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (draws may count as half successes)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def rules_tag(rules: dict[str, Any] | None) -> str:
    """A name suffix for rule overrides, e.g. ``-blind_nil_behind-100`` (names allow
    letters, digits and ``. _ + -`` only)."""
    return "".join("-" + re.sub(r"[^A-Za-z0-9._+-]", "_", f"{k}-{v}") for k, v in sorted((rules or {}).items()))


def _template(variant: str) -> dict:
    with open(BENCH / f"strength-{variant}.yaml", encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def _strong_and_opponent(template: dict, opponent: str, budget: str | None) -> tuple[dict, dict]:
    """The strong bot's entry (with ``budget``) and the named opponent's entry."""
    bots = template["bots"]
    strong = dict(bots[0])
    if budget:
        cmd = list(strong["command"])
        if "--budget" in cmd:
            cmd[cmd.index("--budget") + 1] = budget
        else:
            cmd += ["--budget", budget]
        strong["command"] = cmd
    if opponent == SELF:
        cmd = list(strong["command"])
        if "--seed" in cmd:
            cmd[cmd.index("--seed") + 1] = "2"  # the copy's own randomness
        else:
            cmd += ["--seed", "2"]
        return strong, {"name": "strong-copy", "command": cmd}
    for b in bots[1:]:
        if b["name"] == opponent:
            return strong, dict(b)
    names = ", ".join(b["name"] for b in bots[1:])
    raise SystemExit(f"error: no opponent named {opponent!r} in bench/strength-{template['variant']}.yaml "
                     f"(it has: {names}, and {SELF!r} for self-play)")


def _short(stem: str) -> str:
    """A tournament name (at most 48 characters) for a results folder's stem."""
    for long, short in (("partnership", "p4"), ("two-player", "p2"), ("blind_nil_behind", "bnb"),
                        ("blind_nil", "bn"), ("heuristic", "h"), ("reference", "ref")):
        stem = stem.replace(long, short)
    return stem[:39]


def row_config(row: Row, matches: int, budget: str | None, out_root: Path, seed: int | None,
               reference: bool = False) -> tuple[Path, dict]:
    """Write the tournament config of ``row`` under ``out_root``; returns (path, cfg).

    ``reference``: the nil-defence reference run, the opponent in both chairs (the
    defending copy named like the strong bot, so the schedule's seeds stay the same)."""
    template = _template(row.variant)
    strong, opp = _strong_and_opponent(template, row.opponent, budget)
    if reference:
        strong = dict(opp, name=strong["name"])
    count = matches + (matches % 2 if template.get("duplicate", True) else 0)  # twins come in pairs
    stem = f"{row.variant}-{row.opponent}{rules_tag(row.rules_dict)}"
    if seed is not None:
        stem += f"-seed{seed}"
    if reference:
        stem += "-reference"
    cfg = {k: v for k, v in template.items() if k not in ("bots", "output", "name")}
    cfg["name"] = "strength-" + _short(stem)
    cfg["rules"] = {**(cfg.get("rules") or {}), **row.rules_dict}
    if seed is not None:
        cfg["seed"] = seed
    cfg["matches_per_pairing"] = count
    cfg["concurrency"] = 1
    cfg["output"] = stem
    # Commands in the template are relative to bench/: run the bots from there.
    rel_bench = os.path.relpath(BENCH, out_root)
    cfg["bots"] = [dict(b, cwd=rel_bench) for b in (strong, opp)]
    out_root.mkdir(parents=True, exist_ok=True)
    path = out_root / f"{stem}.yaml"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"# Generated by bench/strength.py from strength-{row.variant}.yaml; do not edit.\n")
        yaml.safe_dump(cfg, fh, sort_keys=False)
    return path, cfg


def share_deals(source: Path, folder: Path) -> None:
    """Give results ``folder`` the deal secret of results folder ``source``, so that each
    match name deals the same cards in both; refuse a folder already dealt otherwise."""
    src = source / SECRET_FILE
    if not src.is_file():
        sys.exit(f"error: the deals to play come from a results folder with a deal secret, got: {str(source)!r} "
                 f"(no {SECRET_FILE} file there; is it the row's folder, not the --output folder?)")
    dst = folder / SECRET_FILE
    if dst.exists():
        if dst.read_bytes() != src.read_bytes():
            sys.exit(f"error: {str(folder)!r} was already dealt from another secret than {str(source)!r}; "
                     f"run into a new --output folder")
        return
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)
    os.chmod(dst, 0o600)


def run_tournament(config: Path, fresh: bool, jobs: int | None) -> None:
    """Run ``spades run CONFIG --quiet``; its standings go to CONFIG's ``.standings.txt``."""
    exe = shutil.which("spades")
    argv = [exe] if exe else [sys.executable, "-m", "referee.cli"]
    argv += ["run", str(config), "--quiet"]
    if fresh:
        argv.append("--fresh")
    if jobs:
        argv += ["--concurrency", str(jobs)]
    with open(config.with_suffix(".standings.txt"), "w", encoding="utf-8") as out:
        proc = subprocess.run(argv, cwd=ROOT, stdout=out)
    if proc.returncode != 0:
        sys.exit(f"error: `{' '.join(argv)}` failed with exit status {proc.returncode}")


def _side(record: dict, strong: str) -> tuple[int, list[int]] | None:
    seats = [i for i, b in enumerate(record["bots"]) if b == strong]
    if not seats:
        return None
    return (seats[0] % 2 if record["variant"] == "partnership" else seats[0]), seats


def summarize(records: list[dict], strong: str = "strong") -> dict[str, Any]:
    """Strength figures of ``strong`` over match records (one opponent)."""
    wins = losses = draws = hands = 0
    diff = 0.0
    faults = 0
    ms_sum = ms_n = 0.0
    ms_max = 0.0
    pairs: dict[Any, list[tuple[float, int]]] = defaultdict(list)  # seed -> [result, margin] per match
    for r in records:
        found = _side(r, strong)
        if found is None:
            continue
        side, seats = found
        if r.get("winner") is None:
            draws += 1
            res = 0.5
        elif r["winner"] == side:
            wins += 1
            res = 1.0
        else:
            losses += 1
            res = 0.0
        for h in r.get("hands", []):
            diff += h["points"][side] - h["points"][1 - side]
            hands += 1
        faults += sum(1 for f in r.get("faults", []) if f.get("seat") in seats)
        for s in seats:
            st = (r.get("stats") or [{}] * len(r["bots"]))[s] or {}
            if st.get("decisions"):
                ms_sum += st.get("mean_ms", 0.0) * st["decisions"]
                ms_n += st["decisions"]
                ms_max = max(ms_max, st.get("max_ms", 0.0))
        margin = r["score"][side] - r["score"][1 - side]
        pairs[r.get("seed")].append((res, margin))
    n = wins + losses + draws
    lo, hi = wilson(wins + draws / 2, n)
    pw = ps = pl = 0
    margins = []
    for results in pairs.values():
        if len(results) != 2:
            continue
        total = results[0][0] + results[1][0]
        if total > 1:
            pw += 1
        elif total < 1:
            pl += 1
        else:
            ps += 1
        margins.append(results[0][1] + results[1][1])
    return {
        "matches": n, "wins": wins, "losses": losses, "draws": draws,
        "rate": (wins + draws / 2) / n if n else 0.0, "low": lo, "high": hi,
        "hands": hands, "diff_per_hand": diff / hands if hands else 0.0,
        "pairs": (pw, ps, pl), "pair_margin": sum(margins) / len(margins) if margins else 0.0,
        "faults": faults, "ms_mean": ms_sum / ms_n if ms_n else 0.0, "ms_max": ms_max,
    }


def breakdown(records: list[dict], strong: str = "strong") -> dict[str, dict[str, int]]:
    """Where the points come from, per side (``"strong"``, ``"opponent"``): contracts
    bid and made, Nils and Blind Nils bid and made, bags taken, hands."""
    out: dict[str, defaultdict[str, int]] = {k: defaultdict(int) for k in ("strong", "opponent")}
    for r in records:
        found = _side(r, strong)
        if found is None:
            continue
        side, _ = found
        n = len(r["bots"])
        for h in r.get("hands", []):
            for sd in (0, 1):
                c = out["strong" if sd == side else "opponent"]
                seats = (sd, sd + 2) if n == 4 else (sd,)
                contract = sum(h["bids"][s] for s in seats if h["bids"][s])
                took = sum(h["tricks"][s] for s in seats if h["bids"][s])
                c["hands"] += 1
                if contract:
                    c["contracts"] += 1
                    c["made"] += took >= contract
                    c["bags"] += max(0, took - contract)
                for s in seats:
                    if h["bids"][s] == 0:
                        kind = "blind" if h["blind"][s] else "nil"
                        c[kind] += 1
                        c[kind + "_made"] += h["tricks"][s] == 0
                        c["bags"] += h["tricks"][s]
    return {k: dict(v) for k, v in out.items()}


def nil_pairs(main: list[dict], reference: list[dict], strong: str = "strong") -> dict[str, int]:
    """The opponent's Nils, matched hand by hand between the main run (the strong bot
    defending) and the reference run (the opponent defending its own kind's Nils): the
    same seed, the same chairs, the same hand number, the same seat bidding Nil (of the
    same kind). Counts: matched Nils, set by the strong bot, set by the reference
    defender, set by both."""
    def nils(records: list[dict]) -> dict[tuple, bool]:
        out = {}
        for r in records:
            found = _side(r, strong)
            if found is None:
                continue
            side, seats = found
            for h in r.get("hands", []):
                for s in range(len(r["bots"])):
                    if s % 2 != side and h["bids"][s] == 0:
                        out[(r.get("seed"), tuple(seats), h["hand"], s, h["blind"][s])] = h["tricks"][s] > 0
        return out
    a, b = nils(main), nils(reference)
    both = [k for k in a if k in b]
    return {"matched": len(both), "strong_set": sum(a[k] for k in both), "reference_set": sum(b[k] for k in both),
            "both_set": sum(a[k] and b[k] for k in both)}


def read_records(folder: Path) -> list[dict]:
    path = folder / "matches.jsonl"
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _frac(made: int, total: int) -> str:
    return f"{made}/{total}" if total else "-"


def report(rows: list[tuple[Row, dict, dict, dict | None]]) -> str:
    head = (f"{'variant':<12} {'rules':<20} {'opponent':<12} {'matches':>7} {'W-L-D':>11} {'win %':>6} "
            f"{'95% CI':>13} {'low':>5} {'pts/hand':>8} {'twins W-S-L':>12} {'faults':>6} {'ms mean/max':>12}")
    lines = [head, "-" * len(head)]
    for row, s, _, _ in rows:
        lines.append(
            f"{row.variant:<12} {row.rules_text():<20} {row.opponent:<12} {s['matches']:>7} "
            f"{s['wins']:>3}-{s['losses']}-{s['draws']:<3} {100 * s['rate']:>6.1f} "
            f"{100 * s['low']:>5.1f}-{100 * s['high']:<5.1f}  {100 * s['low']:>5.1f} {s['diff_per_hand']:>+8.1f} "
            f"{'-'.join(map(str, s['pairs'])):>12} {s['faults']:>6} "
            f"{s['ms_mean']:>5.0f}/{s['ms_max']:<5.0f}")
    lines += ["", "win % = (wins + draws/2) / matches; 95% Wilson interval, low = its lower end; pts/hand = "
              "strong side's hand points minus the opponent's, per hand; twins: pairs of matches on the same "
              "deals with seats swapped (won both - split - lost both).", ""]
    head2 = (f"{'variant':<12} {'rules':<20} {'opponent':<12} {'hands':>5} {'made S':>8} {'made O':>8} "
             f"{'Nil S':>7} {'Nil O':>7} {'Blind S':>8} {'Blind O':>8} {'bags S/O':>9} {'O Nils set: S / ref':>20}")
    lines += [head2, "-" * len(head2)]
    for row, _, b, ref in rows:
        st, op = b.get("strong", {}), b.get("opponent", {})
        hands = st.get("hands", 0)
        pct = [f"{100 * x.get('made', 0) / x['contracts']:.1f}%" if x.get("contracts") else "-" for x in (st, op)]
        bags = f"{st.get('bags', 0) / hands:.2f}/{op.get('bags', 0) / hands:.2f}" if hands else "-"
        sets = "-"
        if ref is not None and ref["matched"]:
            sets = f"{ref['strong_set']}/{ref['matched']} vs {ref['reference_set']}/{ref['matched']}"
        lines.append(
            f"{row.variant:<12} {row.rules_text():<20} {row.opponent:<12} {hands:>5} {pct[0]:>8} {pct[1]:>8} "
            f"{_frac(st.get('nil_made', 0), st.get('nil', 0)):>7} {_frac(op.get('nil_made', 0), op.get('nil', 0)):>7} "
            f"{_frac(st.get('blind_made', 0), st.get('blind', 0)):>8} "
            f"{_frac(op.get('blind_made', 0), op.get('blind', 0)):>8} {bags:>9} {sets:>20}")
    lines += ["", "made = contracts made (S strong side, O opponent side); Nil / Blind = made / bid; bags per hand "
              "per side (overtricks and failed nils' tricks); O Nils set: the opponent's Nils set by the strong "
              "bot vs by the opponent itself defending the same Nils on the same cards (--nil-reference)."]
    return "\n".join(lines)


def select_rows(args: argparse.Namespace, rules: dict[str, Any]) -> list[Row]:
    """The rows a command line asks for (filters on the default rows, or custom rules)."""
    if rules:
        variants = VARIANTS if args.variant == "both" else (args.variant,)
        opps = args.opponent or list(OPPONENTS)
        return [Row(v, tuple(sorted(rules.items())), o) for v in variants for o in opps]
    rows = default_rows()
    if args.opponent:
        rows = [Row(r.variant, r.rules, o) for r in rows if r.opponent == OPPONENTS[0] for o in args.opponent]
    if args.variant != "both":
        rows = [r for r in rows if r.variant == args.variant]
    if args.ruleset:
        wanted = {tuple(sorted(RULESETS[n].items())) for n in args.ruleset}
        rows = [r for r in rows if r.rules in wanted]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Strong bot strength against the bundled bots (spades run).")
    parser.add_argument("--variant", choices=VARIANTS + ("both",), default="both")
    parser.add_argument("--matches", type=int, default=200, help="matches per row (default 200)")
    parser.add_argument("--other-matches", type=int, default=None,
                        help="matches per row against opponents other than heuristic (default: --matches)")
    parser.add_argument("--ruleset", action="append", default=[], choices=sorted(RULESETS),
                        help="only the rows under this named rule set (repeatable)")
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                        help="rows under these rules instead (repeatable; e.g. blind_nil_behind=100; the "
                             "results go to folders named after them)")
    parser.add_argument("--opponent", action="append", default=[], metavar="NAME",
                        help=f"only this opponent (repeatable; {SELF!r}: self-play against a copy)")
    parser.add_argument("--budget", default=None, help="override the strong bot's --budget (e.g. 16samples)")
    parser.add_argument("--seed", type=int, default=None,
                        help="master seed of the deals (default: the template's); results go to their own folders")
    parser.add_argument("--nil-reference", action="store_true",
                        help="partnership rows: also run the opponent defending its own Nils on the same deals")
    parser.add_argument("--output", type=Path, default=ROOT / "results" / "strength",
                        help="folder for the generated configs and results (default results/strength)")
    parser.add_argument("--jobs", type=int, default=None, help="matches at once (default 1)")
    parser.add_argument("--fresh", action="store_true", help="discard earlier results and start over")
    parser.add_argument("--report-only", action="store_true", help="only read and report finished results")
    args = parser.parse_args(argv)
    for flag, value in (("--matches", args.matches), ("--other-matches", args.other_matches)):
        if value is not None and value < 1:
            parser.error(f"{flag} must be at least 1, got: {value}")
    rules: dict[str, Any] = {}
    for item in args.rule:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            parser.error(f"--rule takes KEY=VALUE, got: {item!r}")
        rules[key.strip()] = yaml.safe_load(value)
    if rules and args.ruleset:
        parser.error("--rule and --ruleset do not go together: --rule makes its own rows")
    out_root = args.output.resolve()
    results = []
    for row in select_rows(args, rules):
        count = args.matches if row.opponent == "heuristic" or args.other_matches is None else args.other_matches
        path, cfg = row_config(row, count, args.budget, out_root, args.seed)
        folder = out_root / cfg["output"]
        if not args.report_only:
            print(f"running {row.variant} ({row.rules_text()}) vs {row.opponent}: {cfg['matches_per_pairing']} "
                  f"matches ({path.name})", file=sys.stderr, flush=True)
            run_tournament(path, args.fresh, args.jobs)
        records = read_records(folder)
        ref = None
        if args.nil_reference and row.variant == "partnership" and row.opponent != SELF:
            rpath, rcfg = row_config(row, count, args.budget, out_root, args.seed, reference=True)
            rfolder = out_root / rcfg["output"]
            if not args.report_only:
                if args.fresh and rfolder.exists():
                    shutil.rmtree(rfolder)
                share_deals(folder, rfolder)  # the same cards, hand by hand
                print(f"running the nil reference: {row.opponent} in both chairs ({rpath.name})",
                      file=sys.stderr, flush=True)
                run_tournament(rpath, False, args.jobs)
            ref = nil_pairs(records, read_records(rfolder))
        results.append((row, summarize(records), breakdown(records), ref))
    text = report(results)
    print(text)
    tag = rules_tag(rules) + "".join(f"-{n}" for n in args.ruleset) + "".join(f"-vs-{o}" for o in args.opponent)
    if args.variant != "both":
        tag += f"-{args.variant}"
    if args.seed is not None:
        tag += f"-seed{args.seed}"
    (out_root / f"strength{tag}.txt").write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
