"""The partnership first-bid convention: the first of a pair bids its hand's rounded
estimate, and a partner (or an opponent that has shown it) is read by that rule."""

from __future__ import annotations

import random

import pytest

from bots.strong import bot as strong_bot
from bots.strong.bidding import BidConfig, decide_bid, nil_threshold
from bots.strong.bidstyle import CONVENTION_EVIDENCE, BidStyle, BidStyles, convention_bid, first_of_pair
from bots.strong.bot import Budget, StrongBot
from bots.strong.cards import cards_of, name, names_of
from bots.strong.evaluate import nil_probability
from bots.strong.game import RuleSet
from bots.strong.sampler import convention_seats, knowledge, sample_deals
from bots.strong.view import View

NO_BLIND = RuleSet(blind_nil=False)


def random_deal(rng: random.Random) -> list[int]:
    deck = list(range(52))
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[13 * i:13 * i + 13]) for i in range(4)]


def test_who_bids_first_of_each_pair() -> None:
    # Bidding starts left of the dealer: dealer 3 -> 0, 1, 2, 3; dealer 0 -> 1, 2, 3, 0.
    assert [first_of_pair(s, 3) for s in range(4)] == [True, True, False, False]
    assert [first_of_pair(s, 0) for s in range(4)] == [False, True, True, False]
    assert [first_of_pair(s, 1) for s in range(4)] == [False, False, True, True]


def test_the_bot_keeps_the_convention_it_reads_its_partner_by() -> None:
    # Over random hands the first of a pair bids convention_bid (or a Nil the hand is
    # worth simulating): the rule the partner's sampler reads is the rule the bot bids by.
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        hands = random_deal(rng)
        view = View(n=4, seat=0, hand=hands[0], dealer=3, bids=[None] * 4, blind=[False] * 4)
        bid = decide_bid(view, NO_BLIND, list(range(14)), BidConfig(samples=4), rng)
        if nil_probability(hands[0], 4) >= nil_threshold(NO_BLIND, 4):
            assert bid in (0, convention_bid(hands[0], 4))
        else:
            assert bid == convention_bid(hands[0], 4), names_of(hands[0])
            checked += 1
    assert checked >= 30


def test_the_partner_is_presumed_to_keep_it_an_opponent_must_show_it() -> None:
    styles = BidStyles(agreed={2})
    assert styles.style(2).convention and not styles.style(1).convention
    rng = random.Random(8)
    hand = random_deal(rng)[0]
    for _ in range(CONVENTION_EVIDENCE - 1):
        styles.record_first(1, convention_bid(hand, 4), hand, 4)
    assert not styles.style(1).convention
    styles.record_first(1, 0, hand, 4)  # a Nil says nothing either way
    styles.record_first(1, convention_bid(hand, 4), hand, 4)
    assert styles.style(1).convention
    # One first bid that breaks it ends the presumption, for the partner too.
    styles.record_first(1, convention_bid(hand, 4) + 1, hand, 4)
    styles.record_first(2, convention_bid(hand, 4) + 1, hand, 4)
    assert not styles.style(1).convention and not styles.style(2).convention
    styles.record_first(2, convention_bid(hand, 4), hand, 4)
    assert not styles.style(2).convention


def _hand(bot: StrongBot, hands: list[int], dealer: int, bids: list[int]) -> None:
    bot.handle({"type": "hand_start", "hand": 1, "dealer": dealer, "score": [0, 0], "bags": [0, 0]})
    for seat in range(4):
        for c in cards_of(hands[seat]):
            bot.handle({"type": "played", "seat": seat, "card": name(c)})
    bot.handle({"type": "hand_end", "hand": 1, "bids": bids, "blind": [False] * 4, "tricks": [3, 4, 3, 3],
                "points": [0, 0], "score": [0, 0], "bags": [0, 0]})


@pytest.fixture
def convention_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The convention is a setting, off as shipped (see bots/strong/bot.py)."""
    monkeypatch.setattr(strong_bot, "PARTNER_CONVENTION", True)


def test_as_shipped_nobody_is_read_by_the_convention() -> None:
    bot = StrongBot(budget=Budget(samples=4), seed=1)
    bot.handle({"type": "hello", "id": 0, "protocol": 1, "variant": "partnership", "seat": 0,
                "names": ["strong", "x", "strong", "x"], "rules": {"blind_nil": False}})
    rng = random.Random(3)
    hands = random_deal(rng)
    for _ in range(CONVENTION_EVIDENCE + 1):
        _hand(bot, hands, 0, [convention_bid(h, 4) for h in hands])
    assert bot.bid_styles.agreed == set() and bot.bid_styles.kept == {}
    assert not any(style.convention for style in bot._view({"state": {}}).bid_styles)


def test_the_bot_checks_each_first_bid_it_sees(convention_on: None) -> None:
    bot = StrongBot(budget=Budget(samples=4), seed=1)
    bot.handle({"type": "hello", "id": 0, "protocol": 1, "variant": "partnership", "seat": 0,
                "names": ["strong", "x", "strong", "x"], "rules": {"blind_nil": False}})
    assert bot.bid_styles.agreed == {2}
    rng = random.Random(3)
    hands = random_deal(rng)
    kept = [convention_bid(h, 4) for h in hands]
    # Dealer 0: seat 2 bids before seat 0, so the partner's bid is checked; it kept it.
    _hand(bot, hands, 0, kept)
    assert bot.bid_styles.kept.get(2) == 1 and bot._view({"state": {}}).bid_styles[2].convention
    # Dealer 3: seat 0 bids first of its pair, so seat 2's odd bid is a second bid: no check.
    _hand(bot, hands, 3, [kept[0], kept[1], kept[2] + 2, kept[3]])
    assert bot.bid_styles.broke == set()
    # Dealer 0 again, and the partner's first bid breaks the rule: it is read by the bell now.
    _hand(bot, hands, 0, [kept[0], kept[1], kept[2] + 2, kept[3]])
    assert bot.bid_styles.broke == {2} and not bot._view({"state": {}}).bid_styles[2].convention
    # A new match starts from the presumption again.
    bot.handle({"type": "hello", "id": 0, "protocol": 1, "variant": "partnership", "seat": 0,
                "names": ["strong", "x", "strong", "x"], "rules": {"blind_nil": False}})
    assert bot.bid_styles.broke == set() and bot.bid_styles.agreed == {2}


def test_with_free_blind_nil_nobody_is_presumed(convention_on: None) -> None:
    # The default rules' rows were measured without the convention: it stays off there.
    bot = StrongBot(budget=Budget(samples=4), seed=1)
    bot.handle({"type": "hello", "id": 0, "protocol": 1, "variant": "partnership", "seat": 0,
                "names": ["strong", "x", "strong", "x"], "rules": {}})
    assert bot.bid_styles.agreed == set()


def _partner_view(hands: list[int], partner_bid: int, style: BidStyle, my_bid: int | None = None,
                  blind: bool = False) -> View:
    # Dealer 1: seat 2 (the partner) bids first, seat 0 (this seat) third.
    return View(n=4, seat=0, hand=hands[0], dealer=1, bids=[my_bid, None, partner_bid, 3],
                blind=[blind, False, False, False], bid_styles=[BidStyle(), BidStyle(), style, BidStyle()])


def test_the_sampler_deals_the_partner_a_hand_that_rounds_to_its_bid() -> None:
    rng = random.Random(11)
    styles = {"plain": BidStyle(), "sharp": BidStyle(convention=True)}
    hits = dict.fromkeys(styles, 0)
    for _ in range(30):
        hands = random_deal(rng)
        bid = convention_bid(hands[2], 4)
        for key, style in styles.items():
            deals = sample_deals(knowledge(_partner_view(hands, bid, style)), 32, rng)
            hits[key] += sum(convention_bid(d[2], 4) == bid for d in deals)
    rates = {key: h / (30 * 32) for key, h in hits.items()}
    assert rates["sharp"] >= 0.7 and rates["plain"] <= 0.5, rates


def test_which_bids_the_convention_reads() -> None:
    rng = random.Random(4)
    hands = random_deal(rng)
    agreed = BidStyle(convention=True)
    assert convention_seats(knowledge(_partner_view(hands, 4, agreed))) == {2}
    assert convention_seats(knowledge(_partner_view(hands, 4, BidStyle()))) == set()
    # A Nil is no estimate; nor is a hand its side changed in a Blind Nil exchange.
    assert convention_seats(knowledge(_partner_view(hands, 0, agreed))) == set()
    assert convention_seats(knowledge(_partner_view(hands, 4, agreed, my_bid=0, blind=True), 3)) == set()
    # A partner that bid second of the pair searched: not read by the rule.
    view = _partner_view(hands, 4, agreed)
    view.dealer = 3  # seat 0 bids first now
    assert convention_seats(knowledge(view)) == set()
    # Without the dealer the order is unknown: nothing is read by the rule.
    view.dealer = None
    assert convention_seats(knowledge(view)) == set()
