#!/usr/bin/env python3
"""How far the strong bot's bidding simulation overrates its tricks, from match logs.

The bid decision (``bots/strong/bidding.py``) plays sampled deals out with every hand in
view, which flatters the bidder; it takes ``sim_optimism2`` tricks (two-player, per role)
away from it. This script measures that gap where it matters, in real matches: it
replays the transcripts of finished two-player matches (``logs/*.jsonl`` of a results
folder, e.g. from ``bench/strength.py``) to a fresh strong bot, and at every bid of the
strong seat it simulates the bid that was made (the bot's own sampler and playouts, no
optimism) and compares the simulated mean with the tricks really taken.

    python3 bench/bid_gap.py results/strength/two-player-heuristic results/strength/two-player-heuristic-js

Reported per role (first player, second player; hands where the opponent bid Nil or
Blind Nil apart, as that opponent ducks every trick): hands, mean gap (simulated - real)
with its 95% interval, the spread of the gap and the spread of the simulated tricks
within one decision (the simulation already has this much spread; if the two are close,
shifting by the mean is all the correction needed).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bots.strong.bidding import first_leader, predicted_bid  # noqa: E402
from bots.strong.bot import Budget, StrongBot  # noqa: E402
from bots.strong.game import RuleSet  # noqa: E402
from bots.strong.playout import playout  # noqa: E402
from bots.strong.sampler import knowledge, sample_deals  # noqa: E402
from bots.strong.view import View  # noqa: E402


@dataclass
class BidSample:
    """One bid of the strong seat: its role, the bid, simulated and real tricks."""

    first: bool
    bid: int
    simulated: float
    spread: float
    real: int
    opp_nil: bool


def simulated_tricks(view: View, rules: RuleSet, bid: int, samples: int, rng: random.Random) -> list[int]:
    """This seat's tricks in ``samples`` playouts of sampled deals after bidding ``bid``
    (the bidding simulation's deals and playouts, without the optimism correction)."""
    n, me = view.n, view.seat
    out = []
    for hands in sample_deals(knowledge(view, rules.blind_nil_cards), samples, rng):
        bids = list(view.bids)
        for s in range(n):
            if s != me and bids[s] is None:
                bids[s] = predicted_bid(hands[s], n, rules.nil)
        bids[me] = bid
        out.append(playout(hands, [], first_leader(view), False, [0] * n, bids)[me])
    return out


def replay(log: Path, samples: int, rng: random.Random, name: str = "strong") -> list[BidSample]:
    """Every normal (not Blind Nil, not Nil) bid of ``name`` in one two-player transcript."""
    rows: list[BidSample] = []
    bot = StrongBot(budget=Budget(samples=samples), log=lambda _text: None)
    seat = None
    pending: View | None = None
    with open(log, encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            msg = rec.get("msg")
            if rec.get("dir") != "out" or not isinstance(msg, dict):
                continue
            kind = msg.get("type")
            if seat is None and kind == "hello" and (msg.get("names") or [None, None])[msg.get("seat", 0)] == name:
                seat = msg["seat"]
                if msg.get("variant") != "two-player":
                    return []
            if rec.get("seat") != seat:
                continue
            if kind == "hello":
                bot.handle(msg)
            elif kind == "bid":
                pending = bot._view(msg)
            elif "id" not in msg:
                bot.handle(msg)
                if kind == "hand_end" and pending is not None:
                    bid, blind = msg["bids"][seat], msg["blind"][seat]
                    opp_nil = msg["bids"][1 - seat] == 0
                    if bid and not blind:
                        xs = simulated_tricks(pending, bot.rules, bid, samples, rng)
                        if xs:
                            mu = statistics.fmean(xs)
                            rows.append(BidSample(pending.first == seat, bid, mu, statistics.pstdev(xs),
                                                  msg["tricks"][seat], opp_nil))
                    pending = None
    return rows


def summary(rows: list[BidSample]) -> str:
    """One line: hands, mean gap with 95% interval, spread of the gap, spread within a decision."""
    if len(rows) < 2:
        return f"{len(rows)} hands"
    gaps = [r.simulated - r.real for r in rows]
    mu, sd = statistics.fmean(gaps), statistics.stdev(gaps)
    half = 1.96 * sd / math.sqrt(len(gaps))
    return (f"{len(rows):>5} hands  gap {mu:+.2f} ({mu - half:+.2f} to {mu + half:+.2f})  "
            f"gap spread {sd:.2f}  simulated spread {statistics.fmean(r.spread for r in rows):.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Measure the bidding simulation's optimism from match logs.")
    parser.add_argument("folders", nargs="+", type=Path, help="results folders with logs/*.jsonl")
    parser.add_argument("--samples", type=int, default=96, help="deals per simulated bid (default 96, as a "
                        "48samples bot bids)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    rows: list[BidSample] = []
    for folder in args.folders:
        logs = sorted((folder / "logs").glob("*.jsonl"))
        if not logs:
            sys.exit(f"error: no match transcripts in {str(folder / 'logs')!r}: expected a results folder "
                     "of a finished tournament")
        for log in logs:
            rows += replay(log, args.samples, rng)
    # An opponent's Nil changes the hand (it ducks everything): reported apart.
    normal = [r for r in rows if not r.opp_nil]
    groups = (("first player", [r for r in normal if r.first]), ("second player", [r for r in normal if not r.first]),
              ("both roles", normal), ("opponent Nil", [r for r in rows if r.opp_nil]))
    for label, group in groups:
        print(f"{label:<14}{summary(group)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
