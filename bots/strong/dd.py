"""Double-dummy values of the candidate cards in one sampled deal (a bench setting).

Before the exact endgame the search values a card by one playout of the rule-based
policy. This module values it instead by Bo Haglund's double-dummy solver (DDS,
:mod:`bots.strong.dds`): every seat plays the rest of the hand perfectly, seeing the
sampled deal, as the endgame's exact solve does, but from any hand size and at C speed
(about 50 ms from a full partnership deal, 3 ms from 10 cards, against minutes from a
full deal for ``solver.py``).

DDS maximises one side's tricks; it knows neither Nil nor the rule that spades may not
be led before they are broken. So it is used only where the score depends on each
side's trick total alone (no Nil bid at the table), and the lead rule is left out of
the lines it searches (the candidate cards themselves are legal).
"""

from __future__ import annotations

from typing import Sequence

from . import dds
from .game import Objective
from .timing import Deadline
from .view import View

#: Hand sizes (cards in this seat's hand) valued by DDS instead of playouts, up to this
#: many (0: never, as shipped). Sizes the exact endgame covers keep the exact solve.
DD_CARDS = 0
#: Sampled deals a decision valued by DDS takes at most (None: the budget's count). A
#: solve from 13 cards costs about 50 ms, so the first tricks afford fewer than playouts.
DD_SAMPLES: int | None = None
#: CPU seconds a decision valued by DDS may spend at most (None: the budget's deadline);
#: a solve cannot be interrupted, so the cap is checked between samples.
DD_CPU_S: float | None = None


def available() -> bool:
    """Whether DDS can be used on this machine (``endplay``'s library installed)."""
    return dds.library() is not None


def applies(view: View, bids: Sequence[int]) -> bool:
    """Whether this decision may be valued by DDS: partnership, no Nil, a size in range."""
    return (DD_CARDS > 0 and view.n == 4 and view.hand.bit_count() <= DD_CARDS
            and all(b != 0 for b in bids) and available())


def limits(target: int, deadline: Deadline | float | None) -> tuple[int, Deadline | float | None]:
    """A DDS decision's sample count and deadline: the search's, cut by
    :data:`DD_SAMPLES` and :data:`DD_CPU_S` where those are set."""
    if DD_SAMPLES:
        target = min(target, DD_SAMPLES)
    if DD_CPU_S is not None:
        if not isinstance(deadline, Deadline):  # none, or a bare time.perf_counter() value
            deadline = Deadline(float("inf") if deadline is None else deadline)
        deadline = deadline.sooner(DD_CPU_S)
    return target, deadline


def dd_values(view: View, hands: Sequence[int], cands: list[int], obj: Objective) -> dict[int, float] | None:
    """Each candidate's value (``obj``) when every seat plays on double dummy in ``hands``
    (the sampled deal's hands now, the trick's cards already played); None if DDS
    refused the position (the caller values this sample by playouts instead: a solver
    error must not end the bot).

    The side to move's tricks go to this seat, the rest to the next seat: without a Nil
    the objective depends on each side's total alone (``Objective.slots``)."""
    try:
        tricks_of = dds.solve(hands, view.trick, view.leader)
    except dds.DDSError:
        return None
    if any(c not in tricks_of for c in cands):
        return None
    left = view.hand.bit_count()  # tricks still to be won, this one included
    me, nxt = view.seat, (view.seat + 1) % 4
    out = {}
    for c in cands:
        final = list(view.tricks)
        final[me] += tricks_of[c]
        final[nxt] += left - tricks_of[c]
        out[c] = obj.value(final)
    return out
