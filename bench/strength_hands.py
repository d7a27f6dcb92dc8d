#!/usr/bin/env python3
"""Paired single-hand comparison of strong-bot settings against the heuristic bot, in
process (a tuning tool: the strength figures come from ``bench/strength.py``, which
plays real matches through the referee).

Every deal is played as the first hand of a partnership match twice, the strong bot in
seats 0 and 2 and then in seats 1 and 3, once per setting; the same deals serve every
setting (common random numbers). Reported per setting: the strong side's mean net
points per hand (its points minus the opponents'), contracts made, and the paired
difference to the first setting with its standard error.

    python3 bench/strength_hands.py --deals 40 --set sim_optimism=0.25 --set sim_optimism=1.0
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bots"))

from bots.strong import evaluate  # noqa: E402
from bots.strong.arena import Arena  # noqa: E402
from bots.strong.bot import Budget, StrongBot  # noqa: E402
from bots.strong.game import RuleSet  # noqa: E402

import heuristic_bot  # noqa: E402
import spadesbot  # noqa: E402


class Heuristic:
    """The bundled heuristic bot behind the arena's ``handle`` interface."""

    def __init__(self) -> None:
        self.bot = heuristic_bot.HeuristicBot()

    def handle(self, msg: dict) -> dict | None:
        if "id" in msg:
            return spadesbot.decide(self.bot, msg, strict=True)
        self.bot.event(msg)
        return None


def apply(setting: str) -> None:
    """Set one tunable: ``sim_optimism=X`` (partnership bidding optimism)."""
    key, _, value = setting.partition("=")
    if key == "sim_optimism":
        evaluate.PARAMS["sim_optimism"]["4"] = float(value)
    else:
        raise SystemExit(f"error: unknown setting {key!r} (known: sim_optimism), got: {setting!r}")


def play(deal: int, leg: int, budget: Budget, rules: RuleSet) -> tuple[float, int, int]:
    """Net points of the strong side in the first hand of deal ``deal``; contracts made/bid."""
    seats = [StrongBot(budget, seed=deal * 4 + s, log=lambda _t: None) if s % 2 == leg else Heuristic()
             for s in range(4)]
    h = Arena(seats, rules, seed=deal).play_match(hands=1).hands[0]
    side = leg
    ss = (side, side + 2)
    contract = sum(h.bids[s] for s in ss if h.bids[s])
    took = sum(h.tricks[s] for s in ss if h.bids[s])
    return h.points[side] - h.points[1 - side], int(bool(contract) and took >= contract), int(bool(contract))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--first-deal", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], dest="settings", metavar="KEY=VALUE")
    parser.add_argument("--budget", default="16samples")
    parser.add_argument("--rule", action="append", default=["blind_nil=false"], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    import yaml
    rules = RuleSet.from_mapping({k: yaml.safe_load(v) for k, _, v in (r.partition("=") for r in args.rule)})
    budget = Budget.parse(args.budget)
    settings = args.settings or ["sim_optimism=0.25"]
    results: dict[str, list[float]] = {}
    for setting in settings:
        apply(setting)
        nets, made, bid = [], 0, 0
        for d in range(args.first_deal, args.first_deal + args.deals):
            for leg in (0, 1):
                net, m, b = play(d, leg, budget, rules)
                nets.append(net)
                made += m
                bid += b
        results[setting] = nets
        base = results[settings[0]]
        diffs = [a - b for a, b in zip(nets, base)]
        mean = sum(diffs) / len(diffs)
        se = math.sqrt(sum((x - mean) ** 2 for x in diffs) / max(1, len(diffs) - 1) / len(diffs))
        print(f"{setting:<22} hands {len(nets):>4}  net/hand {sum(nets) / len(nets):>+7.1f}  contracts made "
              f"{made}/{bid}  vs first {mean:>+6.1f} +- {se:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
