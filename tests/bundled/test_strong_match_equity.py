"""The strong bot values partnership hands by the match equity they leave
(``game.match_equity``): a chance of winning the match that is fair between equal sides,
grows with the lead, weighs a lead more as the end nears, and so makes the bot risk-averse
ahead and risk-seeking behind. Two-player hands keep their points."""

from __future__ import annotations

import math

import pytest

from bots.strong import game
from bots.strong.game import MATCH_WIN_VALUE, MatchContext, Objective, RuleSet, match_equity, score_hand

RULES = RuleSet(blind_nil=False)


def test_equal_sides_have_even_chances_and_the_chances_add_to_one() -> None:
    assert match_equity(RULES, 0, 0, 1) == pytest.approx(0.5)
    assert match_equity(RULES, 320, 320, 6) == pytest.approx(0.5)
    for mine, theirs, played in [(120, 40, 2), (-80, 300, 5), (460, 455, 9), (250, 430, 7)]:
        total = match_equity(RULES, mine, theirs, played) + match_equity(RULES, theirs, mine, played)
        assert total == pytest.approx(1.0)


def test_more_points_never_lower_the_chance() -> None:
    previous = 0.0
    for mine in range(-300, 500, 10):
        now = match_equity(RULES, mine, 200, 5)
        assert now >= previous
        previous = now
    assert match_equity(RULES, 490, 200, 5) > 0.99 and match_equity(RULES, -300, 200, 5) < 0.01


def test_the_same_lead_is_worth_more_near_the_end() -> None:
    early = match_equity(RULES, 150, 50, 3)
    late = match_equity(RULES, 450, 350, 9)
    assert 0.5 < early < late
    # The hand limit ends a match too: with one hand left a lead counts as at the target.
    short = RuleSet(blind_nil=False, max_hands=10)
    assert match_equity(short, 150, 50, 9) > match_equity(short, 150, 50, 3) >= early


def test_free_blind_nil_makes_hands_swing_more_so_a_lead_is_worth_less() -> None:
    assert match_equity(RuleSet(), 200, 100, 4) < match_equity(RULES, 200, 100, 4)
    # Behind 100, Blind Nil is a catch-up move, not a free one: the spread stays narrow.
    behind = RuleSet(blind_nil_behind=100)
    assert match_equity(behind, 200, 100, 4) == match_equity(RULES, 200, 100, 4)


def test_ahead_a_loss_costs_more_than_the_same_gain_brings_and_behind_the_reverse() -> None:
    # The risk attitude that points alone cannot express: ahead late, a 100-point swing
    # down costs more equity than one up earns; behind, a swing up earns more.
    def swing(mine: int, theirs: int) -> tuple[float, float]:
        here = match_equity(RULES, mine, theirs, 8)
        return (match_equity(RULES, mine + 100, theirs, 8) - here,
                here - match_equity(RULES, mine - 100, theirs, 8))
    gain, loss = swing(380, 250)
    assert loss > gain > 0
    gain, loss = swing(250, 380)
    assert gain > loss > 0


def _objective(n: int, score: tuple[int, int], bags: tuple[int, int], hand_no: int, bids: list[int]) -> Objective:
    return Objective(MatchContext(RULES, n, 0, score, bags, hand_no), bids, [False] * n)


def test_partnership_hands_are_valued_by_the_equity_of_the_score_they_leave() -> None:
    bids, tricks = [4, 3, 3, 2], (5, 3, 3, 2)  # side 0: 7 bid, 8 taken; side 1: 5 bid, 5 taken
    obj = _objective(4, (210, 180), (3, 9), 6, bids)
    points, bags_after = score_hand(RULES, 4, bids, [False] * 4, tricks, (3, 9))
    assert points == [71, 50] and bags_after == [4, 9]
    lam = obj.ctx.bag_weight()
    mine, theirs = 210 + 71 - lam * 4, 180 + 50 - lam * 9
    assert obj.value(tricks) == pytest.approx(MATCH_WIN_VALUE * (2 * match_equity(RULES, mine, theirs, 6) - 1))
    # A hand that ends the match is still worth the whole match.
    # (71 - 50 points, one bag carried at 3.5 points this near the target.)
    assert _objective(4, (450, 300), (0, 0), 6, bids).value(tricks) == pytest.approx(MATCH_WIN_VALUE + 21 - 3.5)


def test_with_match_equity_off_in_two_player_or_with_free_blind_nil_hands_are_valued_by_points() -> None:
    bids, tricks = [4, 3, 3, 2], (5, 3, 3, 2)
    try:
        game.MATCH_EQUITY = False
        obj = _objective(4, (210, 180), (3, 9), 6, bids)
        lam = obj.ctx.bag_weight()
        assert obj.value(tricks) == pytest.approx(71 - 50 - lam * (1 - 0))
    finally:
        game.MATCH_EQUITY = True
    two = _objective(2, (210, 180), (0, 0), 6, [4, 5])
    assert two.value((5, 8)) == pytest.approx(41 - 53 - two.ctx.bag_weight() * (1 - 3))
    # The default rules (Blind Nil free): points, as their rows were measured.
    default = Objective(MatchContext(RuleSet(), 4, 0, (210, 180), (3, 9), 6), bids, [False] * 4)
    assert default.value(tricks) == pytest.approx(71 - 50 - default.ctx.bag_weight() * 1)
    behind = Objective(MatchContext(RuleSet(blind_nil_behind=100), 4, 0, (210, 180), (3, 9), 6), bids, [False] * 4)
    assert behind.value(tricks) != pytest.approx(71 - 50 - behind.ctx.bag_weight() * 1)


def test_two_player_plays_for_the_match_only_with_its_own_switch_and_its_own_race() -> None:
    # Off as shipped: points (above). On: the equity of the score left, with two-player's
    # pace and spread (default rules: Blind Nil is free there, yet the two-player entry
    # is used, not the partnership one).
    rules = RuleSet()
    assert game.plays_for_the_match(rules, 2) is False and game.plays_for_the_match(RULES, 4) is True
    try:
        game.MATCH_EQUITY_TWO_PLAYER = True
        assert game.plays_for_the_match(rules, 2) is True
        assert game.plays_for_the_match(rules, 4) is False  # partnership's own rule is untouched
        two = Objective(MatchContext(rules, 2, 0, (210, 180), (0, 0), 6), [4, 5], [False] * 2)
        points, bags_after = score_hand(rules, 2, [4, 5], [False] * 2, (5, 8), (0, 0))
        lam = two.ctx.bag_weight()
        mine, theirs = 210 + points[0] - lam * bags_after[0], 180 + points[1] - lam * bags_after[1]
        want = MATCH_WIN_VALUE * (2 * match_equity(rules, mine, theirs, 6, 2) - 1)
        assert two.value((5, 8)) == pytest.approx(want)
        pace, spread = game.HAND_SPREAD["two_player"]
        assert match_equity(rules, 300, 200, 6, 2) != match_equity(rules, 300, 200, 6, 4)
        left = (500 - 300) / pace
        z = 100 / (spread * left ** 0.5)
        assert match_equity(rules, 300, 200, 6, 2) == pytest.approx(0.5 * (1 + math.erf(z / 2 ** 0.5)))
    finally:
        game.MATCH_EQUITY_TWO_PLAYER = False
