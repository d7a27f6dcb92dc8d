"""The per-seat view: the only door through which hidden information leaves the engine.

Everything a bot is told, the ``state`` of every request and the contents of
every event, is built from :func:`seat_view` or from engine events addressed
to that seat. A seat sees its own cards (once it has looked at them), the
cards it saw in the two-player draw and in exchanges, and what is public:
bids, plays, tricks, scores and bags. Nothing else.
"""

from __future__ import annotations

from typing import Any

from referee.game.cards import CARD_NAMES, names_of, suit_cards
from referee.game.engine import Phase, State
from referee.game.rules import Variant


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


# --------------------------------------------------------------------------- the view as JSON text
#
# The referee sends a ``state`` with every request, thousands of times per
# match; building the dict above and handing it to ``json.dumps`` was the
# largest part of the referee's own work per decision. The functions below
# write the very same JSON text (compact separators, the same key order,
# byte for byte what ``json.dumps(seat_view(...), separators=(",", ":"))``
# gives; tests/test_protocol_fast.py checks that on whole matches of both
# variants) straight from the state, out of fragments computed once: a quoted
# card name, a ``[seat,"card"]`` pair, the cards of one suit pattern. Every
# value written here is an int, a bool, None or one of those ASCII fragments,
# so the text never needs escaping and is pure ASCII.

_QUOTED = tuple(f'"{name}"' for name in CARD_NAMES)
#: ``PAIRS[seat][card]`` is the JSON text ``[seat,"card"]``.
PAIRS: tuple[tuple[str, ...], ...] = tuple(tuple(f'[{seat},"{name}"]' for name in CARD_NAMES) for seat in range(4))
# Per suit: 13-bit rank pattern -> '"2C","9C"', filled on first use (at most
# 4 x 8192 short strings; a match touches a few hundred).
_SUIT_TEXT: tuple[dict[int, str], ...] = ({}, {}, {}, {})
_BOOL = ("false", "true")


def _suit_text(suit: int, pattern: int) -> str:
    text = ",".join([_QUOTED[c] for c in suit_cards(suit, pattern)])
    _SUIT_TEXT[suit][pattern] = text  # racing threads store the same value
    return text


def cards_json(mask: int) -> str:
    """``json.dumps(names_of(mask))`` (compact): the sorted card names of ``mask``."""
    if not mask:
        return "[]"
    t0, t1, t2, t3 = _SUIT_TEXT
    parts = []
    p = mask & 0x1FFF
    if p:
        parts.append(t0.get(p) or _suit_text(0, p))
    p = mask >> 13 & 0x1FFF
    if p:
        parts.append(t1.get(p) or _suit_text(1, p))
    p = mask >> 26 & 0x1FFF
    if p:
        parts.append(t2.get(p) or _suit_text(2, p))
    p = mask >> 39
    if p:
        parts.append(t3.get(p) or _suit_text(3, p))
    return "[" + ",".join(parts) + "]"


def pairs_text(plays: tuple[tuple[int, int], ...]) -> str:
    """The inside (no brackets) of the JSON list of ``[seat,"card"]`` pairs of ``plays``."""
    return ",".join([PAIRS[seat][card] for seat, card in plays])


def scalar_json(value: Any) -> str:
    """``json.dumps(value)`` for the scalars of a view: int, bool or None."""
    cls = value.__class__
    if cls is int:
        return int.__repr__(value)
    if cls is bool:
        return _BOOL[value]
    if value is None:
        return "null"
    raise TypeError(f"not a JSON scalar of the view: {value!r}")


def scalars_json(values: tuple[Any, ...]) -> str:
    """``json.dumps(list(values))`` (compact) for a tuple of ints, bools or None."""
    return "[" + ",".join([scalar_json(v) for v in values]) + "]"


_PHASE_TEXT = {phase: phase.value for phase in Phase}  # Enum.value is a slow descriptor
_VARIANT_TEXT = {variant: variant.value for variant in Variant}
_STATE_FORMAT = '{"hand_no":%d,"seat":%d,"phase":"%s","hand":%s,%s"trick":[%s],"leader":%d,"spades_broken":%s,"played":[%s],%s"turn":%s,"%s":%s,"received":%s%s}'


class ViewEncoder:
    """Writes :func:`seat_view` as JSON text, fast; one per match (it caches).

    Most parts of a view stay the very same objects from one state to the
    next (the engine shares unchanged tuples), so their text is kept for as
    long as the objects are the same: the cards of the completed tricks (the
    longest part, changed once per trick), the bids, blind flags and tricks
    of the hand, the score and bags. Identity, not equality, decides, so a
    cached text is always exact. Not thread-safe: give each match its own
    encoder.

    Ints are written with ``%d``: the engine keeps hand numbers, seats and
    counts as plain ints (bools only where the protocol has booleans), which
    tests/test_protocol_fast.py pins down by comparing with ``json.dumps``.
    """

    __slots__ = ("_done", "_done_text", "_hand_key", "_hand_text", "_match_key", "_match_text")

    def __init__(self) -> None:
        self._done: tuple = ()
        self._done_text = ""
        self._hand_key: tuple = ()
        self._hand_text = ""
        self._match_key: tuple = ()
        self._match_text = ""

    def state_json(self, st: State, seat: int, time_json: str | None = None) -> str:
        """The compact JSON of ``seat_view(st, seat)``, plus ``"time"`` (given as
        JSON text) as its last field when ``time_json`` is not None."""
        variant = st.variant
        two = variant is Variant.TWO_PLAYER
        # "dealer", "bids", "blind", "tricks": change a few times per hand.
        key = variant, st.dealer, st.bids, st.blind, st.tricks
        old = self._hand_key
        if (len(old) != 5 or old[0] is not variant or old[1] != key[1] or old[2] is not key[2]
                or old[3] is not key[3] or old[4] is not key[4]):
            self._hand_key = key
            self._hand_text = '"%s":%d,"bids":%s,"blind":%s,"tricks":%s,' % (
                "first" if two else "dealer", key[1], scalars_json(key[2]), scalars_json(key[3]),
                scalars_json(key[4]))
        # "score", "bags", "variant": change once per hand.
        score, bags = st.score, st.bags
        old = self._match_key
        if len(old) != 3 or old[0] is not variant or old[1] is not score or old[2] is not bags:
            self._match_key = variant, score, bags
            self._match_text = '"score":%s,"bags":%s,"variant":"%s",' % (
                scalars_json(score), scalars_json(bags), _VARIANT_TEXT[variant])
        # "played": the completed tricks' text changes once per trick.
        done, trick = st.done, st.trick
        if done is not self._done:
            self._done_text = ",".join([pairs_text(t) for t in done if t])
            self._done = done
        trick_text = pairs_text(trick) if trick else ""
        played = self._done_text
        if trick_text:
            played = played + "," + trick_text if played else trick_text
        hand = st.hands[seat] if st.looked[seat] else 0
        seen = st.discarded[seat] if two else st.passed[seat]
        received = st.received[seat]
        return _STATE_FORMAT % (
            st.hand_no, seat, _PHASE_TEXT[st.phase], cards_json(hand) if hand else "[]",
            self._hand_text, trick_text, st.leader, _BOOL[st.spades_broken], played, self._match_text,
            "null" if st.over else scalar_json(st.turn),
            "discards" if two else "passed", cards_json(seen) if seen else "[]",
            cards_json(received) if received else "[]",
            "" if time_json is None else ',"time":' + time_json,
        )


def known_cards(st: State, seat: int) -> int:
    """Mask of every card ``seat`` has legitimately seen (for leak tests and bots' reasoning)."""
    mask = st.hands[seat] if st.looked[seat] else 0
    mask |= st.discarded[seat] | st.passed[seat] | st.received[seat]
    for _, card in st.played:  # the completed tricks and the trick in progress
        mask |= 1 << card
    if st.phase is Phase.KEEP and st.turn == seat:
        mask |= 1 << st.deal.cards[st.stock]
    return mask
