"""Property tests: thousands of random hands of both variants under varied rules.

Every step of every random match is checked against an independent reading of
the rules (follow suit, unbroken spades, trick winners), every hand's card
accounting, the per-seat views, the scoring function and the match end.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from referee.game.cards import CARD_NAMES, cards_of
from referee.game.engine import IllegalAction, Phase, State, check_action, legal_actions, new_match, step
from referee.game.rules import Rules, Variant
from referee.game.scoring import match_outcome, score_hand
from referee.game.view import known_cards, seat_view


def independent_legal(hand: list[int], trick, spades_broken: bool) -> set[int]:
    """The play rules, written again from the text without masks."""
    if trick:
        led = trick[0][1] // 13
        follow = [c for c in hand if c // 13 == led]
        return set(follow or hand)
    if spades_broken or all(c // 13 == 3 for c in hand):
        return set(hand)
    return {c for c in hand if c // 13 != 3}


def independent_winner(trick) -> int:
    spades = [(c, s) for s, c in trick if c // 13 == 3]
    if spades:
        return max(spades)[1]
    led = trick[0][1] // 13
    return max((c, s) for s, c in trick if c // 13 == led)[1]


def random_action(st: State, rng: random.Random):
    if st.phase is Phase.DISCARD:
        hand = cards_of(st.hands[st.turn])
        return tuple(rng.sample(hand, rng.randint(0, st.pending_count)))
    if st.phase is Phase.PASS:
        return tuple(rng.sample(cards_of(st.hands[st.turn]), st.pending_count))
    return rng.choice(list(legal_actions(st)))


def check_views(st: State) -> None:
    """No view holds a card its seat has not legitimately seen."""
    for seat in range(st.nseats):
        view = seat_view(st, seat)
        shown = set(view["hand"]) | {c for _, c in view["played"]} | {c for _, c in view["trick"]}
        shown |= set(view.get("discards", [])) | set(view.get("passed", [])) | set(view["received"])
        allowed = {CARD_NAMES[c] for c in cards_of(known_cards(st, seat))}
        assert shown <= allowed, (seat, shown - allowed)
        # In particular, never a card another seat holds unless this seat passed it there.
        for other in range(st.nseats):
            if other != seat:
                hidden = st.hands[other] & ~st.passed[seat]
                assert not {CARD_NAMES[c] for c in cards_of(hidden)} & set(view["hand"])
        if st.variant is Variant.PARTNERSHIP and st.phase is Phase.BLIND_NIL and st.turn == seat:
            assert view["hand"] == []


def play_checked(st: State, rng: random.Random) -> tuple[State, int]:
    hands_checked = 0
    hand_cards: set[int] = set()
    while not st.over:
        if st.phase is Phase.PLAY:
            if not st.trick and not st.done:
                # Start of the play: every seat holds 13 distinct cards.
                assert all(h.bit_count() == 13 for h in st.hands)
                hand_cards = set().union(*(set(cards_of(h)) for h in st.hands))
                assert len(hand_cards) == 13 * st.nseats
            hand = cards_of(st.hands[st.turn])
            assert set(legal_actions(st)) == independent_legal(hand, st.trick, st.spades_broken)
            # An illegal card (if any) is refused and leaves the state untouched.
            illegal = [c for c in range(52) if c not in independent_legal(hand, st.trick, st.spades_broken)]
            if illegal:
                before = st._as_dict()
                bad = rng.choice(illegal)
                try:
                    check_action(st, bad)
                    raise AssertionError(f"illegal {CARD_NAMES[bad]} accepted")
                except IllegalAction:
                    pass
                assert st._as_dict() == before
        if rng.random() < 0.05:
            check_views(st)
        prev = st
        st = step(prev, random_action(prev, rng))
        kinds = [e.kind for e in st.events]
        if "trick" in kinds:
            ev = st.events[kinds.index("trick")]
            assert ev.data["winner"] == independent_winner(ev.data["cards"])
            assert len(ev.data["cards"]) == prev.nseats
        if "hand_end" in kinds:
            hands_checked += 1
            last = st.history[-1]
            assert sum(last.tricks) == 13
            played = [c for _, c in prev.played] + [e.data["card"] for e in st.events if e.kind == "played"]
            assert len(played) == len(set(played)) == 13 * prev.nseats  # every card once
            assert set(played) == hand_cards
            expect = score_hand(prev.variant, prev.rules, last.bids, last.blind, last.tricks, prev.bags)
            assert last.points == expect.points and last.bags == expect.bags
            assert last.score == tuple(a + b for a, b in zip(prev.score, expect.points))
            assert st.over == match_outcome(prev.rules, last.score, last.hand).over
            if st.over:
                assert (st.winner, st.reason) == match_outcome(prev.rules, last.score, last.hand)[1:]
    return st, hands_checked


rule_options = st_.builds(
    Rules,
    target=st_.sampled_from([100, 250, 500]),
    nil=st_.booleans(),
    blind_nil=st_.booleans(),
    blind_nil_cards=st_.integers(0, 4),
    blind_nil_behind=st_.sampled_from([None, None, 50]),
    bag_limit=st_.sampled_from([3, 5, 10]),
    bag_penalty=st_.sampled_from([0, 50, 100]),
    mercy=st_.sampled_from([None, -100, -300]),
    max_hands=st_.integers(1, 6),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st_.sampled_from(list(Variant)), rules=rule_options, seed=st_.integers(0, 2**32), play=st_.integers(0, 2**32))
def test_random_matches_under_varied_rules(variant, rules, seed, play):
    final, hands = play_checked(new_match(variant, rules, seed), random.Random(play))
    assert final.over and hands == len(final.history) >= 1
    assert len(final.history) <= rules.max_hands


def test_thousands_of_default_rule_hands_per_variant():
    for variant in Variant:
        total = 0
        seed = 0
        while total < 1000:
            final, hands = play_checked(new_match(variant, Rules(max_hands=25), seed), random.Random(seed))
            total += hands
            seed += 1
        assert total >= 1000
