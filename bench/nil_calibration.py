#!/usr/bin/env python3
"""Are Nils made as often as the strong bot's nil model says? Read from real matches.

The strong bot bids Nil only on hands its fitted nil model (``bots/strong/evaluate.py``,
``nil_probability``) gives a good chance, and its bid simulation weighs the rest. Whether
that model is right against a given opponent can only be read from matches played
through the referee: for every Nil (not Blind Nil) bid in a results folder, this script
takes the hand the bidder held when it was asked to bid (the ``bid`` request in the
match's log), asks the model its chance, and sorts the Nils by that chance and by bot,
next to how many were made, with a 95% interval.

    python3 bench/nil_calibration.py results/strength/partnership-heuristic-blind_nil-False-seed8282

Reads ``matches.jsonl`` and ``logs/<match>.jsonl`` of each results folder (a strength row
or any tournament run with its logs). The model is the strong bot's for both sides, so
the opponent's rows say how its Nils fare against the strong bot's defence on hands the
model rates alike.

``--simulate N`` asks the same of the bid simulation instead, in process: on random
partnership deals, N hands the model rates at 0.65 or more bid Nil (every other seat
bids the model's figure) and are played out by the policy with every hand seen, as the
simulation plays them. A simulation that flattered Nils would make more than the model
says.

    python3 bench/nil_calibration.py --simulate 600
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from twin_gain import read_records  # noqa: E402

from bots.strong.bidding import NIL_MIN_PARTNERSHIP, predicted_bid  # noqa: E402
from bots.strong.cards import mask_of, parse_card  # noqa: E402
from bots.strong.evaluate import nil_probability  # noqa: E402
from bots.strong.playout import playout  # noqa: E402
from referee.tournament.ratings import wilson  # noqa: E402

#: Upper ends of the model's bands (the last one takes everything up to 1).
BANDS = (0.5, 0.65, 0.75, 0.85, 1.0)


@dataclass
class Band:
    """The Nils one bot bid on hands the model put in one band."""

    model: list[float] = field(default_factory=list)
    made: int = 0

    @property
    def count(self) -> int:
        return len(self.model)


def band_of(p: float) -> int:
    return next((i for i, hi in enumerate(BANDS) if p < hi), len(BANDS) - 1)


def bid_hands(log_lines: Iterable[str]) -> dict[tuple[int, int], list[str]]:
    """(hand number, seat) -> the cards that seat held when it was asked to bid."""
    out: dict[tuple[int, int], list[str]] = {}
    for line in log_lines:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # a log cut off mid-line (a match stopped by hand): the rest still counts
        if not isinstance(entry, dict):
            continue
        msg = entry.get("msg")
        if entry.get("dir") != "out" or not isinstance(msg, dict) or msg.get("type") != "bid":
            continue
        state = msg.get("state") or {}
        seat = entry.get("seat")
        if isinstance(state.get("hand_no"), int) and isinstance(seat, int) and isinstance(state.get("hand"), list):
            out[(state["hand_no"], seat)] = state["hand"]
    return out


def calibrate(folder: Path) -> tuple[dict[str, list[Band]], int]:
    """Per bot, its Nils by model band; and the number of matches without a log."""
    bands: dict[str, list[Band]] = defaultdict(lambda: [Band() for _ in BANDS])
    missing = 0
    for record in read_records(folder):
        log = folder / "logs" / f"{record['match']}.jsonl"
        if not log.is_file():
            missing += 1
            continue
        held = bid_hands(log.read_text().splitlines())
        seats = len(record["bots"])
        for hand in record["hands"]:
            for seat, bid in enumerate(hand["bids"]):
                if bid != 0 or hand["blind"][seat] or (hand["hand"], seat) not in held:
                    continue
                cards = held[(hand["hand"], seat)]
                p = nil_probability(mask_of([parse_card(c) for c in cards]), seats)
                band = bands[record["bots"][seat]][band_of(p)]
                band.model.append(p)
                band.made += hand["tricks"][seat] == 0
    return bands, missing


def simulate(count: int, seed: int, least: float = NIL_MIN_PARTNERSHIP) -> dict[str, list[Band]]:
    """``count`` Nils played out with every hand seen (see the module's docstring); ``least``:
    the smallest modelled success rate bid, by default the bot's own partnership threshold."""
    rng = random.Random(seed)
    bands = [Band() for _ in BANDS]
    done = 0
    while done < count:
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [mask_of(deck[13 * s:13 * (s + 1)]) for s in range(4)]
        for me in range(4):
            p = nil_probability(hands[me], 4)
            if p < least or done >= count:
                continue
            # Never two Nils on one side: the partner bids at least one trick.
            bids = [0 if s == me else max(1 if s == (me + 2) % 4 else 0, predicted_bid(hands[s], 4, True))
                    for s in range(4)]
            final = playout(hands, [], 1, False, [0] * 4, bids)  # dealer 0: seat 1 leads
            band = bands[band_of(p)]
            band.model.append(p)
            band.made += final[me] == 0
            done += 1
    return {"simulation": bands}


def report(bands: dict[str, list[Band]], missing: int) -> str:
    if not bands:
        return "no Nil bid in these matches" + (f" ({missing} matches without a log)" if missing else "")
    lines = [f"{'bot':<20} {'model':>10} {'nils':>6} {'model says':>11} {'made':>6} {'95% interval':>14}"]
    for bot in sorted(bands):
        for i, band in enumerate(bands[bot]):
            if not band.count:
                continue
            lo = BANDS[i - 1] if i else 0.0
            a, b = wilson(band.made, band.count)
            lines.append(f"{bot:<20} {f'{lo:.2f}-{BANDS[i]:.2f}':>10} {band.count:>6} "
                         f"{100 * sum(band.model) / band.count:>10.0f}% {100 * band.made / band.count:>5.0f}% "
                         f"{f'{100 * a:.0f}-{100 * b:.0f}%':>14}")
        total = [x for band in bands[bot] for x in band.model]
        made = sum(band.made for band in bands[bot])
        lines.append(f"{bot:<20} {'all':>10} {len(total):>6} {100 * sum(total) / len(total):>10.0f}% "
                     f"{100 * made / len(total):>5.0f}%")
    if missing:
        lines.append(f"({missing} matches without a log were left out)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, help="results folders (matches.jsonl and logs/)")
    parser.add_argument("--simulate", type=int, metavar="N", help="also N Nils played out in process")
    parser.add_argument("--seed", type=int, default=5, help="seed of --simulate's deals (default 5)")
    args = parser.parse_args(argv)
    if not args.folders and not args.simulate:
        parser.error("give results folders, --simulate N, or both")
    if args.simulate:
        print(f"== {args.simulate} Nils played out by the policy, every hand seen")
        print(report(simulate(args.simulate, args.seed), 0))
        print()
    for folder in args.folders:
        print(f"== {folder}")
        print(report(*calibrate(folder)))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
