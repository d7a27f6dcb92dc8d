"""Two-player bids in a hand that can decide the match: every bid is simulated."""

from __future__ import annotations

import random

from bots.strong.bidding import BidConfig, decide_bid, may_end_match
from bots.strong.game import RuleSet
from bots.strong.view import View, parse_view

HAND = ["AS", "KS", "9S", "5S", "3S", "AH", "8H", "4H", "KD", "7D", "2D", "9C", "3C"]


def bid_view(score: list[int], opp_bid: int = 5, hand_no: int = 6) -> View:
    st = {"hand_no": hand_no, "seat": 0, "phase": "bid", "hand": HAND, "first": 0, "bids": [None, opp_bid],
          "blind": [False, False], "tricks": [0, 0], "trick": [], "leader": 1, "spades_broken": False,
          "played": [], "score": score, "bags": [3, 4], "discards": []}
    return parse_view(st, 2, 0)


def candidates(view: View, rules: RuleSet = RuleSet()) -> list[int]:
    lines: list[str] = []
    decide_bid(view, rules, list(range(14)), BidConfig(samples=24), random.Random(2), lines.append)
    return [int(part.split(":")[0]) for part in lines[0][len("bid: "):].split(" (")[0].split(", ")]


def test_a_hand_that_can_end_the_match_simulates_every_bid() -> None:
    assert may_end_match(bid_view([444, 476]), RuleSet())
    assert candidates(bid_view([444, 476], opp_bid=7)) == list(range(1, 14))
    # Far from the target the usual window around the estimate is kept...
    assert not may_end_match(bid_view([100, 150]), RuleSet())
    early = candidates(bid_view([100, 150]))
    assert len(early) == 5 and early == list(range(early[0], early[0] + 5))
    # ... unless it is the last hand the rules allow, or a lower target is near.
    assert may_end_match(bid_view([100, 150], hand_no=20), RuleSet(max_hands=20))
    assert may_end_match(bid_view([100, 150]), RuleSet(target=300))
