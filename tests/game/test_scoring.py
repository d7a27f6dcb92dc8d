"""Hand scoring and match-end decisions against hand-worked tables.

The first group is the worked cases of the rules (docs/rules.md, from the
seeds) with exactly the values shown there; the rest are our own tables.
"""

from __future__ import annotations

import pytest

from referee.game.outcomes import EndReason
from referee.game.rules import Rules, Variant
from referee.game.scoring import match_outcome, score_hand

TWO, FOUR = Variant.TWO_PLAYER, Variant.PARTNERSHIP
R = Rules()


def two(bid0, took0, bid1=13 - 0, took1=None, blind=(False, False), bags=(0, 0), rules=R):
    took1 = 13 - took0 if took1 is None else took1
    return score_hand(TWO, rules, (bid0, bid1), blind, (took0, took1), bags)


# ----------------------------------------------------------------- worked cases of the rules


def test_two_player_bid_7_took_8_scores_71_and_one_bag():
    s = two(7, 8, bid1=3)
    assert s.sides[0].points == 71
    assert s.sides[0].bags_after == 1


def test_two_player_three_hands_with_a_bag_penalty_total_21_and_1_bag_left():
    bags, total, points = 0, 0, []
    for bid, took in ((4, 7), (3, 6), (4, 9)):
        s = two(bid, took, bid1=1, bags=(bags, 0))
        points.append(s.sides[0].points)
        bags = s.sides[0].bags_after
        total += s.sides[0].points
    assert points == [43, 33, 45 - 100]
    assert total == 21
    assert bags == 1


def test_partnership_bids_3_plus_2_took_7_scores_52_and_2_bags():
    s = score_hand(FOUR, R, (3, 3, 2, 3), (False,) * 4, (4, 3, 3, 3), (0, 0))
    assert s.sides[0].points == 52
    assert s.sides[0].bags_after == 2


def test_partnership_failed_nil_beside_a_made_contract_is_minus_59_and_1_bag():
    # Alex (seat 0) bids 4, Charlie (seat 2) bids Nil and takes 1; Alex takes 4.
    s = score_hand(FOUR, R, (4, 3, 0, 3), (False,) * 4, (4, 4, 1, 4), (0, 0))
    assert s.sides[0].points == -59
    assert s.sides[0].bags_after == 1


def test_partnership_failed_nil_beside_a_set_contract_is_minus_138_and_2_bags():
    s = score_hand(FOUR, R, (4, 3, 0, 3), (False,) * 4, (3, 4, 2, 4), (0, 0))
    assert s.sides[0].points == -100 - 40 + 2
    assert s.sides[0].bags_after == 2


def test_partnership_both_nil_one_fails_with_2_tricks_is_plus_2_and_2_bags():
    s = score_hand(FOUR, R, (0, 3, 0, 3), (False,) * 4, (0, 6, 2, 5), (0, 0))
    assert s.sides[0].points == 2
    assert s.sides[0].bags_after == 2
    assert s.sides[0].made is None  # no contract to make


def test_partnership_both_blind_nil_succeed_is_plus_400():
    s = score_hand(FOUR, R, (0, 6, 0, 7), (True, False, True, False), (0, 6, 0, 7), (0, 0))
    assert s.sides[0].points == 400
    assert s.sides[1].points == 130


# ----------------------------------------------------------------- our own tables

# (bids, blind, tricks, bags_before) -> (points side 0, points side 1, bags after)
PARTNERSHIP_TABLE = [
    # exact contracts
    ((3, 4, 3, 3), (False,) * 4, (3, 4, 3, 3), (0, 0), (60, 70), (0, 0)),
    # set: -10 per bid trick, no bags for a set side
    ((5, 2, 4, 2), (False,) * 4, (4, 2, 4, 3), (0, 0), (-90, 41), (0, 1)),
    # nil succeeds, partner makes
    ((0, 4, 4, 4), (False,) * 4, (0, 4, 5, 4), (0, 0), (100 + 41, 80), (1, 0)),
    # blind nil fails with 3 tricks; partner makes 4 of 4
    ((0, 3, 4, 3), (True, False, False, False), (3, 3, 4, 3), (0, 0), (-200 + 40 + 3, 60), (3, 0)),
    # blind nil succeeds, partner set
    ((0, 3, 6, 3), (True, False, False, False), (0, 4, 5, 4), (0, 0), (200 - 60, 62), (0, 2)),
    # nil + blind nil on one side: one succeeds one fails (-100 +200 +2 bags)
    ((0, 5, 0, 5), (False, False, True, False), (2, 6, 0, 5), (0, 0), (-100 + 200 + 2, 101), (2, 1)),
    # both nil fail: -200 and all tricks are bags
    ((0, 5, 0, 5), (False,) * 4, (1, 5, 2, 5), (0, 0), (-200 + 3, 100), (3, 0)),
    # bag penalty crossing 10: 8 + 3 = 11 -> -100, 1 left
    ((3, 3, 3, 1), (False,) * 4, (4, 2, 5, 2), (8, 0), (63 - 100, 40), (1, 0)),
    # bag penalty crossing 20 in one hand: 9 + 12 = 21 -> -200, 1 left; partner's nil +100;
    # the other side's two nils both succeed: +200
    ((1, 0, 0, 0), (False,) * 4, (13, 0, 0, 0), (9, 0), (10 + 12 + 100 - 200, 200), (1, 0)),
    # exactly 10 bags -> penalty, 0 left
    ((2, 4, 2, 4), (False,) * 4, (3, 4, 2, 4), (9, 0), (41 - 100, 80), (0, 0)),
]


@pytest.mark.parametrize("bids, blind, tricks, bags, points, bags_after", PARTNERSHIP_TABLE)
def test_partnership_table(bids, blind, tricks, bags, points, bags_after):
    s = score_hand(FOUR, R, bids, blind, tricks, bags)
    assert s.points == points
    assert s.bags == bags_after


def test_two_player_nil_and_blind_nil():
    assert two(0, 0, bid1=5).sides[0].points == 100
    assert two(0, 2, bid1=5).sides[0].points == -100 + 2  # failed nil tricks are bags
    assert two(0, 2, bid1=5).sides[0].bags_after == 2
    assert two(0, 0, bid1=5, blind=(True, False)).sides[0].points == 200
    assert two(0, 1, bid1=5, blind=(True, False)).sides[0].points == -199


def test_rule_options_change_the_numbers():
    rules = Rules(nil_bonus=50, blind_nil_bonus=150, bag_limit=5, bag_penalty=50)
    assert two(0, 0, bid1=5, rules=rules).sides[0].points == 50
    assert two(0, 1, bid1=5, blind=(True, False), rules=rules).sides[0].points == -149
    s = two(3, 9, bid1=1, rules=rules)  # 6 bags with a limit of 5 -> one penalty of 50, 1 left
    assert (s.sides[0].points, s.sides[0].bags_after) == (36 - 50, 1)


def test_negative_scores_are_plain_integers():
    s = two(13, 0, bid1=1)
    assert s.sides[0].points == -130
    # 1 bid, 13 taken: 10 + 12 overtricks, and 12 bags cost one penalty
    assert s.sides[1].points == 22 - 100
    assert s.sides[1].bags_after == 2


def test_unfinished_hand_is_refused():
    with pytest.raises(ValueError, match="13 tricks"):
        score_hand(FOUR, R, (1, 1, 1, 1), (False,) * 4, (1, 1, 1, 1), (0, 0))


# ----------------------------------------------------------------- end of match


def test_target_reached_by_one_side_wins():
    assert match_outcome(R, (512, 380), 9) == (True, 0, EndReason.TARGET)
    assert match_outcome(R, (380, 500), 9) == (True, 1, EndReason.TARGET)


def test_both_over_target_higher_wins_and_a_tie_plays_on():
    assert match_outcome(R, (530, 510), 9) == (True, 0, EndReason.TARGET)
    assert match_outcome(R, (510, 510), 9).over is False


def test_below_target_plays_on():
    assert match_outcome(R, (499, -20), 9).over is False


def test_mercy_ends_the_match_for_the_side_at_or_below():
    rules = Rules(mercy=-200)
    assert match_outcome(rules, (50, -200), 3) == (True, 0, EndReason.MERCY)
    assert match_outcome(rules, (-250, -199), 3) == (True, 1, EndReason.MERCY)
    assert match_outcome(rules, (-300, -300), 3) == (True, None, EndReason.MERCY)
    assert match_outcome(rules, (50, -199), 3).over is False


def test_max_hands_ends_with_the_higher_score_or_a_draw():
    rules = Rules(max_hands=4)
    assert match_outcome(rules, (120, 80), 4) == (True, 0, EndReason.MAX_HANDS)
    assert match_outcome(rules, (80, 80), 4) == (True, None, EndReason.MAX_HANDS)
    assert match_outcome(rules, (80, 80), 3).over is False


def test_a_tie_at_the_target_on_the_last_allowed_hand_is_a_draw():
    assert match_outcome(Rules(max_hands=10), (520, 520), 10) == (True, None, EndReason.MAX_HANDS)
