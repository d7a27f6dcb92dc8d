"""Nil defence and nil cover of the strong bot on hand-built positions: the play policy
(which drives the searched values in sampled playouts) and the search's own decision."""

from __future__ import annotations

import random

from bots.strong.cards import mask_of, name, parse_card
from bots.strong.game import RuleSet
from bots.strong.policy import choose
from bots.strong.search import SearchConfig, decide_play, legal_now, policy_card
from bots.strong.view import parse_view


def m(*cards: str) -> int:
    return mask_of(parse_card(c) for c in cards)


def play(seat: int, hands: dict[int, int], trick: list[tuple[int, str]], bids: list[int],
         tricks: list[int] | None = None) -> str:
    """The policy's card for ``seat`` in a fully known deal (as in a sampled playout)."""
    hand = hands[seat]
    t = [(s, parse_card(c)) for s, c in trick]
    led = t[0][1] // 13 if t else -1
    legal = hand & (0x1FFF << (13 * led)) if t else hand
    legal = legal or hand
    out = 0
    for s, h in hands.items():
        if s != seat:
            out |= h
    after_seats = [(seat + i) % 4 for i in range(1, 4 - len(t))]
    return name(choose(seat, hand, legal, t, out, [hands[s] for s in after_seats], after_seats, bids,
                       tricks or [0, 0, 0, 0], 4))


# Seat 1 bid Nil; seats 0 and 2 (the defenders) bid 3 and 4; seat 3 (its partner) bid 4.
BIDS = [3, 0, 4, 4]


def test_leader_leads_low_into_a_suit_where_the_nil_bidder_must_play_over_it() -> None:
    # The nil bidder's hearts are all above our 3H and its partner has neither a higher
    # heart nor a spade to ruff with: the heart lead sets the nil. Our side still needs
    # tricks, and the sure club winner is not led first.
    hands = {0: m("3H", "AC", "KC", "4D"), 1: m("KH", "2C", "3C", "2D"),
             2: m("QC", "5D", "6D", "7D"), 3: m("5C", "6C", "8D", "9D")}
    assert play(0, hands, [], BIDS) == "3H"


def test_no_attack_lead_where_the_nil_bidder_can_duck_or_its_partner_covers() -> None:
    # Hearts: the nil bidder holds the 2H, under any heart we lead. Clubs: its partner
    # holds the ace above its king. Nothing attacks, so the leader plays for its
    # contract (cashing its diamond ace) instead of leading low.
    hands = {0: m("5H", "3C", "AD", "9D"), 1: m("2H", "KC", "2D", "3D"),
             2: m("6H", "7H", "4C", "5C"), 3: m("8H", "AC", "4D", "5D")}
    assert play(0, hands, [], BIDS) == "AD"


def test_defender_never_overtakes_a_trick_the_nil_bidder_is_winning() -> None:
    # Seat 0 led the 2S, the nil bidder was forced to play the 9S: seat 2 holds the AS
    # and the 5S and plays under.
    hands = {2: m("AS", "5S", "KD", "QD"), 3: m("3S", "4D", "5D", "6D")}
    assert play(2, hands, [(0, "2S"), (1, "9S")], BIDS) == "5S"


def test_defender_keeps_its_lowest_card_under_the_nil_bidder() -> None:
    # The nil bidder (seat 1) is still to play this club trick, which its partner leads
    # with the ace. Any of our clubs loses; we give away the 7C and keep the 2C, the
    # one club under all of the nil bidder's (to lead or play under it later).
    hands = {0: m("2C", "7C", "9C", "4D"), 1: m("5C", "8C", "TC", "2D"), 2: m("3C", "KD", "QD", "2S")}
    assert play(0, hands, [(3, "AC")], BIDS) == "7C"


def test_partner_of_a_nil_bidder_leads_a_suit_it_keeps_safe() -> None:
    # Seat 3 covers seat 1's nil. Its king of diamonds beats every diamond the nil
    # bidder holds, so the nil bidder plays under it; a lead from its longest suit,
    # clubs, would force the nil bidder's singleton king of clubs over the 9C.
    hands = {3: m("9C", "8C", "7C", "KD"), 0: m("2C", "4D", "5H", "6H"), 1: m("KC", "5D", "6D", "7H"),
             2: m("3C", "AD", "8H", "9H")}
    assert play(3, hands, [], BIDS) == "KD"


def test_partner_of_a_nil_bidder_overtakes_its_winning_card() -> None:
    # The nil bidder had to play the KD on the defender's 4D; its partner (seat 3,
    # last to play) takes the trick with the ace.
    hands = {3: m("AD", "3D", "2C", "3C")}
    assert play(3, hands, [(0, "4D"), (1, "KD"), (2, "5D")], BIDS) == "AD"


def nil_attack_view() -> dict:
    """After three tricks (known from play): the defenders' side (seats 0 and 2) bid 3
    and 5, seat 1 bid Nil, its partner seat 3 bid 4. Trick 1: seat 0 led the AH, the nil
    bidder shed the KH, seat 2 ruffed with the 2S and seat 3 threw a club (both void in
    hearts). Trick 2: seat 2 led the AS and seat 3 threw a diamond (void in spades).
    Trick 3: seat 2 led the 3D and seat 0 won with the AD. Seat 0 is on lead holding
    2H-9H, 6C and 7C: the only hearts still out (QH, JH, TH) are the nil bidder's, all
    above ours, and its partner can neither follow nor ruff a heart."""
    played = [(0, "AH"), (1, "KH"), (2, "2S"), (3, "8C"),
              (2, "AS"), (3, "2D"), (0, "3S"), (1, "4S"),
              (2, "3D"), (3, "4D"), (0, "AD"), (1, "5D")]
    return {"hand_no": 1, "seat": 0, "phase": "play", "dealer": 3,
            "hand": ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "6C", "7C"],
            "bids": [3, 0, 5, 4], "blind": [False] * 4, "tricks": [1, 0, 2, 0], "trick": [], "leader": 0,
            "spades_broken": True, "played": [[s, c] for s, c in played], "score": [120, 150], "bags": [2, 3]}


def test_search_leads_a_heart_into_the_nil_bidders_high_hearts() -> None:
    view = parse_view(nil_attack_view(), 4, 0)
    legal = legal_now(view)
    # The policy's own-view card already attacks (the possible holdings prove it) ...
    assert policy_card(view, legal) // 13 == 2
    # ... and so does the sampled search, in every sample.
    for seed in (1, 2, 3):
        report = decide_play(view, RuleSet(), legal, SearchConfig(samples=16), random.Random(seed))
        assert report.card // 13 == 2, name(report.card)
        best_club = max(v for c, v in report.values.items() if c // 13 == 0)
        assert report.values[report.card] > best_club, report.values


def test_sampler_gives_a_partnership_blind_nil_bidder_few_honours() -> None:
    # Seat 0 at the first trick, nothing played. Seat 1 bid Blind Nil and exchanged
    # cards with its partner: it gave away its most dangerous cards and got low ones,
    # so the samples give it fewer queens, kings and aces than a seat that bid 3.
    from bots.strong.evaluate import HONOURS_MASK
    from bots.strong.sampler import knowledge, sample_deals
    st = {"hand_no": 1, "seat": 0, "phase": "play", "dealer": 3,
          "hand": ["2C", "5C", "9C", "3D", "7D", "JD", "4H", "8H", "TH", "2S", "6S", "9S", "QS"],
          "bids": [3, 0, 4, 3], "blind": [False, True, False, False], "tricks": [0] * 4, "trick": [],
          "leader": 0, "spades_broken": False, "played": [], "score": [0, 0], "bags": [0, 0]}
    view = parse_view(st, 4, 0)
    rng = random.Random(5)
    deals = [d for _ in range(20) for d in sample_deals(knowledge(view, 3), 10, rng)]
    honours = [sum((d[s] & HONOURS_MASK).bit_count() for d in deals) / len(deals) for s in range(4)]
    assert honours[1] < 0.8 * honours[3], honours
    off = [d for _ in range(20) for d in sample_deals(knowledge(view, 0), 10, rng)]  # no exchange
    assert sum((d[1] & HONOURS_MASK).bit_count() for d in off) / len(off) > honours[1] + 0.5
