"""The strong bot's fast paths against the plain code they replace: the rollout policy's
mask for the cards that beat a trick, a playout that keeps its bookkeeping card by card,
and the hand models' per-suit lookup tables. Each must give exactly what the plain
version gives, so that a speed-up never changes a decision."""

from __future__ import annotations

import random

import pytest

from bots.strong.cards import FULL_DECK, NON_SPADE_MASK, SPADE_MASK, SUIT_MASKS
from bots.strong.evaluate import nil_features, trick_features
from bots.strong.playout import playout
from bots.strong.policy import _beating, _key, choose


@pytest.mark.parametrize("led", range(4))
def test_beating_is_every_card_whose_trick_key_is_higher(led: int) -> None:
    # Every key a trick can be won with on this lead (-1: nothing to beat yet), every card.
    keys = [-1] + [r for r in range(13) if led != 3] + [100 + r for r in range(13)]
    for key in keys:
        want = 0
        for c in range(52):
            if _key(c, led) > key:
                want |= 1 << c
        assert _beating(FULL_DECK, led, key) == want, (led, key)
        # and only among the cards it is given
        some = 0x5A5A5A5A5A5A5 & FULL_DECK
        assert _beating(some, led, key) == want & some, (led, key)


def _reference_playout(hands: list[int], trick: list[tuple[int, int]], leader: int, broken: bool,
                       tricks: list[int], bids: list[int]) -> list[int]:
    """The playout written plainly: every seat's view rebuilt from the hands at each card."""
    n = len(hands)
    hands, trick, tricks = list(hands), list(trick), list(tricks)
    while True:
        if len(trick) == n:
            led = trick[0][1] // 13
            winner = max(trick, key=lambda sc: _key(sc[1], led))[0]
            tricks[winner] += 1
            leader, trick = winner, []
        turn = (leader + len(trick)) % n
        h = hands[turn]
        if not trick and not h:
            return tricks
        if trick:
            legal = h & SUIT_MASKS[trick[0][1] // 13] or h
        else:
            legal = h if broken else (h & NON_SPADE_MASK or h)
        out = 0
        for s in range(n):
            if s != turn:
                out |= hands[s]
        after_seats = [(turn + i) % n for i in range(1, n - len(trick))]
        c = choose(turn, h, legal, trick, out, [hands[s] for s in after_seats], after_seats, bids, tricks, n)
        hands[turn] ^= 1 << c
        broken = broken or c // 13 == 3
        trick.append((turn, c))


@pytest.mark.parametrize("n", [2, 4])
def test_playout_matches_the_plain_version_on_random_deals(n: int) -> None:
    rng = random.Random(20261202 + n)
    for _ in range(150):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [0] * n
        for i, c in enumerate(deck[:13 * n]):
            hands[i % n] |= 1 << c
        # Nil bids now and then, so the nil, cover and nil-attack rules are exercised too.
        bids = [0 if rng.random() < 0.2 else rng.randint(1, 6) for _ in range(n)]
        leader = rng.randrange(n)
        # Sometimes start mid-hand: a few cards played by the policy itself, mid-trick.
        trick: list[tuple[int, int]] = []
        tricks = [0] * n
        for k in range(rng.randrange(3)):
            turn = (leader + k) % n
            legal = hands[turn] & SUIT_MASKS[trick[0][1] // 13] if trick else hands[turn] & NON_SPADE_MASK
            legal = legal or hands[turn]
            c = (legal & -legal).bit_length() - 1
            hands[turn] ^= 1 << c
            trick.append((turn, c))
        broken = any(c // 13 == 3 for _, c in trick)
        got = playout(hands, trick, leader, broken, tricks, bids)
        assert got == _reference_playout(hands, trick, leader, broken, tricks, bids)
        assert sum(got) == 13


def _plain_trick_features(hand: int) -> list[float]:
    sp = (hand & SPADE_MASK) >> 39
    slen = sp.bit_count()
    f = [1.0, float(sp >> 12 & 1), float(sp >> 11 & 1), float(sp >> 10 & 1), float(sp >> 9 & 1),
         float(slen), float(max(0, slen - 3))]
    side_a = k_g = k_s = q_g = q_s = j_g = voids = singles = long4 = 0
    for s in range(3):
        p = (hand >> (13 * s)) & 0x1FFF
        ln = p.bit_count()
        if ln == 0:
            voids += 1
            continue
        singles += ln == 1
        long4 += max(0, ln - 4)
        side_a += p >> 12 & 1
        if p >> 11 & 1:
            k_g, k_s = (k_g + 1, k_s) if ln >= 2 else (k_g, k_s + 1)
        if p >> 10 & 1:
            q_g, q_s = (q_g + 1, q_s) if ln >= 3 else (q_g, q_s + 1)
        j_g += bool(p >> 9 & 1 and ln >= 4 and p >> 10 & 3)
    trump = min(slen, 3)
    return f + [float(side_a), float(k_g), float(k_s), float(q_g), float(q_s), float(j_g),
                float(voids * trump), float(singles * min(slen, 2)), float(long4)]


def _plain_nil_features(hand: int) -> list[float]:
    sp = (hand & SPADE_MASK) >> 39
    side = [0, 0, 0, 0]
    unguarded = low = voids = short = 0
    for s in range(3):
        p = (hand >> (13 * s)) & 0x1FFF
        ranks = [r for r in range(13) if p >> r & 1]
        if not ranks:
            voids += 1
            continue
        short += len(ranks) <= 2
        for i, r in enumerate((12, 11, 10, 9)):
            side[i] += p >> r & 1
        low += sum(1 for r in ranks if r <= 4)
        unguarded += sum(1 for i, r in enumerate(ranks) if r >= 4 + 3 * i)
    return [1.0, float((sp >> 10).bit_count()), float((sp >> 7 & 7).bit_count()), float(sp.bit_count()),
            *map(float, side), float(unguarded), float(low), float(voids), float(short)]


def test_hand_model_features_match_the_plain_count_on_random_hands() -> None:
    rng = random.Random(7)
    for size in (13, 13, 13, 9, 5, 0):
        for _ in range(3000):
            hand = 0
            for c in rng.sample(range(52), size):
                hand |= 1 << c
            assert trick_features(hand) == _plain_trick_features(hand), hex(hand)
            assert nil_features(hand) == _plain_nil_features(hand), hex(hand)
