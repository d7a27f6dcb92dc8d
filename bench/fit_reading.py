"""Fit the learned reading of the play (``bots/strong/reading.py``) from the strong bot's
own games, and print how much better it places the cards than the sampler alone.

    python3 bench/fit_reading.py --deals 700 --first-deal 20001 --jobs 2 --save /tmp/reading.jsonl
    python3 bench/fit_reading.py --records /tmp/reading.jsonl     # fit again, no play

The strong pair plays the first hand of each deal (both legs) against the heuristic pair,
as ``bench/strength_hands.py`` does (``blind_nil: false``). At each of its play
decisions the sampler deals ``--marginal`` fresh deals from the decision's view; the
share of them that give seat s card c is the sampler's marginal, and the true deal is
the label. A logistic regression per relation (partner, opponents) takes the
marginal's log-odds as its offset, so its weights learn what the sampler misses. The
last 30% of the decisions are held out for the table; the weights printed at the end are
fitted on all of them, ready to paste into ``reading.py``. The deals used for the
shipped weights (20001-20700) are disjoint from those of every strength measurement.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from scipy.optimize import minimize  # type: ignore[import-untyped]  # noqa: E402

import strength_hands as hands  # noqa: E402
from bots.strong import bot as strong_bot  # noqa: E402
from bots.strong import reading, sampler  # noqa: E402
from bots.strong.arena import Arena  # noqa: E402

BUDGET = "32samples,exact=16,bid=32"
_TRUE: list[int] = []
_OUT: list[dict[str, Any]] = []


def _record_deal(task: tuple[int, int, int]) -> list[dict[str, Any]]:
    """Play one side-hand; return a record per strong play decision."""
    deal, leg, marginal = task
    budget = hands.apply("base", BUDGET)  # first: applying a setting resets Arena._ask
    ask, decide = Arena._ask, strong_bot.decide_play

    def publish(self: Arena, seat: int, kind: str, extra: dict, field: str) -> Any:
        _TRUE[:] = self.hands  # the true deal, for the labels
        return ask(self, seat, kind, extra, field)

    def record(view: Any, rules: Any, legal: int, cfg: Any, rng: random.Random,
               log: Callable[[str], None] | None = None) -> Any:
        rep = decide(view, rules, legal, cfg, rng, log)
        if legal & (legal - 1) and len(_TRUE) == 4 and _TRUE[view.seat] == view.hand:
            k = sampler.knowledge(view, rules.blind_nil_cards, read_play=True)
            deals = sampler.sample_deals(k, marginal, random.Random(deal * 1000 + len(view.played)))
            counts = {s: [sum(d[s] >> c & 1 for d in deals) for c in range(52)] for s in range(4) if s != view.seat}
            _OUT.append({"seat": view.seat, "hand": view.hand, "played": view.played, "bids": view.bids,
                         "true": list(_TRUE), "n": len(deals), "marg": counts})
        return rep

    _OUT.clear()
    Arena._ask = publish  # type: ignore[method-assign]
    strong_bot.decide_play = record
    try:
        hands.play(deal, leg, budget, hands.rules_of(["blind_nil=false"]), 10.0)
    finally:
        Arena._ask = ask  # type: ignore[method-assign]
        strong_bot.decide_play = decide
    return list(_OUT)


def rows(records: list[dict[str, Any]]) -> dict[str, tuple[np.ndarray, ...]]:
    """Per relation: features, offsets, labels, cards in the reader's hand, decision index
    (the seat-card pairs the sampler left uncertain)."""
    out: dict[str, list[list[Any]]] = {"partner": [[], [], [], [], []], "opponents": [[], [], [], [], []]}
    for i, rec in enumerate(records):
        played = [tuple(p) for p in rec["played"]]
        plays = reading.plays_by_seat(played, rec["bids"])
        seen = rec["hand"]
        for _, c in played:
            seen |= 1 << c
        n = rec["n"]
        for s_key, counts in rec["marg"].items():
            s = int(s_key)
            x, off, y, left, idx = out["partner" if (s - rec["seat"]) % 4 == 2 else "opponents"]
            for c in range(52):
                if counts[c] in (0, n):
                    continue
                p = min(max(counts[c] / n, 0.5 / n), 1 - 0.5 / n)
                x.append(reading.features(plays, rec["bids"], seen, s, c))
                off.append(math.log(p / (1 - p)))
                y.append(rec["true"][s] >> c & 1)
                left.append(rec["hand"].bit_count())
                idx.append(i)
    return {k: tuple(np.array(v, dtype=float) for v in cols) for k, cols in out.items()}


def log_loss(y: np.ndarray, z: np.ndarray) -> float:
    return float(np.mean(np.logaddexp(0, z) - y * z))


def fit(x: np.ndarray, off: np.ndarray, y: np.ndarray, l2: float = 1.0) -> np.ndarray:
    """Bias and weights (raw feature scale) of a logistic regression with offset ``off``."""
    mu, sd = x.mean(0), x.std(0) + 1e-9
    z = np.hstack([np.ones((len(x), 1)), (x - mu) / sd])

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        logit = off + z @ w
        p = 1 / (1 + np.exp(-logit))
        return (log_loss(y, logit) + 0.5 * l2 * float(w @ w) / len(y), z.T @ (p - y) / len(y) + l2 * w / len(y))

    w = minimize(loss, np.zeros(z.shape[1]), jac=True, method="L-BFGS-B").x
    raw = w[1:] / sd
    return np.concatenate([[w[0] - float((mu * raw).sum())], raw])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=700)
    ap.add_argument("--first-deal", type=int, default=20001)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--marginal", type=int, default=128, help="fresh deals per decision for the sampler's marginal")
    ap.add_argument("--save", type=Path, help="write the decisions here (JSON lines)")
    ap.add_argument("--records", type=Path, help="fit on decisions saved earlier instead of playing")
    args = ap.parse_args(argv)
    if args.records:
        try:
            records = [json.loads(line) for line in args.records.read_text().splitlines() if line.strip()]
        except (OSError, json.JSONDecodeError) as err:
            raise SystemExit(f"error: cannot read decisions from {args.records}: {err}") from None
    else:
        tasks = [(d, leg, args.marginal) for d in range(args.first_deal, args.first_deal + args.deals) for leg in (0, 1)]
        if args.jobs == 1:
            batches = list(map(_record_deal, tasks))
        else:
            with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
                batches = pool.map(_record_deal, tasks, chunksize=4)
        records = [r for batch in batches for r in batch]
        if args.save:
            args.save.write_text("".join(json.dumps(r) + "\n" for r in records))
    if len(records) < 10:
        raise SystemExit(f"error: {len(records)} decisions are too few to fit on")
    print(f"{len(records)} decisions")
    held_from = int(len(records) * 0.7)
    weights = {}
    for rel, (x, off, y, left, idx) in rows(records).items():
        train, test = idx < held_from, idx >= held_from
        w = fit(x[train], off[train], y[train])
        z = off + w[0] + x @ w[1:]
        print(f"{rel}: {len(y)} uncertain seat-card pairs; held-out log loss (nats), sampler -> with the fit")
        for lo, hi in ((1, 5), (6, 8), (9, 13), (1, 13)):
            m = test & (left >= lo) & (left <= hi)
            if m.any():
                print(f"  {lo}-{hi} cards in hand: {log_loss(y[m], off[m]):.4f} -> {log_loss(y[m], z[m]):.4f}"
                      f"  ({int(m.sum())} pairs)")
        weights[rel] = fit(x, off, y)
    for rel, name in (("partner", "PARTNER_WEIGHTS"), ("opponents", "OPPONENT_WEIGHTS")):
        print(f"{name}: tuple[float, ...] = ({', '.join(f'{v:.4f}' for v in weights[rel])},)")


if __name__ == "__main__":
    main()
