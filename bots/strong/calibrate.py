"""Offline calibration of the hand models in ``params.json`` by self-play simulation.

    python3 -m bots.strong.calibrate --hands 4000 [--write]

Plays whole matches in the in-process arena (:mod:`bots.strong.arena`) between
:class:`~bots.strong.arena.PolicyBot` players (fitted-model bids, rule-based play, real
imperfect information; in two-player the draw uses the strong bot's keep decisions), and
records for every seat the hand it bid on and the tricks it took. Some bids are forced to
Nil and some seats to Blind Nil, so that the nil models see enough of them. Then it fits:

* ``tricks4``/``tricks2``: least squares of tricks taken on :func:`evaluate.trick_features`
  (non-nil bidders), plus the residual spread;
* ``nil4``/``nil2``: logistic regression (Newton steps) of "took no trick" on
  :func:`evaluate.nil_features` (nil bidders);
* ``blind_nil``: the observed Blind Nil success rate per variant;
* ``keep2``: how often a two-player drawer keeps a card it saw, by rank (plain, spade),
  which the sampler uses to deal the opponent the cards it likely kept;
* ``keep2nil``: the same for a drawer that bid Blind Nil (it keeps low cards), from
  draws simulated with the bot's own nil-plan keep decisions (:func:`draw_keep_rates`);
  ``--keep2nil-only`` refits just this table.

``sim_optimism`` (how many tricks the bidding simulation takes away from the bidder) is
not fitted here: it was measured (partnership) and tuned (two-player) in matches against
the heuristic bot, see docs/strong-bot.md.

Two or three rounds (fit, write, replay with the new bids) converge.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from typing import Sequence

from . import evaluate
from .arena import Arena, PolicyBot
from .cards import mask_of, parse_card
from .draw import keep_card


class RecordingBot(PolicyBot):
    """A PolicyBot that records its bidding hands and is sometimes forced to bid nil."""

    def __init__(self, seed: int, nil_rate: float, blind_rate: float):
        super().__init__(seed)
        self.nil_rate = nil_rate
        self.blind_rate = blind_rate
        self.records: list[tuple[int, int]] = []  # (hand_no, hand mask at bid time)
        self.hand_no = 0
        self.kept = [[0] * 13, [0] * 13]  # [plain, spade][rank]: cards seen and kept
        self.seen = [[0] * 13, [0] * 13]  # ... and cards seen in the draw

    def handle(self, msg: dict) -> dict | None:
        kind = msg.get("type")
        if kind == "hand_start":
            self.hand_no = msg.get("hand", self.hand_no + 1)
        if kind == "drawn":
            for field, kept in (("kept", 1), ("discarded", 0)):
                c = parse_card(msg[field])
                sp = 1 if c // 13 == 3 else 0
                self.seen[sp][c % 13] += 1
                self.kept[sp][c % 13] += kept
        if kind == "blind_nil" and "id" in msg:
            super().handle(msg)
            return {"id": msg["id"], "blind_nil": self.rng.random() < self.blind_rate}
        if kind == "bid" and "id" in msg:
            hand = mask_of(parse_card(c) for c in msg["state"]["hand"])
            self.records.append((self.hand_no, hand))
            ans = super().handle(msg)
            if 0 in msg["legal"] and self.rng.random() < self.nil_rate * evaluate.nil_probability(hand, 4 if len(msg["state"]["bids"]) == 4 else 2) * 2:
                assert ans is not None
                ans["bid"] = 0
            return ans
        return super().handle(msg)


def collect(n: int, hands_wanted: int, seed: int) -> dict[str, list]:
    """Play matches until ``hands_wanted`` hands are recorded; return the samples."""
    rng = random.Random(seed)
    data: dict[str, list] = {"tricks": [], "nil": [], "blind": [],
                             "kept": [[0] * 13, [0] * 13], "seen": [[0] * 13, [0] * 13]}
    hands = 0
    while hands < hands_wanted:
        bots = [RecordingBot(rng.randrange(1 << 30), nil_rate=0.25, blind_rate=0.04) for _ in range(n)]
        res = Arena(bots, seed=rng.randrange(1 << 30)).play_match()
        for s, bot in enumerate(bots):
            for sp in (0, 1):
                for r in range(13):
                    data["kept"][sp][r] += bot.kept[sp][r]
                    data["seen"][sp][r] += bot.seen[sp][r]
            recs = dict(bot.records)
            for i, h in enumerate(res.hands, start=1):
                if h.blind[s]:
                    data["blind"].append(h.tricks[s] == 0)
                    continue
                hand = recs.get(i)
                if hand is None or hand.bit_count() != 13:
                    continue
                if h.bids[s] == 0:
                    data["nil"].append((evaluate.nil_features(hand), 1.0 if h.tricks[s] == 0 else 0.0))
                else:
                    data["tricks"].append((evaluate.trick_features(hand), float(h.tricks[s])))
        hands += len(res.hands)
    return data


def draw_keep_rates(hands: int, seed: int, nil_plan: bool) -> dict[str, list[float]]:
    """How often the bot's keep decisions keep a card they saw, by rank (plain, spade),
    over ``hands`` simulated two-player draws.

    Only this seat's decisions matter, and they depend only on its own cards, so a draw
    is a shuffled deck of which this seat sees cards 4i and 4i+1 on its turn i (the
    opponent's cards in between are unseen either way). With the normal plan this
    reproduces the self-play ``keep2`` table within a few hundredths."""
    rng = random.Random(seed)
    kept = [[0] * 13, [0] * 13]
    seen = [[0] * 13, [0] * 13]
    for _ in range(hands):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = discards = 0
        for i in range(13):
            a, b = deck[4 * i], deck[4 * i + 1]
            keep, drop = (a, b) if keep_card(hand, discards, a, nil_plan) else (b, a)
            hand |= 1 << keep
            discards |= 1 << drop
            for c, k in ((keep, 1), (drop, 0)):
                sp = 1 if c // 13 == 3 else 0
                seen[sp][c % 13] += 1
                kept[sp][c % 13] += k
    rates = [[round(kept[sp][r] / max(1, seen[sp][r]), 2) for r in range(13)] for sp in (0, 1)]
    return {"plain": rates[0], "spade": rates[1]}


def solve_linear(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a x = b`` by Gaussian elimination with partial pivoting (small systems)."""
    m = len(b)
    aug = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(m):
        piv = max(range(col, m), key=lambda r: abs(aug[r][col]))
        aug[col], aug[piv] = aug[piv], aug[col]
        if abs(aug[col][col]) < 1e-12:
            continue
        for r in range(m):
            if r != col:
                f = aug[r][col] / aug[col][col]
                if f:
                    for c in range(col, m + 1):
                        aug[r][c] -= f * aug[col][c]
    return [aug[i][m] / aug[i][i] if abs(aug[i][i]) > 1e-12 else 0.0 for i in range(m)]


def fit_least_squares(xs: Sequence[Sequence[float]], ys: Sequence[float], ridge: float = 1.0) -> tuple[list[float], float]:
    """Ridge least squares; returns weights and residual standard deviation."""
    k = len(xs[0])
    ata = [[0.0] * k for _ in range(k)]
    aty = [0.0] * k
    for x, y in zip(xs, ys):
        for i in range(k):
            aty[i] += x[i] * y
            xi = x[i]
            if xi:
                row = ata[i]
                for j in range(k):
                    row[j] += xi * x[j]
    for i in range(1, k):
        ata[i][i] += ridge
    w = solve_linear(ata, aty)
    res = [y - sum(a * b for a, b in zip(w, x)) for x, y in zip(xs, ys)]
    sigma = math.sqrt(sum(r * r for r in res) / max(1, len(res)))
    return w, sigma


def fit_logistic(xs: Sequence[Sequence[float]], ys: Sequence[float], ridge: float = 1.0, steps: int = 25) -> list[float]:
    """L2-regularised logistic regression by Newton's method."""
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(steps):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in zip(xs, ys):
            z = max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x))))
            p = 1.0 / (1.0 + math.exp(-z))
            g = y - p
            h = p * (1 - p)
            for i in range(k):
                grad[i] += g * x[i]
                if x[i]:
                    for j in range(k):
                        hess[i][j] += h * x[i] * x[j]
        for i in range(1, k):
            grad[i] -= ridge * w[i]
            hess[i][i] += ridge
        step = solve_linear(hess, grad)
        w = [a + b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


def fit_blind_exchange(deals: int, seed: int, power: float = 0.75) -> list[float]:
    """Weights of :func:`evaluate.blind_exchange_weight`: over ``deals`` random deals, the
    likelihood ratio of a Blind Nil bidder's queens, kings and aces after the exchange as
    this bot makes it (:func:`bidding._exchange`) against a random hand's, softened to
    ``power`` (other bots pass differently), for 0..6 or more."""
    from .bidding import _exchange  # local: bidding imports this module's siblings
    rng = random.Random(seed)
    after, before = [1] * 7, [1] * 7  # add-one smoothing
    for _ in range(deals):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[s * 13:(s + 1) * 13]) for s in range(4)]
        before[min(6, (hands[1] & evaluate.HONOURS_MASK).bit_count())] += 1
        after[min(6, (_exchange(hands, 1, 3)[1] & evaluate.HONOURS_MASK).bit_count())] += 1
    return [round((a / b) ** power, 3) for a, b in zip(after, before)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands to simulate per variant")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--write", action="store_true", help="write the fit into params.json")
    parser.add_argument("--keep2nil-only", action="store_true",
                        help="refit only the Blind Nil drawer's keep rates (keep2nil, about a minute)")
    args = parser.parse_args(argv)
    params = json.loads(json.dumps(evaluate.PARAMS))
    params["keep2nil"] = draw_keep_rates(2000, args.seed, nil_plan=True)
    print(f"2-seat Blind Nil keep rates: plain {params['keep2nil']['plain']}, spades {params['keep2nil']['spade']}")
    for n, tag in (() if args.keep2nil_only else ((4, "4"), (2, "2"))):
        data = collect(n, args.hands, args.seed + n)
        xs, ys = zip(*data["tricks"])
        w, sigma = fit_least_squares(xs, ys)
        params["tricks" + tag] = {"weights": [round(v, 4) for v in w], "sigma": round(sigma, 3)}
        print(f"{n}-seat tricks: {len(ys)} hands, sigma {sigma:.3f}, weights {dict(zip(evaluate.TRICK_FEATURES, [round(v, 3) for v in w]))}")
        if len(data["nil"]) >= 50:
            nx, ny = zip(*data["nil"])
            wl = fit_logistic(nx, ny)
            params["nil" + tag] = {"weights": [round(v, 4) for v in wl]}
            print(f"{n}-seat nil: {len(ny)} nils, success {sum(ny) / len(ny):.3f}")
        if n == 2:
            rates = [[round(data["kept"][sp][r] / max(1, data["seen"][sp][r]), 2) for r in range(13)]
                     for sp in (0, 1)]
            params["keep2"] = {"plain": rates[0], "spade": rates[1]}
            print(f"2-seat keep rates: plain {rates[0]}, spades {rates[1]}")
        if data["blind"]:
            rate = sum(data["blind"]) / len(data["blind"])
            params["blind_nil"]["p" + tag] = round(rate, 3)
            print(f"{n}-seat blind nil: {len(data['blind'])} bids, success {rate:.3f}")
    params["blind_exchange4"] = dict(params.get("blind_exchange4", {}),
                                     weights=fit_blind_exchange(10 * args.hands, args.seed))
    print(f"4-seat blind nil exchange weights: {params['blind_exchange4']['weights']}")
    if args.write:
        with open(evaluate._PARAMS_FILE, "w", encoding="utf-8") as fh:
            json.dump(params, fh, indent=1)
            fh.write("\n")
        print(f"wrote {evaluate._PARAMS_FILE}")
    else:
        json.dump(params, sys.stdout, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
