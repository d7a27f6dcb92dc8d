"""A seat's view of the hand, parsed from a request's ``state`` plus what the bot
remembers from events (its draw, its exchanges).

Everything downstream (sampler, search, bidding) works on :class:`View`, never on raw
JSON, so a malformed or missing optional field degrades to "unknown" instead of a crash.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from .bidstyle import BidStyle
from .cards import CardError, legal_mask, mask_of, parse_card, trick_winner


@dataclasses.dataclass
class View:
    """What one seat knows at a decision."""

    n: int
    seat: int
    hand: int = 0
    hand_no: int = 1
    phase: str = ""
    bids: list[int | None] = dataclasses.field(default_factory=list)
    blind: list[bool] = dataclasses.field(default_factory=list)
    tricks: list[int] = dataclasses.field(default_factory=list)
    trick: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    leader: int = 0
    broken: bool = False
    played: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    score: tuple[int, int] = (0, 0)
    bags: tuple[int, int] = (0, 0)
    dealer: int | None = None
    first: int | None = None
    discards: int = 0  # two-player: cards this seat discarded (seen, held by nobody)
    passed: int = 0  # cards this seat passed in an exchange
    passed_to: int | None = None
    received: int = 0  # cards this seat received in an exchange
    received_from: int | str | None = None
    # Per seat, how it bids relative to the hand model, learned this match (empty: the
    # prior for every seat; see bidstyle.py).
    bid_styles: list[BidStyle] = dataclasses.field(default_factory=list)

    @property
    def partner(self) -> int | None:
        return (self.seat + 2) % 4 if self.n == 4 else None

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def played_mask(self) -> int:
        return mask_of(c for _, c in self.played)

    def legal_from(self, hand: int) -> int:
        """The cards of ``hand`` the rules allow at this point of the trick (a mask)."""
        led = self.trick[0][1] // 13 if self.trick else -1
        return legal_mask(hand, led, self.broken)

    def cards_left(self, seat: int) -> int:
        """Cards ``seat`` still holds (13 minus what it has played)."""
        return 13 - sum(1 for s, _ in self.played if s == seat)


def _int(x: Any, default: int) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) else default


def _cards(x: Any) -> list[int]:
    out = []
    if isinstance(x, Mapping):  # tolerate {"cards": [...], ...} forms of exchange fields
        x = x.get("cards")
    if isinstance(x, list):
        for t in x:
            try:
                out.append(parse_card(t))
            except CardError:
                pass
    return out


def _pairs(x: Any) -> list[tuple[int, int]]:
    out = []
    if isinstance(x, list):
        for item in x:
            if isinstance(item, (list, tuple)) and len(item) == 2:
                try:
                    out.append((int(item[0]), parse_card(item[1])))
                except (CardError, TypeError, ValueError):
                    pass
    return out


def parse_view(state: Mapping[str, Any], n: int, seat: int) -> View:
    """Build a :class:`View` from a request ``state`` (unknown fields are ignored)."""
    v = View(n=n, seat=_int(state.get("seat"), seat))
    v.hand = mask_of(_cards(state.get("hand")))
    v.hand_no = _int(state.get("hand_no"), 1)
    v.phase = str(state.get("phase", ""))
    bids = state.get("bids")
    v.bids = [b if isinstance(b, int) and not isinstance(b, bool) else None for b in bids] \
        if isinstance(bids, list) and len(bids) == n else [None] * n
    blind = state.get("blind")
    v.blind = [bool(b) for b in blind] if isinstance(blind, list) and len(blind) == n else [False] * n
    v.played = _pairs(state.get("played"))
    v.trick = _pairs(state.get("trick"))
    tricks = state.get("tricks")
    if isinstance(tricks, list) and len(tricks) == n:
        v.tricks = [_int(t, 0) for t in tricks]
    else:
        v.tricks = [0] * n
        full = len(v.played) - len(v.played) % n
        for i in range(0, full, n):
            v.tricks[trick_winner(v.played[i:i + n])] += 1
    v.leader = _int(state.get("leader"), v.trick[0][0] if v.trick else 0)
    if v.trick:
        v.leader = v.trick[0][0]
    broken = state.get("spades_broken")
    v.broken = bool(broken) if isinstance(broken, bool) else any(c // 13 == 3 for _, c in v.played)
    for name in ("score", "bags"):
        x = state.get(name)
        if isinstance(x, list) and len(x) == 2:
            setattr(v, name, (_int(x[0], 0), _int(x[1], 0)))
    if "dealer" in state:
        v.dealer = _int(state.get("dealer"), 0)
    if "first" in state:
        v.first = _int(state.get("first"), 0)
    v.discards = mask_of(_cards(state.get("discards")))
    v.passed = mask_of(_cards(state.get("passed")))
    v.received = mask_of(_cards(state.get("received")))
    return v
