"""Playing a fully known deal to the end with the rule-based policy (one playout)."""

from __future__ import annotations

from typing import Sequence

from .cards import NON_SPADE_MASK, SUIT_MASKS
from .policy import choose_known_winner, winning


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
    after_of = AFTER[n]
    # Every card still in a hand; the hands are disjoint, so what the others hold is
    # ``live ^ hand`` (kept up to date card by card instead of rebuilt at each card).
    live = 0
    for x in hands:
        live |= x
    # Who is winning the trick so far, and with what key (see policy._key), then kept card
    # by card below: the trick's winner and every follower's choice need it.
    wseat, wkey = winning(trick)
    led = trick[0][1] // 13 if trick else -1
    while True:
        nplayed = len(trick)
        if nplayed == n:
            tricks[wseat] += 1
            leader = wseat
            trick = []
            nplayed = 0
        turn = (leader + nplayed) % n
        h = hands[turn]
        if nplayed == 0 and not h:
            return tricks
        if nplayed:
            legal = h & S[led] or h
        else:
            legal = h if broken else (h & NON_SPADE_MASK or h)
        if legal & (legal - 1) == 0:
            c = legal.bit_length() - 1
        else:
            after_seats = after_of[turn][nplayed]
            c = choose_known_winner(turn, h, legal, trick, wseat, wkey, live ^ h,
                                    [hands[s] for s in after_seats], after_seats, bids, tricks, n)
        bit = 1 << c
        hands[turn] = h ^ bit
        live ^= bit
        cs = c // 13
        if cs == 3:
            broken = True
        if nplayed == 0:
            led, wseat, wkey = cs, turn, (100 + c % 13 if cs == 3 else c % 13)
        else:
            k = 100 + c % 13 if cs == 3 else (c % 13 if cs == led else -1)
            if k > wkey:
                wseat, wkey = turn, k
        trick.append((turn, c))


# Seats still to play after ``turn`` when ``nplayed`` cards of the trick are down, per
# table size: a lookup instead of a list built at every card of every playout.
AFTER = {n: [[[(t + i) % n for i in range(1, n - k)] for k in range(n)] for t in range(n)] for n in (2, 4)}
