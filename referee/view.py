"""The per-seat view: the only door through which hidden information leaves the engine.

Everything a bot is told, the ``state`` of every request and the contents of
every event, is built from :func:`seat_view` or from engine events addressed
to that seat. A seat sees its own cards (once it has looked at them), the
cards it saw in the two-player draw and in exchanges, and what is public:
bids, plays, tricks, scores and bags. Nothing else.
"""

from __future__ import annotations

from typing import Any

from .cards import CARD_NAMES, names_of
from .engine import Phase, State
from .rules import Variant


def _pairs(plays: tuple[tuple[int, int], ...]) -> list[list[Any]]:
    return [[seat, CARD_NAMES[card]] for seat, card in plays]


def seat_view(st: State, seat: int) -> dict[str, Any]:
    """What ``seat`` may know now, in the protocol's ``state`` shape (card names).

    Fields of protocol v1 plus a few the protocol allows as extensions
    (unknown fields are ignored by bots): ``variant``, ``turn`` (the seat to
    act), ``discards`` (two-player: the cards this seat put on the discard
    pile, which it saw), ``passed`` and ``received`` (exchanged cards).
    """
    two = st.variant is Variant.TWO_PLAYER
    view: dict[str, Any] = {
        "hand_no": st.hand_no,
        "seat": seat,
        "phase": st.phase.value,
        "hand": names_of(st.hands[seat]) if st.looked[seat] else [],
        ("first" if two else "dealer"): st.dealer,
        "bids": list(st.bids),
        "blind": list(st.blind),
        "tricks": list(st.tricks),
        "trick": _pairs(st.trick),
        "leader": st.leader,
        "spades_broken": st.spades_broken,
        "played": _pairs(st.played),
        "score": list(st.score),
        "bags": list(st.bags),
        "variant": st.variant.value,
        "turn": None if st.over else st.turn,
    }
    if two:
        view["discards"] = names_of(st.discarded[seat])
    else:
        view["passed"] = names_of(st.passed[seat])
    view["received"] = names_of(st.received[seat])
    return view


def known_cards(st: State, seat: int) -> int:
    """Mask of every card ``seat`` has legitimately seen (for leak tests and bots' reasoning)."""
    mask = st.hands[seat] if st.looked[seat] else 0
    mask |= st.discarded[seat] | st.passed[seat] | st.received[seat]
    for _, card in st.played:
        mask |= 1 << card
    for trick in st.done:
        for _, card in trick:
            mask |= 1 << card
    if st.phase is Phase.KEEP and st.turn == seat:
        mask |= 1 << st.deal.cards[st.stock]
    return mask
