"""The strong bot against a two-player opponent who bid Blind Nil: what it believes the
opponent kept in the draw, and how high it bids."""

from __future__ import annotations

import random

from bots.strong.bidding import BidConfig, decide_bid
from bots.strong.calibrate import draw_keep_rates
from bots.strong.evaluate import PARAMS, expected_tricks
from bots.strong.game import RuleSet
from bots.strong.sampler import knowledge, sample_deals
from bots.strong.view import View, parse_view

HAND = ["AS", "KS", "9S", "5S", "3S", "AH", "8H", "4H", "KD", "7D", "2D", "9C", "3C"]
# Our own draw discards (13 cards we saw and threw away).
DISCARDS = ["2C", "4C", "5C", "6C", "2H", "3H", "5H", "6H", "3D", "4D", "5D", "6D", "2S"]


def bid_view(opp_bid: int | None, opp_blind: bool, seat: int = 0) -> View:
    """Seat ``seat`` (first player) about to bid, the opponent having bid ``opp_bid``."""
    bids: list[int | None] = [None, None]
    blind = [False, False]
    bids[1 - seat], blind[1 - seat] = opp_bid, opp_blind
    st = {"hand_no": 3, "seat": seat, "phase": "bid", "hand": HAND, "first": seat, "bids": bids,
          "blind": blind, "tricks": [0, 0], "trick": [], "leader": 1 - seat, "spades_broken": False,
          "played": [], "score": [120, 150], "bags": [2, 3], "discards": DISCARDS}
    return parse_view(st, 2, seat)


def high_cards(mask: int) -> int:
    """Cards of rank jack or higher, plus spades of nine or higher."""
    out = 0
    for c in range(52):
        if mask >> c & 1 and (c % 13 >= 9 or (c // 13 == 3 and c % 13 >= 7)):
            out += 1
    return out


def test_a_blind_nil_drawer_is_dealt_its_low_cards() -> None:
    # The 26 unseen cards are the opponent's 13 and its 13 discards. A normal drawer keeps
    # its good cards, a Blind Nil drawer its low ones: the sampled opponent hands must
    # differ accordingly.
    def mean_high(view: View) -> float:
        deals = sample_deals(knowledge(view), 300, random.Random(5), weighted=False)
        return sum(high_cards(d[1]) for d in deals) / len(deals)
    normal, blind = mean_high(bid_view(5, False)), mean_high(bid_view(0, True))
    view = bid_view(0, True)
    unseen = ~(view.hand | view.discards) & ((1 << 52) - 1)
    half = high_cards(unseen) / 2  # what an indifferent drawer would hold
    assert blind < half - 1.5 and normal > blind + 2.0, (blind, half, normal)


def test_against_a_blind_nil_it_bids_for_the_tricks_the_nil_hands_it() -> None:
    # The opponent ducks everything and kept low cards: this seat takes far more than its
    # hand model says, so every bid above the usual window (estimate +- 2) is simulated
    # too, and the bid is well above what the same hand bids against a normal bid.
    view = bid_view(0, True)
    centre = int(expected_tricks(view.hand, 2, view.discards & ~view.hand) + 0.5)
    lines: list[str] = []
    bid = decide_bid(view, RuleSet(), list(range(14)), BidConfig(samples=96), random.Random(1), lines.append)
    assert centre + 2 < 13 and " 13:" in lines[0], lines
    normal_lines: list[str] = []
    normal = decide_bid(bid_view(5, False), RuleSet(), list(range(14)), BidConfig(samples=96), random.Random(1),
                        normal_lines.append)
    assert " 13:" not in normal_lines[0], normal_lines
    assert bid >= normal + 2, (bid, normal, lines, normal_lines)


def test_blind_nil_keep_rates_are_the_fitted_ones() -> None:
    # The shipped table (keep2nil) is what the bot's nil-plan keep decisions do; the same
    # simulation with the normal plan reproduces the self-play table (keep2).
    nil = draw_keep_rates(400, seed=11, nil_plan=True)
    normal = draw_keep_rates(400, seed=11, nil_plan=False)
    for table, fitted in ((nil, PARAMS["keep2nil"]), (normal, PARAMS["keep2"])):
        for kind in ("plain", "spade"):
            assert max(abs(a - b) for a, b in zip(table[kind], fitted[kind])) < 0.15, (kind, table, fitted)
    assert min(nil["plain"][:5]) > 0.55 > 0.3 > max(nil["plain"][-3:] + nil["spade"][-3:])
