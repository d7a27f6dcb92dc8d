"""The rules engine, phase by phase, with hand-made deals."""

from __future__ import annotations

import random

import pytest

from referee.game.cards import card_name, cards_of, mask_of, parse_card, parse_cards
from referee.game.deals import Deal, seeded_deal
from referee.game.engine import (
    IllegalAction, Phase, check_action, fallback_action, forfeit, legal_actions, new_match, play_random, step,
    trick_winner,
)
from referee.game.outcomes import EndReason
from referee.game.rules import Rules, RuleError, Variant
from referee.game.view import known_cards, seat_view

P, TWO = Variant.PARTNERSHIP, Variant.TWO_PLAYER


def partnership_deal(hands: list[str], dealer: int = 0) -> Deal:
    """A deal giving seat s the 13 cards ``hands[s]`` (space separated) when ``dealer`` deals."""
    per_seat = [parse_cards(h.split()) for h in hands]
    assert sorted(c for h in per_seat for c in h) == list(range(52))
    order = []
    for i in range(13):
        for k in range(4):
            order.append(per_seat[(dealer + 1 + k) % 4][i])
    return Deal(tuple(order))


# Seat 0 all clubs, seat 1 all diamonds, seat 2 all hearts, seat 3 all spades.
SUITED = partnership_deal([
    " ".join(r + "C" for r in "23456789TJQKA"),
    " ".join(r + "D" for r in "23456789TJQKA"),
    " ".join(r + "H" for r in "23456789TJQKA"),
    " ".join(r + "S" for r in "23456789TJQKA"),
])


def bid_all(st, bids):
    for b in bids:
        if st.phase is Phase.BLIND_NIL:
            st = step(st, False)
        assert st.phase is Phase.BID
        st = step(st, b)
    return st


def snapshot(st):
    return st._as_dict()


# ----------------------------------------------------------------- partnership


def test_partnership_deal_goes_from_the_dealers_left():
    st = new_match(P, deals=[SUITED])
    assert st.dealer == 0
    assert cards_of(st.hands[0]) == list(range(0, 13))
    assert cards_of(st.hands[3]) == list(range(39, 52))


def test_blind_nil_is_offered_before_the_player_sees_their_cards():
    st = new_match(P, deals=[SUITED])
    assert (st.phase, st.turn) == (Phase.BLIND_NIL, 1)
    assert seat_view(st, 1)["hand"] == []
    assert all(seat_view(st, s)["hand"] == [] for s in range(4))
    st = step(st, False)
    assert (st.phase, st.turn) == (Phase.BID, 1)
    assert [e.kind for e in st.events] == ["hand"]
    assert st.events[0].to == 1
    assert seat_view(st, 1)["hand"][0] == "2D"
    assert seat_view(st, 2)["hand"] == []  # seat 2 has not looked yet


def test_without_blind_nil_each_player_looks_at_their_turn_and_bids():
    st = new_match(P, Rules(blind_nil=False), deals=[SUITED])
    assert (st.phase, st.turn) == (Phase.BID, 1)
    assert seat_view(st, 1)["hand"]
    assert seat_view(st, 0)["hand"] == []


def test_bidding_order_and_the_first_lead_come_from_the_dealers_left():
    st = new_match(P, Rules(blind_nil=False), deals=[SUITED])
    order = []
    for b in (1, 2, 3, 4):
        order.append(st.turn)
        st = step(st, b)
    assert order == [1, 2, 3, 0]
    assert st.bids == (4, 1, 2, 3)
    assert (st.phase, st.turn) == (Phase.PLAY, 1)


def test_blind_nil_then_the_exchange_partner_first():
    st = new_match(P, seed=11)
    st = step(st, True)  # seat 1 bids blind nil
    assert st.bids[1] == 0 and st.blind[1]
    assert [e.kind for e in st.events][:1] == ["bid_made"]
    st = bid_all(st, (3, 4, 2))  # seats 2, 3, 0
    # All bids in: seat 1 finally looks, then partner (3) passes 3 cards to 1.
    assert (st.phase, st.turn, st.pending_count, st.pass_to) == (Phase.PASS, 3, 3, 1)
    assert seat_view(st, 1)["hand"]
    give = tuple(cards_of(st.hands[3])[:3])
    before1 = st.hands[1]
    st = step(st, give)
    assert st.hands[1] == before1 | mask_of(give)
    received = [e for e in st.events if e.kind == "received"]
    assert received[0].to == 1 and received[0].data == {"cards": mask_of(give), "from": 3}
    assert (st.phase, st.turn, st.pass_to) == (Phase.PASS, 1, 3)
    back = tuple(cards_of(st.hands[1])[-3:])
    st = step(st, back)
    assert all(st.hands[3] >> c & 1 for c in back)
    assert [st.hands[s].bit_count() for s in range(4)] == [13] * 4
    assert st.phase is Phase.PLAY
    assert seat_view(st, 3)["passed"] == [card_name(c) for c in give]
    assert seat_view(st, 3)["received"] == [card_name(c) for c in sorted(back)]


def test_both_partners_blind_nil_exchange_nothing():
    st = new_match(P, seed=3)
    st = step(st, True)  # seat 1
    st = bid_all(st, (3,))  # seat 2
    st = step(st, True)  # seat 3
    st = bid_all(st, (4,))  # seat 0
    assert st.phase is Phase.PLAY


def test_blind_nil_behind_offers_only_to_a_side_trailing_enough():
    rules = Rules(blind_nil_behind=100)
    st = new_match(P, rules, seed=1)
    assert st.phase is Phase.BID  # 0-0: nobody trails
    st._ctx.score = (0, -150)  # test-only: pretend side 1 trails by 150
    from referee.game.engine import _blind_nil_allowed
    assert _blind_nil_allowed(st, 1) and _blind_nil_allowed(st, 3)
    assert not _blind_nil_allowed(st, 0)


# ----------------------------------------------------------------- play rules


def test_follow_suit_and_the_renege_error_names_what_was_legal():
    deal = partnership_deal([
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "2C 3C 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    ])  # seat 0 deals, seat 1 leads
    st = new_match(P, Rules(blind_nil=False), deals=[deal])
    st = bid_all(st, (3, 3, 3, 3))
    assert st.turn == 1
    st = step(st, parse_card("2C"))
    assert list(legal_actions(st)) == parse_cards(["4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"])
    before = snapshot(st)
    with pytest.raises(IllegalAction) as err:
        step(st, parse_card("2D"))
    assert snapshot(st) == before
    msg = str(err.value)
    assert "seat 2" in msg and "'2D'" in msg and "must follow clubs" in msg and "'4C'" in msg


def test_spades_cannot_be_led_until_broken_unless_only_spades():
    deal = partnership_deal([
        "AH 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2S",
        "AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    ])
    st = bid_all(new_match(P, Rules(blind_nil=False), deals=[deal]), (3, 3, 3, 3))
    assert parse_card("2S") not in legal_actions(st)
    with pytest.raises(IllegalAction, match="spades are not broken"):
        step(st, parse_card("2S"))
    with pytest.raises(IllegalAction, match="do not hold"):
        step(st, parse_card("AS"))
    with pytest.raises(IllegalAction, match="not a card"):
        step(st, 52)


def test_a_player_holding_only_spades_may_lead_one_and_that_breaks_spades():
    st = new_match(P, Rules(blind_nil=False), deals=[SUITED])
    st = bid_all(st, (1, 1, 1, 1))
    # Seat 1 (diamonds) leads; 2 (hearts), 3 (spades) and 0 (clubs) cannot follow.
    for card in ("2D", "2H", "2S", "2C"):
        st = step(st, parse_card(card))
    assert st.spades_broken and st.turn == 3 and st.tricks[3] == 1
    assert legal_actions(st) == list(range(40, 52))  # only spades left: any may be led


def test_trick_winner_highest_spade_else_highest_of_led_suit():
    c = parse_card
    assert trick_winner([(0, c("2H")), (1, c("AH")), (2, c("KH")), (3, c("AC"))]) == 1
    assert trick_winner([(0, c("2H")), (1, c("AH")), (2, c("2S")), (3, c("AC"))]) == 2
    assert trick_winner([(2, c("3S")), (3, c("AD")), (0, c("4S")), (1, c("2S"))]) == 0
    assert trick_winner([(1, c("9C")), (0, c("TC"))]) == 0


def test_bad_bids_are_refused_with_the_legal_range():
    st = new_match(P, Rules(blind_nil=False), seed=2)
    for bad, text in ((14, "0 (Nil) to 13"), (-1, "0 (Nil) to 13"), ("three", "whole number"), (True, "whole number")):
        with pytest.raises(IllegalAction) as err:
            step(st, bad)
        assert text in str(err.value) and "0..13" in str(err.value) and repr(bad) in str(err.value)
    st2 = new_match(P, Rules(blind_nil=False, nil=False), seed=2)
    with pytest.raises(IllegalAction, match="Nil is not allowed"):
        step(st2, 0)
    assert list(legal_actions(st2)) == list(range(1, 14))


def test_wrong_exchanges_are_refused():
    st = new_match(P, seed=11)
    st = step(st, True)
    st = bid_all(st, (3, 4, 2))
    hand = cards_of(st.hands[3])
    other = cards_of(st.hands[0])[0]
    for bad, text in (((hand[0], hand[1]), "wrong number"), ((hand[0], hand[0], hand[1]), "twice"),
                      ((hand[0], hand[1], other), "do not hold"), ("AS", "list of cards")):
        with pytest.raises(IllegalAction, match=text):
            check_action(st, bad)


# ----------------------------------------------------------------- two-player


def test_two_player_hand_blind_nil_offers_draw_bids_and_lead():
    st = new_match(TWO, seed=5)
    assert (st.phase, st.turn, st.dealer) == (Phase.BLIND_NIL, 0, 0)  # seat 0 is first player
    st = step(st, False)
    assert (st.phase, st.turn) == (Phase.BLIND_NIL, 1)
    st = step(st, False)
    drawers = []
    deal = st.deal.cards
    for t in range(26):
        assert st.phase is Phase.KEEP
        drawers.append(st.turn)
        seen = st.pending_card
        assert seen == deal[2 * t]
        keep = t % 3 != 0
        st = step(st, keep)
        (ev,) = [e for e in st.events if e.kind == "drawn"]
        assert ev.to == drawers[-1]
        assert ev.data == ({"kept": deal[2 * t], "discarded": deal[2 * t + 1]} if keep
                           else {"kept": deal[2 * t + 1], "discarded": deal[2 * t]})
    assert drawers == [0, 1] * 13
    assert [st.hands[s].bit_count() for s in (0, 1)] == [13, 13]
    assert st.pile.bit_count() == 26
    assert st.pile & (st.hands[0] | st.hands[1]) == 0
    # Each player saw its own 13 discards, never the other's.
    assert st.discarded[0] | st.discarded[1] == st.pile and st.discarded[0] & st.discarded[1] == 0
    assert (st.phase, st.turn) == (Phase.BID, 1)  # second player bids first
    st = step(st, 4)
    assert (st.phase, st.turn) == (Phase.BID, 0)
    st = step(st, 5)
    assert (st.phase, st.turn) == (Phase.PLAY, 1)  # and leads


def test_two_player_roles_swap_every_hand():
    st = new_match(TWO, Rules(max_hands=3), seed=8)
    firsts = []
    rng = random.Random(1)
    while not st.over:
        if not firsts or firsts[-1][0] != st.hand_no:
            firsts.append((st.hand_no, st.dealer))
        st = step(st, rng.choice(legal_actions(st)) if st.phase not in (Phase.DISCARD, Phase.PASS) else ())
    assert firsts == [(1, 0), (2, 1), (3, 0)]


def _two_player_blind(seed: int):
    st = new_match(TWO, seed=seed)
    st = step(st, True)  # first player (0) bids blind nil before drawing
    st = step(st, False)
    while st.phase is Phase.KEEP:
        st = step(st, True)
    return st


def test_two_player_blind_nil_discard_draws_replacements_from_the_discards():
    st = _two_player_blind(4)
    assert (st.phase, st.turn, st.pending_count) == (Phase.DISCARD, 0, 3)
    gone = tuple(cards_of(st.hands[0])[-3:])
    pile_before = st.pile
    new = step(st, gone)
    got = new.received[0]
    assert got.bit_count() == 3 and got & pile_before == got  # drawn from the pile as it stood
    assert got & mask_of(gone) == 0  # never the cards just discarded
    assert new.hands[0] == (st.hands[0] & ~mask_of(gone)) | got
    assert new.pile == (pile_before & ~got) | mask_of(gone)
    # The replacement is part of the deal's seeded chance: it replays exactly.
    assert step(_two_player_blind(4), gone).received[0] == got
    assert new.phase is Phase.BID and new.turn == 1  # the blind nil bidder is not asked to bid


def test_two_player_discard_fewer_or_none():
    st = _two_player_blind(4)
    assert step(st, ()).hands[0] == st.hands[0]
    with pytest.raises(IllegalAction, match="wrong number"):
        step(st, tuple(cards_of(st.hands[0])[:4]))


# ----------------------------------------------------------------- whole matches


def test_same_seed_same_match_and_injected_deals_are_used():
    a = play_random(new_match(P, seed=42), random.Random(0))
    b = play_random(new_match(P, seed=42), random.Random(0))
    assert a.history == b.history and a.score == b.score
    deal = seeded_deal(99, 1)
    c = new_match(P, seed=1, deals=[deal])
    assert c.deal == deal
    assert seeded_deal(1, 1) != seeded_deal(1, 2) != seeded_deal(2, 1)


def test_fallback_action_is_always_legal():
    rng = random.Random(3)
    for variant in (P, TWO):
        st = new_match(variant, Rules(max_hands=2), seed=rng.randrange(1000))
        while not st.over:
            check_action(st, fallback_action(st))
            st = step(st, fallback_action(st) if rng.random() < 0.5 else rng.choice(legal_actions(st))
                      if st.phase not in (Phase.DISCARD, Phase.PASS) else fallback_action(st))


def test_forfeit_ends_the_match_for_the_other_side():
    st = new_match(P, seed=1)
    done = forfeit(st, [3])
    assert (done.over, done.winner, done.reason) == (True, 0, EndReason.FORFEIT)
    assert not st.over
    assert forfeit(st, [0, 1]).winner is None
    assert [e.kind for e in done.events] == ["match_end"]
    with pytest.raises(IllegalAction, match="over"):
        step(done, 1)


def test_match_ends_at_max_hands_and_known_cards_cover_the_view():
    st = play_random(new_match(P, Rules(max_hands=2, target=10_000), seed=9), random.Random(9))
    assert st.over and st.reason is EndReason.MAX_HANDS and len(st.history) == 2
    mid = new_match(P, seed=9)
    assert known_cards(mid, 1) == 0


def test_rule_errors_name_the_option_and_the_value():
    with pytest.raises(RuleError, match="did you mean 'target'"):
        Rules.from_mapping({"targte": 300})
    with pytest.raises(RuleError, match="got: -1"):
        Rules(max_hands=-1)
    with pytest.raises(RuleError, match="did you mean 'two-player'"):
        Variant.parse("two_player")
