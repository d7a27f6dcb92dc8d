"""Playing a fully known deal to the end with the rule-based policy (one playout)."""

from __future__ import annotations

from typing import Sequence

from .cards import NON_SPADE_MASK, SUIT_MASKS
from .policy import choose


def playout(hands: Sequence[int], trick: Sequence[tuple[int, int]], leader: int, broken: bool,
            tricks: Sequence[int], bids: Sequence[int | None]) -> list[int]:
    """Final tricks per seat after every seat plays ``policy.choose`` from this position.

    Every seat sees the actual hands of the others (this is a sampled deal, so that is
    the sample's truth, not cheating in the real game)."""
    n = len(hands)
    hands = list(hands)
    trick = list(trick)
    tricks = list(tricks)
    S = SUIT_MASKS
    while True:
        if len(trick) == n:
            led = trick[0][1] // 13
            wseat, wkey = -1, -1
            for s, x in trick:
                xs = x // 13
                k = 100 + x % 13 if xs == 3 else (x % 13 if xs == led else -1)
                if k > wkey:
                    wseat, wkey = s, k
            tricks[wseat] += 1
            leader = wseat
            trick = []
        nplayed = len(trick)
        turn = (leader + nplayed) % n
        h = hands[turn]
        if nplayed == 0 and not h:
            return tricks
        if nplayed:
            led = trick[0][1] // 13
            legal = h & S[led] or h
        else:
            led = -1
            legal = h if broken else (h & NON_SPADE_MASK or h)
        if legal & (legal - 1) == 0:
            c = legal.bit_length() - 1
        else:
            out = 0
            for s in range(n):
                if s != turn:
                    out |= hands[s]
            after_seats = [(turn + i) % n for i in range(1, n - nplayed)]
            c = choose(turn, h, legal, trick, out, [hands[s] for s in after_seats], after_seats,
                       bids, tricks, n)
        hands[turn] = h ^ (1 << c)
        if c // 13 == 3:
            broken = True
        trick.append((turn, c))
