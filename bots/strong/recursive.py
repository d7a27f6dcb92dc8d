"""Endgame values without the solver's omniscience at the next decisions (a setting).

An exact solve of one sampled deal plays every seat as if it saw every card. Averaging
such solves over samples values a card as if this seat, at its next turn, would know the
deal ("strategy fusion"), and as if its partner always knew where to play. This module
values a candidate card in one sampled deal by playing on from it until this seat's
next turn, and making that turn (and, optionally, the partner's next turn before it) the
way the bot really would: a fresh determinized search from that seat's own view of the
cards played so far. The seats named (``seats``: this seat only, its pair, or every
seat) make their turns before it the same way; the others keep the solver's best reply.
The deal is then solved exactly from the card chosen, so the value still counts every
later trick.

It is a level-one recursive search: each inner decision samples its own deals and solves
them, so it costs about ``inner samples`` solves per candidate and sampled deal, and is a
setting for measurement (:data:`bots.strong.search.SearchConfig.recursive`), not the
shipped play.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

from .cards import trick_winner
from .game import side_of
from .policy import winning
from .solver import Position, Reply, solve
from .view import View

#: ``inner(view, legal)``: the card the seat of ``view`` would play from ``legal``.
InnerDecision = Callable[[View, int], int]

#: Which seats make their turns from their own view before this seat's next turn.
SEATS = ("self", "pair", "all")


def advance(view: View, seat: int, card: int) -> View:
    """``view`` after ``seat`` played ``card`` (the trick is closed when it is full)."""
    v = dataclasses.replace(view, played=view.played + [(seat, card)],
                            trick=view.trick + [(seat, card)], tricks=list(view.tricks))
    if seat == view.seat:
        v.hand = view.hand & ~(1 << card)
    if card // 13 == 3:
        v.broken = True
    if len(v.trick) == view.n:
        winner = trick_winner(v.trick)
        v.tricks[winner] += 1
        v.leader = winner
        v.trick = []
    return v


def seat_view(view: View, seat: int, hand: int) -> View:
    """The view ``seat`` has of the same table, holding ``hand`` (this seat's estimate:
    what another seat passed or received in an exchange is not known here and is left
    out, and it reads the bids by this seat's record of their styles)."""
    return dataclasses.replace(view, seat=seat, hand=hand, passed=0, passed_to=None, received=0,
                               received_from=None)


def recursive_values(view: View, hands: Sequence[int], cands: list[int],
                     value: Callable[[tuple[int, ...]], float], slots: Sequence[int],
                     inner: InnerDecision, seats: str = "self", reply: Reply | None = None,
                     modelled: Sequence[int] | None = None) -> dict[int, float]:
    """The value of each of ``cands`` (cards of ``view.seat``) in the deal ``hands``.

    After the candidate, the other seats named by ``seats`` (see :data:`SEATS`) play
    ``inner``'s card from their own view and the rest the solver's best reply in this
    deal; at this seat's next turn ``inner`` chooses from this seat's view; the deal is
    then solved exactly. A hand that ends first is scored as it ended.

    With ``reply`` (the search's model of other seats, :func:`solver.solve`'s
    ``reply``/``modelled``: by default the other side's seats) the modelled seats play
    the model's card at every turn, here and in the final solve; the model is this
    search's belief about those seats, so it goes before ``seats``."""
    if seats not in SEATS:
        raise ValueError(f"seats must be one of {', '.join(SEATS)}; got: {seats!r}")
    me, n = view.seat, view.n
    my_side = side_of(me, n)
    by_model: set[int] = set()
    if reply is not None:
        by_model = set(modelled) if modelled is not None else {s for s in range(n) if side_of(s, n) != my_side}
    out: dict[int, float] = {}
    for c in cands:
        hs = list(hands)
        hs[me] ^= 1 << c
        v = advance(view, me, c)
        while True:
            mover = v.to_move
            if not hs[mover]:
                out[c] = value(tuple(v.tricks))
                break
            legal = v.legal_from(hs[mover])
            pos = Position(list(hs), list(v.trick), v.leader, v.broken, list(v.tricks))
            if mover == me:
                card = inner(dataclasses.replace(v, hand=hs[me]), legal)
                out[c] = solve(pos, value, my_side, moves=[card], slots=slots, reply=reply,
                               modelled=modelled)[card]
                break
            if mover in by_model:
                assert reply is not None
                wseat, wkey = winning(v.trick)
                card = reply(mover, hs[mover], legal, list(v.trick), wseat, wkey, list(hs), list(v.tricks))
            elif seats == "all" or (seats == "pair" and mover == view.partner):
                card = inner(seat_view(v, mover, hs[mover]), legal)
            else:
                vals = solve(pos, value, my_side, slots=slots, reply=reply, modelled=modelled)
                mine = side_of(mover, n) == my_side
                best = max(vals.values()) if mine else min(vals.values())
                card = min(x for x, y in vals.items() if y == best)
            hs[mover] ^= 1 << card
            v = advance(v, mover, card)
    return out
