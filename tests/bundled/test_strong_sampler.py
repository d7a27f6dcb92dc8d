"""Sampled deals never contradict what the seat has seen.

Situations come from whole matches played in the strong bot's in-process arena by
players that sometimes bid (Blind) Nil and sometimes play a random legal card (so voids
get shown). At play requests the seat's view is rebuilt exactly as the bot builds it,
deals are sampled, and every deal is checked against facts computed independently here
from the true deal: own cards, played cards, shown voids, the two-player discards this
seat saw, the cards it passed in a partnership exchange, and every seat's hand size. The
constraints themselves are checked against the true deal (they must never exclude it).
"""

from __future__ import annotations

import random

import pytest

from bots.strong.arena import Arena, PolicyBot
from bots.strong.cards import SUIT_MASKS, legal_mask, mask_of, parse_card
from bots.strong.game import RuleSet
from bots.strong.sampler import deal_exhaustive, knowledge, sample_deals


def independent_voids(played: list[tuple[int, int]], n: int) -> list[set[int]]:
    """Suits each seat has shown out of: failed to follow, or led a spade unbroken."""
    voids: list[set[int]] = [set() for _ in range(n)]
    broken = False
    for i in range(0, len(played), n):
        trick = played[i:i + n]
        led = trick[0][1] // 13
        if led == 3 and not broken:
            voids[trick[0][0]] |= {0, 1, 2}
        for seat, card in trick[1:]:
            if card // 13 != led:
                voids[seat].add(led)
        if any(c // 13 == 3 for _, c in trick):
            broken = True
    return voids


class Probe(PolicyBot):
    """Plays like PolicyBot with random twists; checks samples at its play requests."""

    def __init__(self, seed: int, rng: random.Random, stats: dict):
        super().__init__(seed)
        self.rng2 = rng
        self.stats = stats
        self.arena: Arena | None = None
        self.passed_mask = 0

    def handle(self, msg: dict) -> dict | None:
        kind = msg.get("type")
        if "id" in msg and kind == "blind_nil":
            self._inner.handle(msg)
            return {"id": msg["id"], "blind_nil": self.rng2.random() < 0.2}
        if "id" in msg and kind == "bid" and self.rng2.random() < 0.15 and 0 in msg["legal"]:
            return {"id": msg["id"], "bid": 0}
        if kind == "hand_start":
            self.passed_mask = 0
        if "id" in msg and kind == "pass":
            ans = super().handle(msg)
            self.passed_mask |= mask_of(parse_card(c) for c in ans["cards"])
            return ans
        if "id" in msg and kind == "play":
            if self.rng2.random() < 0.5:
                self.check(msg)
            if self.rng2.random() < 0.3:
                return {"id": msg["id"], "card": self.rng2.choice(msg["legal"])}
        return super().handle(msg)

    def check(self, msg: dict) -> None:
        arena = self.arena
        assert arena is not None
        view = self._inner._view(msg)
        n, me = view.n, view.seat
        truth = list(arena.hands)
        played = view.played_mask()
        voids = independent_voids(view.played, n)
        discards = arena.own_discards[me] if n == 2 else 0
        k = knowledge(view)
        # The constraints never exclude the true deal.
        for s in range(n):
            assert k.known[s] & ~truth[s] == 0
            for suit in range(4):
                if k.voids[s] >> suit & 1:
                    assert truth[s] & SUIT_MASKS[suit] == 0
            assert k.counts[s] == truth[s].bit_count()
        deals = sample_deals(k, 25, random.Random(self.rng2.random()))
        assert len(deals) == 25
        partner_known = 0
        if n == 4:
            partner_known = self.passed_mask & ~view.hand & ~played
        opp_blind = n == 2 and view.bids[1 - me] == 0 and view.blind[1 - me]
        for d in deals:
            assert d[me] == view.hand
            union = 0
            for s in range(n):
                assert d[s] & union == 0, "a card dealt twice"
                union |= d[s]
                assert d[s] & played == 0, "a played card dealt"
                assert d[s].bit_count() == truth[s].bit_count(), "wrong hand size"
                for suit in voids[s]:
                    assert d[s] & SUIT_MASKS[suit] == 0, "a shown void dealt its suit"
            if n == 2 and not opp_blind:
                assert d[1 - me] & discards & ~view.hand == 0, "a card this seat discarded dealt"
            if n == 4 and partner_known:
                assert d[(me + 2) % 4] & partner_known == partner_known, "passed card not with partner"
            self.stats["samples"] += 1
        self.stats["situations"] += 1
        if any(voids):
            self.stats["with_voids"] += 1
        if partner_known or discards:
            self.stats["with_seen"] += 1


@pytest.mark.parametrize("n", [4, 2])
def test_samples_never_contradict_the_view(n: int) -> None:
    stats = {"samples": 0, "situations": 0, "with_voids": 0, "with_seen": 0}
    rng = random.Random(77 + n)
    matches = 0
    while stats["samples"] < 3000:
        probes = [Probe(rng.randrange(10 ** 6), rng, stats) for _ in range(n)]
        arena = Arena(probes, rules=RuleSet(target=200, max_hands=8), seed=rng.randrange(10 ** 6))
        for p in probes:
            p.arena = arena
        arena.play_match()
        matches += 1
    assert stats["with_voids"] > 30
    assert stats["with_seen"] > 30


def test_exhaustive_fallback_finds_tight_deals() -> None:
    # Late in a hand with many voids the randomized dealer may dead-end; the exhaustive
    # search must still find a deal consistent with every void.
    from bots.strong.sampler import Knowledge
    hand = mask_of([0, 1])
    pool = mask_of([13, 14, 26, 27, 39, 40])
    k = Knowledge(n=4, me=0, hand=hand, counts=[2, 2, 2, 2], voids=[0, 0b1101, 0b1011, 0b0111],
                  known=[0, 0, 0, 0], pool=pool, pile=0, played_by=[0] * 4,
                  bids=[None] * 4, blind=[False] * 4)
    d = deal_exhaustive(k, random.Random(1))
    assert d is not None
    assert d[1] == mask_of([13, 14]) and d[2] == mask_of([26, 27]) and d[3] == mask_of([39, 40])
    deals = sample_deals(k, 5, random.Random(2))
    assert all(x == d for x in deals)


def test_legal_mask_used_by_sampler_views() -> None:
    # Sanity of the helper the views rely on: follow suit, no unbroken spade lead.
    hand = mask_of([0, 39])
    assert legal_mask(hand, -1, False) == mask_of([0])
    assert legal_mask(hand, 1, False) == hand
    assert legal_mask(mask_of([39, 40]), -1, False) == mask_of([39, 40])
