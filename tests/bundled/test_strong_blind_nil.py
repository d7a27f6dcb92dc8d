"""The strong bot's Blind Nil decision: by simulation, paired against a normal bid."""

from __future__ import annotations

import dataclasses
import random

from bots.strong.bidding import BidConfig, _exchange, blind_nil_values, decide_blind_nil
from bots.strong.evaluate import blind_nil_probability, nil_probability
from bots.strong.game import RuleSet
from bots.strong.view import parse_view


def offer(seat: int = 1, score: tuple[int, int] = (0, 0), bids: list | None = None, n: int = 4):
    """The view of a seat offered Blind Nil (it has seen no card)."""
    st = {"hand_no": 2, "seat": seat, "phase": "blind_nil", "hand": [], "bids": bids or [None] * n,
          "blind": [False] * n, "tricks": [0] * n, "trick": [], "leader": 1, "spades_broken": False,
          "played": [], "score": list(score), "bags": [0, 0]}
    if n == 4:
        st["dealer"] = 0
    else:
        st["first"] = 0
    return parse_view(st, n, seat)


def test_default_rules_make_a_covered_blind_nil_worth_more_than_a_normal_bid() -> None:
    blind, normal, count = blind_nil_values(offer(), RuleSet(), BidConfig(samples=150), random.Random(3))
    assert count == 150
    # Bonus 200 at the fitted success rate (~78%) plus the partner's contract: well
    # above a normal hand's value for the side.
    assert blind > normal + 50, (blind, normal)
    assert decide_blind_nil(offer(), RuleSet(), BidConfig(samples=80), random.Random(4)) is True


def test_the_simulated_nil_succeeds_at_the_fitted_rate() -> None:
    # Playouts see every hand, so their nils succeed too often; the value is scaled to
    # the fitted rate p. On the same deals, raising the bonus by B must raise the value
    # by exactly B * (2p - 1).
    p = blind_nil_probability(4)
    values = [blind_nil_values(offer(), dataclasses.replace(RuleSet(), blind_nil_bonus=b), BidConfig(samples=60),
                               random.Random(7))[0] for b in (100, 200)]
    assert abs((values[1] - values[0]) - 100 * (2 * p - 1)) < 1e-6


def test_declined_when_it_is_not_worth_it() -> None:
    # No bonus and no exchange: a blind nil only throws away a player's tricks.
    rules = dataclasses.replace(RuleSet(), blind_nil_bonus=0, blind_nil_cards=0)
    blind, normal, _ = blind_nil_values(offer(), rules, BidConfig(samples=150), random.Random(1))
    assert blind < normal, (blind, normal)
    assert decide_blind_nil(offer(), rules, BidConfig(samples=150), random.Random(1)) is False


def test_never_with_a_nil_partner_nor_when_blind_nil_is_off() -> None:
    cfg = BidConfig(samples=20)
    assert decide_blind_nil(offer(seat=1, bids=[2, None, None, 0]), RuleSet(), cfg, random.Random(1)) is False
    off = dataclasses.replace(RuleSet(), blind_nil=False)
    assert decide_blind_nil(offer(), off, cfg, random.Random(1)) is False


def test_two_player_keeps_the_fitted_rate_rule() -> None:
    # No partner and no exchange: only a side far behind near the end gambles.
    assert decide_blind_nil(offer(seat=1, n=2, bids=[None, None]), RuleSet(), BidConfig(samples=20),
                            random.Random(1)) is False


def test_exchange_gives_the_nil_bidder_low_cards_and_takes_its_dangerous_ones() -> None:
    rng = random.Random(9)
    for _ in range(50):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[s * 13:(s + 1) * 13]) for s in range(4)]
        after = _exchange(hands, 1, 3)
        assert [h.bit_count() for h in after] == [13] * 4
        assert after[0] == hands[0] and after[2] == hands[2]
        assert after[1] | after[3] == hands[1] | hands[3]
        assert nil_probability(after[1], 4) >= nil_probability(hands[1], 4) - 1e-9
