"""The strong bot's partnership bid: the first of a pair bids its hand, the second
searches the pair's total around its own estimate."""

from __future__ import annotations

import random

from bots.strong import bidding
from bots.strong.bidding import BidConfig, decide_bid
from bots.strong.cards import mask_of, parse_card
from bots.strong.evaluate import PARAMS, expected_tricks, nil_probability
from bots.strong.game import RuleSet
from bots.strong.view import View, parse_view

# A middling hand (about four tricks): far from a Nil, so only the trick bids compete.
HAND = ["AS", "QS", "8S", "4S", "KH", "QH", "6H", "3H", "AD", "9D", "5D", "7C", "2C"]


def bid_view(bids: list[int | None], seat: int = 1, hand: list[str] = HAND,
             blind: list[bool] | None = None) -> View:
    st = {"hand_no": 1, "seat": seat, "phase": "bid", "hand": hand, "dealer": 0, "bids": bids,
          "blind": blind or [False] * 4, "tricks": [0] * 4, "trick": [], "leader": 1, "spades_broken": False,
          "played": [], "score": [0, 0], "bags": [0, 0]}
    return parse_view(st, 4, seat)


def searched(view: View, seed: int, rules: RuleSet = RuleSet(blind_nil=False)) -> tuple[int, list[int]]:
    """The bid and the candidates the simulation valued (empty when none was needed)."""
    lines: list[str] = []
    bid = decide_bid(view, rules, list(range(14)), BidConfig(samples=24), random.Random(seed), log=lines.append)
    cands = [int(part.split(":")[0]) for part in lines[0][len("bid: "):].split(" (")[0].split(", ")] if lines else []
    return bid, cands


def test_the_first_of_a_pair_bids_its_hands_estimate() -> None:
    # Seat 1 bids first of its pair (its partner, seat 3, bids last): whatever the
    # samples, the bid is the hand's estimate, which the partner's sampler reads right.
    view = bid_view([None, None, None, None])
    centre = int(expected_tricks(view.hand, 4) + 0.5)
    assert 2 <= centre <= 6
    for seed in range(6):
        assert searched(view, seed) == (centre, [])


def test_the_second_of_a_pair_searches_the_pairs_total() -> None:
    # Partner (seat 3) has bid: the usual window of the estimate +-2 is simulated.
    view = bid_view([3, None, 4, 2])
    centre = int(expected_tricks(view.hand, 4) + 0.5)
    bid, cands = searched(view, 1)
    assert cands == [b for b in range(centre - 2, centre + 3) if b > 0]
    assert bid in cands


def test_the_full_window_for_the_first_bidder_is_a_setting() -> None:
    # FIRST_BID_WINDOW = None restores the old search (bench/strength_hands.py's
    # first_window= setting); it then values more than one bid.
    view = bid_view([None, None, None, None])
    saved = bidding.FIRST_BID_WINDOW
    try:
        bidding.FIRST_BID_WINDOW = None
        _, cands = searched(view, 2)
        assert len(cands) >= 4
    finally:
        bidding.FIRST_BID_WINDOW = saved


# A weak hand whose modelled Nil success (about 0.68 in partnership) lies between the
# partnership threshold and the older, stricter one.
NEAR_NIL = ["3S", "7S", "2H", "4H", "6H", "7H", "9H", "JH", "KH", "8D", "9D", "KD", "3C"]


def test_partnership_without_free_blind_nil_weighs_the_closer_nils() -> None:
    # Where Blind Nil is not free, Nil is simulated down to NIL_MIN_PARTNERSHIP; with
    # the default rules it still takes NIL_MIN_PROBABILITY.
    p = nil_probability(mask_of(parse_card(c) for c in NEAR_NIL), 4)
    assert bidding.NIL_MIN_PARTNERSHIP <= p < bidding.NIL_MIN_PROBABILITY
    view = bid_view([3, None, 4, 2], hand=NEAR_NIL)
    for rules, nil_weighed in ((RuleSet(blind_nil=False), True), (RuleSet(blind_nil_behind=100), True),
                               (RuleSet(), False)):
        _, cands = searched(view, 1, rules)
        assert cands and (0 in cands) is nil_weighed, (rules, cands)


# Seat 2 (an opponent of seat 1, the next to play after it) bid Blind Nil; seat 1's
# partner, seat 3, has bid, so seat 1 searches.
AGAINST_BLIND = ([4, None, 0, 2], [False, False, True, False])
BEHIND_100 = RuleSet(blind_nil_behind=100)


def test_against_a_blind_nil_the_simulation_takes_more_tricks_from_the_bidder() -> None:
    # Where Blind Nil is not free an opponent's Blind Nil has its own correction; with the
    # default rules, or against a plain Nil, the table's.
    bids, blind = AGAINST_BLIND
    view = bid_view(bids, blind=blind)
    table = PARAMS["sim_optimism"]["4"]
    assert PARAMS["sim_optimism_opp_blind4"] > table
    assert bidding.bid_optimism(view, BEHIND_100) == PARAMS["sim_optimism_opp_blind4"]
    assert bidding.bid_optimism(view, RuleSet()) == table
    assert bidding.bid_optimism(bid_view(bids), BEHIND_100) == table  # a plain Nil


def test_the_correction_never_hands_a_trick_to_a_nil() -> None:
    # The trick moved from the bidder goes to the next seat, unless that seat is a live
    # nil whose partner is not (there: the partner); the default rules keep the next seat.
    bids = AGAINST_BLIND[0]
    assert bidding.shift_taker(bids, 1, BEHIND_100) == 0
    assert bidding.shift_taker(bids, 1, RuleSet(blind_nil=False)) == 0
    assert bidding.shift_taker(bids, 1, RuleSet()) == 2
    assert bidding.shift_taker([4, None, 3, 2], 1, BEHIND_100) == 2
    assert bidding.shift_taker([0, None, 0, 2], 1, BEHIND_100) == 2  # both nil: the next seat


def test_against_a_blind_nil_the_bot_bids_lower_where_blind_nil_is_not_free() -> None:
    # The same hand and samples, the Blind Nil correction at the table's figure and
    # shipped: never a higher bid, and a lower one for some samples; the default rules
    # are untouched by it.
    bids, blind = AGAINST_BLIND
    view = bid_view(bids, blind=blind)
    shipped = PARAMS["sim_optimism_opp_blind4"]
    try:
        PARAMS["sim_optimism_opp_blind4"] = PARAMS["sim_optimism"]["4"]
        before = [searched(view, seed, BEHIND_100)[0] for seed in range(6)]
        default_before = [searched(view, seed, RuleSet())[0] for seed in range(6)]
    finally:
        PARAMS["sim_optimism_opp_blind4"] = shipped
    after = [searched(view, seed, BEHIND_100)[0] for seed in range(6)]
    assert all(a <= b for a, b in zip(after, before)) and after != before, (before, after)
    assert [searched(view, seed, RuleSet())[0] for seed in range(6)] == default_before
