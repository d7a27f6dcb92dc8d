"""Exact perfect-information search of a Spades card-play position ("double dummy").

Given every hand, the trick in progress and the tricks taken so far, :func:`solve`
returns the exact value of each legal card for the player to move under a score-aware
objective (any function of the final tricks per seat, e.g. :class:`game.Objective`),
with the partner(s) maximising it and the other side minimising it. Nil bidders need no
special case: the objective already makes a nil seat's side want it to take nothing.

Techniques (all exact, checked against plain minimax in ``tests/test_strong_solver.py``):

* hands as 52-bit masks, legal cards by mask arithmetic (follow suit, no spade lead
  until broken unless only spades);
* fail-soft alpha-beta on the objective value;
* a transposition table at trick boundaries, keyed by the remaining hands, the leader
  and the tricks taken since the root (spades-broken is implied by the hands);
* equivalent-card pruning: two cards of one suit in one hand with no live card of
  another hand (or of the trick in progress) between them win exactly the same tricks,
  so only one of them is searched;
* move ordering: the table's best move first, then cheap heuristics (lowest winning
  card, or lowest card under a winning partner, or highest losing card for a nil seat).
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

from .cards import NON_SPADE_MASK, SUIT_MASKS
from .timing import Deadline, expired

INF = float("inf")


class SearchTimeout(Exception):
    """Raised inside :func:`solve` when its ``deadline`` passes (the caller falls back)."""


@dataclasses.dataclass
class Position:
    """A card-play position with every hand known.

    ``hands``: mask per seat; ``trick``: ``[(seat, card), ...]`` of the trick in progress;
    ``leader``: who led it (or leads next when it is empty); ``broken``: spades broken;
    ``tricks``: tricks taken so far this hand, per seat.
    """

    hands: list[int]
    trick: list[tuple[int, int]]
    leader: int
    broken: bool
    tricks: list[int]

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)


#: A model of how the minimising side plays (instead of its best reply): called as
#: ``reply(seat, hand, legal, trick, wseat, wkey, hands, tricks)`` at each of its turns
#: with the trick so far (``wseat``/``wkey``: who is winning it and the card's key, -1
#: when leading), every hand and the tricks per seat; returns one card of ``legal``.
Reply = Callable[[int, int, int, Sequence[tuple[int, int]], int, int, Sequence[int], Sequence[int]], int]


@dataclasses.dataclass
class SolveStats:
    """Work done by one :func:`solve` call."""

    nodes: int = 0
    tt_entries: int = 0


def _side(seat: int, n: int) -> int:
    return seat % 2 if n == 4 else seat


def solve(pos: Position, value: Callable[[tuple[int, ...]], float], max_side: int,
          stats: SolveStats | None = None, moves: Sequence[int] | None = None,
          deadline: Deadline | float | None = None, slots: Sequence[int] | None = None,
          reply: Reply | None = None, modelled: Sequence[int] | None = None) -> dict[int, float]:
    """Exact value of every legal card of ``pos.to_move`` (or of the cards in ``moves``).

    ``slots`` (optional) maps each seat to the seat whose trick counter it shares: when
    ``value`` depends only on the sum of some seats' tricks (the non-nil partners of a
    side), sharing one counter makes more positions transpose. ``value`` is then called
    with each shared sum credited to the slot's seat.

    ``value(final_tricks)`` scores a finished hand from ``max_side``'s point of view;
    seats of ``max_side`` maximise it, the others minimise it. If ``deadline`` (a
    :class:`bots.strong.timing.Deadline`, or a ``time.perf_counter()`` value) passes,
    :class:`SearchTimeout` is raised.

    With ``reply`` the other side does not search: each of its turns plays the card
    ``reply`` picks (a model of a real opponent, which does not see every card), so
    the values are those of ``max_side``'s best play against that model. ``modelled``
    (with ``reply``) names the seats that play by it instead: by default every seat of
    the other side; a seat of ``max_side`` named there (the partner) stops searching too.
    """
    n = len(pos.hands)
    hands = list(pos.hands)
    base = tuple(pos.tricks)
    maxing = [_side(s, n) == max_side for s in range(n)]
    by_reply = [reply is not None and (s in modelled if modelled is not None else not maxing[s])
                for s in range(n)]
    same_side = [[_side(a, n) == _side(b, n) for b in range(n)] for a in range(n)]
    slot_of = list(slots) if slots is not None else list(range(n))
    shifts = [4 * slot_of[s] for s in range(n)]
    ucache: dict[int, float] = {}
    tt: dict[tuple, tuple[float, float, int]] = {}
    counter = [0]
    S = SUIT_MASKS
    NS = NON_SPADE_MASK
    # The cards played from the start of the root's trick, as (seat, card); kept only for
    # ``reply``, whose trick in progress is the last ``nplayed`` of them.
    line: list[tuple[int, int]] = list(pos.trick)

    def modelled_card(turn: int, nplayed: int, legal: int, wseat: int, wkey: int, taken: int) -> int:
        assert reply is not None
        tricks = [base[s] + ((taken >> shifts[s]) & 15) if slot_of[s] == s else base[s] for s in range(n)]
        if not nplayed:
            return reply(turn, hands[turn], legal, [], -1, -1, hands, tricks)
        return reply(turn, hands[turn], legal, line[-nplayed:], wseat, wkey, hands, tricks)

    def util(taken: int) -> float:
        v = ucache.get(taken)
        if v is None:
            final = tuple(base[s] + ((taken >> (4 * s)) & 15) for s in range(n))
            v = value(final)
            ucache[taken] = v
        return v

    def ordered(turn: int, legal: int, alive: int, led: int, wseat: int, wkey: int,
                first: int) -> list[int]:
        # One representative per run of equivalent cards (the lowest of the run).
        reps = []
        prev = -2
        m = legal
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            if prev >= 0 and c // 13 == prev // 13 and not (alive & (low - 1) & ~((2 << prev) - 1)):
                prev = c
                continue
            reps.append(c)
            prev = c
        if len(reps) > 1:
            if led < 0:
                # Leading: high cards first (they decide tricks soonest).
                reps.sort(key=lambda c: -(c % 13))
            else:
                win: list[int] = []
                lose: list[int] = []
                for c in reps:
                    s = c // 13
                    k = 100 + c % 13 if s == 3 else (c % 13 if s == led else -1)
                    (win if k > wkey else lose).append(c)
                if same_side[turn][wseat]:
                    reps = lose + win
                else:
                    reps = win + lose
            if first >= 0 and first in reps:
                reps.remove(first)
                reps.insert(0, first)
        return reps

    def lead(leader: int, broken: bool, taken: int, alpha: float, beta: float) -> float:
        h0 = hands[leader]
        if not h0 & (h0 - 1):
            # Last trick: every card is forced, so score it directly.
            c = h0.bit_length() - 1
            led = c // 13
            wseat, wkey = leader, (100 + c % 13 if led == 3 else c % 13)
            for i in range(1, n):
                s = (leader + i) % n
                x = hands[s].bit_length() - 1
                xs = x // 13
                k = 100 + x % 13 if xs == 3 else (x % 13 if xs == led else -1)
                if k > wkey:
                    wseat, wkey = s, k
            counter[0] += 1
            return util(taken + (1 << shifts[wseat]))
        key = (*hands, leader, taken)
        e = tt.get(key)
        best_move = -1
        if e is not None:
            lo, hi, best_move = e
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        else:
            lo, hi = -INF, INF
        v, mv = node(leader, 0, -1, leader, -1, 0, broken, taken, alpha, beta, best_move)
        if v <= alpha:
            hi = v if v < hi else hi
        elif v >= beta:
            lo = v if v > lo else lo
        else:
            lo = hi = v
        tt[key] = (lo, hi, mv)
        return v

    def node(turn: int, nplayed: int, led: int, wseat: int, wkey: int, tmask: int,
             broken: bool, taken: int, alpha: float, beta: float, first: int) -> tuple[float, int]:
        counter[0] += 1
        if deadline is not None and not counter[0] & 511 and expired(deadline):
            raise SearchTimeout()
        h = hands[turn]
        if led < 0:
            legal = h if broken else (h & NS or h)
        else:
            legal = h & S[led] or h
        maximize = maxing[turn]
        if by_reply[turn]:
            reps = [modelled_card(turn, nplayed, legal, wseat, wkey, taken)]
        else:
            alive = tmask
            for x in hands:
                alive |= x
            reps = ordered(turn, legal, alive, led, wseat, wkey, first)
        best = -INF if maximize else INF
        best_c = reps[0]
        nxt = turn + 1
        if nxt == n:
            nxt = 0
        last = nplayed + 1 == n
        for c in reps:
            s = c // 13
            r = c % 13
            if nplayed == 0:
                nled = s
                nwseat = turn
                nwkey = 100 + r if s == 3 else r
            else:
                nled = led
                k = 100 + r if s == 3 else (r if s == led else -1)
                if k > wkey:
                    nwseat, nwkey = turn, k
                else:
                    nwseat, nwkey = wseat, wkey
            nbroken = broken or s == 3
            hands[turn] = h ^ (1 << c)
            if reply is not None:
                line.append((turn, c))
            if last:
                t2 = taken + (1 << shifts[nwseat])
                if hands[nwseat]:
                    v = lead(nwseat, nbroken, t2, alpha, beta)
                else:
                    v = util(t2)
            else:
                v = node(nxt, nplayed + 1, nled, nwseat, nwkey, tmask | (1 << c), nbroken,
                         taken, alpha, beta, -1)[0]
            hands[turn] = h
            if reply is not None:
                line.pop()
            if maximize:
                if v > best:
                    best, best_c = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            else:
                if v < best:
                    best, best_c = v, c
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        return best, best_c

    # Root: replay the trick in progress into (led, winner) form, then value each card
    # with a full window (the averaging over samples needs exact values, not a best move).
    turn = pos.to_move
    led, wseat, wkey, tmask = -1, pos.leader, -1, 0
    for seat, card in pos.trick:
        s, r = card // 13, card % 13
        k = 100 + r if s == 3 else (r if s == led or led < 0 else -1)
        if led < 0:
            led = s
        if k > wkey:
            wseat, wkey = seat, k
        tmask |= 1 << card
    nplayed = len(pos.trick)
    h = hands[turn]
    if led < 0:
        legal = h if pos.broken else (h & NON_SPADE_MASK or h)
    else:
        legal = h & SUIT_MASKS[led] or h
    if moves is None:
        cands = []
        m = legal
        while m:
            low = m & -m
            cands.append(low.bit_length() - 1)
            m ^= low
    else:
        cands = [c for c in moves if legal >> c & 1]
    alive = tmask
    for x in hands:
        alive |= x
    # Equivalent root cards share one search.
    reps = ordered(turn, legal, alive, led, wseat, wkey, -1)
    rep_of: dict[int, int] = {}
    for c in cands:
        r = c
        while r not in reps:
            r -= 1  # the representative is the lowest card of c's run
        rep_of[c] = r
    out_rep: dict[int, float] = {}
    nxt = (turn + 1) % n
    for c in sorted(set(rep_of.values()), key=reps.index):
        s, r = c // 13, c % 13
        if nplayed == 0:
            nled, nwseat, nwkey = s, turn, (100 + r if s == 3 else r)
        else:
            k = 100 + r if s == 3 else (r if s == led else -1)
            nled = led
            nwseat, nwkey = (turn, k) if k > wkey else (wseat, wkey)
        nbroken = pos.broken or s == 3
        hands[turn] = h ^ (1 << c)
        line[:] = [*pos.trick, (turn, c)]
        if nplayed + 1 == n:
            t2 = 1 << shifts[nwseat]
            v = lead(nwseat, nbroken, t2, -INF, INF) if hands[nwseat] else util(t2)
        else:
            v = node(nxt, nplayed + 1, nled, nwseat, nwkey, tmask | (1 << c), nbroken, 0,
                     -INF, INF, -1)[0]
        hands[turn] = h
        out_rep[c] = v
    if stats is not None:
        stats.nodes += counter[0]
        stats.tt_entries += len(tt)
    return {c: out_rep[rep_of[c]] for c in cands}
