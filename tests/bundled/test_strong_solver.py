"""The strong bot's exact solver agrees with plain minimax (no pruning, no table, no
card equivalence) on many random small endgames, for trick counts and for the
score-aware objective (nil seats, blind nils, bags near the limit, match end)."""

from __future__ import annotations

import random
import time

import pytest

from bots.strong.cards import legal_mask, mask_of, trick_winner
from bots.strong.game import MatchContext, Objective, RuleSet, score_hand, side_of
from bots.strong.solver import Position, SearchTimeout, SolveStats, solve


def brute_force(pos: Position, value, max_side: int) -> dict[int, float]:
    """Value of every legal card by exhaustive minimax over every legal continuation."""
    n = len(pos.hands)

    def rec(hands, trick, leader, broken, tricks):
        if len(trick) == n:
            w = trick_winner(trick)
            t = list(tricks)
            t[w] += 1
            if hands[w] == 0:
                return value(tuple(t)), None
            return rec(hands, [], w, broken, t)
        turn = (leader + len(trick)) % n
        led = trick[0][1] // 13 if trick else -1
        vals = {}
        m = legal_mask(hands[turn], led, broken)
        for c in range(52):
            if m >> c & 1:
                h2 = list(hands)
                h2[turn] ^= 1 << c
                vals[c] = rec(h2, trick + [(turn, c)], leader, broken or c // 13 == 3, tricks)[0]
        best = max(vals.values()) if side_of(turn, n) == max_side else min(vals.values())
        return best, vals

    return rec(list(pos.hands), list(pos.trick), pos.leader, pos.broken, list(pos.tricks))[1]


def random_position(rng: random.Random, n: int, k: int, spade_heavy: bool = False) -> Position:
    """A random position with ``k`` cards per hand, part of a trick played."""
    deck = list(range(52))
    rng.shuffle(deck)
    if spade_heavy:
        # Many spades so that leads of unbroken spades and only-spade hands occur.
        deck.sort(key=lambda c: (c // 13 != 3, rng.random()))
        rng.shuffle(deck[: n * k])
    hands = [mask_of(deck[i * k:(i + 1) * k]) for i in range(n)]
    leader = rng.randrange(n)
    broken = rng.random() < 0.4
    trick: list[tuple[int, int]] = []
    for i in range(rng.randrange(n)):
        seat = (leader + i) % n
        led = trick[0][1] // 13 if trick else -1
        legal = legal_mask(hands[seat], led, broken)
        cards = [c for c in range(52) if legal >> c & 1]
        c = rng.choice(cards)
        hands[seat] ^= 1 << c
        trick.append((seat, c))
        broken = broken or c // 13 == 3
    tricks = [0] * n
    for _ in range(13 - k):
        tricks[rng.randrange(n)] += 1
    return Position(hands, trick, leader, broken, tricks)


def random_objective(rng: random.Random, n: int) -> Objective:
    bids = [rng.choice([0, 0, 1, 2, 3, 4, 5, 6]) for _ in range(n)]
    blind = [b == 0 and rng.random() < 0.3 for b in bids]
    rules = RuleSet(bag_limit=rng.choice([3, 5, 10]), target=rng.choice([150, 300, 500]))
    ctx = MatchContext(rules, n, rng.randrange(2),
                       (rng.randrange(-100, 480), rng.randrange(-100, 480)),
                       (rng.randrange(rules.bag_limit), rng.randrange(rules.bag_limit)),
                       hand_no=rng.choice([1, 5, 100]))
    return Objective(ctx, bids, blind)


@pytest.mark.parametrize("n,max_k,cases", [(4, 3, 160), (2, 4, 200)])
def test_solver_matches_brute_force(n: int, max_k: int, cases: int) -> None:
    rng = random.Random(1000 + n)
    checked = 0
    for i in range(cases):
        pos = random_position(rng, n, rng.randint(1, max_k), spade_heavy=i % 4 == 0)
        obj = random_objective(rng, n)
        my_side = obj.ctx.my_side
        tricks_only = lambda t, s=my_side: float(sum(t[x] for x in range(n) if side_of(x, n) == s))
        for value in (obj.value, tricks_only):
            want = brute_force(pos, value, my_side)
            assert solve(pos, value, my_side) == want, (pos, obj.bids, obj.blind)
            checked += 1
        # Shared counters for non-nil partners (what the bot uses) change nothing.
        assert solve(pos, obj.value, my_side, slots=obj.slots()) == brute_force(pos, obj.value, my_side)
    assert checked == 2 * cases


def test_unbroken_spade_lead_rules_respected() -> None:
    # Seat 0 leads with spades unbroken: it may not lead its spade while it holds a heart.
    S, H = 39, 26
    hands = [mask_of([S + 12, H + 0]), mask_of([H + 5, H + 6]), mask_of([S + 1, H + 7]), mask_of([H + 8, H + 9])]
    pos = Position(hands, [], 0, False, [0, 0, 0, 0])
    vals = solve(pos, lambda t: float(t[0] + t[2]), 0)
    assert set(vals) == {H + 0}
    # Holding only spades, the leader may lead one.
    hands[0] = mask_of([S + 12, S + 11])
    hands[2] = mask_of([H + 1, H + 2])
    vals = solve(Position(hands, [], 0, False, [0, 0, 0, 0]), lambda t: float(t[0] + t[2]), 0)
    assert set(vals) == {S + 11, S + 12} and vals[S + 12] == 2.0


def test_nil_seat_ducks_under_objective() -> None:
    # Seat 0 bid nil and holds K-2 of clubs under a led queen; nobody after it can beat
    # the king. Ducking with the 2 lets the queen win, and seat 0 later discards its king
    # on a diamond: the score objective must prefer the 2 (a trick count would not).
    C, D = 0, 13
    rules = RuleSet()
    hands = [mask_of([C + 11, C + 0]), mask_of([C + 9, D + 1]), mask_of([C + 2, C + 3]), mask_of([D + 4])]
    pos = Position(hands, [(3, C + 10)], 3, False, [0, 4, 4, 3])
    obj = Objective(MatchContext(rules, 4, 0, (0, 0), (0, 0), 1), [0, 4, 4, 3], [False] * 4)
    vals = solve(pos, obj.value, 0)
    assert vals[C + 0] > vals[C + 11]
    assert brute_force(pos, obj.value, 0) == vals


def test_objective_scores_like_the_rules() -> None:
    rules = RuleSet()
    # Partnership: Alex bids 4, Charlie nil and takes 1 trick: -59 and one bag.
    pts, bags = score_hand(rules, 4, [4, 3, 0, 3], [False] * 4, [4, 3, 1, 5], [0, 0])
    assert pts[0] == -59 and bags[0] == 1
    # Bags crossing the limit cost the penalty and carry the rest.
    pts, bags = score_hand(rules, 2, [4, 5], [False, False], [9, 4], [6, 0])
    assert pts[0] == 45 - 100 and bags[0] == 1
    # The objective adds the match end: a made contract that reaches the target wins.
    ctx = MatchContext(rules, 2, 0, (480, 300), (0, 0), 3)
    obj = Objective(ctx, [4, 5], [False, False])
    assert obj.value((4, 9)) > 900 and obj.value((3, 10)) < 0


def test_solver_respects_deadline_and_counts_nodes() -> None:
    rng = random.Random(5)
    pos = random_position(rng, 4, 9)
    obj = random_objective(rng, 4)
    with pytest.raises(SearchTimeout):
        solve(pos, obj.value, 0, deadline=time.perf_counter() + 0.01)
    stats = SolveStats()
    small = random_position(rng, 4, 3)
    solve(small, obj.value, 0, stats)
    assert stats.nodes > 0
